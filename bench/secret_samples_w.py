"""Labelled test set W for a secret detector: memories of an online retailer's platform and support teams.

Theme
-----
Short texts an AI coding agent saves as "memories" for the platform and support teams of a mid-size
online retailer with a mobile app: support/CRM (Zendesk, Intercom, Freshdesk, Help Scout, Gorgias,
HubSpot, Salesforce), marketing/analytics (Braze, Klaviyo, Mixpanel, Amplitude, Google Ads, Meta Ads),
ERP/logistics (SAP, Odoo, NetSuite, ShipStation, EasyPost, UPS), payments/fraud (Stripe, Braintree,
Adyen, Klarna), search (Elastic, Algolia, Typesense, Meilisearch), feature flags (LaunchDarkly, Unleash,
Flagsmith), observability (Datadog, New Relic, Grafana, PagerDuty, Opsgenie, Honeycomb), identity (Okta,
Auth0, Keycloak, Entra ID), cloud/Kubernetes (AWS, GCP, Azure, Argo CD, Vault), data stores (Postgres,
MySQL, MongoDB, Redis, Kafka, RabbitMQ, Snowflake) and the mobile app (Firebase, OneSignal, RevenueCat,
App Store Connect, Google Play).  Styles: about half notes/lessons/incident timelines/TODOs/support
tickets/chat (mostly English, some Spanish, Portuguese, French, Italian, Hindi, Japanese, Polish), a
quarter config and code, a quarter tool output (kubectl, helm, cloud CLIs, curl, CI logs, traces, HTTP).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text`` and the
  only credential in it.  Every kind has exactly ``PER_KIND`` (30) positives.
* ``lookalikes``: texts with no credential at all; ``_LOOK`` is a list of generator functions, each
  called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic for a seed (one ``random.Random(seed)``); no text appears twice in the whole output.
* Size: 89 kinds x 30 = 2670 positives; 143 look-alike generators x 12 = 1716 look-alikes.
  Positive templates are picked per kind with weights 1/2 memo (notes, lessons, incident timelines,
  TODOs, decisions, tickets, chat, 7 other languages), 1/4 config/code, 1/4 tool output; a few kinds
  also have their own templates (Kafka JAAS, grafana.ini, pyrfc, Stripe webhook verification...).

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs: only the
  password.  Pre-signed URLs: only the signature value (as it appears, URL-encoded where it is).
* PEM / OpenSSH private keys: the whole armoured block from the BEGIN line to the END line, exactly as
  it appears (for a service-account JSON, the JSON-escaped ``private_key`` value without the trailing
  ``\\n``).
* UUID-shaped vendor tokens are secrets only when the text names them as a token/key/secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, search-only keys, public certificates and keys), vendor documentation example
  values, encrypted blobs (Ansible vault, sops, KMS, sealed secrets...) and password hashes are
  look-alikes.  Bare AWS access key ids are in neither group.
* No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.
"""

from __future__ import annotations

import base64
import json
import random
import string
from types import SimpleNamespace

LOOK_PER_GEN = 12
PER_KIND = 30

_AL = string.ascii_letters + string.digits
_LA = string.ascii_lowercase + string.digits
_UA = string.ascii_uppercase + string.digits
_HX = "0123456789abcdef"
_B64 = _AL + "+/"
_B64U = _AL + "-_"
_B32 = "abcdefghijklmnopqrstuvwxyz234567"


def _r(rng: random.Random, n: int, alpha: str = _AL) -> str:
    return "".join(rng.choice(alpha) for _ in range(n))


def _hex(rng: random.Random, n: int) -> str:
    return _r(rng, n, _HX)


