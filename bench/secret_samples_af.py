"""Labelled test set AF for a memory secret detector: legal-tech startup + mid-size law firm IT.

Theme
-----
Short texts ("memories") that an AI coding agent keeps while building a legal-tech product
(Clio / PracticePanther / NetDocuments / iManage / DocuSign / Adobe Sign integrations, Relativity,
Everlaw, PACER and court e-filing, Westlaw / Lexis, Ironclad, Contractbook, LLM vendors, vector
stores, Postgres / Redis / Elastic, Auth0 / WorkOS / Okta, Stripe, Vercel / Render / Fly.io /
Supabase / Cloudflare R2, Datadog / Sentry / PostHog / Linear, GitHub Apps) and while running the IT
of a mid-size law firm (Microsoft 365 / Entra, Mimecast, Proofpoint, Citrix, Fortinet, Palo Alto,
Duo, KeePass, Worldox, ShareFile, Zoom, RingCentral, printers, scanners, door access, CCTV NVRs).
Styles: about half prose (notes, lessons, runbooks, TODOs, tickets, emails, chat; some Italian,
German, French, Japanese, Hebrew, Afrikaans, Greek), a quarter config files, a quarter tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text`` and
  the only credential in it. Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all; ``len(_LOOK) * LOOK_PER_GEN`` of them, each
  generator in ``_LOOK`` called until it yields ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (one ``random.Random`` seeded from ``seed``); no duplicate texts overall.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: only the
  password (for Azure storage connection strings: the AccountKey). Pre-signed URLs: the signature.
* PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line.
* UUID-shaped vendor values are secrets only when the text names them as a secret/key/token
  (e.g. a DocuSign secret key); a DocuSign integration key (OAuth client id) is a look-alike.
* Public-by-design values are look-alikes: publishable keys, anon keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys, search-only keys, public keys and certificates. Vendor
  documentation examples, encrypted blobs (Ansible vault, sops ENC[...]) and password hashes are
  look-alikes. Bare AWS access key ids are left out entirely.
* No token-shaped literal lives in this source: prefixes are split and bodies are random.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string

LOOK_PER_GEN = 12
PER_KIND = 30

AN = string.ascii_letters + string.digits
LOW = string.ascii_lowercase
UP = string.ascii_uppercase
HEX = "0123456789abcdef"
B64U = AN + "-_"


def rs(r: random.Random, n: int, alpha: str = AN) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def rbytes(r: random.Random, n: int) -> bytes:
    return bytes(r.getrandbits(8) for _ in range(n))


def uuid4(r: random.Random) -> str:
    h = rs(r, 32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


# ---------------------------------------------------------------------------- context pools
PEOPLE = [
    "Priya",
    "Tom",
    "Giulia",
    "Jonas",
    "Camille",
    "Yuki",
    "Noa",
    "Pieter",
    "Eleni",
    "Marcus",
    "Aisha",
    "Dan",
    "Sofia",
    "Liam",
    "Hannah",
    "Ravi",
    "Chloe",
    "Matteo",
    "Ingrid",
    "Obi",
]
SURN = [
    "Okafor",
    "Lindqvist",
    "Rossi",
    "Brandt",
    "Dubois",
    "Tanaka",
    "Levi",
    "van Wyk",
    "Papadakis",
    "Kerr",
    "Ashdown",
    "Mehta",
    "Reed",
    "Castellan",
]
FIRMS = [
    "Harrow Vale",
    "Castellan Reed",
    "Okafor Lindqvist",
    "Beaumont Kerr",
    "Marlow Ashdown",
    "Penrose Stein",
    "Albright Nakamura",
]
APPS = [
    "intake-api",
    "clause-search",
    "matter-sync",
    "docket-bot",
    "redline-worker",
    "billing-bridge",
    "esign-relay",
    "conflict-check",
    "brief-drafter",
    "ediscovery-loader",
]
USERS = [
    "svc_sync",
    "it-admin",
    "admin",
    "svc-scan",
    "jdoe",
    "m.rossi",
    "helpdesk",
    "svc_backup",
    "integration",
    "deploy",
]
WORDS = [
    "tulip",
    "rover",
    "granite",
    "falcon",
    "maple",
    "harbor",
    "velvet",
    "copper",
    "lantern",
    "orchid",
    "tiger",
    "comet",
    "saffron",
    "willow",
    "atlas",
    "pebble",
    "juniper",
    "cobalt",
    "meadow",
    "quartz",
    "anchor",
    "biscuit",
    "cactus",
    "dolphin",
    "ember",
    "fjord",
    "gazelle",
]
LEGALW = [
    "Brief",
    "Docket",
    "Tort",
    "Escrow",
    "Affidavit",
    "Counsel",
    "Verdict",
    "Subpoena",
    "Statute",
    "Clause",
]
SEASONS = ["Summer", "Winter", "Autumn", "Spring"]
MONTHS = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
]


def person(r):
    return r.choice(PEOPLE)


def date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def hhmm(r):
    return f"{r.randint(7, 19):02d}:{r.randint(0, 59):02d}"


def ts(r):
    return f"{date(r)}T{hhmm(r)}:{r.randint(0, 59):02d}Z"


def pw(r: random.Random, safe: bool = False) -> str:
    sym = "!*-_.~" if safe else "!#%*-_.+=@?^"
    s = r.randrange(6)
    if s == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice(sym)}{r.randint(0, 99)}"
    if s == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if s == 2:
        return rs(r, 3, UP) + rs(r, r.randint(13, 20), AN + sym) + r.choice(sym) + rs(r, 1, "0123456789")
    if s == 3:
        sep = r.choice("-.")
        return sep.join(r.choice(WORDS) for _ in range(4)) + str(r.randint(1, 9))
    if s == 4:
        return f"{r.choice(LEGALW)}{r.choice(sym)}{r.randint(2018, 2027)}{rs(r, 2, UP)}"
    return f"{person(r)}{r.randint(10, 99)}{r.choice(sym)}{r.choice(WORDS).capitalize()}{r.randint(0, 9)}"


def passphrase(r):
    return r.choice("-._").join(r.choice(WORDS) for _ in range(r.randint(4, 5))) + str(r.randint(10, 99))


def jwt(r, header: dict, payload: dict, siglen: int = 43) -> str:
    h = b64u(json.dumps(header, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{h}.{p}.{rs(r, siglen, B64U)}"


def wrap(s: str, n: int) -> str:
    return "\n".join(s[i : i + n] for i in range(0, len(s), n))


def pem_rsa(r) -> str:
    der = bytes([0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00]) + rbytes(r, 1180)
    lab = "RSA " + "PRIV" + "ATE"
    return "-----" + "BEGIN " + lab + " KEY-----\n" + wrap(b64(der), 64) + "\n-----END " + lab + " KEY-----"


def pem_pkcs8(r) -> str:
    der = bytes([0x30, 0x82, 0x04, 0xBE, 0x02, 0x01, 0x00, 0x30, 0x0D, 0x06, 0x09]) + rbytes(r, 1200)
    lab = "PRIV" + "ATE"
    return "-----" + "BEGIN " + lab + " KEY-----\n" + wrap(b64(der), 64) + "\n-----END " + lab + " KEY-----"


def pem_openssh(r) -> str:
    raw = b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none\x00\x00\x00\x04none" + rbytes(r, 360)
    lab = "OPEN" + "SSH PRIV" + "ATE"
    return "-----" + "BEGIN " + lab + " KEY-----\n" + wrap(b64(raw), 70) + "\n-----END " + lab + " KEY-----"


# ---------------------------------------------------------------------------- secret values
# Each value function returns (display, secret): display is what goes into the text.
def same(f):
    def g(r):
        v = f(r)
        return v, v

    return g


def v_openai(r):
    if r.random() < 0.7:
        return "sk-" + "proj-" + rs(r, 74, B64U) + "T3Blbk" + "FJ" + rs(r, 74, B64U)
    return "sk-" + rs(r, 20) + "T3Blbk" + "FJ" + rs(r, 20)


def v_anthropic(r):
    return "sk-" + "ant-" + "api03-" + rs(r, 93, B64U) + "AA"


def v_pinecone(r):
    return "pc" + "sk_" + rs(r, 5) + "_" + rs(r, 63)


def v_elastic_api(r):
    return b64((rs(r, 20, B64U) + ":" + rs(r, 22, B64U)).encode())


def v_workos(r):
    body = b64(("key_01" + rs(r, 24, UP + "0123456789") + "," + rs(r, 24)).encode()).rstrip("=")
    return "sk_" + r.choice(["live_", "test_"]) + body


def v_okta(r):
    return "00" + rs(r, 40, B64U)


def v_stripe(r):
    if r.random() < 0.6:
        return "sk_" + "live_" + "51" + rs(r, 97)
    return r.choice(["sk_", "rk_"]) + "live_" + rs(r, 24)


def v_supabase_sr(r):
    iat = r.randint(1690000000, 1760000000)
    return jwt(
        r,
        {"alg": "HS256", "typ": "JWT"},
        {
            "iss": "supabase",
            "ref": rs(r, 20, LOW),
            "role": "service_role",
            "iat": iat,
            "exp": iat + 315360000,
        },
    )


def v_auth0_mgmt(r):
    iat = r.randint(1760000000, 1790000000)
    ten = r.choice(FIRMS).split()[0].lower()
    return jwt(
        r,
        {"alg": "RS256", "typ": "JWT", "kid": rs(r, 22, B64U)},
        {
            "iss": f"https://{ten}-legal.eu.auth0.com/",
            "sub": rs(r, 32) + "@clients",
            "aud": f"https://{ten}-legal.eu.auth0.com/api/v2/",
            "iat": iat,
            "exp": iat + 86400,
            "scope": "read:users update:users create:users",
            "gty": "client-credentials",
        },
        342,
    )


def v_ringcentral(r):
    iat = r.randint(1760000000, 1790000000)
    return jwt(
        r,
        {"kid": rs(r, 20, HEX), "alg": "RS256"},
        {
            "aud": "https://platform.ringcentral.com/restapi/oauth/token",
            "sub": str(r.randint(10**9, 10**10)),
            "iss": "https://platform.ringcentral.com",
            "exp": 3900000000,
            "iat": iat,
            "jti": rs(r, 22, B64U),
        },
        342,
    )


def v_github_pat(r):
    if r.random() < 0.5:
        return "gh" + "p_" + rs(r, 36)
    return "github" + "_pat_" + "11" + rs(r, 20, UP + "0123456789") + "_" + rs(r, 59)


def v_entra(r):
    return rs(r, 3) + r.choice("0123456789") + "Q~" + rs(r, 34, AN + "_.~-")


def v_panos(r):
    return "LUFR" + "PT" + b64(rbytes(r, 72))


def v_adobe_sign(r):
    return "3AAA" + "BLblqZh" + rs(r, 1, "ABCD") + rs(r, 86, AN + "-*")


def v_citrix(r):
    return rs(r, 22) + "=="


def v_pg(r):
    p = pw(r, True)
    host = r.choice(
        [
            f"db.{rs(r, 20, LOW)}.supabase.co",
            "pg-matters.internal",
            f"matters-prod.c{rs(r, 10, LOW + '0123456789')}.eu-west-2.rds.amazonaws.com",
            "10.20.4.15",
            f"{r.choice(APPS)}-db.flycast",
        ]
    )
    u = r.choice(["postgres", "app", "matters_rw", "intake", "readonly_bi"])
    db = r.choice(["matters", "postgres", "intake", "clauses", "billing"])
    return f"postgresql://{u}:{p}@{host}:5432/{db}", p


def v_redis(r):
    p = pw(r, True)
    host = r.choice(
        [
            "redis-cache.internal",
            f"{r.choice(APPS)}-redis.upstash.io",
            f"red-{rs(r, 20, LOW + '0123456789')}.frankfurt-redis.render.com",
        ]
    )
    return f"rediss://default:{p}@{host}:6379/0", p


def v_elastic_pw(r):
    p = pw(r, True)
    return (
        f"https://elastic:{p}@{rs(r, 12, LOW)}.es.westeurope.azure.elastic-cloud.com:9243",
        p,
    )


def v_worldox(r):
    p = pw(r)
    u = r.choice(["wdx_svc", "worldox", "sa_wdx"])
    return (
        f"Server=wdx-sql01.firm.local,1433;Database=WDXPROD;User Id={u};Password={p};TrustServerCertificate=True"
    ), p


def v_azure_storage(r):
    k = b64(rbytes(r, 64))
    acct = r.choice(["firmdocsarchive", "matterexports", "scanintake", "ediscoverystg"]) + str(r.randint(1, 99))
    return (
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k};EndpointSuffix=core.windows.net",
        k,
    )


def v_slack(r):
    t = rs(r, 24)
    return "https://hooks." + "slack.com/services/T" + rs(r, 8, UP + "0123456789") + "/B" + rs(
        r, 10, UP + "0123456789"
    ) + "/" + t, t


def v_r2_presigned(r):
    sig = rs(r, 64, HEX)
    acct = rs(r, 32, HEX)
    bucket = r.choice(["matter-exports", "client-uploads", "brief-pdfs", "ediscovery-prod"])
    obj = f"{r.randint(1000, 9999)}/{r.choice(['engagement_letter', 'production_vol3', 'exhibit_b'])}.pdf"
    url = (
        f"https://{acct}.r2.cloudflarestorage.com/{bucket}/{obj}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={rs(r, 32, HEX)}%2F20261205%2Fauto%2Fs3%2Faws4_request&X-Amz-Date=20261205T"
        f"{r.randint(10, 23)}1500Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return url, sig


def v_app_pw(r):
    return rs(r, 16, LOW)


def v_wifi(r):
    return r.choice([passphrase(r), pw(r)])


# kind, service, descriptions, env var names, value function, tags
# tags: b = usable as bearer/API token, u = URL / connection string, p = password, k = PEM block
KINDS = [
    (
        "clio_client_secret",
        "Clio",
        ["Clio OAuth client secret", "Clio app secret"],
        ["CLIO_CLIENT_SECRET", "CLIO_APP_SECRET"],
        same(lambda r: rs(r, 40)),
        "",
    ),
    (
        "clio_access_token",
        "Clio",
        ["Clio API access token", "Clio bearer token"],
        ["CLIO_ACCESS_TOKEN", "CLIO_API_TOKEN"],
        same(lambda r: rs(r, r.choice([40, 64]))),
        "b",
    ),
    (
        "practicepanther_client_secret",
        "PracticePanther",
        ["PracticePanther client secret"],
        ["PP_CLIENT_SECRET", "PRACTICEPANTHER_SECRET"],
        same(lambda r: rs(r, 32)),
        "",
    ),
    (
        "netdocuments_client_secret",
        "NetDocuments",
        ["NetDocuments REST client secret"],
        ["NETDOCS_CLIENT_SECRET", "ND_CLIENT_SECRET"],
        same(lambda r: rs(r, 43) + "="),
        "",
    ),
    (
        "imanage_client_secret",
        "iManage",
        ["iManage Work API client secret"],
        ["IMANAGE_CLIENT_SECRET", "IMAN_WORK_SECRET"],
        same(lambda r: rs(r, 32, HEX)),
        "",
    ),
    (
        "docusign_secret_key",
        "DocuSign",
        ["DocuSign secret key", "DocuSign integration secret key"],
        ["DOCUSIGN_SECRET_KEY", "DS_CLIENT_SECRET"],
        same(uuid4),
        "",
    ),
    (
        "docusign_rsa_private_key",
        "DocuSign",
        ["DocuSign JWT grant RSA private key"],
        ["DOCUSIGN_PRIVATE_KEY"],
        same(pem_rsa),
        "k",
    ),
    (
        "adobe_sign_integration_key",
        "Adobe Acrobat Sign",
        ["Adobe Sign integration key"],
        ["ADOBE_SIGN_INTEGRATION_KEY", "ECHOSIGN_API_KEY"],
        same(v_adobe_sign),
        "b",
    ),
    (
        "relativity_client_secret",
        "Relativity",
        ["RelativityOne OAuth2 client secret"],
        ["RELATIVITY_CLIENT_SECRET", "REL_OAUTH_SECRET"],
        same(lambda r: rs(r, 40, HEX)),
        "",
    ),
    (
        "everlaw_api_token",
        "Everlaw",
        ["Everlaw API token"],
        ["EVERLAW_API_TOKEN", "EVERLAW_TOKEN"],
        same(lambda r: rs(r, 48)),
        "b",
    ),
    (
        "pacer_password",
        "PACER",
        ["PACER password", "PACER login password"],
        ["PACER_PASSWORD", "PACER_PASS"],
        same(pw),
        "p",
    ),
    (
        "efiling_portal_password",
        "court e-filing portal",
        ["e-filing portal password", "CM/ECF filer password"],
        ["EFILE_PASSWORD", "ECF_FILER_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "westlaw_api_key",
        "Westlaw",
        ["Westlaw Edge API key", "Thomson Reuters API key"],
        ["WESTLAW_API_KEY", "TR_API_KEY"],
        same(lambda r: rs(r, 32)),
        "b",
    ),
    (
        "lexis_client_secret",
        "Lexis",
        ["Lexis API client secret", "LexisNexis OAuth secret"],
        ["LEXIS_CLIENT_SECRET", "LN_OAUTH_SECRET"],
        same(lambda r: rs(r, 40, B64U)),
        "",
    ),
    (
        "ironclad_api_key",
        "Ironclad",
        ["Ironclad API key", "Ironclad bearer token"],
        ["IRONCLAD_API_KEY", "IRONCLAD_TOKEN"],
        same(lambda r: rs(r, 64)),
        "b",
    ),
    (
        "contractbook_api_key",
        "Contractbook",
        ["Contractbook API key"],
        ["CONTRACTBOOK_API_KEY", "CB_API_KEY"],
        same(lambda r: rs(r, 40)),
        "b",
    ),
    (
        "openai_api_key",
        "OpenAI",
        ["OpenAI API key", "OpenAI project key"],
        ["OPENAI_API_KEY", "OPENAI_KEY"],
        same(v_openai),
        "b",
    ),
    (
        "anthropic_api_key",
        "Anthropic",
        ["Anthropic API key", "Claude API key"],
        ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY"],
        same(v_anthropic),
        "b",
    ),
    (
        "azure_openai_key",
        "Azure OpenAI",
        ["Azure OpenAI api-key", "Azure OpenAI resource key"],
        ["AZURE_OPENAI_API_KEY", "AOAI_KEY"],
        same(lambda r: rs(r, 32, HEX)),
        "b",
    ),
    (
        "cohere_api_key",
        "Cohere",
        ["Cohere production API key", "Cohere rerank key"],
        ["COHERE_API_KEY", "CO_API_KEY"],
        same(lambda r: rs(r, 40)),
        "b",
    ),
    (
        "mistral_api_key",
        "Mistral",
        ["Mistral API key", "La Plateforme API key"],
        ["MISTRAL_API_KEY"],
        same(lambda r: rs(r, 32)),
        "b",
    ),
    (
        "pinecone_api_key",
        "Pinecone",
        ["Pinecone API key"],
        ["PINECONE_API_KEY"],
        same(v_pinecone),
        "b",
    ),
    (
        "weaviate_api_key",
        "Weaviate",
        ["Weaviate Cloud admin API key"],
        ["WEAVIATE_API_KEY", "WCD_API_KEY"],
        same(lambda r: rs(r, 40)),
        "b",
    ),
    (
        "qdrant_api_key",
        "Qdrant",
        ["Qdrant Cloud API key"],
        ["QDRANT_API_KEY"],
        same(lambda r: rs(r, 32, B64U) + "_" + rs(r, 22, B64U)),
        "b",
    ),
    (
        "elastic_api_key",
        "Elastic",
        ["Elastic API key (encoded)", "Elasticsearch API key"],
        ["ELASTIC_API_KEY", "ES_API_KEY"],
        same(v_elastic_api),
        "b",
    ),
    (
        "elastic_password",
        "Elastic",
        ["Elastic cluster URL", "Elasticsearch endpoint with credentials"],
        ["ELASTICSEARCH_URL", "ES_URL"],
        v_elastic_pw,
        "u",
    ),
    (
        "postgres_password",
        "Postgres",
        ["Postgres connection string", "database URL"],
        ["DATABASE_URL", "POSTGRES_URL", "PG_DSN"],
        v_pg,
        "u",
    ),
    (
        "redis_password",
        "Redis",
        ["Redis URL", "Redis connection string"],
        ["REDIS_URL", "CACHE_URL"],
        v_redis,
        "u",
    ),
    (
        "auth0_client_secret",
        "Auth0",
        ["Auth0 client secret", "Auth0 M2M app secret"],
        ["AUTH0_CLIENT_SECRET"],
        same(lambda r: rs(r, 64, B64U)),
        "",
    ),
    (
        "auth0_management_token",
        "Auth0",
        ["Auth0 Management API token"],
        ["AUTH0_MGMT_TOKEN", "AUTH0_API_TOKEN"],
        same(v_auth0_mgmt),
        "b",
    ),
    (
        "workos_api_key",
        "WorkOS",
        ["WorkOS API key", "WorkOS secret key"],
        ["WORKOS_API_KEY"],
        same(v_workos),
        "b",
    ),
    (
        "okta_api_token",
        "Okta",
        ["Okta SCIM API token", "Okta SSWS token"],
        ["OKTA_API_TOKEN", "OKTA_SCIM_TOKEN"],
        same(v_okta),
        "b",
    ),
    (
        "stripe_secret_key",
        "Stripe",
        ["Stripe secret key", "Stripe live key"],
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
        same(v_stripe),
        "b",
    ),
    (
        "stripe_webhook_secret",
        "Stripe",
        ["Stripe webhook signing secret"],
        ["STRIPE_WEBHOOK_SECRET"],
        same(lambda r: "wh" + "sec_" + rs(r, 32)),
        "",
    ),
    (
        "vercel_token",
        "Vercel",
        ["Vercel access token", "Vercel deploy token"],
        ["VERCEL_TOKEN"],
        same(lambda r: rs(r, 24)),
        "b",
    ),
    (
        "render_api_key",
        "Render",
        ["Render API key"],
        ["RENDER_API_KEY"],
        same(lambda r: "rn" + "d_" + rs(r, 28)),
        "b",
    ),
    (
        "flyio_token",
        "Fly.io",
        ["Fly.io deploy token", "Fly API token"],
        ["FLY_API_TOKEN"],
        same(lambda r: "fo" + "1_" + rs(r, 43, B64U)),
        "b",
    ),
    (
        "supabase_service_role_key",
        "Supabase",
        ["Supabase service_role key"],
        ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SERVICE_KEY"],
        same(v_supabase_sr),
        "b",
    ),
    (
        "r2_secret_access_key",
        "Cloudflare R2",
        ["R2 secret access key"],
        ["R2_SECRET_ACCESS_KEY", "S3_SECRET_ACCESS_KEY"],
        same(lambda r: rs(r, 64, HEX)),
        "",
    ),
    (
        "r2_presigned_signature",
        "Cloudflare R2",
        ["pre-signed R2 download link", "presigned export URL"],
        ["EXPORT_URL"],
        v_r2_presigned,
        "u",
    ),
    (
        "cloudflare_api_token",
        "Cloudflare",
        ["Cloudflare API token"],
        ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
        same(lambda r: rs(r, 40, B64U)),
        "b",
    ),
    (
        "datadog_api_key",
        "Datadog",
        ["Datadog API key"],
        ["DD_API_KEY", "DATADOG_API_KEY"],
        same(lambda r: rs(r, 32, HEX)),
        "b",
    ),
    (
        "datadog_app_key",
        "Datadog",
        ["Datadog application key"],
        ["DD_APP_KEY", "DATADOG_APP_KEY"],
        same(lambda r: rs(r, 40, HEX)),
        "b",
    ),
    (
        "sentry_auth_token",
        "Sentry",
        ["Sentry auth token", "Sentry user auth token"],
        ["SENTRY_AUTH_TOKEN"],
        same(lambda r: "sntr" + "yu_" + rs(r, 64, HEX)),
        "b",
    ),
    (
        "posthog_personal_api_key",
        "PostHog",
        ["PostHog personal API key"],
        ["POSTHOG_PERSONAL_API_KEY", "POSTHOG_API_KEY"],
        same(lambda r: "ph" + "x_" + rs(r, 47)),
        "b",
    ),
    (
        "linear_api_key",
        "Linear",
        ["Linear API key", "Linear personal API key"],
        ["LINEAR_API_KEY"],
        same(lambda r: "lin" + "_api_" + rs(r, 40)),
        "b",
    ),
    (
        "github_app_private_key",
        "GitHub App",
        ["GitHub App private key"],
        ["GITHUB_APP_PRIVATE_KEY", "GH_APP_KEY"],
        same(pem_rsa),
        "k",
    ),
    (
        "github_pat",
        "GitHub",
        ["GitHub personal access token", "GitHub PAT"],
        ["GITHUB_TOKEN", "GH_PAT"],
        same(v_github_pat),
        "b",
    ),
    (
        "ssh_private_key",
        "deploy host",
        ["deploy SSH private key", "OpenSSH private key"],
        ["DEPLOY_SSH_KEY"],
        same(pem_openssh),
        "k",
    ),
    (
        "entra_client_secret",
        "Microsoft Entra",
        ["Entra app client secret", "Azure AD app secret"],
        ["AZURE_CLIENT_SECRET", "ENTRA_CLIENT_SECRET", "GRAPH_CLIENT_SECRET"],
        same(v_entra),
        "",
    ),
    (
        "m365_app_password",
        "Microsoft 365",
        ["M365 app password", "Outlook SMTP app password"],
        ["SMTP_PASSWORD", "M365_APP_PASSWORD"],
        same(v_app_pw),
        "p",
    ),
    (
        "m365_admin_password",
        "Microsoft 365",
        ["M365 break-glass admin password", "Global Admin password"],
        ["M365_ADMIN_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "intune_pfx_password",
        "Intune",
        ["Intune PFX certificate connector password", "PKCS cert export password"],
        ["INTUNE_PFX_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "mimecast_secret_key",
        "Mimecast",
        ["Mimecast API secret key"],
        ["MIMECAST_SECRET_KEY"],
        same(lambda r: b64(rbytes(r, 64))),
        "",
    ),
    (
        "proofpoint_service_secret",
        "Proofpoint TAP",
        ["Proofpoint TAP service secret"],
        ["PROOFPOINT_SECRET", "TAP_SERVICE_SECRET"],
        same(lambda r: rs(r, 64, HEX)),
        "",
    ),
    (
        "citrix_cloud_client_secret",
        "Citrix Cloud",
        ["Citrix Cloud API client secret"],
        ["CITRIX_CLIENT_SECRET", "CTX_SECURE_CLIENT_SECRET"],
        same(v_citrix),
        "",
    ),
    (
        "netscaler_password",
        "NetScaler",
        ["NetScaler nsroot password", "ADC admin password"],
        ["NS_PASSWORD", "NETSCALER_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "fortigate_api_token",
        "FortiGate",
        ["FortiGate REST API token", "FortiOS API key"],
        ["FORTIGATE_API_TOKEN", "FGT_API_KEY"],
        same(lambda r: rs(r, 30)),
        "b",
    ),
    (
        "ipsec_psk",
        "FortiGate",
        ["IPsec VPN pre-shared key", "site-to-site PSK"],
        ["VPN_PSK", "IPSEC_PSK"],
        same(lambda r: rs(r, r.randint(24, 32), AN + "!-_.")),
        "p",
    ),
    (
        "panos_api_key",
        "Palo Alto",
        ["PAN-OS API key", "Panorama API key"],
        ["PANOS_API_KEY", "PAN_API_KEY"],
        same(v_panos),
        "b",
    ),
    (
        "globalprotect_password",
        "GlobalProtect",
        ["GlobalProtect service account password"],
        ["GP_PASSWORD", "GLOBALPROTECT_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "duo_secret_key",
        "Duo",
        ["Duo secret key (skey)", "Duo Admin API secret key"],
        ["DUO_SKEY", "DUO_SECRET_KEY"],
        same(lambda r: rs(r, 40)),
        "",
    ),
    (
        "keepass_master_password",
        "KeePass",
        ["KeePass master password", "KeePass vault passphrase"],
        ["KEEPASS_PASSWORD", "KDBX_PASSWORD"],
        same(passphrase),
        "p",
    ),
    (
        "sharefile_client_secret",
        "ShareFile",
        ["ShareFile API client secret"],
        ["SHAREFILE_CLIENT_SECRET"],
        same(lambda r: rs(r, 40)),
        "",
    ),
    (
        "worldox_sql_password",
        "Worldox",
        ["Worldox SQL connection string"],
        ["WORLDOX_DB", "WDX_CONN"],
        v_worldox,
        "u",
    ),
    (
        "zoom_client_secret",
        "Zoom",
        ["Zoom Server-to-Server OAuth client secret"],
        ["ZOOM_CLIENT_SECRET"],
        same(lambda r: rs(r, 32)),
        "",
    ),
    (
        "zoom_webhook_secret_token",
        "Zoom",
        ["Zoom webhook secret token"],
        ["ZOOM_WEBHOOK_SECRET_TOKEN"],
        same(lambda r: rs(r, 22, B64U)),
        "",
    ),
    (
        "ringcentral_jwt",
        "RingCentral",
        ["RingCentral JWT credential"],
        ["RC_JWT", "RINGCENTRAL_JWT"],
        same(v_ringcentral),
        "b",
    ),
    (
        "printer_admin_password",
        "Xerox printer",
        ["printer admin password", "MFP web UI admin password"],
        ["PRINTER_ADMIN_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "scanner_smtp_password",
        "scanner",
        ["scan-to-email SMTP password", "scanner mailbox password"],
        ["SCANNER_SMTP_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "door_access_password",
        "door access controller",
        ["door access admin password", "Paxton Net2 operator password"],
        ["ACCESS_CTRL_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "nvr_password",
        "CCTV NVR",
        ["NVR admin password", "Hikvision NVR login password"],
        ["NVR_PASSWORD"],
        same(pw),
        "p",
    ),
    (
        "slack_webhook",
        "Slack",
        ["Slack incoming webhook", "Slack alerts webhook URL"],
        ["SLACK_WEBHOOK_URL"],
        v_slack,
        "u",
    ),
    (
        "azure_storage_account_key",
        "Azure Storage",
        ["Azure storage connection string"],
        ["AZURE_STORAGE_CONNECTION_STRING", "ARCHIVE_STORAGE_CONN"],
        v_azure_storage,
        "u",
    ),
    (
        "nextauth_secret",
        "NextAuth",
        ["NextAuth secret", "session signing secret"],
        ["NEXTAUTH_SECRET", "AUTH_SECRET"],
        same(lambda r: b64(rbytes(r, 32))),
        "",
    ),
    (
        "ldap_bind_password",
        "Active Directory",
        ["LDAP bind password", "AD service account password"],
        ["LDAP_BIND_PASSWORD", "AD_BIND_PW"],
        same(pw),
        "p",
    ),
    (
        "wifi_psk",
        "office Wi-Fi",
        ["staff Wi-Fi WPA2 passphrase", "Wi-Fi PSK"],
        ["WIFI_PSK"],
        same(v_wifi),
        "p",
    ),
    (
        "egress_api_key",
        "Egress",
        ["Egress Protect API key"],
        ["EGRESS_API_KEY"],
        same(lambda r: rs(r, 48, B64U)),
        "b",
    ),
]


# ---------------------------------------------------------------------------- templates
# Each template: (category, requirement, function(r, c) -> text).  c has val, desc, svc, var, key, user.
TPL: list[tuple[str, str, object]] = []


def tpl(cat, req=""):
    def deco(f):
        TPL.append((cat, req, f))
        return f

    return deco


# ---- prose
@tpl("prose")
def _p_note(r, c):
    return f"{c['svc']}: {c['desc']} = {c['val']} (rotated {date(r)}, owner {person(r)})"


@tpl("prose")
def _p_lesson(r, c):
    return (
        f"Lesson learned: {r.choice(APPS)} kept failing with 401 because {c['var']} was stale after "
        f"the rotation. The working {c['desc']} is {c['val']} - remember to update Vercel and Render too."
    )


@tpl("prose")
def _p_runbook(r, c):
    return (
        f"Runbook - {c['svc']} integration down\n1. Check status page and #it-alerts\n"
        f"2. Set {c['var']} to {c['val']}\n3. Restart {r.choice(APPS)} and watch logs for 5 min\n"
        f"4. Tell {person(r)} in Litigation Support"
    )


@tpl("prose")
def _p_todo(r, c):
    return f"TODO(@{person(r).lower()}): rotate the {c['desc']} before {date(r)}. Current value: {c['val']}"


@tpl("prose")
def _p_ticket(r, c):
    return (
        f"INC-{r.randint(10000, 99999)} | {c['svc']} sync failing\nReporter: {person(r)} {r.choice(SURN)}\n"
        f"Priority: P{r.randint(1, 3)}\nResolution: regenerated the {c['desc']}; new one is {c['val']}. "
        "Also saved in KeePass under IT/Integrations."
    )


@tpl("prose")
def _p_email(r, c):
    n, s = person(r), person(r)
    return (
        f"From: {s.lower()}@{r.choice(FIRMS).split()[0].lower()}law.com\nTo: it-support@ourfirm.com\n"
        f"Subject: {c['svc']} access for the {r.choice(['Henley', 'Ortiz', 'Mbeki', 'Lambert'])} matter\n\n"
        f"Hi {n},\n\nAs discussed on the call, the {c['desc']} is {c['val']}\n"
        f"Please confirm once the connector works.\n\nKind regards,\n{s}"
    )


@tpl("prose")
def _p_chat(r, c):
    a, b = person(r), person(r)
    return (
        f"[{hhmm(r)}] {a}: what's the {c['desc']} again? the {r.choice(APPS)} deploy is blocked\n"
        f"[{hhmm(r)}] {b}: {c['val']}\n[{hhmm(r)}] {a}: thx, works"
    )


@tpl("prose")
def _p_decision(r, c):
    return (
        f"Decision ADR-{r.randint(10, 99):03d}: keep {c['svc']} credentials out of the repo. Until the "
        f"vault lands, staging uses {c['var']}={c['val']} set by hand."
    )


@tpl("prose")
def _p_handover(r, c):
    return (
        f"Handover for {person(r)} (I'm out {r.choice(MONTHS)} {r.randint(1, 20)}-{r.randint(21, 28)}):\n"
        f"- {c['svc']}: {c['desc']} -> {c['val']}\n- toner for 3rd floor MFP ordered\n"
        f"- new paralegal starts Monday, laptop imaged"
    )


@tpl("prose")
def _p_remember(r, c):
    return f"Remember: for {r.choice(APPS)} the {c['desc']} is {c['val']}; {person(r)} asked not to ask again."


@tpl("prose")
def _p_it(r, c):
    return f"Promemoria: la {c['desc']} di {c['svc']} è {c['val']}. Non inoltrarla al cliente, scade il {date(r)}."


@tpl("prose")
def _p_de(r, c):
    return (
        f"Hinweis für die Kanzlei-IT: {c['desc']} für {c['svc']} lautet {c['val']} - bitte nach dem "
        f"Go-Live am {date(r)} rotieren."
    )


@tpl("prose")
def _p_fr(r, c):
    return f"Note : le {c['desc']} pour {c['svc']} est {c['val']}, à changer avant la fin du mois ({person(r)})."


@tpl("prose")
def _p_ja(r, c):
    return f"メモ：{c['svc']} の {c['desc']} は {c['val']} です。クライアントには共有しないこと。（{person(r)}）"


@tpl("prose")
def _p_he(r, c):
    return f"תזכורת: ה-{c['desc']} של {c['svc']} הוא {c['val']} — לא לשתף עם הלקוח. ({person(r)})"


@tpl("prose")
def _p_af(r, c):
    return f"Nota: die {c['desc']} vir {c['svc']} is {c['val']}. Moet dit nie met die kliënt deel nie. - {person(r)}"


@tpl("prose")
def _p_el(r, c):
    return f"Σημείωση: το {c['desc']} για το {c['svc']} είναι {c['val']}. Να αλλάξει μετά τις {date(r)}."


@tpl("prose", "p")
def _p_login(r, c):
    return (
        f"{c['svc']} login for the {r.choice(['2nd', '3rd', '4th'])} floor: user {c['user']} / pass "
        f"{c['val']} (changed {date(r)}, do NOT email it)"
    )


@tpl("prose", "p")
def _p_wiki(r, c):
    return (
        f"## {c['svc']}\nIP: 10.{r.randint(0, 40)}.{r.randint(0, 9)}.{r.randint(2, 250)}\n"
        f"Username: {c['user']}\nPassword: {c['val']}\nVendor support: +44 20 {r.randint(1000, 9999)} "
        f"{r.randint(1000, 9999)}"
    )


# ---- config
@tpl("config")
def _c_env(r, c):
    return f"# {c['svc']} ({r.choice(APPS)})\n{c['var']}={c['val']}\nLOG_LEVEL={r.choice(['info', 'debug'])}"


@tpl("config")
def _c_yaml(r, c):
    return f'{c["slug"]}:\n  enabled: true\n  {c["key"]}: "{c["val"]}"\n  timeout_seconds: {r.choice([10, 30, 60])}'


@tpl("config")
def _c_json(r, c):
    return (
        '{\n  "'
        + c["slug"]
        + '": {\n    "'
        + c["key"]
        + '": "'
        + c["val"]
        + '",\n    "retries": '
        + str(r.randint(1, 5))
        + "\n  }\n}"
    )


@tpl("config")
def _c_toml(r, c):
    return f'[{c["slug"]}]\nregion = "{r.choice(["eu", "us", "uk"])}"\n{c["key"]} = "{c["val"]}"'


@tpl("config")
def _c_tf(r, c):
    return f'variable "{c["key"]}" {{\n  type      = string\n  sensitive = true\n  default   = "{c["val"]}"\n}}'


@tpl("config")
def _c_helm(r, c):
    return (
        f"# values-{r.choice(['prod', 'staging'])}.yaml\nimage:\n  tag: {r.randint(1, 9)}.{r.randint(0, 30)}.0\n"
        f'env:\n  - name: {c["var"]}\n    value: "{c["val"]}"'
    )


@tpl("config")
def _c_compose(r, c):
    return (
        f"services:\n  {r.choice(APPS)}:\n    image: ghcr.io/firm/{r.choice(APPS)}:latest\n    environment:\n"
        f'      {c["var"]}: "{c["val"]}"'
    )


@tpl("config")
def _c_ps(r, c):
    return (
        f"# {c['desc']}\n"
        f'$sec = ConvertTo-SecureString "{c["val"]}" -AsPlainText -Force\n'
        f'$cred = New-Object System.Management.Automation.PSCredential("{c["user"]}", $sec)'
    )


@tpl("config")
def _c_reg(r, c):
    return (
        f"Windows Registry Editor Version 5.00\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\FirmIT\\{c['camel']}]\n"
        f'"Endpoint"="https://{c["slug"].replace("_", "-")}.firm.local"\n"{c["camelkey"]}"="{c["val"]}"'
    )


@tpl("config")
def _c_appsettings(r, c):
    return (
        '{\n  "'
        + c["camel"]
        + '": {\n    "'
        + c["camelkey"]
        + '": "'
        + c["val"]
        + '"\n  },\n  "Logging": { "LogLevel": { "Default": "Warning" } }\n}'
    )


@tpl("config")
def _c_webconfig(r, c):
    return (
        f'<appSettings>\n  <add key="{c["camel"]}:Enabled" value="true" />\n'
        f'  <add key="{c["camel"]}:{c["camelkey"]}" value="{c["val"]}" />\n</appSettings>'
    )


@tpl("config")
def _c_vercel(r, c):
    return '{\n  "framework": "nextjs",\n  "env": {\n    "' + c["var"] + '": "' + c["val"] + '"\n  }\n}'


@tpl("config")
def _c_gha(r, c):
    return (
        f"jobs:\n  {r.choice(['deploy', 'sync', 'e2e'])}:\n    runs-on: ubuntu-latest\n    env:\n"
        f"      {c['var']}: {c['val']}\n    steps:\n      - uses: actions/checkout@v4"
    )


# ---- output
@tpl("output")
def _o_vercel(r, c):
    return (
        f"$ vercel env add {c['var']} production\n? What's the value of {c['var']}? {c['val']}\n"
        f"✅  Added Environment Variable {c['var']} to Project {r.choice(APPS)} [{r.randint(120, 900)}ms]"
    )


@tpl("output")
def _o_pstranscript(r, c):
    return (
        f'PS C:\\Users\\{c["user"]}> $env:{c["var"]} = "{c["val"]}"\n'
        f"PS C:\\Users\\{c['user']}> .\\Sync-{c['camel']}.ps1\nConnected. {r.randint(2, 400)} items synced."
    )


@tpl("output", "b")
def _o_http(r, c):
    return (
        f"> GET /api/v{r.randint(1, 4)}/{r.choice(['matters', 'documents', 'users', 'contracts'])} HTTP/1.1\n"
        f"> Host: api.{c['slug'].replace('_', '')}.com\n> Authorization: Bearer {c['val']}\n> Accept: */*\n>\n"
        f"< HTTP/1.1 {r.choice([200, 401, 403])}"
    )


@tpl("output", "nu")
def _o_form(r, c):
    return (
        f"POST /oauth/token HTTP/1.1\nHost: auth.{c['slug'].replace('_', '')}.com\n"
        f"Content-Type: application/x-www-form-urlencoded\n\ngrant_type=client_credentials&{c['key']}={c['val']}"
        f"\n\nHTTP/1.1 {r.choice([200, 400])}"
    )


@tpl("output")
def _o_ci(r, c):
    return (
        f"Run ./scripts/deploy.sh {r.choice(['prod', 'staging'])}\n  env:\n    {c['var']}: {c['val']}\n"
        f"+ echo 'deploying {r.choice(APPS)}'\ndeploying\nError: Process completed with exit code {r.randint(1, 2)}."
    )


@tpl("output")
def _o_docker(r, c):
    a = r.choice(APPS)
    return (
        f"{a}-1  | {ts(r)} INFO starting worker pid={r.randint(10, 900)}\n"
        f"{a}-1  | {ts(r)} DEBUG config loaded: {c['var']}={c['val']}\n{a}-1  | {ts(r)} INFO ready"
    )


@tpl("output")
def _o_tb(r, c):
    return (
        f'Traceback (most recent call last):\n  File "/app/{c["slug"]}_client.py", line {r.randint(20, 300)}, '
        f'in connect\n    client = {c["camel"]}Client({c["key"]}="{c["val"]}")\n'
        f"{c['camel']}Error: {r.choice(['401 Unauthorized', 'connection refused', 'timeout after 30s'])}"
    )


@tpl("output")
def _o_sql(r, c):
    return (
        f"legal=# INSERT INTO integration_settings (provider, setting, value) VALUES ('{c['slug']}', "
        f"'{c['key']}', '{c['val']}');\nINSERT 0 1\nlegal=# \\q"
    )


@tpl("output")
def _o_kubectl(r, c):
    n = r.choice(APPS)
    return (
        f"$ kubectl -n {r.choice(['prod', 'staging'])} create secret generic {n}-secrets "
        f"--from-literal={c['var']}={c['val']}\nsecret/{n}-secrets created"
    )


@tpl("output")
def _o_fly(r, c):
    return (
        f"$ fly secrets set {c['var']}={c['val']} -a {r.choice(APPS)}\nUpdating existing machines "
        f"with rolling strategy\n  Machine {rs(r, 14, HEX)} [app] update succeeded"
    )


@tpl("output")
def _o_env(r, c):
    return f"$ env | grep -i {c['var'].split('_')[0].lower()}\n{c['var']}={c['val']}\n$ "


@tpl("output")
def _o_diff(r, c):
    return (
        f"diff --git a/.env.{r.choice(['staging', 'prod'])} b/.env.{r.choice(['staging', 'prod'])}\n"
        f"@@ -3,2 +3,2 @@\n-{c['var']}=\n+{c['var']}={c['val']}\n LOG_LEVEL=info"
    )


@tpl("output")
def _o_az(r, c):
    return (
        f"$ az keyvault secret show --vault-name kv-firm-{r.choice(['prod', 'it'])} -n {c['key'].replace('_', '-')}\n"
        '{\n  "attributes": { "enabled": true },\n  "name": "'
        + c["key"].replace("_", "-")
        + '",\n  "value": "'
        + c["val"]
        + '"\n}'
    )


# ---- PEM-only templates
@tpl("prose", "k")
def _k_note(r, c):
    return f"{c['desc']} for {r.choice(APPS)} (added {date(r)}):\n{c['val']}\nApp ID {r.randint(100000, 999999)}."


@tpl("prose", "k")
def _k_chat(r, c):
    return f"[{hhmm(r)}] {person(r)}: pasting the {c['desc']} here so you can finish the setup\n{c['val']}"


@tpl("prose", "k")
def _k_runbook(r, c):
    return (
        f"Runbook: restore {c['svc']} auth\n1. Save the block below as key.pem\n{c['val']}\n"
        f"2. chmod 600 key.pem\n3. Re-run the {r.choice(APPS)} job"
    )


@tpl("prose", "k")
def _k_email(r, c):
    return (
        f"Subject: {c['desc']}\n\nHi {person(r)},\n\nHere is the key you asked for:\n\n{c['val']}\n\n"
        f"Cheers,\n{person(r)}"
    )


@tpl("prose", "k")
def _k_lesson(r, c):
    return (
        f"Lesson: the {c['desc']} must keep its newlines, Vercel mangled it last time ({date(r)}). "
        f"Original:\n{c['val']}"
    )


@tpl("config", "k")
def _k_env(r, c):
    return f'# {c["svc"]}\n{c["var"]}="{c["val"]}"\nAPP_ID={r.randint(100000, 999999)}'


@tpl("config", "k")
def _k_tf(r, c):
    return (
        f'resource "vercel_project_environment_variable" "{c["key"]}" {{\n  key   = "{c["var"]}"\n'
        f'  value = <<EOT\n{c["val"]}\nEOT\n  target = ["production"]\n}}'
    )


@tpl("config", "k")
def _k_ps(r, c):
    return f'$key = @"\n{c["val"]}\n"@\nSet-Content -Path .\\{c["key"]}.pem -Value $key'


@tpl("output", "k")
def _k_cat(r, c):
    return f"$ cat ~/.secrets/{c['key']}.pem\n{c['val']}\n$ ls -l ~/.secrets | wc -l\n{r.randint(2, 9)}"


@tpl("output", "k")
def _k_gc(r, c):
    return f"PS C:\\deploy> Get-Content .\\{c['key']}.pem\n{c['val']}\nPS C:\\deploy>"


def _camel(s: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", s) if w)


def _pick_templates(tags: str):
    if "k" in tags:
        pool = [t for t in TPL if t[1] == "k"]
    else:
        pool = [t for t in TPL if t[1] in ("", "nu") or (t[1] and t[1] in tags)]
        if "u" in tags:
            pool = [t for t in pool if t[1] != "nu"]
    by = {}
    for cat, _req, f in pool:
        by.setdefault(cat, []).append(f)
    return by


def _positives(r: random.Random, seen: set) -> list:
    out = []
    cats = ["prose"] * 15 + ["config"] * 8 + ["output"] * 7
    for kind, svc, descs, vars_, vf, tags in KINDS:
        by = _pick_templates(tags)
        order = cats[:]
        r.shuffle(order)
        offs = {k: r.randrange(len(v)) for k, v in by.items()}
        n = 0
        i = 0
        while n < PER_KIND:
            i += 1
            if i > 2000:
                raise RuntimeError(kind)
            cat = order[n]
            fs = by[cat]
            f = fs[(offs[cat] + n + i) % len(fs)]
            display, secret = vf(r)
            var = r.choice(vars_)
            key = var.lower()
            c = {
                "val": display,
                "svc": svc,
                "desc": r.choice(descs),
                "var": var,
                "key": key,
                "slug": re.sub(r"[^a-z0-9]+", "_", svc.lower()).strip("_"),
                "camel": _camel(svc),
                "camelkey": _camel(key.split("_", 1)[-1] if "_" in key else key),
                "user": r.choice(USERS),
            }
            text = f(r, c)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            n += 1
    return out


# ---------------------------------------------------------------------------- look-alikes
_LOOK: list = []


def look(f):
    _LOOK.append(f)
    return f


def _sha(r, n=64):
    return rs(r, n, HEX)


def _fname(r):
    return (
        r.choice(
            [
                "engagement_letter",
                "nda_signed",
                "production_vol",
                "exhibit",
                "deposition",
                "settlement_draft",
                "brief_final",
                "invoice",
            ]
        )
        + f"_{r.randint(1, 999)}.pdf"
    )


# ---- hashes, checksums, ids
@look
def _l_commit(r):
    return f"Fixed the Clio pagination bug in {_sha(r, 40)} ({r.choice(APPS)}); cherry-pick onto release/{r.randint(1, 9)}.{r.randint(0, 20)}."


@look
def _l_sha256sum(r):
    return f"$ sha256sum {_fname(r)}\n{_sha(r)}  {_fname(r)}"


@look
def _l_md5_ediscovery(r):
    return f"Relativity load file check: DOC{r.randint(100000, 999999)} MD5={_sha(r, 32).upper()} matched the custodian copy."


@look
def _l_sha1_everlaw(r):
    return f"Everlaw dedupe: {r.randint(2, 90)} docs share SHA-1 {_sha(r, 40)}; kept the earliest custodian."


@look
def _l_reqid(r):
    return f"{ts(r)} WARN clio.api 429 Too Many Requests x-request-id={uuid4(r)} retry_in={r.randint(1, 30)}s"


@look
def _l_corr(r):
    return (
        f"AADSTS50076: Due to a configuration change made by your administrator you must use MFA.\n"
        f"Trace ID: {uuid4(r)}\nCorrelation ID: {uuid4(r)}\nTimestamp: {date(r)} {hhmm(r)}:11Z"
    )


@look
def _l_envelope(r):
    return f"DocuSign envelope {uuid4(r)} for {r.choice(SURN)} NDA completed {date(r)}; status=completed"


@look
def _l_docusign_ik(r):
    return (
        f"DocuSign integration key (client id, public): {uuid4(r)}\nAccount ID: {uuid4(r)}\n"
        "The RSA keypair lives in Key Vault, not here."
    )


@look
def _l_gitlog(r):
    return "\n".join(
        f"{_sha(r, 7)} {m}"
        for m in r.sample(
            [
                "fix: retry PACER login",
                "feat: iManage folder sync",
                "chore: bump next",
                "docs: R2 exports",
                "fix: DocuSign webhook HMAC check",
                "refactor: clause parser",
                "test: Everlaw fixtures",
            ],
            4,
        )
    )


@look
def _l_docker_digest(r):
    return f"Pulled ghcr.io/firm/{r.choice(APPS)}@sha256:{_sha(r)}\nStatus: Downloaded newer image"


@look
def _l_npm_integrity(r):
    return (
        f'"node_modules/{r.choice(["next", "zod", "stripe", "@clerk/nextjs", "pdf-lib"])}": {{\n  "version": '
        f'"{r.randint(1, 15)}.{r.randint(0, 9)}.{r.randint(0, 9)}",\n  "integrity": "sha512-'
        f'{b64(rbytes(r, 64))}"\n}}'
    )


@look
def _l_pip_hash(r):
    return (
        f"{r.choice(['openai', 'anthropic', 'pinecone', 'psycopg', 'cohere'])}=={r.randint(0, 3)}.{r.randint(0, 60)}.0 "
        f"\\\n    --hash=sha256:{_sha(r)}"
    )


@look
def _l_gosum(r):
    return f"github.com/{r.choice(['jackc/pgx', 'redis/go-redis', 'stripe/stripe-go'])}/v{r.randint(4, 9)} v{r.randint(1, 9)}.{r.randint(0, 9)}.0 h1:{b64(rbytes(r, 32))}"


@look
def _l_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha(r)}\nsize {r.randint(10000, 9000000)}"


@look
def _l_etag(r):
    return (
        f'< HTTP/2 200\n< content-type: application/pdf\n< etag: "{_sha(r, 32)}"\n'
        f"< x-amz-request-id: {rs(r, 16, '0123456789ABCDEF')}\n< cf-ray: {_sha(r, 16)}-LHR"
    )


@look
def _l_content_md5(r):
    return f"Blob {_fname(r)} uploaded, Content-MD5: {b64(rbytes(r, 16))}, ETag 0x8DC{rs(r, 12, '0123456789ABCDEF')}"


@look
def _l_cert_thumb(r):
    return (
        f"Entra app '{r.choice(APPS)}' certificate credential: thumbprint {_sha(r, 40).upper()}, "
        f"expires {date(r)}. Private key is in the HSM."
    )


@look
def _l_ssh_fp(r):
    return (
        f"The authenticity of host 'deploy.firm.local (10.0.{r.randint(0, 9)}.{r.randint(2, 200)})' can't be established.\n"
        f"ED25519 key fingerprint is SHA256:{b64(rbytes(r, 32)).rstrip('=')}."
    )


@look
def _l_ssh_pub(r):
    return f"authorized_keys entry for {person(r).lower()}:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64(rbytes(r, 32))[:43]} {person(r).lower()}@laptop"


@look
def _l_cert_pem(r):
    lab = "CERTI" + "FICATE"
    body = wrap(b64(bytes([0x30, 0x82, 0x03, 0x5A, 0x30, 0x82]) + rbytes(r, 600)), 64)
    return f"Root CA cert for the NetScaler (public, OK to share):\n-----BEGIN {lab}-----\n{body}\n-----END {lab}-----"


@look
def _l_pubkey_pem(r):
    lab = "PUB" + "LIC"
    body = wrap(b64(bytes([0x30, 0x82, 0x01, 0x22, 0x30, 0x0D]) + rbytes(r, 288)), 64)
    return f"DocuSign Connect HMAC? no - this is the public key for JWT verification:\n-----BEGIN {lab} KEY-----\n{body}\n-----END {lab} KEY-----"


@look
def _l_pgp_fp(r):
    fp = " ".join(rs(r, 4, "0123456789ABCDEF") for _ in range(10))
    return f"Egress fallback: encrypt to the litigation team's PGP key, fingerprint {fp} (verify by phone)."


@look
def _l_uuid_matter(r):
    return f"Clio matter {r.randint(1000, 9999)}-{r.choice(SURN)} has id {r.randint(10**9, 10**10)}; custom field uuid {uuid4(r)}"


@look
def _l_kv_uri(r):
    return (
        f"Secret reference: https://kv-firm-{r.choice(['prod', 'it'])}.vault.azure.net/secrets/"
        f"{r.choice(['clio-secret', 'duo-skey', 'smtp-relay'])}/{_sha(r, 32)}"
    )


@look
def _l_kms(r):
    return f"R2 exports are encrypted with KMS key id {uuid4(r)} (alias/legal-exports); rotation enabled."


@look
def _l_trace(r):
    return f'dd.trace_id={r.randint(10**18, 9 * 10**18)} dd.span_id={r.randint(10**18, 9 * 10**18)} service={r.choice(APPS)} msg="matter synced"'


@look
def _l_sentry_event(r):
    return f"Sentry issue {r.choice(APPS).upper()}-{r.randint(10, 999)} event {_sha(r, 32)}: TypeError in parseClause()"


@look
def _l_vercel_ids(r):
    return f"Vercel project prj_{rs(r, 28)} deployment dpl_{rs(r, 28)} ready in {r.randint(20, 200)}s (team team_{rs(r, 24)})"


@look
def _l_fly_machine(r):
    return (
        f"Machine {_sha(r, 14)} (app {r.choice(APPS)}) in lhr: started, image deployment-{rs(r, 26, UP + '0123456789')}"
    )


@look
def _l_render_ids(r):
    return f"Render service srv-{rs(r, 20, LOW + '0123456789')} deploy dep-{rs(r, 20, LOW + '0123456789')} live"


@look
def _l_cf_ids(r):
    return f"Cloudflare zone id {_sha(r, 32)}, account id {_sha(r, 32)} for lawfirm.example - DNS only, no token here."


@look
def _l_r2_public(r):
    return f"Public marketing assets bucket: https://pub-{_sha(r, 32)}.r2.dev/{r.choice(['logo', 'team', 'brochure'])}.{r.choice(['png', 'pdf'])}"


@look
def _l_elastic_cloud_id(r):
    name = r.choice(["legal-search", "clauses", "matters-prod"])
    return f"ELASTIC_CLOUD_ID={name}:{b64(('westeurope.azure.elastic-cloud.com:443$' + _sha(r, 32) + '$' + _sha(r, 32)).encode())}"


@look
def _l_elastic_key_id(r):
    return f"Elastic API key id {rs(r, 20, B64U)} (name: ingest-{r.choice(APPS)}) invalidated {date(r)}; key itself never stored."


@look
def _l_weaviate_url(r):
    return f"WEAVIATE_URL=https://{rs(r, 20, LOW + '0123456789')}.c0.europe-west3.gcp.weaviate.cloud"


@look
def _l_pinecone_host(r):
    return f"PINECONE_INDEX_HOST=https://clauses-{rs(r, 7, LOW + '0123456789')}.svc.aped-4627-b74a.pinecone.io"


@look
def _l_qdrant_url(r):
    return f"QDRANT_URL=https://{uuid4(r)}.eu-central-1-0.aws.cloud.qdrant.io:6333  # key in 1Password"


@look
def _l_win_sid(r):
    return f"Owner of \\\\fs01\\matters$: S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**8, 10**9)}-{r.randint(1000, 9999)}"


@look
def _l_intune_device(r):
    return f"Intune device {uuid4(r)} ({person(r)}-LT{r.randint(100, 999)}) non-compliant: BitLocker not enabled; Entra device id {uuid4(r)}"


@look
def _l_mac(r):
    macs = ":".join(rs(r, 2, "0123456789abcdef") for _ in range(6))
    return f"MFP-3F reserved in DHCP: {macs} -> 10.10.{r.randint(1, 9)}.{r.randint(20, 250)} (Xerox AltaLink, serial {rs(r, 9, UP + '0123456789')})"


@look
def _l_forti_serial(r):
    return f"FortiGate FGT60F{rs(r, 10, UP + '0123456789')} firmware v7.{r.randint(0, 4)}.{r.randint(1, 15)} build{r.randint(1000, 2999)}; HA peer in sync"


@look
def _l_panos_job(r):
    return f"PAN-OS commit job {r.randint(1000, 9999)} FIN OK on PA-{r.choice([440, 3220, 1410])} serial {r.randint(10**11, 10**12)}"


@look
def _l_nvr_serial(r):
    return f"NVR DS-{r.randint(7600, 7799)}NI-K2 serial {rs(r, 20, UP + '0123456789')} firmware V4.{r.randint(30, 80)}.{r.randint(0, 9)}; 12 of 16 channels recording"


@look
def _l_door_cards(r):
    return f"Paxton Net2: new fob for {person(r)} {r.choice(SURN)} fob #{r.randint(10**7, 10**8)}, access level 'Floors 2-4', expires {date(r)}"


@look
def _l_pacer_case(r):
    return f"PACER: {r.randint(1, 4)}:{r.randint(20, 26)}-cv-{r.randint(1000, 9999)} (S.D.N.Y.) docket #{r.randint(1, 200)} downloaded, receipt {r.randint(10**7, 10**8)}"


@look
def _l_efile_receipt(r):
    return f"e-filing accepted: envelope {r.randint(10**7, 10**8)}, transaction {uuid4(r)}, filing code MOT-{r.randint(100, 999)}"


@look
def _l_wl_cite(r):
    return f"Cite check: {r.randint(2015, 2026)} WL {r.randint(100000, 9999999)} and {r.randint(100, 999)} F.{r.choice(['3d', '4th'])} {r.randint(1, 1500)} both still good law."


@look
def _l_bates(r):
    p = r.choice(["HV", "ABC", "DEF", "CR"])
    a = r.randint(1, 90000)
    return f"Production vol {r.randint(1, 12)}: Bates {p}{a:07d} - {p}{a + r.randint(50, 5000):07d}, hash list attached"


@look
def _l_imanage_id(r):
    return f"See iManage FIRM!{r.randint(1000000, 9999999)}.{r.randint(1, 9)} and NetDocuments {r.randint(1000, 9999)}-{r.randint(1000, 9999)}-{r.randint(1000, 9999)} v.{r.randint(1, 5)}"


@look
def _l_stripe_objs(r):
    return (
        f"Refund issued: ch_{rs(r, 24)} -> re_{rs(r, 24)} for cus_{rs(r, 14)} "
        f"(invoice in_{rs(r, 24)}, event evt_{rs(r, 24)})"
    )


@look
def _l_stripe_we(r):
    return f"Stripe webhook endpoint we_{rs(r, 24)} listening for invoice.paid; signing secret in Vercel env, not here."


@look
def _l_linear(r):
    return f"Linear {r.choice(['LEG', 'ENG', 'IT'])}-{r.randint(10, 999)}: rotate Duo skey (issue id {uuid4(r)})"


@look
def _l_github_app_ids(r):
    return f"GitHub App 'firm-ci-bot': App ID {r.randint(100000, 999999)}, installation id {r.randint(10**7, 10**8)}, client id Iv1.{_sha(r, 16)}"


@look
def _l_tf_lineage(r):
    return (
        '{\n  "version": 4,\n  "terraform_version": "1.'
        + str(r.randint(5, 9))
        + '.0",\n  "serial": '
        + str(r.randint(1, 400))
        + ',\n  "lineage": "'
        + uuid4(r)
        + '"\n}'
    )


@look
def _l_notebook(r):
    return (
        '{\n "cell_type": "code",\n "execution_count": '
        + str(r.randint(1, 300))
        + ',\n "id": "'
        + rs(r, 8, HEX)
        + '",\n "metadata": {},\n "outputs": [],\n "source": ["df = load_matters()"]\n}'
    )


@look
def _l_b64_png(r):
    return f'Firm logo for the email footer: <img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{b64(rbytes(r, 90))}" />'


@look
def _l_b64_json(r):
    d = json.dumps(
        {
            "matter": r.randint(1000, 9999),
            "client": r.choice(SURN),
            "stage": r.choice(["intake", "review"]),
        }
    )
    return f"cursor={b64(d.encode())} (base64 of the pagination state, safe to log)"


@look
def _l_model_ids(r):
    return (
        f"Model routing: drafting -> {r.choice(['gpt-4o-2024-08-06', 'gpt-4.1-mini', 'o3-mini'])}, review -> "
        f"{r.choice(['claude-3-5-sonnet-20241022', 'claude-sonnet-4-20250514'])}, embeddings -> "
        f"{r.choice(['embed-english-v3.0', 'text-embedding-3-large', 'mistral-embed'])} (run {rs(r, 8, LOW + '0123456789')})"
    )


@look
def _l_wandb(r):
    return f"eval run clause-extractor/{rs(r, 8, LOW + '0123456789')} F1={r.uniform(0.7, 0.95):.3f} on dataset firm/contracts-v{r.randint(1, 9)}"


@look
def _l_openai_ids(r):
    return f"batch batch_{rs(r, 32, HEX)} completed; file-{rs(r, 22)} uploaded; thread thread_{rs(r, 24)}"


@look
def _l_azure_deploy(r):
    return f"AZURE_OPENAI_ENDPOINT=https://firm-{r.choice(['uks', 'weu', 'swc'])}-{rs(r, 4, LOW)}.openai.azure.com/\nAZURE_OPENAI_DEPLOYMENT=gpt4o-{r.randint(1, 9)}\nAPI_VERSION=2024-{r.randint(1, 12):02d}-01-preview"


# ---- public by design
@look
def _l_stripe_pk(r):
    return f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_{r.choice(['live', 'test'])}_51{rs(r, 97)}"


@look
def _l_supabase_anon(r):
    iat = r.randint(1690000000, 1760000000)
    k = jwt(
        r,
        {"alg": "HS256", "typ": "JWT"},
        {
            "iss": "supabase",
            "ref": rs(r, 20, LOW),
            "role": "anon",
            "iat": iat,
            "exp": iat + 315360000,
        },
    )
    return f"NEXT_PUBLIC_SUPABASE_ANON_KEY={k}"


@look
def _l_sentry_dsn(r):
    return (
        f"SENTRY_DSN=https://{_sha(r, 32)}@o{r.randint(100000, 999999)}.ingest.de.sentry.io/{r.randint(10**6, 10**7)}"
    )


@look
def _l_auth0_client_id(r):
    return f"AUTH0_DOMAIN=firm-legal.eu.auth0.com\nAUTH0_CLIENT_ID={rs(r, 32)}\nAUTH0_CLIENT_SECRET=${{AUTH0_CLIENT_SECRET}}"


@look
def _l_entra_ids(r):
    return f"Entra app registration '{r.choice(APPS)}'\nApplication (client) ID: {uuid4(r)}\nDirectory (tenant) ID: {uuid4(r)}\nObject ID: {uuid4(r)}"


@look
def _l_firebase(r):
    return (
        'const firebaseConfig = {\n  apiKey: "AIza'
        + rs(r, 35, B64U)
        + '",\n  authDomain: "client-portal-'
        + rs(r, 5, LOW)
        + '.firebaseapp.com",\n  projectId: "client-portal",\n  appId: "1:'
        + str(r.randint(10**11, 10**12))
        + ":web:"
        + _sha(r, 22)
        + '"\n};'
    )


@look
def _l_posthog_phc(r):
    return f"NEXT_PUBLIC_POSTHOG_KEY=phc_{rs(r, 43)}\nNEXT_PUBLIC_POSTHOG_HOST=https://eu.i.posthog.com"


@look
def _l_algolia(r):
    return f"Algolia app {rs(r, 10, UP + '0123456789')}, search-only API key {_sha(r, 32)} (public, used in the clause library UI)"


@look
def _l_turnstile(r):
    return f'<div class="cf-turnstile" data-sitekey="0x4AAAAAAA{rs(r, 14, AN + "-_")}"></div>'


@look
def _l_recaptcha(r):
    return f"RECAPTCHA_SITE_KEY=6L{rs(r, 38, B64U)}  # site key is public; secret key in Vault"


@look
def _l_mapbox(r):
    tok = (
        "pk."
        + b64u(json.dumps({"u": "firm-maps", "a": rs(r, 25, LOW + "0123456789")}).encode())
        + "."
        + rs(r, 22, B64U)
    )
    return f"Office map on the contact page uses the public Mapbox token {tok}"


@look
def _l_adobe_client_id(r):
    return f"Adobe Acrobat Sign OAuth client id: CBJCHBCAABAA{rs(r, 32, AN + '-_')} (redirect https://app.example-legal.com/adobe/callback)"


@look
def _l_okta_ids(r):
    return f"Okta app 'Clio SSO' id 0oa{rs(r, 17)}, SCIM base URL https://firm.okta.com/api/v1/apps/0oa{rs(r, 17)}/scim"


@look
def _l_duo_host(r):
    return (
        f"Duo API hostname: api-{rs(r, 8, HEX)}.duosecurity.com (Admin API app created by {person(r)}; keys in KeePass)"
    )


@look
def _l_zoom_ids(r):
    return f"Zoom S2S app account id {rs(r, 22, B64U)}, meeting {r.randint(800, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} recorded to cloud"


@look
def _l_rc_ext(r):
    return f"RingCentral: main number extension {r.randint(100, 999)} (id {r.randint(10**9, 10**10)}), call queue {r.randint(1, 9)} -> reception"


@look
def _l_jwks(r):
    return (
        '{"keys":[{"kty":"RSA","use":"sig","kid":"'
        + rs(r, 22, B64U)
        + '","alg":"RS256","n":"'
        + b64u(rbytes(r, 256))
        + '","e":"AQAB"}]}'
    )


@look
def _l_oauth_url(r):
    return (
        f"https://firm.okta.com/oauth2/v1/authorize?client_id=0oa{rs(r, 17)}&response_type=code&scope=openid%20profile"
        f"&redirect_uri=https%3A%2F%2Fapp.example-legal.com%2Fcb&state={rs(r, 16, B64U)}&code_challenge={rs(r, 43, B64U)}&code_challenge_method=S256"
    )


# ---- references and placeholders
@look
def _l_gha_ref(r):
    v = r.choice(["OPENAI_API_KEY", "VERCEL_TOKEN", "CLIO_CLIENT_SECRET", "DD_API_KEY"])
    return (
        f"      - run: npm run deploy -- --app {r.choice(APPS)}\n        env:\n          {v}: ${{{{ secrets.{v} }}}}\n"
        f"          NODE_ENV: {r.choice(['production', 'staging', 'preview'])}"
    )


@look
def _l_airflow(r):
    return f'clio_secret = Variable.get("{r.choice(["clio_client_secret", "pacer_password", "everlaw_token"])}")\nsync_matters(clio_secret, since="{date(r)}")'


@look
def _l_dbutils(r):
    return (
        f'key = dbutils.secrets.get(scope="{r.choice(["legal-ml", "firm-it"])}", key="{r.choice(["openai-key", "cohere-key", "pinecone"])}")\n'
        f'df = spark.table("legal.clauses_v{r.randint(1, 40)}")'
    )


@look
def _l_vault_path(r):
    return (
        f"$ vault kv get -field=client_secret secret/firm/{r.choice(['clio', 'imanage', 'netdocs', 'zoom'])}/{r.choice(['prod', 'staging'])}\n"
        f"(run this yourself, output is not pasted here - {person(r)}, {date(r)})"
    )


@look
def _l_env_ref(r):
    v = r.choice(["ANTHROPIC_API_KEY", "MISTRAL_API_KEY", "PINECONE_API_KEY", "WORKOS_API_KEY"])
    return (
        f'api_key = os.environ["{v}"]  # raises KeyError in CI if the secret isn\'t mapped (line {r.randint(10, 99)})'
    )


@look
def _l_placeholder(r):
    v = r.choice(["CLIO_CLIENT_SECRET", "DUO_SKEY", "MIMECAST_SECRET_KEY", "PROOFPOINT_SECRET"])
    return f"# .env.example ({r.choice(APPS)})\n{v}=<your-{v.lower().replace('_', '-')}>\nAPI_BASE=https://api.example.com/v{r.randint(1, 4)}"


@look
def _l_dollar(r):
    v = r.choice(["STRIPE_SECRET_KEY", "REDIS_PASSWORD", "POSTGRES_PASSWORD", "DD_API_KEY"])
    return (
        f'services:\n  {r.choice(APPS)}:\n    environment:\n      {v}: ${{{v}}}\n      PORT: "{r.randint(3000, 9000)}"'
    )


@look
def _l_changeme(r):
    return (
        f"Default NVR login per the vendor manual is admin / changeme - {person(r)} already changed it on "
        f"{date(r)}; new one is in KeePass > Facilities > CCTV."
    )


@look
def _l_masked(r):
    return (
        f"Run ./deploy.sh\n  env:\n    {r.choice(['OPENAI_API_KEY', 'VERCEL_TOKEN', 'RENDER_API_KEY'])}: ***\n    REGION: {r.choice(['lhr', 'fra', 'ams'])}\n"
        f"+ vercel deploy --prod --token ***\nDeployed in {r.randint(10, 300)}s"
    )


@look
def _l_last4(r):
    return f"Revoked the old OpenAI key ending in ...{rs(r, 4)} (created {date(r)}); replacement only in Vercel."


@look
def _l_stars(r):
    return f"{r.choice(['Mimecast', 'Proofpoint', 'ShareFile'])} admin console shows secret: ••••••••{rs(r, 4)} (hidden). Regenerate if lost."


@look
def _l_ansible_vault(r):
    lines = wrap(_sha(r, 320), 80)
    return f"smtp_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{lines}"


@look
def _l_sops(r):
    return (
        f"pacer_password: ENC[AES256_GCM,data:{b64(rbytes(r, 12))},iv:{b64(rbytes(r, 32))},"
        f"tag:{b64(rbytes(r, 16))},type:str]\nsops:\n    version: 3.{r.randint(7, 9)}.1"
    )


@look
def _l_bcrypt(r):
    return f"legal=# SELECT email, password_hash FROM users LIMIT 1;\n {person(r).lower()}@firm.com | $2b$12${rs(r, 53, AN + './')}"


@look
def _l_argon2(r):
    return f'users.json: {{"user": "{person(r).lower()}", "hash": "$argon2id$v=19$m=65536,t=3,p=4${b64(rbytes(r, 16)).rstrip("=")}${b64(rbytes(r, 32)).rstrip("=")}"}}'


@look
def _l_password_policy(r):
    return (
        f"Password policy (Entra): min length {r.choice([12, 14, 16])}, max age {r.choice([0, 90, 180, 365])} days, banned list "
        f"includes firm name and season+year patterns; MFA via {r.choice(['Duo push', 'Authenticator', 'FIDO2 keys'])}."
    )


@look
def _l_keepass_ref(r):
    return f"Credentials for the {r.choice(['Xerox MFP', 'Fujitsu scanner', 'Paxton Net2', 'Hikvision NVR'])}: KeePass > Facilities > {r.choice(['Printers', 'Access', 'CCTV'])} (entry '{person(r)} - {date(r)}')"


@look
def _l_ps_readhost(r):
    return (
        f'$cred = Get-Credential -UserName "{r.choice(USERS)}@firm.com" -Message "M365 admin"\n'
        f"Connect-ExchangeOnline -Credential $cred -ShowBanner:$false  # {person(r)} {date(r)}"
    )


@look
def _l_ps_getsecret(r):
    return (
        f"$token = Get-Secret -Name '{r.choice(['FortiGateApi', 'DuoSkey', 'CitrixClient'])}' -Vault FirmIT -AsPlainText\n"
        f"$uri = 'https://10.0.{r.randint(0, 9)}.{r.randint(1, 254)}/api/v2/monitor/system/status'\n"
        f'Invoke-RestMethod -Uri $uri -Headers @{{Authorization = "Bearer $token"}}'
    )


@look
def _l_secretkeyref(r):
    return (
        f"env:\n  - name: {r.choice(['COHERE_API_KEY', 'QDRANT_API_KEY', 'REDIS_URL'])}\n    valueFrom:\n      secretKeyRef:\n"
        f"        name: {r.choice(APPS)}-secrets\n        key: {r.choice(['cohere', 'qdrant', 'redis'])}"
    )


@look
def _l_compose_secret_file(r):
    return (
        f"secrets:\n  pg_password:\n    file: ./secrets/pg_password.txt\nservices:\n  db:\n    image: postgres:{r.randint(14, 17)}.{r.randint(0, 9)}\n"
        f'    secrets: [pg_password]\n    ports: ["{r.randint(5400, 5499)}:5432"]'
    )


@look
def _l_appsettings_token(r):
    return '{\n  "Clio": {\n    "ClientId": "' + rs(r, 40) + '",\n    "ClientSecret": "#{ClioClientSecret}#"\n  }\n}'


@look
def _l_webconfig_placeholder(r):
    return (
        f'<add key="Worldox:Password" value="__WORLDOX_PASSWORD__" />\n<add key="Worldox:Server" value="wdx-sql0{r.randint(1, 4)}" />\n'
        f'<add key="Worldox:CabinetId" value="{r.randint(1, 999)}" />'
    )


@look
def _l_tf_var_ref(r):
    return f'resource "vercel_project_environment_variable" "openai" {{\n  key    = "OPENAI_API_KEY"\n  value  = var.openai_api_key\n  target = ["{r.choice(["production", "preview"])}"]\n  project_id = "prj_{rs(r, 28)}"\n}}'


@look
def _l_helm_existing(r):
    return f"auth:\n  existingSecret: {r.choice(APPS)}-redis\n  existingSecretPasswordKey: redis-password\nreplicas: {r.randint(1, 5)}"


@look
def _l_reg_guid(r):
    return (
        f'[HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Citrix\\ICA Client]\n"ClientName"="{person(r).upper()}-LT"\n'
        f'"DeviceId"="{{{uuid4(r).upper()}}}"\n"Timeout"=dword:{r.randint(0, 9999):08x}'
    )


@look
def _l_docs_example(r):
    return (
        'From the vendor docs (example values, not ours):\ncurl -u "API_KEY:API_SECRET" '
        f"https://api.example.com/v{r.randint(1, 3)}/{r.choice(['matters', 'contacts', 'invoices', 'documents'])}?limit={r.randint(10, 200)}\n"
        "Replace API_KEY and API_SECRET with your own."
    )


_AWS_DOC = "wJalrXUtnFEMI" + "/K7MDENG/" + "bPxRfiCY" + "EXAMPLE" + "KEY"


@look
def _l_aws_docs_example(r):
    return f"Docs snippet (note {r.randint(1, 99)}): aws_secret_access_key = {_AWS_DOC}  <- AWS documentation example, not real"


@look
def _l_openssl_howto(r):
    return (
        f"To create NEXTAUTH_SECRET run `openssl rand -base64 {r.choice([32, 48, 64])}` and paste it in Vercel "
        f"(Production only) for {r.choice(APPS)}. Don't reuse staging's. - {person(r)}"
    )


@look
def _l_key_hash(r):
    return f"api_keys table: id={r.randint(1, 900)} prefix=lk_{rs(r, 6, LOW)} key_sha256={_sha(r)} created_by={person(r).lower()}"


@look
def _l_csp_nonce(r):
    return f"content-security-policy: script-src 'self' 'nonce-{b64(rbytes(r, 16))}' https://js.stripe.com; frame-ancestors 'none'"


@look
def _l_redacted_url(r):
    return f"DATABASE_URL=postgresql://app:****@pg-matters.internal:5432/matters  (password redacted by {person(r)}, {date(r)})"


@look
def _l_redis_noauth(r):
    return f"$ redis-cli -h redis-cache.internal -p 6379 INFO keyspace\n# Keyspace\ndb0:keys={r.randint(100, 99999)},expires={r.randint(0, 99)},avg_ttl={r.randint(1000, 99999)}"


@look
def _l_sql_session(r):
    return f"matters=# SELECT id, provider, token_expires_at FROM oauth_tokens WHERE provider='clio';\n {r.randint(1, 99)} | clio | {date(r)} {hhmm(r)}:00+00\n(1 row)"


@look
def _l_ci_log(r):
    return (
        f"##[group]Run pnpm test\n> vitest run\n ✓ src/clio/pagination.test.ts ({r.randint(3, 30)} tests) {r.randint(10, 900)}ms\n"
        f" ✓ src/pacer/login.test.ts ({r.randint(2, 9)} tests)\nTest Files  2 passed\n##[endgroup]"
    )


@look
def _l_traceback(r):
    return (
        f'Traceback (most recent call last):\n  File "/app/sync.py", line {r.randint(10, 200)}, in main\n'
        f"    token = os.environ[\"CLIO_ACCESS_TOKEN\"]\nKeyError: 'CLIO_ACCESS_TOKEN'"
    )


@look
def _l_docker_log(r):
    a = r.choice(APPS)
    return f"{a}-1  | {ts(r)} INFO loaded {r.randint(3, 40)} settings (secrets redacted)\n{a}-1  | {ts(r)} INFO listening on :{r.randint(3000, 9000)}"


@look
def _l_http_dump(r):
    return (
        f"> POST /v1/embeddings HTTP/1.1\n> Host: api.cohere.com\n> Authorization: Bearer [REDACTED]\n"
        f"> Content-Length: {r.randint(100, 9000)}\n< HTTP/1.1 200 OK\n< x-request-id: {uuid4(r)}"
    )


@look
def _l_ps_transcript(r):
    return (
        f"PS C:\\> Get-MgApplication -Filter \"displayName eq '{r.choice(APPS)}'\" | Select AppId, Id\n\n"
        f"AppId                                Id\n-----                                --\n{uuid4(r)} {uuid4(r)}"
    )


@look
def _l_entra_secret_meta(r):
    return (
        f"Certificates & secrets: description '{r.choice(APPS)}-{date(r)}', secret ID {uuid4(r)}, value hint "
        f"'{rs(r, 3)}', expires {date(r)}. Value was shown once and copied straight to Key Vault."
    )


@look
def _l_gp_portal(r):
    return (
        f"GlobalProtect portal vpn.firm.com, gateway {r.choice(['lon', 'nyc', 'mil'])}-gw0{r.randint(1, 4)}; auth via SAML (Entra) + Duo, "
        f"no local passwords anymore (since {date(r)})."
    )


@look
def _l_wifi_guest(r):
    return (
        f"Guest Wi-Fi SSID 'Firm-Guest-{r.randint(1, 9)}' rotates weekly; reception prints the code from the Meraki dashboard "
        f"each {r.choice(['Monday', 'Friday'])} ({person(r)})."
    )


@look
def _l_it_note(r):
    return f"Nota IT: la password del plotter è stata spostata in KeePass (voce 'Plotter 2P'); ticket INC-{r.randint(10000, 99999)} chiuso."


@look
def _l_de_note(r):
    return f"Hinweis: Der Duo-Secret-Key steht NICHT im Wiki, sondern im Tresor (KeePass > IT > Duo). Änderung am {date(r)}."


@look
def _l_ja_note(r):
    return (
        f"メモ：Zoom の Webhook シークレットは Vercel の環境変数にあります。リポジトリには書かないこと。（{date(r)}）"
    )


@look
def _l_he_note(r):
    return f"הערה: מפתח ה-API של Clio נמצא ב-Key Vault בשם clio-secret, גרסה {_sha(r, 32)}."


@look
def _l_el_note(r):
    return f"Σημείωση: το checksum του αρχείου {_fname(r)} είναι {_sha(r)} (SHA-256)."


@look
def _l_fr_note(r):
    return f"Note : l'identifiant de l'enveloppe DocuSign est {uuid4(r)} ; rien de secret, on peut le partager avec le client."


@look
def _l_af_note(r):
    return f"Nota: die PACER-saaknommer is {r.randint(1, 4)}:{r.randint(20, 26)}-cv-{r.randint(1000, 9999)}; wagwoord is in KeePass, nie hier nie."


@look
def _l_hex_color_config(r):
    return f'theme:\n  primary: "#{_sha(r, 6)}"\n  accent: "#{_sha(r, 6)}"\n  build_id: {_sha(r, 12)}'


@look
def _l_session_cursor(r):
    return f"Clio pagination: next page_token={rs(r, 8, '0123456789')} order=id(asc) fields=id,display_number,client{{name}}"


@look
def _l_ulid(r):
    return f"WorkOS directory directory_01{rs(r, 24, UP + '0123456789')} synced {r.randint(10, 400)} users; org org_01{rs(r, 24, UP + '0123456789')}"


@look
def _l_render_blueprint(r):
    return (
        "services:\n  - type: web\n    name: " + r.choice(APPS) + "\n    envVars:\n      - key: DATABASE_URL\n"
        "        fromDatabase:\n          name: matters-db\n          property: connectionString\n"
        "      - key: OPENAI_API_KEY\n        sync: false\n    plan: "
        + r.choice(["starter", "standard", "pro"])
        + f"\n    numInstances: {r.randint(1, 6)}"
    )


@look
def _l_vercel_json_ref(r):
    return (
        '{\n  "env": {\n    "OPENAI_API_KEY": "@openai-api-key",\n    "REGION": "'
        + r.choice(["lhr1", "fra1", "iad1"])
        + '"\n  },\n  "functions": { "api/**": { "maxDuration": '
        + str(r.randint(10, 300))
        + " } }\n}"
    )


@look
def _l_fingerprint_gh(r):
    return f"GitHub App private key SHA256 fingerprint: {b64(rbytes(r, 32)).rstrip('=')} (key generated {date(r)}, stored in Key Vault)"


@look
def _l_cert_serial(r):
    return f"NetScaler SSL cert *.firm.com serial {':'.join(rs(r, 2, '0123456789ABCDEF') for _ in range(16))}, valid until {date(r)}"


@look
def _l_mimecast_ids(r):
    return f"Mimecast application id {uuid4(r)} registered for the SIEM export; message id <{_sha(r, 16)}@EUR.PROD.OUTLOOK.COM> released from hold."


@look
def _l_proofpoint_ids(r):
    return f"Proofpoint TAP threat {_sha(r)} (campaign {uuid4(r)}) blocked {r.randint(2, 80)} messages to partners@."


@look
def _l_citrix_ids(r):
    return f"Citrix Cloud customer id {rs(r, 12, LOW + '0123456789')}, delivery group 'Litigation-DG' uuid {uuid4(r)}; VDA {r.randint(2203, 2411)} LTSR"


def _lookalikes(r: random.Random, seen: set) -> list:
    out = []
    for g in _LOOK:
        got, tries = 0, 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 1000:
                raise RuntimeError(f"look-alike generator {g.__name__} cannot yield {LOOK_PER_GEN} texts")
            t = g(r)
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