def _dig(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + _r(rng, n - 1, string.digits)


def _uuid(rng: random.Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _b64(data: bytes, url: bool = False, pad: bool = True) -> str:
    s = base64.urlsafe_b64encode(data).decode() if url else base64.b64encode(data).decode()
    return s if pad else s.rstrip("=")


def _rb(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def _jwt(rng: random.Random, payload: dict, alg: str = "RS256") -> str:
    head = {"alg": alg, "kid": _r(rng, 27, _B64U), "typ": "JWT"} if alg == "RS256" else {"alg": alg, "typ": "JWT"}
    h = _b64(json.dumps(head, separators=(",", ":")).encode(), url=True, pad=False)
    p = _b64(json.dumps(payload, separators=(",", ":")).encode(), url=True, pad=False)
    sig = _b64(_rb(rng, 256 if alg == "RS256" else 32), url=True, pad=False)
    return f"{h}.{p}.{sig}"


# --------------------------------------------------------------------------- passwords
_WORDS = [
    "tulip",
    "rover",
    "maple",
    "harbor",
    "falcon",
    "cobalt",
    "pepper",
    "lantern",
    "meadow",
    "copper",
    "orbit",
    "willow",
    "saffron",
    "glacier",
    "nimbus",
    "juniper",
    "marble",
    "cactus",
    "violet",
    "thunder",
    "biscuit",
    "pixel",
    "ember",
    "coral",
    "summit",
    "quartz",
    "velvet",
    "raven",
    "mango",
    "breeze",
    "parrot",
    "walnut",
    "cinder",
    "piano",
    "kettle",
    "lemon",
    "comet",
    "fjord",
    "basil",
    "otter",
]
_SEASONS = [
    "Summer",
    "Winter",
    "Autumn",
    "Spring",
    "January",
    "October",
    "Welcome",
    "Checkout",
    "Support",
    "Holiday",
    "Monday",
    "Lisboa",
]


def _pw(rng: random.Random, url_safe: bool = False) -> str:
    sym = "-_.~" if url_safe else "!@#%^&*-_=+?"
    style = rng.randrange(5)
    if style == 0:
        return rng.choice(_SEASONS) + str(rng.randint(2019, 2027)) + rng.choice(sym)
    if style == 1:
        return f"{rng.choice(_WORDS)}-{rng.choice(_WORDS).capitalize()}-{rng.randint(10, 99)}"
    if style == 2:
        body = rng.choice(string.ascii_letters) + _r(rng, rng.randint(15, 23), _AL + sym)
        return body + rng.choice(sym) + str(rng.randint(0, 9))
    if style == 3:
        sep = rng.choice("-." if url_safe else "-._")
        return sep.join(rng.choice(_WORDS) for _ in range(4)) + sep + str(rng.randint(1, 99))
    return (
        rng.choice(_WORDS).capitalize() + str(rng.randint(10, 9999)) + rng.choice(_WORDS).capitalize() + rng.choice(sym)
    )


# --------------------------------------------------------------------------- kind generators
def _g_stripe(prefix: str):
    def g(r):
        body = "51" + _r(r, 97) if r.random() < 0.5 else _r(r, 24)
        return prefix + "_" + "live_" + body

    return g


def _g_adyen(r):
    return "AQE" + _r(r, 77, _B64) + "==-" + _r(r, 43, _B64) + "=-" + _r(r, 16)


def _g_elastic(r):
    return _b64((_r(r, 20, _B64U) + ":" + _r(r, 22, _B64U)).encode())


def _g_intercom(r):
    return _b64(("tok:" + _uuid(r) + ":1:0").encode())


def _g_azure_secret(r):
    return _r(r, 3) + str(r.randint(0, 9)) + "Q~" + _r(r, 34, _AL + "_.~-")


def _g_vault(r):
    return "hv" + "s." + (_r(r, 24) if r.random() < 0.5 else "CAES" + "I" + _r(r, 86, _B64U))


def _g_argocd(r):
    now = r.randint(1_700_000_000, 1_790_000_000)
    acct = r.choice(["ci-bot", "release", "image-updater"])
    return _jwt(
        r,
        {
            "iss": "argocd",
            "sub": f"{acct}:apiKey",
            "nbf": now,
            "iat": now,
            "jti": _uuid(r),
        },
        alg="HS256",
    )


def _g_k8s_sa(r):
    now = r.randint(1_700_000_000, 1_790_000_000)
    ns = r.choice(["payments", "checkout", "support-tools", "argocd", "monitoring"])
    sa = r.choice(["deployer", "default", "external-secrets", "grafana-agent"])
    return _jwt(
        r,
        {
            "aud": ["https://kubernetes.default.svc"],
            "exp": now + 31536000,
            "iat": now,
            "iss": "https://kubernetes.default.svc",
            "kubernetes.io": {
                "namespace": ns,
                "serviceaccount": {"name": sa, "uid": _uuid(r)},
            },
            "sub": f"system:serviceaccount:{ns}:{sa}",
        },
    )


def _g_unleash(r):
    return f"{r.choice(['default', 'checkout', 'mobile'])}:{r.choice(['production', 'staging'])}." + _hex(r, 64)


def _g_fcm(r):
    return "AAAA" + _r(r, 7, _B64U) + ":" + "APA91b" + _r(r, 134, _B64U)


def _g_onesignal(r):
    return "os_v2_app_" + _r(r, 113, _B32) if r.random() < 0.5 else _r(r, 48)


def _g_app_pw(r):
    return "-".join(_r(r, 4, string.ascii_lowercase) for _ in range(4))


def _g_gh_fine(r):
    return "github" + "_pat_" + "11" + _r(r, 20, _UA) + "_" + _r(r, 59)


def _g_slack_bot(r):
    return "xo" + "xb-" + _dig(r, 11) + "-" + _dig(r, 13) + "-" + _r(r, 24)


def _g_meta(r):
    return "EAA" + r.choice("BGI") + _r(r, r.randint(170, 200))


def _g_sf(r):
    return "00D" + _r(r, 12) + "!" + _r(r, 96, _AL + "._")


def _g_mailchimp(r):
    return _hex(r, 32) + "-us" + str(r.randint(1, 21))


# --------------------------------------------------------------------------- URL-shaped kinds (full, secret)
_DBH = [
    "db-primary.prod.internal",
    "orders-db.cluster-c9x2.eu-west-1.rds.amazonaws.com",
    "10.20.4.17",
    "pg.shop.internal",
]


def _u_pg(r):
    pw = _pw(r, True)
    user = r.choice(["orders_app", "crm_sync", "support_ro", "postgres", "checkout"])
    return (
        f"postgresql://{user}:{pw}@{r.choice(_DBH)}:5432/{r.choice(['orders', 'shop', 'crm'])}?sslmode=require",
        pw,
    )


def _u_mysql(r):
    pw = _pw(r, True)
    host = r.choice(["mysql-legacy.internal", "magento-db.prod", "10.12.0.5"])
    if r.random() < 0.5:
        return (
            f"jdbc:mysql://{host}:3306/erp?user=erp_sync&password={pw}&useSSL=true",
            pw,
        )
    return f"mysql://magento:{pw}@{host}:3306/magento", pw


def _u_mongo(r):
    pw = _pw(r, True)
    return (
        f"mongodb+srv://{r.choice(['catalog', 'reviews', 'admin'])}:{pw}@cluster0.{_r(r, 5, _LA)}.mongodb.net/shop?retryWrites=true&w=majority",
        pw,
    )


def _u_redis(r):
    pw = _pw(r, True) if r.random() < 0.6 else _hex(r, 32)
    return (
        f"rediss://default:{pw}@{r.choice(['cache.prod.internal', 'sessions-redis.shop.internal', 'redis-12345.c1.eu-west-1-1.ec2.cloud.redislabs.com'])}:6380/0",
        pw,
    )


def _u_amqp(r):
    pw = _pw(r, True)
    return (
        f"amqps://{r.choice(['orders', 'fulfilment', 'notifier'])}:{pw}@{r.choice(['rabbit.prod.internal', 'b-1a2b.mq.eu-west-1.amazonaws.com'])}:5671/{r.choice(['shop', 'wms', '%2F'])}",
        pw,
    )


def _u_es(r):
    pw = _pw(r, True)
    return (
        f"https://elastic:{pw}@{r.choice(['es-prod.internal', 'search-logs.es.eu-west-1.aws.found.io'])}:9243",
        pw,
    )


def _u_nexus(r):
    pw = _pw(r, True)
    return (
        f"https://{r.choice(['deploy', 'ci', 'mobile-ci'])}:{pw}@{r.choice(['nexus.shop.internal', 'artifacts.shop.internal'])}/repository/{r.choice(['npm-private', 'maven-releases', 'pypi-internal'])}/",
        pw,
    )


def _u_slack_hook(r):
    tok = _r(r, 24)
    return "https://hooks.slack.com/" + "services/T" + _r(r, 8, _UA) + "/B" + _r(r, 10, _UA) + "/" + tok, tok


def _u_discord(r):
    tok = _r(r, 68, _B64U)
    return f"https://discord.com/api/webhooks/{_dig(r, 19)}/{tok}", tok


def _u_teams(r):
    tok = "V2" + _r(r, 43, _B64U)
    return (
        f"https://shopco.webhook.office.com/webhookb2/{_uuid(r)}@{_uuid(r)}/IncomingWebhook/{_hex(r, 32)}/{_uuid(r)}/{tok}",
        tok,
    )


def _u_s3(r):
    sig = _hex(r, 64)
    akid = "AK" + "IA" + _r(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    d = f"2026{r.randint(1, 12):02d}{r.randint(1, 28):02d}"
    obj = r.choice(
        [
            "exports/orders-2026-11.csv",
            "returns/labels/RMA-88123.pdf",
            "app/builds/shop-7.3.1.ipa",
        ]
    )
    url = (
        f"https://shop-exports-prod.s3.eu-west-1.amazonaws.com/{obj}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={akid}%2F{d}%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date={d}T{r.randint(10, 23)}0000Z"
        f"&X-Amz-Expires={r.choice([900, 3600, 604800])}&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return url, sig


def _u_gcs(r):
    sig = _hex(r, 512)
    url = (
        f"https://storage.googleapis.com/shop-media-prod/{r.choice(['catalog/feed.xml', 'invoices/INV-20931.pdf'])}"
        f"?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exporter%40shop-prod.iam.gserviceaccount.com"
        f"%2F20261{r.randint(0, 1)}{r.randint(10, 28)}%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261104T101500Z"
        f"&X-Goog-Expires=3600&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return url, sig


def _u_sas(r):
    raw = _b64(_rb(r, 32))
    sig = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    url = (
        f"https://shopassets{r.randint(1, 9)}.blob.core.windows.net/{r.choice(['product-images', 'exports', 'backups'])}"
        f"/{r.choice(['feed.json', 'db-2026-11-30.bak', 'hero.webp'])}?sv=2022-11-02&ss=b&srt=o&sp=r"
        f"&se=2026-12-{r.randint(10, 31)}T00:00:00Z&spr=https&sig={sig}"
    )
    return url, sig


def _u_azure_conn(r):
    key = _b64(_rb(r, 64))
    acct = f"shop{r.choice(['media', 'exports', 'logs'])}prod"
    return (
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net",
        key,
    )


# --------------------------------------------------------------------------- block kinds (full, secret)
def _armor(label: str) -> tuple[str, str]:
    """BEGIN/END lines, assembled so that no private-key header is a literal in this file."""
    dashes = "-" * 5
    return f"{dashes}BEG" + f"IN {label}{dashes}", f"{dashes}EN" + f"D {label}{dashes}"


_PK = "PRIVATE" + " KEY"


def _pem_lines(r, prefix: str, n_full: int, tail: int, width: int = 64) -> list[str]:
    body = prefix + _r(r, width * n_full + tail - len(prefix), _B64)
    return [body[i : i + width] for i in range(0, len(body), width)]


def _k_p8(r):
    lines = _pem_lines(r, "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg", 3, 8)
    b, e = _armor(_PK)
    block = b + "\n" + "\n".join(lines) + "\n" + e
    return block, block


def _k_openssh(r):
    lines = _pem_lines(
        r,
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        5,
        12,
        70,
    )
    b, e = _armor("OPENSSH " + _PK)
    block = b + "\n" + "\n".join(lines) + "\n" + e
    return block, block


def _k_rsa(r):
    lines = _pem_lines(r, "MIIEow" + "IBAAKCAQEA", 24, 36)
    b, e = _armor("RSA " + _PK)
    block = b + "\n" + "\n".join(lines) + "\n" + e
    return block, block


def _k_gsa(r):
    lines = _pem_lines(r, "MIIEv" + "QIBADANBgkqhkiG9w0BAQEFAASC", 25, 12)
    b, e = _armor(_PK)
    esc = b + "\\n" + "\\n".join(lines) + "\\n" + e
    proj = r.choice(["shop-mobile-prod", "retail-data-prod", "shop-play-publisher"])
    sa = r.choice(
        [
            "play-publisher",
            "bq-exporter",
            "firebase-adminsdk-" + _r(r, 5, string.ascii_lowercase),
        ]
    )
    doc = (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key_id": "{_hex(r, 40)}",\n'
        f'  "private_key": "{esc}\\n",\n'
        f'  "client_email": "{sa}@{proj}.iam.gserviceaccount.com",\n'
        f'  "client_id": "{_dig(r, 21)}",\n'
        '  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n'
        "}"
    )
    return doc, esc


# --------------------------------------------------------------------------- kinds table
# (kind, service, label, env var, category, generator, http header or None)
# categories: t token, p password, u connection string / basic-auth URL, w webhook, s signed URL, k block
_B = "Authorization: Bearer {v}"
_KINDS = [
    (
        "shopify_admin_access_token",
        "Shopify",
        "Admin API access token",
        "SHOPIFY_ADMIN_TOKEN",
        "t",
        lambda r: "shp" + "at_" + _hex(r, 32),
        "X-Shopify-Access-Token: {v}",
    ),
    (
        "stripe_secret_key",
        "Stripe",
        "live secret key",
        "STRIPE_SECRET_KEY",
        "t",
        _g_stripe("sk"),
        _B,
    ),
    (
        "stripe_restricted_key",
        "Stripe",
        "restricted key",
        "STRIPE_RESTRICTED_KEY",
        "t",
        _g_stripe("rk"),
        _B,
    ),
    (
        "stripe_webhook_secret",
        "Stripe",
        "webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        "t",
        lambda r: "wh" + "sec_" + _r(r, 32),
        None,
    ),
    (
        "braintree_private_key",
        "Braintree",
        "private key",
        "BRAINTREE_PRIVATE_KEY",
        "t",
        lambda r: _hex(r, 32),
        None,
    ),
    (
        "braintree_access_token",
        "Braintree",
        "access token",
        "BRAINTREE_ACCESS_TOKEN",
        "t",
        lambda r: "access_token" + "$production$" + _r(r, 16, _LA) + "$" + _hex(r, 32),
        _B,
    ),
    (
        "adyen_api_key",
        "Adyen",
        "API key",
        "ADYEN_API_KEY",
        "t",
        _g_adyen,
        "X-API-Key: {v}",
    ),
    (
        "adyen_hmac_key",
        "Adyen",
        "HMAC key",
        "ADYEN_HMAC_KEY",
        "t",
        lambda r: _hex(r, 64).upper(),
        None,
    ),
    (
        "klarna_api_password",
        "Klarna",
        "API password",
        "KLARNA_API_PASSWORD",
        "t",
        lambda r: "klarna" + "_live_api_" + _r(r, 40, _AL + "_"),
        None,
    ),
    (
        "zendesk_api_token",
        "Zendesk",
        "API token",
        "ZENDESK_API_TOKEN",
        "t",
        lambda r: _r(r, 40),
        None,
    ),
    (
        "intercom_access_token",
        "Intercom",
        "access token",
        "INTERCOM_ACCESS_TOKEN",
        "t",
        _g_intercom,
        _B,
    ),
    (
        "freshdesk_api_key",
        "Freshdesk",
        "API key",
        "FRESHDESK_API_KEY",
        "t",
        lambda r: _r(r, 20),
        None,
    ),
    (
        "helpscout_app_secret",
        "Help Scout",
        "app secret",
        "HELPSCOUT_APP_SECRET",
        "t",
        lambda r: _r(r, 32),
        None,
    ),
    (
        "hubspot_private_app_token",
        "HubSpot",
        "private app token",
        "HUBSPOT_ACCESS_TOKEN",
        "t",
        lambda r: "pat-" + r.choice(["na1", "eu1", "na2"]) + "-" + _uuid(r),
        _B,
    ),
    (
        "salesforce_access_token",
        "Salesforce",
        "session access token",
        "SF_ACCESS_TOKEN",
        "t",
        _g_sf,
        _B,
    ),
    (
        "braze_rest_api_key",
        "Braze",
        "REST API key",
        "BRAZE_REST_API_KEY",
        "t",
        _uuid,
        _B,
    ),
    (
        "klaviyo_private_api_key",
        "Klaviyo",
        "private API key",
        "KLAVIYO_PRIVATE_API_KEY",
        "t",
        lambda r: "pk" + "_" + _hex(r, 34),
        "Authorization: Klaviyo-API-Key {v}",
    ),
    (
        "mixpanel_service_account_secret",
        "Mixpanel",
        "service account secret",
        "MIXPANEL_SA_SECRET",
        "t",
        lambda r: _r(r, 32),
        None,
    ),
    (
        "amplitude_secret_key",
        "Amplitude",
        "secret key",
        "AMPLITUDE_SECRET_KEY",
        "t",
        lambda r: _hex(r, 32),
        None,
    ),
    (
        "google_ads_developer_token",
        "Google Ads",
        "developer token",
        "GOOGLE_ADS_DEVELOPER_TOKEN",
        "t",
        lambda r: _r(r, 22, _B64U),
        "developer-token: {v}",
    ),
    (
        "meta_system_user_token",
        "Meta Ads",
        "system user access token",
        "META_ACCESS_TOKEN",
        "t",
        _g_meta,
        _B,
    ),
    (
        "odoo_api_key",
        "Odoo",
        "API key",
        "ODOO_API_KEY",
        "t",
        lambda r: _hex(r, 40),
        None,
    ),
    (
        "netsuite_token_secret",
        "NetSuite",
        "TBA token secret",
        "NETSUITE_TOKEN_SECRET",
        "t",
        lambda r: _hex(r, 64),
        None,
    ),
    (
        "shipstation_api_secret",
        "ShipStation",
        "API secret",
        "SHIPSTATION_API_SECRET",
        "t",
        lambda r: _hex(r, 32),
        None,
    ),
    (
        "easypost_api_key",
        "EasyPost",
        "production API key",
        "EASYPOST_API_KEY",
        "t",
        lambda r: "EZ" + "AK" + _hex(r, 54),
        _B,
    ),
    (
        "ups_client_secret",
        "UPS",
        "OAuth client secret",
        "UPS_CLIENT_SECRET",
        "t",
        lambda r: _r(r, 64),
        None,
    ),
    (
        "elastic_api_key",
        "Elastic",
        "API key",
        "ELASTIC_API_KEY",
        "t",
        _g_elastic,
        "Authorization: ApiKey {v}",
    ),
    (
        "algolia_admin_api_key",
        "Algolia",
        "Admin API key",
        "ALGOLIA_ADMIN_API_KEY",
        "t",
        lambda r: _hex(r, 32),
        "X-Algolia-API-Key: {v}",
    ),
    (
        "typesense_admin_api_key",
        "Typesense",
        "admin API key",
        "TYPESENSE_API_KEY",
        "t",
        lambda r: _r(r, 32),
        "X-TYPESENSE-API-KEY: {v}",
    ),
    (
        "meilisearch_master_key",
        "Meilisearch",
        "master key",
        "MEILI_MASTER_KEY",
        "t",
        lambda r: _r(r, r.choice([32, 40, 44]), _AL + "-_"),
        _B,
    ),
    (
        "launchdarkly_sdk_key",
        "LaunchDarkly",
        "server-side SDK key",
        "LAUNCHDARKLY_SDK_KEY",
        "t",
        lambda r: "sdk-" + _uuid(r),
        "Authorization: {v}",
    ),
    (
        "launchdarkly_api_token",
        "LaunchDarkly",
        "API access token",
        "LD_API_TOKEN",
        "t",
        lambda r: "api-" + _uuid(r),
        "Authorization: {v}",
    ),
    (
        "unleash_api_token",
        "Unleash",
        "backend API token",
        "UNLEASH_API_TOKEN",
        "t",
        _g_unleash,
        "Authorization: {v}",
    ),
    (
        "flagsmith_server_key",
        "Flagsmith",
        "server-side environment key",
        "FLAGSMITH_SERVER_KEY",
        "t",
        lambda r: "ser." + _r(r, 22),
        "X-Environment-Key: {v}",
    ),
    (
        "datadog_api_key",
        "Datadog",
        "API key",
        "DD_API_KEY",
        "t",
        lambda r: _hex(r, 32),
        "DD-API-KEY: {v}",
    ),
    (
        "datadog_app_key",
        "Datadog",
        "application key",
        "DD_APP_KEY",
        "t",
        lambda r: _hex(r, 40),
        "DD-APPLICATION-KEY: {v}",
    ),
    (
        "newrelic_user_api_key",
        "New Relic",
        "user API key",
        "NEW_RELIC_API_KEY",
        "t",
        lambda r: "NR" + "AK-" + _r(r, 27, _UA),
        "API-Key: {v}",
    ),
    (
        "newrelic_license_key",
        "New Relic",
        "ingest license key",
        "NEW_RELIC_LICENSE_KEY",
        "t",
        lambda r: _hex(r, 36) + "NR" + "AL",
        "X-License-Key: {v}",
    ),
    (
        "grafana_service_account_token",
        "Grafana",
        "service account token",
        "GRAFANA_TOKEN",
        "t",
        lambda r: "gl" + "sa_" + _r(r, 32) + "_" + _hex(r, 8),
        _B,
    ),
    (
        "pagerduty_api_key",
        "PagerDuty",
        "REST API key",
        "PAGERDUTY_API_KEY",
        "t",
        lambda r: r.choice(["u+", "y_", ""]) + _r(r, 18, _AL + "-_"),
        "Authorization: Token token={v}",
    ),
    (
        "opsgenie_api_key",
        "Opsgenie",
        "API integration key",
        "OPSGENIE_API_KEY",
        "t",
        _uuid,
        "Authorization: GenieKey {v}",
    ),
    (
        "honeycomb_api_key",
        "Honeycomb",
        "ingest API key",
        "HONEYCOMB_API_KEY",
        "t",
        lambda r: _r(r, 22) if r.random() < 0.5 else "hca" + "ik_" + _r(r, 58, _LA),
        "X-Honeycomb-Team: {v}",
    ),
    (
        "okta_api_token",
        "Okta",
        "API token",
        "OKTA_API_TOKEN",
        "t",
        lambda r: "00" + _r(r, 40, _AL + "-_"),
        "Authorization: SSWS {v}",
    ),
    (
        "auth0_client_secret",
        "Auth0",
        "client secret",
        "AUTH0_CLIENT_SECRET",
        "t",
        lambda r: _r(r, 64, _AL + "-_"),
        None,
    ),
    (
        "keycloak_client_secret",
        "Keycloak",
        "client secret",
        "KEYCLOAK_CLIENT_SECRET",
        "t",
        lambda r: _r(r, 32),
        None,
    ),
    (
        "azure_client_secret",
        "Entra ID",
        "app registration client secret",
        "AZURE_CLIENT_SECRET",
        "t",
        _g_azure_secret,
        None,
    ),
    (
        "aws_secret_access_key",
        "AWS",
        "secret access key",
        "AWS_SECRET_ACCESS_KEY",
        "t",
        lambda r: _r(r, 40, _B64),
        None,
    ),
    (
        "google_oauth_client_secret",
        "Google",
        "OAuth client secret",
        "GOOGLE_CLIENT_SECRET",
        "t",
        lambda r: "GOC" + "SPX-" + _r(r, 28, _B64U),
        None,
    ),
    (
        "vault_token",
        "Vault",
        "token",
        "VAULT_TOKEN",
        "t",
        _g_vault,
        "X-Vault-Token: {v}",
    ),
    (
        "argocd_auth_token",
        "Argo CD",
        "API token",
        "ARGOCD_AUTH_TOKEN",
        "t",
        _g_argocd,
        _B,
    ),
    (
        "kubernetes_sa_token",
        "Kubernetes",
        "service account token",
        "K8S_TOKEN",
        "t",
        _g_k8s_sa,
        _B,
    ),
    (
        "confluent_api_secret",
        "Confluent Cloud",
        "API secret",
        "KAFKA_API_SECRET",
        "t",
        lambda r: _r(r, 64, _AL + "+/"),
        None,
    ),
    (
        "fcm_server_key",
        "Firebase",
        "Cloud Messaging server key",
        "FCM_SERVER_KEY",
        "t",
        _g_fcm,
        "Authorization: key={v}",
    ),
    (
        "onesignal_rest_api_key",
        "OneSignal",
        "REST API key",
        "ONESIGNAL_REST_API_KEY",
        "t",
        _g_onesignal,
        "Authorization: Key {v}",
    ),
    (
        "revenuecat_secret_api_key",
        "RevenueCat",
        "secret API key",
        "REVENUECAT_SECRET_KEY",
        "t",
        lambda r: "sk" + "_" + _r(r, 32),
        _B,
    ),
    (
        "apple_app_specific_password",
        "Apple ID",
        "app-specific password",
        "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD",
        "t",
        _g_app_pw,
        None,
    ),
    (
        "sendgrid_api_key",
        "SendGrid",
        "API key",
        "SENDGRID_API_KEY",
        "t",
        lambda r: "SG" + "." + _r(r, 22, _B64U) + "." + _r(r, 43, _B64U),
        _B,
    ),
    (
        "twilio_auth_token",
        "Twilio",
        "auth token",
        "TWILIO_AUTH_TOKEN",
        "t",
        lambda r: _hex(r, 32),
        None,
    ),
    (
        "mailchimp_api_key",
        "Mailchimp",
        "API key",
        "MAILCHIMP_API_KEY",
        "t",
        _g_mailchimp,
        None,
    ),
    ("slack_bot_token", "Slack", "bot token", "SLACK_BOT_TOKEN", "t", _g_slack_bot, _B),
    (
        "github_pat",
        "GitHub",
        "personal access token",
        "GITHUB_TOKEN",
        "t",
        lambda r: "gh" + "p_" + _r(r, 36),
        "Authorization: token {v}",
    ),
    (
        "github_fine_grained_pat",
        "GitHub",
        "fine-grained token",
        "GH_RELEASE_TOKEN",
        "t",
        _g_gh_fine,
        _B,
    ),
    (
        "gitlab_pat",
        "GitLab",
        "personal access token",
        "GITLAB_TOKEN",
        "t",
        lambda r: "gl" + "pat-" + _r(r, 20, _AL + "-_"),
        "PRIVATE-TOKEN: {v}",
    ),
    (
        "rails_secret_key_base",
        "Rails",
        "secret_key_base",
        "SECRET_KEY_BASE",
        "t",
        lambda r: _hex(r, 128),
        None,
    ),
    (
        "jwt_signing_secret",
        "checkout API",
        "JWT signing secret",
        "JWT_SECRET",
        "t",
        lambda r: _r(r, r.choice([32, 48, 64]), _B64U),
        None,
    ),
    (
        "snowflake_password",
        "Snowflake",
        "password",
        "SNOWFLAKE_PASSWORD",
        "p",
        _pw,
        None,
    ),
    (
        "android_keystore_password",
        "Android",
        "upload keystore password",
        "ANDROID_KEYSTORE_PASSWORD",
        "p",
        _pw,
        None,
    ),
    ("smtp_password", "SMTP relay", "password", "SMTP_PASSWORD", "p", _pw, None),
    (
        "ldap_bind_password",
        "Keycloak LDAP",
        "bind password",
        "LDAP_BIND_PASSWORD",
        "p",
        _pw,
        None,
    ),
    (
        "sap_rfc_password",
        "SAP",
        "RFC user password",
        "SAP_RFC_PASSWORD",
        "p",
        _pw,
        None,
    ),
    (
        "kafka_sasl_password",
        "Kafka",
        "SASL/SCRAM password",
        "KAFKA_SASL_PASSWORD",
        "p",
        _pw,
        None,
    ),
    (
        "grafana_admin_password",
        "Grafana",
        "admin password",
        "GF_SECURITY_ADMIN_PASSWORD",
        "p",
        _pw,
        None,
    ),
    (
        "postgres_password",
        "Postgres",
        "connection string",
        "DATABASE_URL",
        "u",
        _u_pg,
        None,
    ),
    ("mysql_password", "MySQL", "connection URL", "MYSQL_URL", "u", _u_mysql, None),
    (
        "mongodb_password",
        "MongoDB Atlas",
        "connection string",
        "MONGODB_URI",
        "u",
        _u_mongo,
        None,
    ),
    ("redis_password", "Redis", "URL", "REDIS_URL", "u", _u_redis, None),
    ("rabbitmq_password", "RabbitMQ", "AMQP URL", "AMQP_URL", "u", _u_amqp, None),
    (
        "elasticsearch_password",
        "Elasticsearch",
        "endpoint URL",
        "ELASTICSEARCH_URL",
        "u",
        _u_es,
        None,
    ),
    (
        "artifact_repo_password",
        "Nexus",
        "registry URL",
        "NPM_REGISTRY_URL",
        "u",
        _u_nexus,
        None,
    ),
    (
        "azure_storage_account_key",
        "Azure Storage",
        "connection string",
        "AZURE_STORAGE_CONNECTION_STRING",
        "u",
        _u_azure_conn,
        None,
    ),
    (
        "slack_webhook_url",
        "Slack",
        "incoming webhook",
        "SLACK_WEBHOOK_URL",
        "w",
        _u_slack_hook,
        None,
    ),
    (
        "teams_webhook_url",
        "Microsoft Teams",
        "incoming webhook",
        "TEAMS_WEBHOOK_URL",
        "w",
        _u_teams,
        None,
    ),
    (
        "aws_presigned_url_signature",
        "S3",
        "pre-signed URL",
        "EXPORT_URL",
        "s",
        _u_s3,
        None,
    ),
    (
        "gcs_signed_url_signature",
        "GCS",
        "signed URL",
        "FEED_SIGNED_URL",
        "s",
        _u_gcs,
        None,
    ),
    ("azure_sas_signature", "Azure Blob", "SAS URL", "BLOB_SAS_URL", "s", _u_sas, None),
    (
        "app_store_connect_private_key",
        "App Store Connect",
        "API private key (.p8)",
        "ASC_KEY_CONTENT",
        "k",
        _k_p8,
        None,
    ),
    (
        "openssh_private_key",
        "deploy",
        "SSH private key",
        "DEPLOY_SSH_KEY",
        "k",
        _k_openssh,
        None,
    ),
    (
        "rsa_private_key",
        "SAML signing",
        "RSA private key",
        "SAML_SP_KEY",
        "k",
        _k_rsa,
        None,
    ),
    (
        "gcp_service_account_private_key",
        "Google Play",
        "service account JSON",
        "GOOGLE_PLAY_JSON_KEY",
        "k",
        _k_gsa,
        None,
    ),
]

# --------------------------------------------------------------------------- fillers
_PEOPLE = [
    "Ana",
    "Bruno",
    "Chloé",
    "Dev",
    "Emma",
    "Farah",
    "Giulia",
    "Hiro",
    "Igor",
    "Jakub",
    "Kavya",
    "Luis",
    "Marta",
    "Nina",
    "Omar",
    "Priya",
    "Quentin",
    "Rafa",
    "Sofia",
    "Tomasz",
    "Yuki",
    "Zoe",
]
_NS = [
    "checkout",
    "payments",
    "support-tools",
    "crm-sync",
    "mobile-bff",
    "search",
    "fulfilment",
    "growth",
    "platform",
    "notifications",
]
_ENVN = ["prod", "production", "staging", "eu-prod", "us-prod", "preprod"]
_REPOS = [
    "shop-platform",
    "support-bots",
    "mobile-app",
    "infra-live",
    "crm-connectors",
    "data-pipelines",
]
_EVENTS = [
    "Black Friday freeze",
    "PCI audit",
    "Q1 offboarding",
    "holiday peak",
    "SOC 2 review",
]


def _slug(svc: str) -> str:
    return svc.lower().replace(" ", "_").replace("-", "_").replace("/", "_")


def _ctx(r: random.Random, spec, full: str) -> SimpleNamespace:
    kind, svc, label, env, cat, _gen, hdr = spec
    parts = env.lower().split("_")
    slug0 = _slug(svc) + "_"
    keep = len(parts) <= 2 or parts[0] in ("secret", "aws", "jwt")
    if env.lower().startswith(slug0) and len(env) > len(slug0) + 3:
        field = env.lower()[len(slug0) :]
    else:
        field = env.lower() if keep else "_".join(parts[1:])
    camel = field.split("_")[0] + "".join(p.capitalize() for p in field.split("_")[1:])
    slug = _slug(svc)
    return SimpleNamespace(
        kind=kind,
        svc=svc,
        label=label,
        env=env,
        cat=cat,
        field=field,
        camel=camel,
        slug=slug,
        kslug=slug.replace("_", "-"),
        cls="".join(p.capitalize() for p in slug.split("_")),
        v=full,
        hdr=hdr.format(v=full) if hdr else None,
        p1=r.choice(_PEOPLE),
        p2=r.choice(_PEOPLE),
        ns=r.choice(_NS),
        envn=r.choice(_ENVN),
        repo=r.choice(_REPOS),
        ev=r.choice(_EVENTS),
        date=f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        hh=r.randint(0, 22),
        mm=r.randint(0, 50),
        n=r.randint(2, 9999),
        ticket=r.randint(100000, 999999),
        inc=f"INC-{r.randint(100, 4999)}",
        ver=f"{r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 20)}",
        rid=_uuid(r),
        sha=_hex(r, 7),
    )


# --------------------------------------------------------------------------- templates
# Each template: (categories, needs_header, function(ctx) -> text)
def _t_note(c):
    return f"Note {c.date}: {c.svc} {c.label} for {c.envn} is {c.v} (owner {c.p1}, rotate after the {c.ev})."


def _t_lesson(c):
    return (
        f"Lesson learned: {c.ns} kept failing against {c.svc} because the {c.label} was rotated in the dashboard "
        f"but not in the {c.ns} deployment. The working value is {c.v} - update Vault first, then restart."
    )


def _t_incident(c):
    return (
        f"{c.inc} timeline ({c.date}, UTC)\n"
        f"{c.hh:02d}:{c.mm:02d} alerts: {c.ns} error rate above 5%\n"
        f"{c.hh:02d}:{c.mm + 4:02d} {c.p1} sees 401s from {c.svc}\n"
        f"{c.hh:02d}:{c.mm + 7:02d} {c.p2} sets {c.env}={c.v} and rolls the deployment\n"
        f"{c.hh:02d}:{c.mm + 9:02d} recovered, postmortem owner {c.p1}"
    )


def _t_todo(c):
    return f"TODO({c.p1}): move {c.env}={c.v} out of {c.repo}/README.md into Vault before the {c.ev}."


def _t_ticket(c):
    return (
        f"Ticket #{c.ticket} - customer says order status is stuck in the app.\n"
        f"Internal note ({c.p1}): reproduced against {c.svc} using our {c.label} {c.v}; the API answered fine, "
        f"so the bug is in {c.ns}. Escalating to platform."
    )


def _t_chat(c):
    return (
        f"[{c.hh:02d}:{c.mm:02d}] {c.p1}: does anyone have the {c.svc} {c.label} for {c.envn}?\n"
        f"[{c.hh:02d}:{c.mm + 1:02d}] {c.p2}: {c.v}\n"
        f"[{c.hh:02d}:{c.mm + 2:02d}] {c.p1}: thanks, will put it in Vault"
    )


def _t_decision(c):
    return (
        f"Decision ({c.date}): {c.ns} talks to {c.svc} directly instead of through the gateway. "
        f"Credential in use: {c.env} = {c.v}. Revisit after the {c.ev}."
    )


def _t_es(c):
    return f"Nota: la credencial de {c.svc} ({c.label}) para {c.envn} es {c.v}. No la compartas fuera de #plataforma."


def _t_pt(c):
    return f"Lembrete: a credencial do {c.svc} ({c.label}, {c.envn}) é {c.v} - trocar depois da Black Friday. Falar com {c.p1}."


def _t_fr(c):
    return f"Pour info : {c.label} {c.svc} en {c.envn} = {c.v}. À régénérer après le départ de {c.p1}."


def _t_it(c):
    return f"Promemoria: la chiave {c.svc} ({c.label}) per {c.envn} è {c.v}. Chiedere a {c.p1} prima di ruotarla."


def _t_hi(c):
    return f"नोट: {c.svc} का {c.label} ({c.envn}) यह है: {c.v} — इसे टिकट में पेस्ट मत करना।"


def _t_ja(c):
    return f"メモ: {c.svc} の {c.label}（{c.envn}）は {c.v} です。ローテーション後は Vault も更新すること。"


def _t_pl(c):
    return f"Notatka: {c.label} do {c.svc} ({c.envn}) to {c.v}. Zmienić po audycie, pytać {c.p1}."


def _c_yaml(c):
    return f'{c.slug}:\n  enabled: true\n  region: eu-west-1\n  {c.field}: "{c.v}"\n  timeout_ms: {c.n}'


def _c_helm(c):
    return (
        f"# values-{c.envn}.yaml\n{c.kslug}-connector:\n  replicaCount: {c.n % 5 + 1}\n  image:\n"
        f'    tag: "{c.ver}"\n  env:\n    {c.env}: "{c.v}"\n    LOG_LEVEL: info'
    )


def _c_kustomize(c):
    return (
        f"secretGenerator:\n  - name: {c.kslug}-credentials\n    namespace: {c.ns}\n    literals:\n"
        f"      - {c.env}={c.v}\ngeneratorOptions:\n  disableNameSuffixHash: true"
    )


def _c_env(c):
    return f"# .env.{c.envn}\nNODE_ENV=production\nLOG_LEVEL=info\n{c.env}={c.v}\nPORT={8000 + c.n % 1000}"


def _c_json(c):
    return json.dumps(
        {c.slug: {c.camel: c.v, "timeoutMs": c.n, "retries": 3}},
        indent=2,
        ensure_ascii=False,
    )


def _c_toml(c):
    return f'[{c.slug}]\nendpoint = "https://{c.kslug}.internal"\n{c.field} = "{c.v}"\nmax_retries = {c.n % 7}'


def _c_props(c):
    return f"# application-{c.envn}.properties\nserver.port=8080\n{c.slug}.{c.field.replace('_', '-')}={c.v}\nmanagement.endpoints.web.exposure.include=health"


def _c_kotlin(c):
    return f'object {c.cls}Config {{\n    const val TIMEOUT_MS = {c.n}L\n    const val {c.env} = "{c.v}"\n}}'


def _c_ts(c):
    return f'import {{ {c.cls}Client }} from "./clients/{c.kslug}";\n\nexport const client = new {c.cls}Client({{\n  {c.camel}: "{c.v}",\n  timeoutMs: {c.n},\n}});'


def _c_py(c):
    return f'import os\n\n# fallback for local runs\n{c.env} = os.environ.get("{c.env}", "{c.v}")\nTIMEOUT = {c.n % 60}'


def _c_ruby(c):
    return f'{c.cls}.configure do |config|\n  config.{c.field} = "{c.v}"\n  config.timeout = {c.n % 60}\nend'


def _c_php(c):
    return f"<?php\nreturn [\n    '{c.slug}' => [\n        '{c.field}' => '{c.v}',\n        'timeout' => {c.n % 60},\n    ],\n];"


def _c_sql(c):
    return f"INSERT INTO integration_settings (provider, setting, value, updated_by)\nVALUES ('{c.slug}', '{c.field}', '{c.v}', '{c.p1.lower()}');"


def _c_tf(c):
    return f'resource "kubernetes_secret" "{c.slug}" {{\n  metadata {{\n    name      = "{c.kslug}-creds"\n    namespace = "{c.ns}"\n  }}\n  data = {{\n    {c.field} = "{c.v}"\n  }}\n}}'


def _o_kubectl(c):
    return f"$ kubectl -n {c.ns} get secret {c.kslug}-creds -o jsonpath='{{.data.{c.field}}}' | base64 -d\n{c.v}"


def _o_helm(c):
    return f"$ helm get values {c.kslug}-connector -n {c.ns}\nUSER-SUPPLIED VALUES:\nenv:\n  {c.env}: {c.v}\nreplicaCount: {c.n % 5 + 1}"


def _o_aws(c):
    return f'$ aws secretsmanager get-secret-value --secret-id {c.envn}/{c.kslug} --query SecretString --output text\n{{"{c.field}":"{c.v}"}}'


def _o_gcloud(c):
    return f"$ gcloud secrets versions access latest --secret={c.kslug}-{c.field.replace('_', '-')} --project=shop-{c.envn}\n{c.v}"


def _o_az(c):
    return f"$ az keyvault secret show --vault-name kv-shop-{c.envn} --name {c.kslug} --query value -o tsv\n{c.v}"


def _o_vault(c):
    return f"$ vault kv get -field={c.field} secret/{c.envn}/{c.kslug}\n{c.v}"


def _o_curl(c):
    return f'$ curl -s -H "{c.hdr}" https://api.{c.kslug}.example/v1/ping\n{{"ok":true,"request_id":"{c.rid}"}}'


def _o_http(c):
    return (
        f"POST /v1/events HTTP/1.1\nHost: api.{c.kslug}.example\n{c.hdr}\nContent-Type: application/json\n"
        f'X-Request-Id: {c.rid}\n\n{{"event":"order_shipped","order":"SO-{c.ticket}"}}'
    )


def _o_ci(c):
    return (
        f"Run ./scripts/deploy.sh {c.envn}\n+ set -x\n+ export {c.env}={c.v}\n"
        f'+ helm upgrade --install {c.kslug}-connector charts/connector -n {c.ns}\nRelease "{c.kslug}-connector" has been upgraded.'
    )


def _o_docker(c):
    return f'$ docker inspect {c.kslug}-worker --format \'{{{{json .Config.Env}}}}\'\n["PATH=/usr/local/bin:/usr/bin","{c.env}={c.v}","TZ=UTC"]'


def _o_printenv(c):
    return f"$ kubectl -n {c.ns} exec deploy/{c.kslug}-worker -- printenv | grep {c.env.split('_')[0]}\n{c.env}={c.v}"


def _o_trace(c):
    return (
        f'Traceback (most recent call last):\n  File "/app/{c.slug}/client.py", line {c.n % 300}, in call\n'
        f"    resp.raise_for_status()\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
        f"https://api.{c.kslug}.example/v2/orders?{c.field}={c.v}"
    )


def _o_java(c):
    return (
        f"com.shop.integrations.{c.cls}AuthException: credential rejected ({c.field}={c.v})\n"
        f"\tat com.shop.integrations.{c.cls}Client.authenticate({c.cls}Client.java:{c.n % 400})\n"
        f"\tat com.shop.jobs.SyncJob.run(SyncJob.java:88)"
    )


def _p_sql(c):
    return f"-- {c.svc} service user for {c.ns}\nCREATE USER svc_{c.ns.replace('-', '_')} PASSWORD = '{c.v}' DEFAULT_ROLE = REPORTING;"


def _p_gradle(c):
    return f'signingConfigs {{\n    create("release") {{\n        storeFile = file("upload.jks")\n        storePassword = "{c.v}"\n        keyAlias = "upload"\n    }}\n}}'


def _p_cli(c):
    return f"$ {c.slug}-cli login --user svc_{c.ns.replace('-', '_')} --password '{c.v}'\nLogged in as svc_{c.ns.replace('-', '_')} ({c.envn})"


def _u_cli(c):
    return f"$ {c.slug.split('_')[0]}-cli \"{c.v}\" --eval 'ping'\nconnected ({c.envn}), latency {c.n % 90} ms"


def _u_conn_err(c):
    return f"{c.date}T{c.hh:02d}:{c.mm:02d}:11Z ERROR {c.ns} worker: cannot connect to {c.v}: timeout after 30s (attempt {c.n % 5 + 1})"


def _w_curl(c):
    return f"$ curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy {c.ver} done\"}}' {c.v}\nok"


def _s_curl(c):
    return f'$ curl -sS -o export.bin "{c.v}"\n$ ls -lh export.bin\n-rw-r--r-- 1 ci ci {c.n}K export.bin'


def _s_ticket(c):
    return f"Ticket #{c.ticket}: customer needs the invoice again. {c.p1} shared this link (expires in 7 days): {c.v}"


def _k_note(c):
    return f"Saved the {c.svc} {c.label} here until Vault sync is fixed ({c.date}):\n{c.v}\nDelete this note after the migration."


def _k_chat(c):
    return f"{c.p1}: here's the {c.svc} {c.label}, don't paste it anywhere else\n{c.v}\n{c.p2}: got it, thanks"


def _k_cat(c):
    path = f"secrets/{c.kslug}-{c.envn}.key"
    return f"$ cat {path}\n{c.v}\n$ chmod 600 {path}"


def _k_kubectl(c):
    return f"$ kubectl -n {c.ns} get secret {c.kslug}-key -o jsonpath='{{.data.key}}' | base64 -d\n{c.v}"


def _k_vault(c):
    return f"$ vault kv get -field=key secret/{c.envn}/{c.kslug}\n{c.v}"


def _k_tf(c):
    return f'resource "kubernetes_secret" "{c.slug}_key" {{\n  data = {{\n    key = <<EOT\n{c.v}\nEOT\n  }}\n}}'


def _k_es(c):
    return f"Nota ({c.date}): esta es la {c.label} de {c.svc}, solo para {c.envn}:\n{c.v}"


def _k_ja(c):
    return f"メモ: {c.svc} の {c.label} を一時的にここに保存（{c.date}）。\n{c.v}\n移行後に削除すること。"


def _k_pl(c):
    return f"Klucz {c.svc} ({c.label}) dla {c.envn}, usunąć po migracji:\n{c.v}"


def _k_ci(c):
    return f"Run cat \"$RUNNER_TEMP/{c.kslug}.key\"  # debug, remove!\n{c.v}\nRun fastlane deploy\n[{c.hh:02d}:{c.mm:02d}:03]: Driving the lane 'release'"


def _k_ticket(c):
    return f"Ticket #{c.ticket} (internal): vendor asked us to re-send the {c.svc} {c.label}. {c.p1} attached:\n{c.v}"


_TU = "tpuws"  # one-line value categories
_TEMPLATES = [
    ("tpuws", False, _t_note),
    ("tpuws", False, _t_lesson),
    ("tpuw", False, _t_incident),
    ("tpuw", False, _t_todo),
    ("tp", False, _t_ticket),
    ("tpuws", False, _t_chat),
    ("tpuw", False, _t_decision),
    ("tpuws", False, _t_es),
    ("tpuws", False, _t_pt),
    ("tpuws", False, _t_fr),
    ("tpuws", False, _t_it),
    ("tpuws", False, _t_hi),
    ("tpuws", False, _t_ja),
    ("tpuws", False, _t_pl),
    ("tpuws", False, _c_yaml),
    ("tpuws", False, _c_helm),
    ("tpuw", False, _c_kustomize),
    ("tpuws", False, _c_env),
    ("tpuws", False, _c_json),
    ("tpuws", False, _c_toml),
    ("tpuw", False, _c_props),
    ("tpuw", False, _c_kotlin),
    ("tpuws", False, _c_ts),
    ("tpuws", False, _c_py),
    ("tpuw", False, _c_ruby),
    ("tpuw", False, _c_php),
    ("tpuw", False, _c_sql),
    ("tpuw", False, _c_tf),
    ("tpuw", False, _o_kubectl),
    ("tpuw", False, _o_helm),
    ("tpuw", False, _o_aws),
    ("tpuw", False, _o_gcloud),
    ("tpuw", False, _o_az),
    ("tpuw", False, _o_vault),
    ("t", True, _o_curl),
    ("t", True, _o_http),
    ("tpuws", False, _o_ci),
    ("tpuw", False, _o_docker),
    ("tpuw", False, _o_printenv),
    ("t", False, _o_trace),
    ("tp", False, _o_java),
    ("p", False, _p_cli),
    ("u", False, _u_cli),
    ("u", False, _u_conn_err),
    ("w", False, _w_curl),
    ("s", False, _s_curl),
    ("s", False, _s_ticket),
    ("k", False, _k_note),
    ("k", False, _k_chat),
    ("k", False, _k_cat),
    ("k", False, _k_kubectl),
    ("k", False, _k_vault),
    ("k", False, _k_tf),
    ("k", False, _k_es),
    ("k", False, _k_ja),
    ("k", False, _k_pl),
    ("k", False, _k_ci),
    ("k", False, _k_ticket),
]


def _x_kafka(c):
    return (
        f"# client.properties ({c.envn})\nsecurity.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
        f'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="{c.ns}" password="{c.v}";'
    )


def _x_smtp(c):
    return f"spring:\n  mail:\n    host: smtp.eu.mailgun.org\n    port: 587\n    username: postmaster@mg.shopco.example\n    password: {c.v}"


def _x_ldap(c):
    return json.dumps(
        {
            "name": "corp-ad",
            "providerId": "ldap",
            "config": {
                "connectionUrl": ["ldaps://ad.shopco.internal:636"],
                "bindDn": ["CN=svc-keycloak,OU=Service,DC=shopco,DC=local"],
                "bindCredential": [c.v],
            },
        },
        indent=2,
    )


def _x_snowflake(c):
    return f'conn = snowflake.connector.connect(\n    user="SVC_{c.ns.upper().replace("-", "_")}",\n    password="{c.v}",\n    account="shopco-eu1",\n    warehouse="REPORTING_WH",\n)'


def _x_grafana(c):
    return f"# grafana.ini\n[server]\nroot_url = https://grafana.shopco.example\n\n[security]\nadmin_user = admin\nadmin_password = {c.v}"


def _x_sap(c):
    return f'conn = pyrfc.Connection(ashost="sap-erp.shopco.internal", sysnr="00", client="{c.n % 900 + 100}", user="RFC_SHOP", passwd="{c.v}")'


def _x_aws(c):
    return f"$ aws configure set aws_secret_access_key {c.v} --profile shop-{c.envn}\n$ aws sts get-caller-identity --profile shop-{c.envn}"


def _x_whsec(c):
    return f'event = stripe.Webhook.construct_event(\n    payload, request.headers["Stripe-Signature"], "{c.v}"\n)'


def _x_fastlane(c):
    return f"# fastlane/.env.default\nFASTLANE_USER=mobile-release@shopco.example\n{c.env}={c.v}\nFASTLANE_ITC_TEAM_ID={c.n}"


_SPECIAL = {
    "kafka_sasl_password": [_x_kafka],
    "smtp_password": [_x_smtp],
    "ldap_bind_password": [_x_ldap],
    "snowflake_password": [_x_snowflake, _p_sql],
    "grafana_admin_password": [_x_grafana],
    "sap_rfc_password": [_x_sap],
    "aws_secret_access_key": [_x_aws],
    "stripe_webhook_secret": [_x_whsec],
    "android_keystore_password": [_p_gradle],
    "apple_app_specific_password": [_x_fastlane],
}
_KIND_ONLY = {_p_gradle, _p_sql}

_CONFIG = {
    _c_yaml,
    _c_helm,
    _c_kustomize,
    _c_env,
    _c_json,
    _c_toml,
    _c_props,
    _c_kotlin,
    _c_ts,
    _c_py,
    _c_ruby,
    _c_php,
}
_CONFIG |= {
    _c_sql,
    _c_tf,
    _p_sql,
    _p_gradle,
    _k_tf,
    _x_kafka,
    _x_smtp,
    _x_ldap,
    _x_snowflake,
    _x_grafana,
    _x_sap,
}
_CONFIG |= {_x_whsec, _x_fastlane}
_OUTPUT = {
    _o_kubectl,
    _o_helm,
    _o_aws,
    _o_gcloud,
    _o_az,
    _o_vault,
    _o_curl,
    _o_http,
    _o_ci,
    _o_docker,
    _o_printenv,
}
_OUTPUT |= {
    _x_aws,
    _o_trace,
    _o_java,
    _p_cli,
    _u_cli,
    _u_conn_err,
    _w_curl,
    _s_curl,
    _k_cat,
    _k_kubectl,
    _k_vault,
    _k_ci,
}
_STYLE_WEIGHTS = (("memo", 0.5), ("config", 0.25), ("output", 0.25))


def _style(fn) -> str:
    return "config" if fn in _CONFIG else "output" if fn in _OUTPUT else "memo"


def _templates_for(spec) -> dict[str, list]:
    """Templates usable for a kind, grouped by memory style (memo / config / output)."""
    cat, hdr = spec[4], spec[6]
    groups: dict[str, list] = {"memo": [], "config": [], "output": []}
    for cats, need_hdr, fn in _TEMPLATES:
        usable = cat in cats and (hdr or not need_hdr) and fn not in _KIND_ONLY
        if usable and not (fn is _p_cli and spec[0] == "android_keystore_password"):
            groups[_style(fn)].append(fn)
    for fn in _SPECIAL.get(spec[0], []):
        groups[_style(fn)] += [fn, fn]  # weight kind-specific templates up
    return groups


def _pick(rng: random.Random, groups: dict[str, list]):
    x = rng.random()
    for name, w in _STYLE_WEIGHTS:
        x -= w
        if x < 0 and groups[name]:
            return rng.choice(groups[name])
    return rng.choice(groups["memo"])


def _positives(rng: random.Random, seen: set[str]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for spec in _KINDS:
        kind, gen = spec[0], spec[5]
        temps = _templates_for(spec)
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot fill kind {kind}")
            val = gen(rng)
            full, secret = val if isinstance(val, tuple) else (val, val)
            text = _pick(rng, temps)(_ctx(rng, spec, full))
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# =========================================================================== look-alikes
def _p(r):
    return r.choice(_PEOPLE)


def _ns(r):
    return r.choice(_NS)


def _env(r):
    return r.choice(_ENVN)


def _date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _l_commit_note(r):
    return (
        f"Deployed {_ns(r)} at commit {_hex(r, 40)} on {_date(r)}; if checkout breaks again roll back to {_hex(r, 7)}."
    )


def _l_git_log(r):
    msgs = [
        "fix(zendesk): retry on 429",
        "feat(app): Klarna in checkout",
        "chore: bump helm chart",
        "fix: Algolia facet order",
        "ci: cache gradle",
    ]
    return "$ git log --oneline -4\n" + "\n".join(f"{_hex(r, 7)} {r.choice(msgs)}" for _ in range(4))


def _l_sha256sum(r):
    f = r.choice(
        [
            "app-release.aab",
            "shop-7.3.1.ipa",
            "orders-export.csv.gz",
            "helm-chart-1.4.2.tgz",
        ]
    )
    return f"$ sha256sum {f}\n{_hex(r, 64)}  {f}\nMatches the checksum posted in #releases."


def _l_docker_digest(r):
    return f"image: ghcr.io/shopco/{_ns(r)}@sha256:{_hex(r, 64)}\n# pinned by digest after the {r.randint(2, 9)}.x tag was overwritten"


def _l_npm_integrity(r):
    pkg = r.choice(
        [
            "@algolia/client-search",
            "stripe",
            "@sentry/react-native",
            "axios",
            "launchdarkly-js-client-sdk",
        ]
    )
    return f'"node_modules/{pkg}": {{\n  "version": "{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/x.tgz",\n  "integrity": "sha512-{_b64(_rb(r, 64))}"\n}}'


def _l_pip_hash(r):
    pkg = r.choice(
        [
            "stripe",
            "requests",
            "snowflake-connector-python",
            "zenpy",
            "hubspot-api-client",
        ]
    )
    return f"{pkg}=={r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_hex(r, 64)} \\\n    --hash=sha256:{_hex(r, 64)}"


def _l_go_sum(r):
    mod = r.choice(
        [
            "github.com/stripe/stripe-go/v76",
            "github.com/segmentio/kafka-go",
            "github.com/redis/go-redis/v9",
        ]
    )
    v = f"v{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}"
    return f"{mod} {v} h1:{_b64(_rb(r, 32))}\n{mod} {v}/go.mod h1:{_b64(_rb(r, 32))}"


def _l_tf_lock(r):
    prov = r.choice(["hashicorp/aws", "datadog/datadog", "hashicorp/google", "okta/okta"])
    return f'provider "registry.terraform.io/{prov}" {{\n  version = "{r.randint(1, 5)}.{r.randint(0, 60)}.0"\n  hashes = [\n    "h1:{_b64(_rb(r, 32))}",\n    "zh:{_hex(r, 64)}",\n  ]\n}}'


def _l_request_id(r):
    return (
        f"HTTP/1.1 502 Bad Gateway\nDate: Tue, {r.randint(1, 28)} Nov 2026 10:{r.randint(10, 59)}:02 GMT\n"
        f"X-Request-Id: {_uuid(r)}\nX-Amzn-Trace-Id: Root=1-{_hex(r, 8)}-{_hex(r, 24)}\nContent-Length: 0"
    )


def _l_traceparent(r):
    return f"traceparent: 00-{_hex(r, 32)}-{_hex(r, 16)}-01\nx-datadog-trace-id: {_dig(r, 19)}\nSpan for {_ns(r)} checkout flow took {r.randint(200, 4000)} ms."


def _l_idempotency(r):
    return f"Stripe retries: every POST from {_ns(r)} now sends Idempotency-Key: {_uuid(r)}-style keys (uuid4 per order). Example from logs: order SO-{r.randint(10000, 99999)} used {_uuid(r)}."


def _l_stripe_pk(r):
    return f'// publishable key is fine in the app bundle\nStripeConfiguration.publishableKey = "{"pk" + "_live_" + _r(r, 99)}"'


def _l_stripe_ids(r):
    return (
        f"Ticket #{r.randint(100000, 999999)}: double charge? Stripe shows customer cus_{_r(r, 14)}, "
        f"payment intent pi_{_r(r, 24)}, charge ch_{_r(r, 24)}, event evt_{_r(r, 24)}. Refunded one."
    )


def _l_algolia_search(r):
    return f'const searchClient = algoliasearch("{_r(r, 10, _UA)}", "{_hex(r, 32)}"); // search-only API key, safe for the storefront'


def _l_firebase_web(r):
    proj = r.choice(["shop-mobile-prod", "shopco-web", "retail-app-stg"])
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{"AI" + "za" + _r(r, 35, _B64U)}",\n  authDomain: "{proj}.firebaseapp.com",\n'
        f'  projectId: "{proj}",\n  messagingSenderId: "{_dig(r, 12)}",\n'
        f'  appId: "1:{_dig(r, 12)}:web:{_hex(r, 22)}",\n}};  // web config, public by design'
    )


def _l_sentry_dsn(r):
    return f"SENTRY_DSN=https://{_hex(r, 32)}@o{_dig(r, 6)}.ingest.sentry.io/{_dig(r, 7)}\n# DSN is public, it ships in the mobile app"


def _l_google_client_id(r):
    return f"GOOGLE_CLIENT_ID={_dig(r, 12)}-{_r(r, 32, _LA)}.apps.googleusercontent.com\n# client secret is in Vault at secret/{_env(r)}/google-oauth"


def _l_auth0_client_id(r):
    return f"AUTH0_DOMAIN=shopco.eu.auth0.com\nAUTH0_CLIENT_ID={_r(r, 32)}\nAUTH0_AUDIENCE=https://api.shopco.example\n# SPA client, no secret"


def _l_okta_client_id(r):
    return f"okta:\n  issuer: https://shopco.okta.com/oauth2/{'aus' + _r(r, 17)}\n  clientId: {'0oa' + _r(r, 17)}\n  pkce: true"


def _l_revenuecat_public(r):
    return f'Purchases.configure(withAPIKey: "{"appl_" + _r(r, 27)}")  // iOS public SDK key\n// Android: {"goog_" + _r(r, 27)}'


def _l_ld_client_id(r):
    return f"LaunchDarkly client-side ID for the web storefront: {_hex(r, 24)} (public, used by the JS SDK in the browser)."


def _l_mixpanel_token(r):
    return (
        f'Mixpanel.initialize(token: "{_hex(r, 32)}", trackAutomaticEvents: true)  // project token, public in the app'
    )


def _l_klaviyo_site(r):
    return f'<script async src="https://static.klaviyo.com/onsite/js/klaviyo.js?company_id={_r(r, 6, _AL)}"></script>\n<!-- public site id, private key stays server side -->'


def _l_braintree_tokenization(r):
    return f'braintree.client.create({{ authorization: "production_{_r(r, 8, _LA)}_{_r(r, 16, _LA)}" }});  // tokenization key, client side'


def _l_adyen_client_key(r):
    return f"AdyenCheckout({{ environment: 'live', clientKey: '{'live_' + _r(r, 32, _UA)}' }})  // client key is public"


def _l_supabase_anon(r):
    now = r.randint(1_700_000_000, 1_790_000_000)
    ref = _r(r, 20, string.ascii_lowercase)
    tok = _jwt(
        r,
        {
            "iss": "supabase",
            "ref": ref,
            "role": "anon",
            "iat": now,
            "exp": now + 315360000,
        },
        alg="HS256",
    )
    return f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={tok}\n# anon key is public; RLS protects the tables"


def _l_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_r(r, 38, _B64U)}"></div>  <!-- site key, public -->'


def _l_dd_client_token(r):
    return f"datadogRum.init({{\n  applicationId: '{_uuid(r)}',\n  clientToken: '{'pub' + _hex(r, 32)}',\n  site: 'datadoghq.eu',\n  service: 'storefront',\n}});"


def _l_nr_browser(r):
    return f"New Relic browser agent: licenseKey {'NR' + 'JS-' + _hex(r, 19)}, applicationID {_dig(r, 9)} (browser key is public, ingest license key is separate)."


def _l_mapbox(r):
    p = _b64(json.dumps({"u": "shopco", "a": _r(r, 25, _LA)}).encode(), url=True, pad=False)
    return f"MAPBOX_PUBLIC_TOKEN=pk.{p}.{_r(r, 22, _B64U)}  # store locator map, public token with URL restriction"


def _l_flagsmith_env(r):
    return f'flagsmith.init({{ environmentID: "{_r(r, 22)}" }}); // client-side environment key, safe to expose'


def _l_typesense_search(r):
    return f"typesense:\n  host: search.shopco.example\n  search_only_key: {_r(r, 32)}  # search-only scoped key for the storefront"


def _l_onesignal_app_id(r):
    return f'OneSignal.initialize("{_uuid(r)}")  // App ID, public; REST key lives in Vault'


def _l_placeholder_angle(r):
    k = r.choice(
        [
            "STRIPE_SECRET_KEY",
            "ZENDESK_API_TOKEN",
            "DD_API_KEY",
            "KLAVIYO_PRIVATE_API_KEY",
            "OKTA_API_TOKEN",
            "ALGOLIA_ADMIN_API_KEY",
        ]
    )
    ph = r.choice(
        [
            "<your-secret-key>",
            "<paste-token-here>",
            "<API_KEY>",
            "YOUR_API_KEY_HERE",
            "xxxxxxxxxxxxxxxx",
            "REPLACE_ME",
        ]
    )
    return f"# README setup step {r.randint(1, 9)}\ncp .env.example .env\n{k}={ph}\n# ask {_p(r)} for the real value"


def _l_env_interp(r):
    return f"services:\n  {_ns(r)}:\n    environment:\n      DATABASE_URL: postgres://app:${{DB_PASSWORD}}@db:5432/{r.choice(['orders', 'shop'])}\n      REDIS_URL: ${{REDIS_URL:-redis://redis:{r.randint(6000, 6999)}/0}}"


def _l_gha_secrets(r):
    s = r.choice(
        [
            "SHOPIFY_ADMIN_TOKEN",
            "ASC_KEY_CONTENT",
            "GOOGLE_PLAY_JSON_KEY",
            "DD_API_KEY",
            "SLACK_WEBHOOK_URL",
        ]
    )
    return f"      - name: Deploy {_ns(r)}\n        env:\n          {s}: ${{{{ secrets.{s} }}}}\n          RUN_ID: ${{{{ github.run_id }}}}\n        run: ./scripts/deploy.sh {_env(r)}"


def _l_airflow_var(r):
    v = r.choice(["snowflake_password", "netsuite_token_secret", "klaviyo_key", "zendesk_token"])
    return f'from airflow.models import Variable\n\npassword = Variable.get("{v}")  # set in the Airflow UI, never in code\nschedule = "{r.randint(0, 59)} {r.randint(0, 23)} * * *"'


def _l_dbutils(r):
    return f'pw = dbutils.secrets.get(scope="{r.choice(["retail-prod", "crm", "finance"])}", key="{r.choice(["snowflake-pw", "sf-token", "sap-rfc"])}")\ndf = spark.read.format("snowflake").option("sfPassword", pw).load()  # cell {r.randint(2, 40)}'


def _l_vault_path(r):
    return f"Where creds live: `vault kv get -field={r.choice(['password', 'api_key', 'token'])} secret/{_env(r)}/{_ns(r)}/{r.choice(['stripe', 'zendesk', 'snowflake'])}` (policy {_ns(r)}-read, ask {_p(r)})."


def _l_external_secret(r):
    n = r.choice(["stripe", "algolia-admin", "sendgrid", "datadog"])
    return (
        f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {n}\n  namespace: {_ns(r)}\nspec:\n"
        f"  refreshInterval: {r.randint(1, 24)}h\n  secretStoreRef:\n    name: vault-backend\n    kind: ClusterSecretStore\n"
        f"  data:\n    - secretKey: api-key\n      remoteRef:\n        key: {_env(r)}/{n}\n        property: api_key"
    )


def _l_aws_sm_arn(r):
    return f'secret_arn = "arn:aws:secretsmanager:eu-west-1:{_dig(r, 12)}:secret:{_env(r)}/{_ns(r)}/db-{_r(r, 6)}"  # ECS injects it as DB_PASSWORD'


def _l_gcp_sm_name(r):
    return f"env:\n  - name: PLAY_KEY\n    valueFrom: projects/{_dig(r, 12)}/secrets/{r.choice(['play-publisher-json', 'fcm-key', 'bq-sa'])}/versions/{r.randint(1, 30)}"


def _l_keyvault_ref(r):
    return f"App setting: SapRfcPassword = @Microsoft.KeyVault(SecretUri=https://kv-shop-{_env(r)}.vault.azure.net/secrets/sap-rfc-password/{_hex(r, 32)})"


def _l_secret_key_ref(r):
    return f"        env:\n          - name: ZENDESK_API_TOKEN\n            valueFrom:\n              secretKeyRef:\n                name: {r.choice(['zendesk', 'support-creds', 'helpdesk'])}-{_r(r, 5, _LA)}\n                key: api-token"


def _l_helm_existing(r):
    return f"postgresql:\n  auth:\n    username: {r.choice(['orders', 'crm', 'odoo'])}\n    existingSecret: {_ns(r)}-pg-{_r(r, 4, _LA)}\n    secretKeys:\n      userPasswordKey: password"


def _l_changeme(r):
    return f"Docs for the local stack: Grafana admin password defaults to `{r.choice(['changeme', 'admin', 'password'])}` and Keycloak to `{r.choice(['admin', 'changeme'])}`; you are forced to change both on first login (port {r.randint(3000, 9000)})."


def _l_masked(r):
    return f"{_date(r)}T10:{r.randint(10, 59)}:00Z INFO {_ns(r)} using {r.choice(['stripe', 'zendesk', 'braze', 'adyen'])} key ****{_r(r, 4)} (len {r.choice([32, 40, 64])})"


def _l_redacted(r):
    return f'POST /api/v2/tickets HTTP/1.1\nHost: shopco.zendesk.com\nAuthorization: [REDACTED]\nX-Request-Id: {_uuid(r)}\n\n{{"ticket":{{"subject":"Order SO-{r.randint(10000, 99999)} missing"}}}}'


def _l_ansible_vault(r):
    body = _hex(r, 320)
    return "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(
        "  " + body[i : i + 80] for i in range(0, 320, 80)
    )


def _l_sops(r):
    return (
        f"stripe:\n  secret_key: ENC[AES256_GCM,data:{_b64(_rb(r, 40))},iv:{_b64(_rb(r, 32))},tag:{_b64(_rb(r, 16))},type:str]\n"
        f'sops:\n  kms:\n    - arn: arn:aws:kms:eu-west-1:{_dig(r, 12)}:key/{_uuid(r)}\n  lastmodified: "{_date(r)}T09:00:00Z"\n  version: 3.8.1'
    )


_BC = "./" + _AL


def _l_bcrypt(r):
    return f"INSERT INTO admin_users (email, password_hash) VALUES ('{_p(r).lower()}@shopco.example', '$2b$12${_r(r, 53, _BC)}');"


def _l_argon2(r):
    return f'keycloak user export: {{"type":"password","credentialData":"argon2","secretData":"$argon2id$v=19$m=65536,t=3,p=4${_b64(_rb(r, 16), pad=False)}${_b64(_rb(r, 32), pad=False)}"}}'


def _l_pbkdf2(r):
    return f"Django admin user migrated; hash kept as pbkdf2_sha256$600000${_r(r, 22)}${_b64(_rb(r, 32))} so staff can log in without reset."


def _l_sha512crypt(r):
    return f"{r.choice(['deploy', 'backup', 'ops'])}:$6${_r(r, 16, _BC)}${_r(r, 86, _BC)}:19{r.randint(100, 999)}:0:99999:7:::"


def _l_ssh_pub(r):
    return f"Added to authorized_keys on bastion:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(r, 43, _B64)} {_p(r).lower()}@laptop"


def _l_ssh_fp(r):
    return f"The authenticity of host 'bastion.shopco.example ({r.randint(10, 200)}.{r.randint(0, 255)}.4.2)' can't be established.\nED25519 key fingerprint is SHA256:{_b64(_rb(r, 32), pad=False)}."


def _l_cert_pem(r):
    lines = _pem_lines(r, "MIID" + "zTCCArWgAwIBAgIU", 18, 20)
    return (
        "Public cert for the Okta SAML app (safe to share):\n-----BEGIN CERTIFICATE-----\n"
        + "\n".join(lines)
        + "\n-----END CERTIFICATE-----"
    )


def _l_pgp_pub(r):
    lines = _pem_lines(r, "mQINBG", 10, 30)
    return (
        "Vendor's PGP public key for encrypted SFTP drops:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + "\n".join(lines)
        + f"\n={_r(r, 4, _B64)}\n-----END PGP PUBLIC KEY BLOCK-----"
    )


def _l_gpg_fp(r):
    fp = _hex(r, 40).upper()
    return f"$ gpg --list-keys releases@shopco.example\npub   rsa4096 2025-0{r.randint(1, 9)}-1{r.randint(0, 9)} [SC]\n      {fp}\nuid           [ultimate] Shopco Releases <releases@shopco.example>"


def _l_kms_key_id(r):
    return f'$ aws kms describe-key --key-id alias/{_ns(r)}-{_env(r)}\n{{"KeyMetadata": {{"KeyId": "{_uuid(r)}", "KeyState": "Enabled", "KeyUsage": "ENCRYPT_DECRYPT"}}}}'


def _l_tls_fp(r):
    fp = ":".join(_hex(r, 2).upper() for _ in range(20))
    return f"$ openssl x509 -noout -fingerprint -sha1 -in api.shopco.example.crt\nSHA1 Fingerprint={fp}"


def _l_data_uri(r):
    return f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA{_r(r, 120, _B64)}AAAAAElFTkSuQmCC" width="{r.randint(16, 64)}">'


def _l_b64_payload(r):
    ev = json.dumps(
        {
            "type": "order_created",
            "order_id": f"SO-{r.randint(10000, 99999)}",
            "total": r.randint(10, 900),
        }
    )
    return f"kafka-console-consumer output (value is base64):\npartition={r.randint(0, 11)} offset={r.randint(1000, 999999)} value={_b64(ev.encode())}"


def _l_hf_model(r):
    m = r.choice(
        [
            "sentence-transformers/all-MiniLM-L6-v2",
            "intfloat/multilingual-e5-base",
            "BAAI/bge-small-en-v1.5",
            "facebook/bart-large-mnli",
        ]
    )
    return f"Support-ticket classifier uses {m} at revision {_hex(r, 40)}; dataset shopco/tickets-{r.randint(2023, 2026)} (private repo, read via CI identity)."


def _l_run_ids(r):
    return f"Search ranking experiment: W&B run {_r(r, 8, _LA)}, MLflow run_id {_hex(r, 32)}, NDCG@10 = 0.{r.randint(600, 899)}."


def _l_notebook(r):
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 300),
            "id": _hex(r, 8),
            "metadata": {},
            "outputs": [
                {
                    "name": "stdout",
                    "output_type": "stream",
                    "text": [f"rows: {r.randint(100, 99999)}\n"],
                }
            ],
            "source": ["df = load_orders()\n", "print('rows:', len(df))"],
        },
        indent=1,
    )


def _l_kafka_offsets(r):
    return "GROUP            TOPIC          PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID\n" + "\n".join(
        f"crm-sync         orders.v1      {p:<9}  {r.randint(10000, 99999):<14}  {r.randint(100000, 199999):<14}  {r.randint(0, 900):<3}  consumer-1-{_uuid(r)}"
        for p in range(2)
    )


def _l_k8s_pods(r):
    ns = _ns(r)
    return (
        "$ kubectl -n "
        + ns
        + " get pods\nNAME                                  READY   STATUS    RESTARTS   AGE\n"
        + "\n".join(
            f"{ns}-{_r(r, 10, _LA)}-{_r(r, 5, _LA)}   1/1     Running   {r.randint(0, 5)}          {r.randint(1, 30)}d"
            for _ in range(3)
        )
    )


def _l_helm_history(r):
    return (
        "$ helm history checkout -n checkout\nREVISION  UPDATED                   STATUS      CHART            DESCRIPTION\n"
        + "\n".join(
            f"{i}         Tue Nov {r.randint(1, 28)} 10:0{i}:00 2026  superseded  checkout-{r.randint(1, 3)}.{r.randint(0, 9)}.{i}  Upgrade complete"
            for i in range(1, 4)
        )
    )


def _l_tf_state_ids(r):
    return f'# aws_instance.bastion:\nresource "aws_instance" "bastion" {{\n    id            = "i-0{_hex(r, 16)}"\n    ami           = "ami-0{_hex(r, 16)}"\n    subnet_id     = "subnet-0{_hex(r, 16)}"\n    vpc_security_group_ids = ["sg-0{_hex(r, 16)}"]\n}}'


def _l_etag(r):
    return f'$ curl -sI https://cdn.shopco.example/catalog/feed.json\nHTTP/2 200\netag: "{_hex(r, 32)}"\nx-amz-version-id: {_r(r, 32, _B64U)}\nx-cache: Hit from cloudfront'


def _l_tracking(r):
    return f"Ticket #{r.randint(100000, 999999)}: parcel stuck. UPS tracking 1Z{_r(r, 16, _UA)}, DHL waybill {_dig(r, 10)}, EasyPost shipment shp_{_hex(r, 32)}."


def _l_card_masked(r):
    return f"Customer {_p(r)} called about card ending **** **** **** {r.randint(1000, 9999)} (exp {r.randint(1, 12):02d}/{r.randint(27, 31)}); Adyen PSP ref {_r(r, 16, _UA)} shows refund pending."


def _l_aws_doc_example(r):
    sk = "wJalrXUtnFEMI" + "/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return f"From the AWS docs (example value only, step {r.randint(1, 99)}):\n[default]\naws_secret_access_key = {sk}\nregion = {r.choice(['eu-west-1', 'us-east-1', 'eu-central-1', 'us-west-2'])}"


def _l_jwt_io_example(r):
    h = _b64(b'{"alg":"HS256","typ":"JWT"}', url=True, pad=False)
    p = _b64(b'{"sub":"1234567890","name":"John Doe","iat":1516239022}', url=True, pad=False)
    sig = "SflKxwRJSMeKKF2QT4fwpMeJ" + "f36POk6yJV_adQssw5c"
    return f"Test fixture #{r.randint(1, 500)} for the {_ns(r)} auth middleware uses the jwt.io sample token (secret 'your-256-bit-secret'): {h}.{p}.{sig}"


def _l_pagerduty_ids(r):
    return f"PagerDuty incident Q{_r(r, 13, _UA)} on service P{_r(r, 6, _UA)} (escalation policy P{_r(r, 6, _UA)}) acknowledged by {_p(r)}."


def _l_asc_key_id(r):
    return f"App Store Connect API: Key ID {_r(r, 10, _UA)}, Issuer ID {_uuid(r)}; the .p8 itself is in 1Password (vault Mobile, item 'ASC API key')."


def _l_play_sa(r):
    return f"Google Play uploads use play-publisher@shop-mobile-{_env(r)}.iam.gserviceaccount.com for package com.shopco.app{r.choice(['', '.beta', '.dev'])}; JSON key via Workload Identity, no file (build {r.randint(1000, 9999)})."


def _l_firebase_app_id(r):
    return f"google-services.json: mobilesdk_app_id 1:{_dig(r, 12)}:android:{_hex(r, 16)}, project_number {_dig(r, 12)}, storage_bucket shop-mobile.appspot.com"


def _l_azure_ids(r):
    return f"az login --service-principal uses tenant {_uuid(r)}, subscription {_uuid(r)}, app (client) id {_uuid(r)}; the secret comes from the pipeline's federated credential."


def _l_aws_arns(r):
    return f"Assume role: arn:aws:iam::{_dig(r, 12)}:role/{_ns(r)}-deployer (session {_p(r).lower()}-{r.randint(1000, 9999)}); account {_dig(r, 12)} is the log archive."


def _l_gcp_sa_email(r):
    return f"BigQuery exports run as bq-exporter@retail-data-{_env(r)}.iam.gserviceaccount.com (unique id {_dig(r, 21)}, project number {_dig(r, 12)})."


def _l_snowflake_ids(r):
    return f"Slow query {_hex(r, 8)}-0000-{_hex(r, 4)}-0000-{_hex(r, 12)} in account {_r(r, 7, _UA)}.eu-west-1 warehouse REPORTING_WH took {r.randint(30, 900)} s."


def _l_pg_nopass(r):
    return f"DATABASE_URL=postgresql://{r.choice(['orders_app', 'crm_sync'])}@{r.choice(_DBH)}:5432/orders?sslmode=verify-full&application_name={_ns(r)}-{r.randint(1, 99)}  # IAM auth, token generated per connection"


def _l_mongo_placeholder(r):
    return f"Atlas 'Connect' dialog: mongodb+srv://{r.choice(['catalog', 'admin', 'reviews'])}:<password>@cluster0.{_r(r, 5, _LA)}.mongodb.net/?retryWrites=true&w=majority (replace <password>)"


def _l_elastic_cloud_id(r):
    raw = f"eu-west-1.aws.found.io:443${_hex(r, 32)}${_hex(r, 32)}"
    return f"ELASTIC_CLOUD_ID=shop-logs-{_env(r)}:{_b64(raw.encode())}\n# cloud id is just the endpoint; auth is via API key from Vault"


def _l_confluent_key_id(r):
    return f"Confluent Cloud API key {_r(r, 16, _UA)} belongs to sa-{_r(r, 6, _LA)} (cluster lkc-{_r(r, 5, _LA)}); its secret is only in Vault."


def _l_sri(r):
    return f'<script src="https://js.stripe.com/v3/checkout-{r.randint(1, 99)}.js" integrity="sha384-{_b64(_rb(r, 48))}" crossorigin="anonymous"></script>'


def _l_webhook_placeholder(r):
    return f"To enable alerts set SLACK_WEBHOOK_URL to something like https://hooks.slack.com/{'services'}/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX (see runbook step {r.randint(1, 30)})."


def _l_k8s_describe(r):
    return f"$ kubectl -n {_ns(r)} describe secret {r.choice(['stripe', 'zendesk', 'pg'])}-creds\nType:  Opaque\n\nData\n====\napi-key:  {r.choice([32, 40, 64])} bytes\nusername:  {r.randint(5, 12)} bytes"


def _l_kubectl_secrets(r):
    return (
        "$ kubectl get secrets -n payments\nNAME                 TYPE                             DATA   AGE\n"
        + "\n".join(
            f"{n:<20} {t:<32} {r.randint(1, 4)}      {r.randint(1, 300)}d"
            for n, t in [
                ("adyen-creds", "Opaque"),
                ("regcred", "kubernetes.io/dockerconfigjson"),
                ("tls-checkout", "kubernetes.io/tls"),
            ]
        )
    )


def _l_vault_transit(r):
    return f'$ vault write transit/encrypt/orders plaintext=$(base64 <<< "4111 card last4")\nKey           Value\n---           -----\nciphertext    vault:v{r.randint(1, 4)}:{_b64(_rb(r, 48))}'


def _l_kms_ciphertext(r):
    return f"Lambda env ENCRYPTED_DB_PASSWORD = AQICAHh{_b64(_rb(r, 150))}\n# decrypted at cold start with kms:Decrypt, key alias/{_ns(r)}"


def _l_sealed(r):
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: klaviyo\n  namespace: {_ns(r)}\nspec:\n  encryptedData:\n    api-key: AgB{_b64(_rb(r, 300))}"


def _l_age(r):
    lines = _pem_lines(r, "YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOS", 4, 20)
    return (
        "secrets.env.age (encrypted, fine to commit):\n-----BEGIN AGE ENCRYPTED FILE-----\n"
        + "\n".join(lines)
        + "\n-----END AGE ENCRYPTED FILE-----"
    )


def _l_rails_enc(r):
    return f"$ cat config/credentials/production.yml.enc\n{_b64(_rb(r, 180))}--{_b64(_rb(r, 12))}--{_b64(_rb(r, 16))}"


def _l_pgp_message(r):
    lines = _pem_lines(r, "hQIMA", 6, 40)
    return (
        "Finance sent the NetSuite export encrypted:\n-----BEGIN PGP MESSAGE-----\n\n"
        + "\n".join(lines)
        + f"\n={_r(r, 4, _B64)}\n-----END PGP MESSAGE-----"
    )


def _l_jwks(r):
    return json.dumps(
        {
            "keys": [
                {
                    "kty": "RSA",
                    "use": "sig",
                    "kid": _r(r, 20, _B64U),
                    "alg": "RS256",
                    "n": _b64(_rb(r, 256), url=True, pad=False),
                    "e": "AQAB",
                }
            ]
        },
        indent=1,
    )


def _l_keycloak_pubkey(r):
    return f'Keycloak realm "shop" public key (for offline JWT validation):\n"publicKey": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{_r(r, 300, _B64)}IDAQAB"'


def _l_salesforce_ids(r):
    return f"Salesforce sync: account 001{_r(r, 15)} -> case 500{_r(r, 15)}; org id 00D{_r(r, 12)} ({_env(r)} org). Owner {_p(r)}."


def _l_hubspot_portal(r):
    return f"HubSpot portal {r.randint(1000000, 99999999)}: deal {r.randint(10**9, 10**10)} linked to contact {r.randint(10**5, 10**8)}; form guid {_uuid(r)}."


def _l_intercom_app_id(r):
    return f'Intercom messenger in the app: app_id "{_r(r, 8, _LA)}", identity verification on (user_hash computed server side).'


def _l_ga_ids(r):
    return f"Tracking ids: GA4 G-{_r(r, 10, _UA)}, GTM-{_r(r, 7, _UA)}, Google Ads AW-{_dig(r, 10)}/{_r(r, 20, _B64U)} (conversion label)."


def _l_meta_pixel(r):
    return f"Meta pixel {_dig(r, 16)} fires Purchase; _fbp=fb.1.{_dig(r, 13)}.{_dig(r, 10)}, fbclid IwAR{_r(r, 40, _B64U)} from campaign {_dig(r, 17)}."


def _l_promo(r):
    return f"Promo codes for the {r.choice(['winter', 'loyalty', 'app-only'])} campaign: {', '.join(r.choice(['SAVE', 'APP', 'VIP']) + str(r.randint(10, 40)) + '-' + _r(r, 6, _UA) for _ in range(3))}. One use per customer."


def _l_env_names(r):
    names = [
        "STRIPE_SECRET_KEY",
        "ZENDESK_API_TOKEN",
        "DD_API_KEY",
        "ALGOLIA_ADMIN_API_KEY",
        "SNOWFLAKE_PASSWORD",
        "VAULT_TOKEN",
        "FCM_SERVER_KEY",
    ]
    r.shuffle(names)
    return f"{_ns(r)} fails at boot unless these are set: {', '.join(names[: r.randint(3, 6)])}. They come from the ExternalSecret, not .env."


def _l_kubectl_from_file(r):
    return f"$ kubectl -n {_ns(r)} create secret generic {r.choice(['braze', 'klaviyo', 'adyen'])}-creds --from-env-file=./{_env(r)}.env --dry-run=client -o yaml | kubeseal > sealed.yaml"


def _l_aws_get_cmd(r):
    return f"To read it: aws secretsmanager get-secret-value --secret-id {_env(r)}/{_ns(r)}/{r.choice(['db', 'stripe', 'zendesk'])} --query SecretString (needs role {_ns(r)}-ops, MFA)."


def _l_tf_sensitive(r):
    return f'variable "{r.choice(["db_password", "datadog_api_key", "okta_api_token"])}" {{\n  type      = string\n  sensitive = true\n  # set via TF_VAR_ in Atlantis, revision {_hex(r, 7)}\n}}'


def _l_ci_cache(r):
    return f"Restoring cache: key gradle-{r.choice(['linux', 'macos'])}-{_hex(r, 64)}\nCache restored from key: gradle-{_hex(r, 40)} ({r.randint(100, 900)} MB)"


def _l_argocd_sync(r):
    return f"$ argocd app get {_ns(r)}-{_env(r)}\nSync Status:  Synced to main ({_hex(r, 7)})\nHealth Status: Healthy\nRevision:     {_hex(r, 40)}"


def _l_kustomize_hash(r):
    return f"configMapGenerator output: {_ns(r)}-config-{_r(r, 10, 'bcdfghkmt2456789')}, {_ns(r)}-flags-{_r(r, 10, 'bcdfghkmt2456789')} (hash suffixes change on every edit)"


def _l_pw_policy(r):
    return f"Support macro: 'For security we never ask for your password. Your password must have {r.randint(10, 16)}+ characters.' (macro #{r.randint(100, 999)}) Shown in the app as Password: ************ (masked)."


def _l_key_hash_table(r):
    return "SELECT key_prefix, key_sha256, created_at FROM partner_api_keys LIMIT 2;\n" + "\n".join(
        f"ptk_{_r(r, 6, _LA)} | {_hex(r, 64)} | {_date(r)}" for _ in range(2)
    )


def _l_go_panic(r):
    return f"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x{_hex(r, 2)} pc=0x{_hex(r, 7)}]\n\ngoroutine {r.randint(1, 900)} [running]:\nmain.(*Worker).sync(0xc000{_hex(r, 6)})\n\t/app/worker.go:{r.randint(10, 300)} +0x{_hex(r, 2)}"


def _l_semver_build(r):
    return f"Mobile release {r.randint(5, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}+build.{r.randint(1000, 9999)}.{_hex(r, 9)} promoted to 100% on Play; iOS build {r.randint(100, 999)} in review."


def _l_csv_uuids(r):
    return "customer_id,segment,ltv\n" + "\n".join(
        f"{_uuid(r)},{r.choice(['vip', 'churn-risk', 'new'])},{r.randint(10, 5000)}" for _ in range(3)
    )


def _l_opsgenie_alert(r):
    return f"Opsgenie alert {_uuid(r)}-{_dig(r, 13)} (tinyId {r.randint(1, 9999)}, alias checkout-5xx-{_hex(r, 8)}) closed by {_p(r)}."


def _l_grafana_uid(r):
    return f"Dashboard: https://grafana.shopco.example/d/{_r(r, 9, _AL)}/checkout-latency?orgId=1&var-env={_env(r)}&from=now-6h"


def _l_datadog_ids(r):
    return f"Datadog monitor {r.randint(10**7, 10**8)} ('{_ns(r)} p99 > 2s'), dashboard {_r(r, 3, string.ascii_lowercase)}-{_r(r, 3, string.ascii_lowercase)}-{_r(r, 3, string.ascii_lowercase)}, notebook {r.randint(10**6, 10**7)}."


def _l_honeycomb_link(r):
    return f"Slow checkout trace: https://ui.honeycomb.io/shopco/environments/{_env(r)}/datasets/checkout/trace?trace_id={_hex(r, 32)}&span={_hex(r, 16)}"


def _l_gitlab_ci_vars(r):
    return f'script:\n  - echo "$CI_JOB_TOKEN" | docker login -u gitlab-ci-token --password-stdin $CI_REGISTRY\n  - docker push $CI_REGISTRY_IMAGE:{_hex(r, 8)}'


def _l_pkce(r):
    return f"GET /authorize?response_type=code&client_id={_r(r, 20)}&code_challenge={_b64(_rb(r, 32), url=True, pad=False)}&code_challenge_method=S256&state={_r(r, 16, _LA)}&nonce={_hex(r, 16)}"


def _l_redis_info(r):
    return f"$ redis-cli INFO server | head -5\n# Server\nredis_version:7.{r.randint(0, 4)}.{r.randint(0, 9)}\nrun_id:{_hex(r, 40)}\ntcp_port:6379"


def _l_mysql_hash(r):
    return f"mysql> SELECT user, host, authentication_string FROM mysql.user WHERE user='magento';\n| magento | 10.12.% | *{_hex(r, 40).upper()} |"


def _l_pg_scram(r):
    return f"rolname | rolpassword\norders_app | SCRAM-SHA-256$4096:{_b64(_rb(r, 16))}${_b64(_rb(r, 32))}:{_b64(_rb(r, 32))}"


def _l_htpasswd(r):
    return f"# .htpasswd for the staging storefront\n{r.choice(['preview', 'qa', 'agency'])}:$apr1${_r(r, 8, _BC)}${_r(r, 22, _BC)}"


def _l_zendesk_macro(r):
    return f"Zendesk macro #{r.randint(100, 999)} 'Refund issued' sets tag refund_{_hex(r, 6)} and adds the Stripe refund id re_{_r(r, 24)} to the ticket."


def _l_fastlane_match(r):
    return f"fastlane match: certificates in git@github.com:shopco/certs.git (branch {_env(r)}), encrypted with MATCH_PASSWORD from CI secrets; profile uuid {_uuid(r).upper()}."


def _l_gradle_props_ref(r):
    return f'// build.gradle.kts\nstorePassword = System.getenv("ANDROID_KEYSTORE_PASSWORD")\nkeyPassword = providers.gradleProperty("keyPassword").get()\nversionCode = {r.randint(1000, 99999)}'


def _l_spring_ref(r):
    return f"spring:\n  datasource:\n    url: jdbc:postgresql://{r.choice(_DBH)}:5432/orders\n    username: ${{DB_USER}}\n    password: ${{DB_PASSWORD}}\n    hikari.maximum-pool-size: {r.randint(5, 50)}"


def _l_azure_sas_no_sig(r):
    return f"SAS policy '{_ns(r)}-read' on container exports: sp=rl, se=2026-12-{r.randint(10, 31)}, spr=https; generate the token with `az storage container generate-sas` when needed."


def _l_webhook_signature_header(r):
    return f"Incoming webhook from Shopify: X-Shopify-Hmac-Sha256: {_b64(_rb(r, 32))} X-Shopify-Webhook-Id: {_uuid(r)} (verified OK)"


def _l_stripe_signature_header(r):
    return f"Stripe-Signature: t={r.randint(1_700_000_000, 1_790_000_000)},v1={_hex(r, 64)}\n-> signature verified for evt_{_r(r, 24)}"


def _l_uuid_request_note(r):
    return f"Adyen support asked for pspReference {_r(r, 16, _UA)} and our merchantReference {_uuid(r)}; sent both via the portal."


def _l_image_tag(r):
    return f"Argo CD Image Updater bumped {_ns(r)} to ghcr.io/shopco/{_ns(r)}:main-{_hex(r, 7)}-{r.randint(100, 999)}"


def _l_gcs_unsigned(r):
    return f"Public product feed: https://storage.googleapis.com/shop-public-feeds/{r.choice(['google', 'meta', 'pinterest'])}/feed-{_date(r)}.xml (bucket is public-read, no signing needed)."


def _l_s3_unsigned(r):
    return f"s3://shop-exports-{_env(r)}/orders/{_date(r)}/part-{r.randint(0, 99):05d}-{_uuid(r)}.snappy.parquet"


def _l_totp_enrolled(r):
    return f"Okta factor for {_p(r).lower()}@shopco.example: type token:software:totp, id uft{_r(r, 17)}, status ACTIVE (enrolled {_date(r)})."


def _l_cert_serial(r):
    return f"Cert for checkout.shopco.example renewed: serial {':'.join(_hex(r, 2) for _ in range(16))}, not after {_date(r)}, issuer R{r.randint(10, 11)}."


def _l_dns_txt(r):
    return f'shopco.example. 300 IN TXT "google-site-verification={_r(r, 43, _B64U)}"\n_dmarc.shopco.example. 300 IN TXT "v=DMARC1; p=quarantine"'


def _l_dkim_pub(r):
    return f'selector1._domainkey.shopco.example TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{_r(r, 200, _B64)}IDAQAB"'


def _l_unleash_frontend_doc(r):
    return f"Unleash token types: admin tokens (server only), client tokens (backend SDKs) and frontend tokens. Format is <project>:<environment>.<hash>, e.g. *:development.<hash>. Ticket {r.randint(100, 9999)}."


_LOOK = [
    _l_commit_note,
    _l_git_log,
    _l_sha256sum,
    _l_docker_digest,
    _l_npm_integrity,
    _l_pip_hash,
    _l_go_sum,
    _l_tf_lock,
    _l_request_id,
    _l_traceparent,
    _l_idempotency,
    _l_stripe_pk,
    _l_stripe_ids,
    _l_algolia_search,
    _l_firebase_web,
    _l_sentry_dsn,
    _l_google_client_id,
    _l_auth0_client_id,
    _l_okta_client_id,
    _l_revenuecat_public,
    _l_ld_client_id,
    _l_mixpanel_token,
    _l_klaviyo_site,
    _l_braintree_tokenization,
    _l_adyen_client_key,
    _l_supabase_anon,
    _l_recaptcha,
    _l_dd_client_token,
    _l_nr_browser,
    _l_mapbox,
    _l_flagsmith_env,
    _l_typesense_search,
    _l_onesignal_app_id,
    _l_placeholder_angle,
    _l_env_interp,
    _l_gha_secrets,
    _l_airflow_var,
    _l_dbutils,
    _l_vault_path,
    _l_external_secret,
    _l_aws_sm_arn,
    _l_gcp_sm_name,
    _l_keyvault_ref,
    _l_secret_key_ref,
    _l_helm_existing,
    _l_changeme,
    _l_masked,
    _l_redacted,
    _l_ansible_vault,
    _l_sops,
    _l_bcrypt,
    _l_argon2,
    _l_pbkdf2,
    _l_sha512crypt,
    _l_ssh_pub,
    _l_ssh_fp,
    _l_cert_pem,
    _l_pgp_pub,
    _l_gpg_fp,
    _l_kms_key_id,
    _l_tls_fp,
    _l_data_uri,
    _l_b64_payload,
    _l_hf_model,
    _l_run_ids,
    _l_notebook,
    _l_kafka_offsets,
    _l_k8s_pods,
    _l_helm_history,
    _l_tf_state_ids,
    _l_etag,
    _l_tracking,
    _l_card_masked,
    _l_aws_doc_example,
    _l_jwt_io_example,
    _l_pagerduty_ids,
    _l_asc_key_id,
    _l_play_sa,
    _l_firebase_app_id,
    _l_azure_ids,
    _l_aws_arns,
    _l_gcp_sa_email,
    _l_snowflake_ids,
    _l_pg_nopass,
    _l_mongo_placeholder,
    _l_elastic_cloud_id,
    _l_confluent_key_id,
    _l_sri,
    _l_webhook_placeholder,
    _l_k8s_describe,
    _l_kubectl_secrets,
    _l_vault_transit,
    _l_kms_ciphertext,
    _l_sealed,
    _l_age,
    _l_rails_enc,
    _l_pgp_message,
    _l_jwks,
    _l_keycloak_pubkey,
    _l_salesforce_ids,
    _l_hubspot_portal,
    _l_intercom_app_id,
    _l_ga_ids,
    _l_meta_pixel,
    _l_promo,
    _l_env_names,
    _l_kubectl_from_file,
    _l_aws_get_cmd,
    _l_tf_sensitive,
    _l_ci_cache,
    _l_argocd_sync,
    _l_kustomize_hash,
    _l_pw_policy,
    _l_key_hash_table,
    _l_go_panic,
    _l_semver_build,
    _l_csv_uuids,
    _l_opsgenie_alert,
    _l_grafana_uid,
    _l_datadog_ids,
    _l_honeycomb_link,
    _l_gitlab_ci_vars,
    _l_pkce,
    _l_redis_info,
    _l_mysql_hash,
    _l_pg_scram,
    _l_htpasswd,
    _l_zendesk_macro,
    _l_fastlane_match,
    _l_gradle_props_ref,
    _l_spring_ref,
    _l_azure_sas_no_sig,
    _l_webhook_signature_header,
    _l_stripe_signature_header,
    _l_uuid_request_note,
    _l_image_tag,
    _l_gcs_unsigned,
    _l_s3_unsigned,
    _l_totp_enrolled,
    _l_cert_serial,
    _l_dns_txt,
    _l_dkim_pub,
    _l_unleash_frontend_doc,
]


def _lookalikes(rng: random.Random, seen: set[str]) -> list[str]:
    out: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 200:
                raise RuntimeError(f"look-alike generator {gen.__name__} cannot make {LOOK_PER_GEN} distinct texts")
            text = gen(rng)
            if text in seen:
                continue
            seen.add(text)
            out.append(text)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Return ``(positives, lookalikes)`` for ``seed``; see the module docstring for the contract."""
    rng = random.Random(seed)
    seen: set[str] = set()
    positives = _positives(rng, seen)
    lookalikes = _lookalikes(rng, seen)
    return positives, lookalikes
