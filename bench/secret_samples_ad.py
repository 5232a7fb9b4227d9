"""Labelled test set AD for a secret detector working on agent "memories".

Theme
-----
Memories an AI coding agent keeps while working for an e-commerce agency that builds and runs online
stores (Shopify / Shopify Plus, Magento / Adobe Commerce, BigCommerce, WooCommerce, PrestaShop, search,
reviews, helpdesk, subscriptions, shipping, tax, email marketing, ads feeds) and for a travel agency whose
booking systems it integrates (Amadeus, Sabre, Travelport, Duffel, Booking.com, Expedia, Hotelbeds,
SiteMinder, Cloudbeds, GDS terminals), plus payments across regions (Stripe, Adyen, Checkout.com,
Mollie, Mercado Pago, PagSeguro, Razorpay, Paytm, Xendit, Midtrans, PayMongo/GCash, 2C2P, PayU) and
messaging/helpdesk (Twilio, WhatsApp Business, Zendesk, Freshdesk).

Memory styles: about half short notes, lessons, runbooks, TODOs, tickets, client e-mails and chat
(English mostly; some Spanish, Brazilian Portuguese, Hindi, Malay, Indonesian, Thai, Vietnamese), about a
quarter config (.env, YAML, JSON, XML, PHP arrays / env.php, TOML, Terraform, Helm values, GitHub
Actions) and about a quarter tool output (curl -v, container logs, CI logs, docker inspect, SOAP
envelopes, Python tracebacks).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``kind`` is a snake_case credential kind, ``secret``
  is the single sensitive value and an exact substring of ``text``.  Every kind has exactly 30 positives.
* ``lookalikes``: texts with NO credential.  ``_LOOK`` is a list of generator functions; each is called
  until it yields ``LOOK_PER_GEN`` distinct texts, so ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no duplicate texts anywhere.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs: the
  password only.  PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line.
* Public-by-design values are look-alikes: publishable keys, client keys, search-only keys, site keys,
  Sentry DSNs, OAuth client ids, Firebase web apiKeys, storefront tokens, public certificates / keys.
  Vendor documentation example values, encrypted blobs (Ansible vault, sops, sealed secrets, Magento
  encrypted config) and password hashes are look-alikes too.
* Bare AWS access key ids appear nowhere (neither positive nor look-alike).
* No token-shaped literal is in this source: prefixes and bodies are assembled at run time.
"""

from __future__ import annotations

import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
ALN = LOW + UP + DIG
LALN = LOW + DIG
UALN = UP + DIG
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
B64 = ALN + "+/"
B64U = ALN + "-_"
B32 = LOW + "234567"


def rs(rng: random.Random, alpha: str, n: int) -> str:
    return "".join(rng.choice(alpha) for _ in range(n))


def pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def uuid4(rng: random.Random) -> str:
    h = rs(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{pick(rng, '89ab')}{h[17:20]}-{h[20:]}"


def digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + rs(rng, DIG, n - 1)


# ---------------------------------------------------------------- fillers
CLIENTS = [
    "Casa Verde Living",
    "Lumen Coffee Co",
    "Tienda Sol",
    "Loja Aurora",
    "Batik Nusantara",
    "Saigon Silk House",
    "Bangkok Bloom",
    "Kopi Kita",
    "Mumbai Spice Box",
    "Andes Trek Travel",
    "Island Hop Tours",
    "Nomad Fare Travel",
    "Pacific Reef Resorts",
    "Northwind Outfitters",
    "Kiwi Kicks",
    "Rio Bikinis",
    "Selva Viajes",
    "Lotus Stay Hotels",
    "Petal & Pine",
    "Harbor Tea Traders",
]
PERSONS = [
    "Ana",
    "Ravi",
    "Mei",
    "Diego",
    "Siti",
    "Thanh",
    "Priya",
    "Lucas",
    "Niran",
    "Budi",
    "Olivia",
    "Kenji",
    "Camila",
    "Arjun",
    "Nurul",
    "Minh",
    "Joao",
    "Fatima",
]
REGIONS = [
    "us-east-1",
    "eu-west-1",
    "sa-east-1",
    "ap-south-1",
    "ap-southeast-1",
    "ap-southeast-3",
]
WORDS = [
    "tulip",
    "rover",
    "mango",
    "harbor",
    "coral",
    "sunset",
    "kopi",
    "samba",
    "lotus",
    "tiger",
    "cobalt",
    "maple",
    "falcon",
    "orchid",
    "pepper",
    "lagoon",
    "sierra",
    "nimbus",
    "copper",
    "jasmine",
    "monsoon",
    "cactus",
    "papaya",
    "bamboo",
    "atlas",
    "meadow",
    "durian",
    "pampa",
]
CAPWORDS = [
    "Summer",
    "Winter",
    "Monsoon",
    "Carnaval",
    "Diwali",
    "Songkran",
    "Welcome",
    "Blackfriday",
]


def slug(s: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-").replace("--", "-")


def snake(s: str) -> str:
    out = "".join(c if c.isalnum() else "_" for c in s.lower())
    while "__" in out:
        out = out.replace("__", "_")
    return out.strip("_")


def a_date(rng: random.Random) -> str:
    return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def a_time(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"


def a_ts(rng: random.Random) -> str:
    return f"{a_date(rng)}T{a_time(rng)}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z"


def human_pw(rng: random.Random, url_safe: bool = False) -> str:
    sym = "-_.~!" if url_safe else "!#%*-_.@$"
    style = rng.randrange(5)
    if style == 0:
        return f"{pick(rng, CAPWORDS)}{rng.randint(2019, 2027)}{pick(rng, sym)}"
    if style == 1:
        return f"{pick(rng, WORDS)}-{pick(rng, WORDS).capitalize()}-{rng.randint(10, 99)}"
    if style == 2:
        return rs(rng, ALN + sym, rng.randint(16, 22))
    if style == 3:
        sep = pick(rng, "-._")
        return sep.join(pick(rng, WORDS) for _ in range(4)) + str(rng.randint(1, 99))
    return f"{pick(rng, WORDS).capitalize()}{pick(rng, sym)}{rng.randint(100, 9999)}{pick(rng, WORDS)}"


def pem_block(rng: random.Random, label: str, head: str, nchars: int, width: int = 64) -> str:
    body = head + rs(rng, B64, nchars - len(head))
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    tail = "=" if rng.random() < 0.5 else ""
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + tail + f"\n-----END {label}-----"


PK = "PRIVATE" + " KEY"


def g_rsa(rng):
    return pem_block(rng, "RSA " + PK, "MIIEow" + "IBAAKCAQEA", rng.choice([1580, 1624, 1676]))


def g_pkcs8(rng):
    return pem_block(rng, PK, "MIIEvQ" + "IBADANBgkqhkiG9w0BAQEFAASC", rng.choice([1620, 1640, 1660]))


def g_ec(rng):
    return pem_block(rng, "EC " + PK, "MHcC" + "AQEEI", 224)


def g_openssh(rng):
    head = "b3BlbnNzaC1rZXktdjEAAAAA" + "BG5vbmUAAAAEbm9uZQAAAAAAAAABAAAA"
    n = rng.choice([380, 396, 2580])
    return pem_block(rng, "OPENSSH " + PK, head, n, 70)


# ---------------------------------------------------------------- kinds
class Kind:
    def __init__(
        self,
        kind,
        vendor,
        label,
        envs,
        style,
        gen,
        hdr=None,
        qp=None,
        soap=False,
        users=None,
    ):
        self.kind = kind
        self.vendor = vendor
        self.label = label
        self.envs = envs
        self.style = style  # t: token, p: password, u: url with secret inside, k: pem block
        self.gen = gen
        self.hdr = hdr
        self.qp = qp
        self.soap = soap
        self.users = users or ["api_user", "integration", "ops"]


def url_kind(builder):
    def gen(rng):
        pw = human_pw(rng, url_safe=True)
        return builder(rng, pw), pw

    return gen


def _pg(rng, pw):
    user = pick(rng, ["app", "orders_rw", "shop", "booking_svc", "reporting", "catalog"])
    host = pick(
        rng,
        ["db.internal", "pg-prod.cluster-c8x.eu-west-1.rds.amazonaws.com", "10.0.3.14"],
    )
    return f"postgresql://{user}:{pw}@{host}:5432/{pick(rng, ['orders', 'bookings', 'pim', 'crm'])}"


def _my(rng, pw):
    host = pick(
        rng,
        ["mysql.magento.svc", "db-primary", "172.20.0.5", "aurora-prod.cluster.local"],
    )
    return f"mysql://magento:{pw}@{host}:3306/{pick(rng, ['magento', 'magento2', 'm2_live', 'shop'])}"


def _redis(rng, pw):
    host = pick(
        rng,
        ["redis-cache.internal", "cache.prod.svc", "master.sessions.abc123.use1.cache"],
    )
    return f"rediss://default:{pw}@{host}:6380/{rng.randint(0, 3)}"


def _sftp(rng, pw):
    user = pick(rng, ["cm_feed", "hb_cache", "inventory", "siteminder_pms", "ratesync"])
    host = pick(rng, ["sftp.partner-feeds.net", "files.channelmgr.io", "ftp.tourdata.travel"])
    return f"sftp://{user}:{pw}@{host}:22/{pick(rng, ['outbound', 'inventory', 'rates', 'in'])}"


def _basic(rng, pw):
    user = pick(rng, ["preview", "staging", "client", "qa"])
    dom = slug(pick(rng, CLIENTS)).replace("-", "")
    return f"https://{user}:{pw}@staging.{dom}.com/{pick(rng, ['', 'admin', 'checkout', 'collections/all'])}"


def g_slack(rng):
    tok = rs(rng, ALN, 24)
    url = "https://hooks.slack.com/services/T" + rs(rng, UALN, 8) + "/B" + rs(rng, UALN, 10) + "/" + tok
    return url, tok


def g_eaa(rng):
    return "EA" + "A" + pick(rng, "BGIJK") + rs(rng, ALN, rng.randint(150, 200))


def g_adyen(rng):
    return "AQE" + rs(rng, B64, 97) + "=-" + rs(rng, B64, 43) + "=-" + rs(rng, ALN, 16)


def g_mp(rng):
    return "APP_" + "USR-" + digits(rng, 16) + "-" + digits(rng, 6) + "-" + rs(rng, HEX, 32) + "-" + digits(rng, 9)


def pre(prefix_a, prefix_b, alpha, n):
    return lambda rng: prefix_a + prefix_b + rs(rng, alpha, n)


def pw_gen(rng):
    return human_pw(rng)


def g_travelport(rng):
    return rs(rng, ALN, 3) + pick(rng, "!%#*") + rs(rng, ALN, 4) + pick(rng, "!%#*") + rs(rng, ALN, 2)


def g_gds(rng):
    return (
        pick(rng, ["Trav", "Fly", "Seat", "Pnr", "Gds"]) + str(rng.randint(10, 99)) + pick(rng, "!#*") + rs(rng, UP, 2)
    )


def g_stripe_long(a, b):
    return lambda rng: a + b + "51" + rs(rng, ALN, pick(rng, [22, 96]))


KINDS = [
    Kind(
        "shopify_admin_api_token",
        "Shopify",
        "Admin API access token",
        ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"],
        "t",
        pre("shp", "at_", HEX, 32),
        hdr="X-Shopify-Access-Token:",
    ),
    Kind(
        "shopify_app_client_secret",
        "Shopify",
        "app client secret",
        ["SHOPIFY_API_SECRET", "SHOPIFY_CLIENT_SECRET"],
        "t",
        pre("shp", "ss_", HEX, 32),
    ),
    Kind(
        "shopify_private_app_password",
        "Shopify Plus",
        "private app password",
        ["SHOPIFY_PASSWORD", "SHOPIFY_PRIVATE_APP_PASSWORD"],
        "t",
        pre("shp", "pa_", HEX, 32),
        hdr="X-Shopify-Access-Token:",
    ),
    Kind(
        "shopify_custom_app_token",
        "Shopify",
        "custom app access token",
        ["SHOPIFY_CUSTOM_APP_TOKEN", "SHOP_TOKEN"],
        "t",
        pre("shp", "ca_", HEX, 32),
        hdr="X-Shopify-Access-Token:",
    ),
    Kind(
        "magento_integration_token",
        "Magento",
        "integration access token",
        ["MAGENTO_ACCESS_TOKEN", "M2_INTEGRATION_TOKEN"],
        "t",
        pre("", "", LALN, 32),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "magento_db_password",
        "Adobe Commerce",
        "database password (env.php)",
        ["MAGENTO_DB_PASSWORD", "DB_PASSWORD"],
        "p",
        pw_gen,
        users=["magento", "m2_app", "adobe_commerce"],
    ),
    Kind(
        "magento_crypt_key",
        "Magento",
        "crypt key",
        ["MAGENTO_CRYPT_KEY", "CRYPT_KEY"],
        "t",
        pre("", "", HEX, 32),
    ),
    Kind(
        "magento_admin_password",
        "Magento",
        "admin password",
        ["MAGENTO_ADMIN_PASSWORD", "ADMIN_PASS"],
        "p",
        pw_gen,
        soap=True,
        users=["admin", "agency_admin", "support"],
    ),
    Kind(
        "bigcommerce_access_token",
        "BigCommerce",
        "API account access token",
        ["BIGCOMMERCE_ACCESS_TOKEN", "BC_AUTH_TOKEN"],
        "t",
        pre("", "", LALN, 31),
        hdr="X-Auth-Token:",
    ),
    Kind(
        "woocommerce_consumer_secret",
        "WooCommerce",
        "REST consumer secret",
        ["WC_CONSUMER_SECRET", "WOO_SECRET"],
        "t",
        pre("cs", "_", HEX, 40),
        qp="consumer_secret",
    ),
    Kind(
        "prestashop_webservice_key",
        "PrestaShop",
        "webservice key",
        ["PRESTASHOP_WS_KEY", "PS_WEBSERVICE_KEY"],
        "t",
        pre("", "", UALN, 32),
        qp="ws_key",
    ),
    Kind(
        "algolia_admin_api_key",
        "Algolia",
        "admin API key",
        ["ALGOLIA_ADMIN_KEY", "ALGOLIA_WRITE_API_KEY"],
        "t",
        pre("", "", HEX, 32),
        hdr="X-Algolia-API-Key:",
    ),
    Kind(
        "klevu_rest_auth_key",
        "Klevu",
        "REST AUTH key",
        ["KLEVU_REST_AUTH_KEY", "KLEVU_SECRET"],
        "t",
        pre("", "", ALN, 40),
    ),
    Kind(
        "yotpo_api_secret",
        "Yotpo",
        "API secret",
        ["YOTPO_SECRET_KEY", "YOTPO_API_SECRET"],
        "t",
        pre("", "", ALN, 40),
    ),
    Kind(
        "gorgias_api_key",
        "Gorgias",
        "REST API key",
        ["GORGIAS_API_KEY", "GORGIAS_TOKEN"],
        "t",
        pre("", "", HEX, 64),
    ),
    Kind(
        "recharge_api_token",
        "Recharge",
        "API token",
        ["RECHARGE_API_TOKEN", "RECHARGE_ACCESS_TOKEN"],
        "t",
        pre("sk", "_1x1_", HEX, 64),
        hdr="X-Recharge-Access-Token:",
    ),
    Kind(
        "shipstation_api_secret",
        "ShipStation",
        "API secret",
        ["SHIPSTATION_API_SECRET", "SS_API_SECRET"],
        "t",
        pre("", "", HEX, 32),
    ),
    Kind(
        "shippo_live_token",
        "Shippo",
        "live API token",
        ["SHIPPO_API_TOKEN", "SHIPPO_KEY"],
        "t",
        pre("shippo", "_live_", HEX, 40),
        hdr="Authorization: ShippoToken",
    ),
    Kind(
        "easypost_api_key",
        "EasyPost",
        "production API key",
        ["EASYPOST_API_KEY", "EP_PROD_KEY"],
        "t",
        pre("EZ", "AK", HEX, 54),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "avalara_license_key",
        "Avalara AvaTax",
        "license key",
        ["AVATAX_LICENSE_KEY", "AVALARA_LICENSE"],
        "t",
        pre("", "", UHEX, 16),
    ),
    Kind(
        "taxjar_api_token",
        "TaxJar",
        "live API token",
        ["TAXJAR_API_KEY", "TAXJAR_TOKEN"],
        "t",
        pre("", "", HEX, 32),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "klaviyo_private_api_key",
        "Klaviyo",
        "private API key",
        ["KLAVIYO_PRIVATE_KEY", "KLAVIYO_API_KEY"],
        "t",
        pre("pk", "_", HEX, 34),
        hdr="Authorization: Klaviyo-API-Key",
    ),
    Kind(
        "omnisend_api_key",
        "Omnisend",
        "API key",
        ["OMNISEND_API_KEY"],
        "t",
        lambda r: rs(r, HEX, 24) + "-" + rs(r, ALN, 50),
        hdr="X-API-KEY:",
    ),
    Kind(
        "meta_capi_access_token",
        "Meta Conversions API",
        "system user access token",
        ["META_CAPI_TOKEN", "FB_ACCESS_TOKEN"],
        "t",
        g_eaa,
        qp="access_token",
    ),
    Kind(
        "google_merchant_sa_private_key",
        "Google Merchant Center",
        "service account private key",
        ["GMC_PRIVATE_KEY", "GOOGLE_PRIVATE_KEY"],
        "k",
        g_pkcs8,
    ),
    Kind(
        "google_oauth_client_secret",
        "Google Merchant Center",
        "OAuth client secret",
        ["GOOGLE_CLIENT_SECRET", "GMC_OAUTH_SECRET"],
        "t",
        pre("GOC", "SPX-", B64U, 28),
    ),
    Kind(
        "tiktok_shop_app_secret",
        "TikTok Shop",
        "app secret",
        ["TIKTOK_SHOP_APP_SECRET", "TTS_APP_SECRET"],
        "t",
        pre("", "", HEX, 40),
    ),
    Kind(
        "stripe_secret_key",
        "Stripe",
        "live secret key",
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
        "t",
        g_stripe_long("sk", "_live_"),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "stripe_restricted_key",
        "Stripe",
        "restricted key",
        ["STRIPE_RESTRICTED_KEY", "STRIPE_RK"],
        "t",
        g_stripe_long("rk", "_live_"),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "stripe_webhook_secret",
        "Stripe",
        "webhook signing secret",
        ["STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET"],
        "t",
        pre("wh", "sec_", ALN, 32),
    ),
    Kind(
        "adyen_api_key",
        "Adyen",
        "API key",
        ["ADYEN_API_KEY", "ADYEN_X_API_KEY"],
        "t",
        g_adyen,
        hdr="X-API-Key:",
    ),
    Kind(
        "adyen_hmac_key",
        "Adyen",
        "webhook HMAC key",
        ["ADYEN_HMAC_KEY", "ADYEN_NOTIFICATION_HMAC"],
        "t",
        pre("", "", UHEX, 64),
    ),
    Kind(
        "checkout_com_secret_key",
        "Checkout.com",
        "secret key",
        ["CKO_SECRET_KEY", "CHECKOUT_SECRET_KEY"],
        "t",
        pre("sk", "_", B32, 26),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "mollie_api_key",
        "Mollie",
        "live API key",
        ["MOLLIE_API_KEY", "MOLLIE_KEY"],
        "t",
        pre("live", "_", ALN, 30),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "mercadopago_access_token",
        "Mercado Pago",
        "access token",
        ["MP_ACCESS_TOKEN", "MERCADOPAGO_ACCESS_TOKEN"],
        "t",
        g_mp,
        hdr="Authorization: Bearer",
    ),
    Kind(
        "pagseguro_token",
        "PagSeguro",
        "token de integração",
        ["PAGSEGURO_TOKEN", "PAGBANK_TOKEN"],
        "t",
        pre("", "", UHEX, 32),
        qp="token",
    ),
    Kind(
        "razorpay_key_secret",
        "Razorpay",
        "key secret",
        ["RAZORPAY_KEY_SECRET", "RZP_SECRET"],
        "t",
        pre("", "", ALN, 24),
    ),
    Kind(
        "paytm_merchant_key",
        "Paytm",
        "merchant key",
        ["PAYTM_MERCHANT_KEY", "PAYTM_MKEY"],
        "t",
        pre("", "", ALN + "@#%", 16),
    ),
    Kind(
        "xendit_secret_key",
        "Xendit",
        "secret API key",
        ["XENDIT_SECRET_KEY", "XENDIT_API_KEY"],
        "t",
        pre("xnd", "_production_", ALN, 50),
    ),
    Kind(
        "midtrans_server_key",
        "Midtrans",
        "server key",
        ["MIDTRANS_SERVER_KEY"],
        "t",
        pre("Mid", "-server-", ALN + "-_", 24),
    ),
    Kind(
        "paymongo_secret_key",
        "PayMongo (GCash)",
        "secret key",
        ["PAYMONGO_SECRET_KEY", "GCASH_PAYMONGO_SK"],
        "t",
        pre("sk", "_live_", ALN, 24),
    ),
    Kind(
        "twoc2p_secret_key",
        "2C2P",
        "merchant secret key",
        ["C2P_SECRET_KEY", "TWOC2P_SECRET"],
        "t",
        pre("", "", UHEX, 64),
    ),
    Kind(
        "payu_merchant_salt",
        "PayU",
        "merchant salt",
        ["PAYU_SALT", "PAYU_MERCHANT_SALT"],
        "t",
        pre("", "", ALN, 32),
    ),
    Kind(
        "amadeus_api_secret",
        "Amadeus Self-Service",
        "API secret",
        ["AMADEUS_CLIENT_SECRET", "AMADEUS_API_SECRET"],
        "t",
        pre("", "", ALN, 16),
        soap=False,
    ),
    Kind(
        "amadeus_ws_password",
        "Amadeus Enterprise",
        "WSAP password",
        ["AMADEUS_WS_PASSWORD", "WSAP_PASSWORD"],
        "p",
        pw_gen,
        soap=True,
        users=["WSBEAAGY", "WS1AXYZTRV", "WSNOMAD"],
    ),
    Kind(
        "sabre_epr_password",
        "Sabre",
        "EPR password",
        ["SABRE_PASSWORD", "SABRE_EPR_PASS"],
        "p",
        g_gds,
        soap=True,
        users=["7971", "24601", "88310"],
    ),
    Kind(
        "travelport_uapi_password",
        "Travelport uAPI",
        "API password",
        ["TRAVELPORT_PASSWORD", "UAPI_PASSWORD"],
        "p",
        g_travelport,
        soap=True,
        users=["Universal API/uAPI4648209292-e1e4ba84", "Universal API/uAPI7731"],
    ),
    Kind(
        "duffel_access_token",
        "Duffel",
        "live access token",
        ["DUFFEL_ACCESS_TOKEN", "DUFFEL_TOKEN"],
        "t",
        pre("duffel", "_live_", B64U, 43),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "booking_com_password",
        "Booking.com Connectivity",
        "machine account password",
        ["BOOKING_XML_PASSWORD", "BCOM_PASSWORD"],
        "p",
        pw_gen,
        soap=True,
        users=["nomadfare-xml", "cm_machine_01"],
    ),
    Kind(
        "expedia_rapid_shared_secret",
        "Expedia Rapid",
        "shared secret",
        ["EXPEDIA_SHARED_SECRET", "RAPID_SECRET"],
        "t",
        pre("", "", ALN, 16),
    ),
    Kind(
        "hotelbeds_api_secret",
        "Hotelbeds",
        "API secret",
        ["HOTELBEDS_SECRET", "HB_API_SECRET"],
        "t",
        pre("", "", LALN, 10),
    ),
    Kind(
        "siteminder_password",
        "SiteMinder",
        "pmsXchange password",
        ["SITEMINDER_PASSWORD", "SMX_PASSWORD"],
        "p",
        pw_gen,
        soap=True,
        users=["lotusstay_pms", "reef_resorts"],
    ),
    Kind(
        "cloudbeds_api_key",
        "Cloudbeds",
        "API key",
        ["CLOUDBEDS_API_KEY"],
        "t",
        pre("cb", "at_", ALN, 32),
        hdr="x-api-key:",
    ),
    Kind(
        "twilio_auth_token",
        "Twilio",
        "auth token",
        ["TWILIO_AUTH_TOKEN"],
        "t",
        pre("", "", HEX, 32),
    ),
    Kind(
        "twilio_api_key_secret",
        "Twilio",
        "API key secret",
        ["TWILIO_API_SECRET", "TWILIO_API_KEY_SECRET"],
        "t",
        pre("", "", ALN, 32),
    ),
    Kind(
        "whatsapp_cloud_access_token",
        "WhatsApp Business",
        "permanent access token",
        ["WHATSAPP_TOKEN", "WA_ACCESS_TOKEN"],
        "t",
        g_eaa,
        hdr="Authorization: Bearer",
    ),
    Kind(
        "zendesk_api_token",
        "Zendesk",
        "API token",
        ["ZENDESK_API_TOKEN", "ZD_TOKEN"],
        "t",
        pre("", "", ALN, 40),
    ),
    Kind(
        "freshdesk_api_key",
        "Freshdesk",
        "API key",
        ["FRESHDESK_API_KEY", "FD_API_KEY"],
        "t",
        pre("", "", ALN, 20),
    ),
    Kind(
        "gds_terminal_password",
        "Amadeus Selling Platform",
        "GDS terminal sign-in password",
        ["GDS_TERMINAL_PASSWORD", "ASP_PASSWORD"],
        "p",
        g_gds,
        users=["0001AA/SU", "NCE1A0955/JS", "BKK1S2100"],
    ),
    Kind(
        "github_pat",
        "GitHub",
        "personal access token",
        ["GITHUB_TOKEN", "GH_TOKEN"],
        "t",
        pre("gh", "p_", ALN, 36),
        hdr="Authorization: token",
    ),
    Kind(
        "github_fine_grained_pat",
        "GitHub",
        "fine-grained token",
        ["GH_PAT", "THEME_REPO_TOKEN"],
        "t",
        lambda r: "github" + "_pat_" + "11A" + rs(r, UALN, 19) + "_" + rs(r, ALN, 59),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "aws_secret_access_key",
        "AWS",
        "secret access key",
        ["AWS_SECRET_ACCESS_KEY"],
        "t",
        pre("", "", B64, 40),
    ),
    Kind(
        "slack_webhook_url",
        "Slack",
        "incoming webhook",
        ["SLACK_WEBHOOK_URL", "ORDERS_SLACK_HOOK"],
        "u",
        g_slack,
    ),
    Kind(
        "sendgrid_api_key",
        "SendGrid",
        "API key",
        ["SENDGRID_API_KEY"],
        "t",
        lambda r: "SG" + "." + rs(r, B64U, 22) + "." + rs(r, B64U, 43),
        hdr="Authorization: Bearer",
    ),
    Kind(
        "postgres_password",
        "Postgres",
        "database URL",
        ["DATABASE_URL", "BOOKINGS_DB_URL"],
        "u",
        url_kind(_pg),
    ),
    Kind(
        "mysql_password",
        "MySQL",
        "Magento database URL",
        ["MAGENTO_DB_URL", "MYSQL_URL"],
        "u",
        url_kind(_my),
    ),
    Kind(
        "redis_password",
        "Redis",
        "session cache URL",
        ["REDIS_URL", "SESSION_REDIS_URL"],
        "u",
        url_kind(_redis),
    ),
    Kind(
        "sftp_password",
        "channel manager SFTP",
        "feed URL",
        ["FEED_SFTP_URL", "CM_SFTP_URL"],
        "u",
        url_kind(_sftp),
    ),
    Kind(
        "http_basic_auth_password",
        "staging storefront",
        "basic-auth preview URL",
        ["STAGING_URL", "PREVIEW_URL"],
        "u",
        url_kind(_basic),
    ),
    Kind(
        "openssh_private_key",
        "deploy server",
        "SSH deploy key",
        ["DEPLOY_SSH_KEY", "SSH_PRIVATE_KEY"],
        "k",
        g_openssh,
    ),
    Kind(
        "rsa_private_key",
        "Hotelbeds SFTP",
        "RSA private key",
        ["SFTP_PRIVATE_KEY", "HB_RSA_KEY"],
        "k",
        g_rsa,
    ),
    Kind(
        "ec_private_key",
        "Apple Pay",
        "merchant identity EC private key",
        ["APPLEPAY_MERCHANT_KEY", "APPLE_PAY_KEY"],
        "k",
        g_ec,
    ),
    Kind(
        "npm_access_token",
        "npm",
        "automation token",
        ["NPM_TOKEN", "NODE_AUTH_TOKEN"],
        "t",
        pre("np", "m_", ALN, 36),
    ),
]

# ---------------------------------------------------------------- templates
# (styles, need, format).  need: None, "hdr", "qp", "soap"
TEMPLATES = [
    ("tpu", None, "{vendor} {label} for {client}: {v} (rotate after go-live)"),
    (
        "tpu",
        None,
        "Lesson: {client}'s {vendor} calls kept failing with 401 because staging still had the old {label}. Current one is {v} - keep staging and prod in sync.",
    ),
    (
        "tpu",
        None,
        "TODO({person}): move the {vendor} {label} `{v}` out of this note and into the client vault before {date}.",
    ),
    (
        "tpu",
        None,
        "[{ticket}] {vendor} sync broken for {client}\nReporter: {person}\nWorkaround: reconnected with {label} {v}\nStatus: open",
    ),
    (
        "tpu",
        None,
        "Hi {person},\n\nAs requested, here is the {vendor} {label} for {client}:\n\n{v}\n\nPlease do not forward this email.\n\nThanks,\n{person2}",
    ),
    (
        "tpu",
        None,
        "[{time}] {person}: anyone have the {vendor} {label} for {client}?\n[{time2}] {person2}: {v}\n[{time2}] {person}: thanks, got it",
    ),
    (
        "tpu",
        None,
        "Nota: la {label} de {vendor} para {client} es {v}. No compartir con el cliente por WhatsApp.",
    ),
    (
        "tpu",
        None,
        "Anotação: o {label} do {vendor} da loja {client} é {v} — trocar depois da Black Friday.",
    ),
    (
        "tpu",
        None,
        "नोट: {client} के लिए {vendor} {label} यह है: {v} — इसे किसी के साथ साझा न करें।",
    ),
    (
        "tpu",
        None,
        "Nota: {label} {vendor} untuk {client} ialah {v}. Jangan kongsi dalam kumpulan WhatsApp.",
    ),
    (
        "tpu",
        None,
        "Catatan: {label} {vendor} untuk {client} adalah {v}, jangan dibagikan ke klien.",
    ),
    ("tpu", None, "บันทึก: {label} ของ {vendor} สำหรับ {client} คือ {v} ห้ามแชร์ในกลุ่มไลน์"),
    (
        "tpu",
        None,
        "Ghi chú: {label} {vendor} cho {client} là {v}, không chia sẻ ra ngoài.",
    ),
    (
        "tpu",
        None,
        "Runbook: reconnect {vendor} for {client}\n1. ssh deploy@{host}\n2. export {env}={v}\n3. ./bin/sync --vendor {sec} --since {date}\n4. watch the dashboard for 10 min",
    ),
    (
        "tpu",
        None,
        "# {client} - {vendor}\nAPP_ENV=production\n{env}={v}\nLOG_LEVEL=info\n",
    ),
    (
        "tpu",
        None,
        "{sec}:\n  environment: production\n  region: {region}\n  {key}: {v}\n  timeout_seconds: 30\n",
    ),
    (
        "tpu",
        None,
        '{{\n  "{sec}": {{\n    "{key}": "{v}",\n    "sandbox": false\n  }}\n}}',
    ),
    (
        "tpu",
        None,
        "<config>\n  <{sec}>\n    <{key}>{v}</{key}>\n    <mode>live</mode>\n  </{sec}>\n</config>",
    ),
    (
        "tpu",
        None,
        "<?php\n// app/etc/env.php (excerpt) - {client}\nreturn [\n    '{sec}' => [\n        '{key}' => '{v}',\n        'sandbox' => false,\n    ],\n];",
    ),
    (
        "tpu",
        None,
        'resource "kubernetes_secret" "{sec}" {{\n  metadata {{\n    name      = "{sec}-creds"\n    namespace = "{ns}"\n  }}\n  data = {{\n    {env} = "{v}"\n  }}\n}}',
    ),
    (
        "tpu",
        None,
        '# values-prod.yaml ({client})\nenv:\n  - name: {env}\n    value: "{v}"\n  - name: NODE_ENV\n    value: production',
    ),
    (
        "tpu",
        None,
        "name: deploy-{ns}\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {env}: {v}\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm run deploy",
    ),
    ("tpu", None, '[{sec}]\n{key} = "{v}"\napi_version = "2024-10"\n'),
    (
        "t",
        "hdr",
        "$ curl -v https://{host}/v1/ping\n> GET /v1/ping HTTP/1.1\n> Host: {host}\n> {hdr} {v}\n> Accept: application/json\n>\n< HTTP/1.1 200 OK\n< content-type: application/json",
    ),
    (
        "tpu",
        None,
        '{ts} level=debug service={sec}-worker msg="loaded config" {env}={v} pid={n}',
    ),
    (
        "tpu",
        None,
        'Run ./scripts/deploy.sh {ns}\n  {env}={v}\n+ echo "deploying {client}"\ndeploying {client}\n##[error]Process completed with exit code 1.',
    ),
    (
        "tp",
        "soap",
        '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">\n <soapenv:Header>\n  <wsse:Security>\n   <wsse:UsernameToken>\n    <wsse:Username>{user}</wsse:Username>\n    <wsse:Password>{v}</wsse:Password>\n   </wsse:UsernameToken>\n  </wsse:Security>\n </soapenv:Header>\n <soapenv:Body/>\n</soapenv:Envelope>',
    ),
    (
        "t",
        "qp",
        "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://{host}/api/orders?{qp}={v}&page={n}",
    ),
    (
        "tpu",
        None,
        '$ docker inspect {sec}-worker --format "{{{{json .Config.Env}}}}"\n["PATH=/usr/local/bin:/usr/bin","{env}={v}","TZ=UTC"]',
    ),
    (
        "tp",
        None,
        "$ bin/magento config:show {sec}/credentials/{key}\n{v}\n$ bin/magento cache:flush config\nFlushed cache types:\nconfig",
    ),
    (
        "t",
        "hdr",
        "Webhook delivery #{n} to https://{host}/hooks/{sec} -> 401 Unauthorized\nRequest headers:\n  Content-Type: application/json\n  {hdr} {v}\nRetry scheduled in 5 minutes",
    ),
    ("p", None, "Login for {vendor} ({client}): user {user} / pass {v}"),
    (
        "p",
        None,
        "{vendor} credentials\nusername: {user}\npassword: {v}\nshared with {person} on {date}",
    ),
    (
        "p",
        None,
        "Decision: {client} keeps one shared {vendor} login until SSO lands. User {user}, password {v}. Revisit {date}.",
    ),
    (
        "u",
        None,
        "Note for {client}: the {label} is {v} - the old host was decommissioned on {date}.",
    ),
    (
        "u",
        None,
        "$ kubectl -n {ns} get secret {sec}-env -o jsonpath='{{.data}}' | base64 -d\n{env}={v}",
    ),
]

PEM_TEMPLATES = [
    "{vendor} {label} for {client}:\n{v}\nStore it in the vault, not here.",
    "Hi {person},\n\nhere is the {label} you asked for ({client}):\n\n{v}\n\nCheers,\n{person2}",
    "cat > ~/.ssh/{sec}_key <<'EOF'\n{v}\nEOF\nchmod 600 ~/.ssh/{sec}_key",
    '# .env ({client})\n{env}="{v}"\nAPP_ENV=production',
    'resource "local_sensitive_file" "{sec}" {{\n  filename = "keys/{sec}.pem"\n  content  = <<EOT\n{v}\nEOT\n}}',
    "[{time}] {person}: pasting the {label} here, delete after copying\n[{time}] {person}:\n{v}",
    "[{ticket}] {vendor} auth failing for {client}\nKey currently on {host}:\n{v}\nAssignee: {person2}",
    "Clave privada de {vendor} ({client}):\n{v}\nBorrar este mensaje después.",
    "Chave privada do {vendor} para {client}:\n{v}\nNão commitar.",
    "{ts} DEBUG key_loader: read {label} from /etc/{sec}/key.pem\n{v}\n{ts} INFO key_loader: loaded",
]

HOSTS = [
    "api.example-store.io",
    "orders.internal",
    "sync-worker-2",
    "m2-prod-web-1",
    "booking-gw.internal",
    "jobs.agency.dev",
    "pos-bridge.local",
]


def _fill(rng: random.Random, k: Kind, v: str) -> dict:
    client = pick(rng, CLIENTS)
    p1 = pick(rng, PERSONS)
    p2 = pick(rng, [p for p in PERSONS if p != p1])
    vs = snake(k.vendor)
    return {
        "v": v,
        "vendor": k.vendor,
        "label": k.label,
        "env": pick(rng, k.envs),
        "key": snake(k.label.split("(")[0]),
        "sec": vs,
        "client": client,
        "person": p1,
        "person2": p2,
        "date": a_date(rng),
        "time": a_time(rng),
        "time2": a_time(rng),
        "ts": a_ts(rng),
        "ticket": pick(rng, ["OPS", "SHOP", "TRV", "PAY", "INT"]) + "-" + str(rng.randint(100, 4999)),
        "host": pick(rng, HOSTS),
        "hdr": k.hdr or "",
        "qp": k.qp or "",
        "user": pick(rng, k.users),
        "region": pick(rng, REGIONS),
        "ns": slug(client)[:20].strip("-"),
        "n": rng.randint(2, 9999),
    }


def _templates_for(k: Kind) -> list[str]:
    if k.style == "k":
        return list(PEM_TEMPLATES)
    out = []
    for styles, need, fmt in TEMPLATES:
        if k.style not in styles:
            continue
        if need == "hdr" and not k.hdr:
            continue
        if need == "qp" and not k.qp:
            continue
        if need == "soap" and not (k.soap or k.style == "p"):
            continue
        out.append(fmt)
    return out


def _positives(rng: random.Random, seen: set) -> list[tuple[str, str, str]]:
    out = []
    for k in KINDS:
        tpls = _templates_for(k)
        order = []
        while len(order) < PER_KIND * 2:
            batch = list(tpls)
            rng.shuffle(batch)
            order.extend(batch)
        made = 0
        i = 0
        while made < PER_KIND:
            fmt = order[i % len(order)]
            i += 1
            val = k.gen(rng)
            display, secret = val if isinstance(val, tuple) else (val, val)
            text = fmt.format(**_fill(rng, k, display))
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, k.kind, secret))
            made += 1
    return out


# ---------------------------------------------------------------- look-alikes
_LOOK = []


def L(fn):
    _LOOK.append(fn)
    return fn


def _c(rng):
    return pick(rng, CLIENTS)


def _p(rng):
    return pick(rng, PERSONS)


@L
def la_commit(r):
    return f"Deployed theme for {_c(r)} at commit {rs(r, HEX, 40)} ({a_date(r)}); rollback = previous tag."


@L
def la_short_sha_ci(r):
    return f"CI #{r.randint(100, 9999)} green on {rs(r, HEX, 7)} - shopify theme push --store {slug(_c(r))} done"


@L
def la_sha256_artifact(r):
    return f"{rs(r, HEX, 64)}  {pick(r, ['m2-release', 'booking-gw', 'feed-builder'])}-{r.randint(1, 9)}.{r.randint(0, 30)}.tar.gz"


@L
def la_image_digest(r):
    return f"image: ghcr.io/agency/{pick(r, ['storefront', 'worker', 'pim'])}@sha256:{rs(r, HEX, 64)}"


@L
def la_md5_feed(r):
    return f"Google product feed regenerated, md5={rs(r, HEX, 32)}, {r.randint(200, 90000)} items"


@L
def la_request_id(r):
    return f"< HTTP/1.1 502 Bad Gateway\n< x-request-id: {uuid4(r)}\n< x-shopify-stage: production"


@L
def la_shopify_gid(r):
    return f"Refund stuck on gid://shopify/Order/{digits(r, 13)} - line gid://shopify/LineItem/{digits(r, 14)}"


@L
def la_stripe_pk(r):
    return f"Stripe.js init: Stripe('{'pk' + '_live_' + '51' + rs(r, ALN, 96)}') - publishable, fine in theme JS"


@L
def la_stripe_ids(r):
    return f"Dispute on {'ch' + '_' + rs(r, ALN, 24)} for payment {'pi' + '_' + rs(r, ALN, 24)}, event {'evt' + '_' + rs(r, ALN, 24)}"


@L
def la_stripe_checkout_session(r):
    return f"Customer says checkout hung. Session {'cs' + '_live_' + rs(r, ALN, 58)} never completed."


@L
def la_stripe_sig_header(r):
    return f"Stripe-Signature: t={r.randint(1760000000, 1790000000)},v1={rs(r, HEX, 64)}"


@L
def la_adyen_client_key(r):
    return f'Adyen Drop-in config: clientKey: "{"live" + "_" + rs(r, UALN, 32)}" (client key is public)'


@L
def la_adyen_hmac_sig(r):
    return (
        '{"notificationItems":[{"NotificationRequestItem":{"pspReference":"'
        + rs(r, UALN, 16)
        + '","additionalData":{"hmacSignature":"'
        + rs(r, B64, 43)
        + '="},"eventCode":"AUTHORISATION","success":"true"}}]}'
    )


@L
def la_algolia_search_key(r):
    return f"algolia:\n  app_id: {rs(r, UALN, 10)}\n  search_only_api_key: {rs(r, HEX, 32)}  # search-only, public"


@L
def la_klaviyo_public(r):
    return f'<script src="//static.klaviyo.com/onsite/js/klaviyo.js?company_id={rs(r, ALN, 6)}"></script>'


@L
def la_razorpay_key_id(r):
    return f'var options = {{ key: "{"rzp" + "_live_" + rs(r, ALN, 14)}", amount: {r.randint(100, 99999)}00, currency: "INR" }};'


@L
def la_midtrans_client(r):
    return f'<script src="https://app.midtrans.com/snap/snap.js" data-client-key="{"Mid" + "-client-" + rs(r, ALN, 16)}"></script>'


@L
def la_xendit_public(r):
    return f"Xendit.setPublishableKey('{'xnd' + '_public_production_' + rs(r, ALN, 50)}');"


@L
def la_mp_public(r):
    return f"const mp = new MercadoPago('{'APP_' + 'USR-' + uuid4(r)}', {{ locale: 'es-AR' }}); // public key"


@L
def la_cko_public(r):
    return f'Frames.init("{"pk" + "_" + rs(r, B32, 26)}"); // Checkout.com public key'


@L
def la_storefront_token(r):
    return f"Storefront API (public, safe in theme): X-Shopify-Storefront-Access-Token: {rs(r, HEX, 32)}"


@L
def la_shopify_client_id(r):
    return f'# shopify.app.toml\nclient_id = "{rs(r, HEX, 32)}"\nname = "{_c(r)} sync"\napplication_url = "https://{slug(_c(r))}.agency.dev"'


@L
def la_google_client_id(r):
    return f"GMC OAuth client id: {digits(r, 12)}-{rs(r, LALN, 32)}.apps.googleusercontent.com"


@L
def la_firebase_web(r):
    return f'const firebaseConfig = {{ apiKey: "{"AI" + "za" + rs(r, B64U, 35)}", authDomain: "{slug(_c(r))}.firebaseapp.com" }};'


@L
def la_sentry_dsn(r):
    return f"SENTRY_DSN=https://{rs(r, HEX, 32)}@o{digits(r, 6)}.ingest.sentry.io/{digits(r, 7)}"


@L
def la_meta_pixel(r):
    return (
        f"fbq('init', '{digits(r, 15)}'); fbq('track', 'Purchase', {{value: {r.randint(5, 900)}.00, currency: 'BRL'}});"
    )


@L
def la_ga4_gmc(r):
    return f"GA4 {('G-' + rs(r, UALN, 10))}, Merchant Center id {digits(r, 9)}, TikTok pixel {rs(r, UALN, 20)}"


@L
def la_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{rs(r, B64U, 38)}"></div>'


@L
def la_placeholder_angle(r):
    return f"curl -H 'X-Shopify-Access-Token: <your-admin-api-token>' https://{slug(_c(r))}.myshopify.com/admin/api/2024-{r.randint(1, 12):02d}/shop.json"


@L
def la_env_ref(r):
    return f"stripe:\n  secret_key: ${{{pick(r, ['STRIPE_SECRET_KEY', 'STRIPE_API_KEY', 'STRIPE_SK'])}}}\n  webhook_secret: ${{STRIPE_WEBHOOK_SECRET}}\n  timeout: {r.randint(5, 60)}"


@L
def la_gha_secrets(r):
    return f"      - run: ./deploy.sh\n        env:\n          SHOPIFY_CLI_THEME_TOKEN: ${{{{ secrets.{pick(r, ['THEME_TOKEN', 'SHOPIFY_THEME_TOKEN', 'STORE_TOKEN'])}_{r.randint(1, 99)} }}}}"


@L
def la_airflow_var(r):
    return f'secret = Variable.get("{pick(r, ["amadeus_secret", "duffel_token", "hotelbeds_secret"])}_{r.randint(1, 99)}")  # never log this'


@L
def la_dbutils(r):
    return f'key = dbutils.secrets.get(scope="{pick(r, ["ecom", "travel", "payments"])}", key="{pick(r, ["stripe-sk", "adyen-api", "klaviyo-pk"])}-{r.randint(1, 50)}")'


@L
def la_vault_path(r):
    return f"$ vault kv get -field=api_key secret/clients/{slug(_c(r))}/{pick(r, ['stripe', 'adyen', 'mollie', 'duffel'])}\n(output omitted)"


@L
def la_sm_arn(r):
    return (
        f"arn:aws:secretsmanager:{pick(r, REGIONS)}:{digits(r, 12)}:secret:prod/{slug(_c(r))}/payments-{rs(r, ALN, 6)}"
    )


@L
def la_secret_key_ref(r):
    return f"env:\n  - name: ADYEN_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: adyen-{slug(_c(r))}\n        key: api-key-{r.randint(1, 9)}"


@L
def la_envphp_getenv(r):
    return f"'db' => ['connection' => ['default' => ['host' => 'db', 'dbname' => 'magento{r.randint(1, 99)}', 'username' => 'magento', 'password' => getenv('DB_PASSWORD')]]],"


@L
def la_changeme_docs(r):
    return f"README ({_c(r)} Magento docker): default admin password is `changeme` - the setup script forces a reset on first login. Port {r.randint(8000, 8999)}."


@L
def la_masked_sk(r):
    return f"Stripe dashboard shows key {'sk' + '_live_' + '*' * r.randint(20, 30)}{rs(r, ALN, 4)} created {a_date(r)}"


@L
def la_masked_dots(r):
    return f"Shopify admin > Apps > {_c(r)} sync: Admin API access token {'shp' + 'at_'}{'•' * r.randint(20, 28)} (reveal once only)"


@L
def la_ansible_vault(r):
    lines = "\n".join(rs(r, HEX, 80) for _ in range(r.randint(3, 6)))
    return f"payments_secret: !vault |\n$ANSIBLE_VAULT;1.1;AES256\n{lines}"


@L
def la_sops(r):
    return (
        f"stripe_secret_key: ENC[AES256_GCM,data:{rs(r, B64, 60)},iv:{rs(r, B64, 43)}=,tag:{rs(r, B64, 22)}==,type:str]"
    )


@L
def la_bcrypt(r):
    return f"admin user seeded, password_hash = $2y$10${rs(r, ALN + './', 53)}"


@L
def la_argon2(r):
    return f"customer_entity.password_hash: $argon2id$v=19$m=65536,t=4,p=1${rs(r, B64, 22)}${rs(r, B64, 43)}"


@L
def la_magento_hash(r):
    return f"SELECT password_hash FROM admin_user -> {rs(r, HEX, 64)}:{rs(r, ALN, 32)}:3_32_2_67108864"


@L
def la_ssh_pub(r):
    return f"Add to authorized_keys on {pick(r, HOSTS)}:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, B64, 43)} {_p(r).lower()}@agency"


@L
def la_ssh_fp(r):
    return f"The authenticity of host 'sftp.partner-feeds.net' can't be established.\nED25519 key fingerprint is SHA256:{rs(r, B64, 43)}."


@L
def la_gpg_fp(r):
    fp = " ".join(rs(r, UHEX, 4) for _ in range(10))
    return f"Release signing key fingerprint: {fp}"


@L
def la_cert(r):
    return pem_block(r, "CERTIFICATE", "MIIDdzCCAl+gAwIBAgI", 1200) + f"\n(public cert for {_c(r)} Apple Pay domain)"


@L
def la_public_key(r):
    return "Adyen webhook payload public key:\n" + pem_block(
        r, "PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 392
    )


@L
def la_data_png(r):
    return f".badge{{background:url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{rs(r, B64, r.randint(120, 300))}=)}}"


@L
def la_woff(r):
    return f"@font-face{{font-family:'Brand';src:url(data:font/woff2;base64,d09GMgABAAAAA{rs(r, B64, 200)})}}"


@L
def la_pnr(r):
    return f"PNR {rs(r, UALN, 6)} ticketed, e-ticket 125-{digits(r, 10)}, office {pick(r, ['NCE1A0955', 'BKK1S2100', 'SAO1A0981'])}"


@L
def la_sabre_session(r):
    return f"<eb:ConversationId>{uuid4(r)}@agency.com</eb:ConversationId>\n<eb:CPAId>{rs(r, UALN, 4)}</eb:CPAId>"


@L
def la_duffel_ids(r):
    return f"Duffel offer off_0000{rs(r, ALN, 22)} expired; new order ord_0000{rs(r, ALN, 22)}"


@L
def la_booking_ids(r):
    return f"Booking.com reservation {digits(r, 10)} at hotel_id {digits(r, 7)} modified by guest"


@L
def la_hotelbeds_ref(r):
    return f"Hotelbeds booking reference {r.randint(100, 999)}-{digits(r, 7)} confirmed, rateKey starts 20261{r.randint(100, 999)}|"


@L
def la_twilio_sid(r):
    return f"Twilio account SID AC{rs(r, HEX, 32)} (not secret), messaging service MG{rs(r, HEX, 32)}"


@L
def la_twilio_msg(r):
    return f"{a_ts(r)} sms delivered sid=SM{rs(r, HEX, 32)} status=delivered to=+65{digits(r, 8)}"


@L
def la_twilio_key_sid(r):
    return f"Rotated Twilio API key: new key SID SK{rs(r, HEX, 32)}; secret stored in 1Password only."


@L
def la_wa_ids(r):
    return f"WhatsApp phone_number_id={digits(r, 15)} waba_id={digits(r, 15)} template=order_update_{r.randint(1, 9)}"


@L
def la_zendesk_ticket(r):
    return f"https://{slug(_c(r)).replace('-', '')}.zendesk.com/agent/tickets/{r.randint(1000, 99999)} - customer asks about refund"


@L
def la_freshdesk(r):
    return f"Freshdesk ticket #{r.randint(100, 99999)} merged into #{r.randint(100, 99999)} by {_p(r)}"


@L
def la_notebook(r):
    return (
        '{"cell_type": "code", "execution_count": '
        + str(r.randint(1, 300))
        + ', "metadata": {"id": "'
        + rs(r, ALN, 12)
        + '"}, "outputs": []}'
    )


@L
def la_model_ids(r):
    return f"Product search embeddings: model sentence-transformers/{pick(r, ['all-MiniLM-L6-v2', 'paraphrase-multilingual-MiniLM-L12-v2', 'LaBSE'])}, index rev {rs(r, HEX, 40)}"


@L
def la_mlflow_run(r):
    return f"mlflow run_id={rs(r, HEX, 32)} experiment_id={r.randint(1, 99)} metric ndcg@10={r.random():.3f}"


@L
def la_klevu_js(r):
    return f"klevu({{ apiKey: 'klevu-{digits(r, 15)}' }}) // JS search key, public"


@L
def la_yotpo_appkey(r):
    return (
        f'<div class="yotpo yotpo-main-widget" data-appkey="{rs(r, ALN, 40)}" data-product-id="{digits(r, 13)}"></div>'
    )


@L
def la_shopify_hmac(r):
    return f"X-Shopify-Topic: orders/create\nX-Shopify-Hmac-Sha256: {rs(r, B64, 43)}=\nX-Shopify-Webhook-Id: {uuid4(r)}"


@L
def la_razorpay_ids(r):
    return f"Razorpay order_{rs(r, ALN, 14)} captured as pay_{rs(r, ALN, 14)} (signature verified)"


@L
def la_mollie_ids(r):
    return f"Mollie payment tr_{rs(r, ALN, 10)} status=paid, refund re_{rs(r, ALN, 10)} pending"


@L
def la_payu_hash(r):
    return f"PayU response: txnid={rs(r, LALN, 20)} status=success hash={rs(r, HEX, 128)}"


@L
def la_paytm_checksum(r):
    return f'{{"ORDERID": "ORD{digits(r, 8)}", "TXNAMOUNT": "{r.randint(10, 9999)}.00", "CHECKSUMHASH": "{rs(r, B64, 100)}="}}'


@L
def la_idempotency(r):
    return f"> Idempotency-Key: {uuid4(r)}\n< HTTP/2 409\n< request-id: req_{rs(r, ALN, 14)}"


@L
def la_etag(r):
    return f'< etag: W/"{rs(r, HEX, 32)}"\n< cache-control: public, max-age={r.randint(60, 86400)}'


@L
def la_asset_hash(r):
    return f'<link rel="stylesheet" href="//cdn.shopify.com/s/files/1/{digits(r, 4)}/{digits(r, 4)}/t/{r.randint(1, 90)}/assets/theme.{rs(r, HEX, 8)}.css">'


@L
def la_npm_integrity(r):
    return f'"node_modules/@shopify/polaris": {{\n  "version": "12.{r.randint(0, 30)}.0",\n  "integrity": "sha512-{rs(r, B64, 86)}=="\n}}'


@L
def la_composer_ref(r):
    return f'"name": "magento/module-{pick(r, ["catalog", "checkout", "sales"])}",\n"source": {{"type": "git", "reference": "{rs(r, HEX, 40)}"}}'


@L
def la_tf_lineage(r):
    return f'"lineage": "{uuid4(r)}",\n"serial": {r.randint(1, 800)},\n"terraform_version": "1.{r.randint(5, 9)}.{r.randint(0, 9)}"'


@L
def la_cf_zone(r):
    return f"Cloudflare zone_id {rs(r, HEX, 32)} for {slug(_c(r))}.com, account_id {rs(r, HEX, 32)}"


@L
def la_sa_key_id(r):
    return f'"type": "service_account",\n"project_id": "gmc-feed-{r.randint(1000, 9999)}",\n"private_key_id": "{rs(r, HEX, 40)}",\n"client_email": "feed@gmc-feed.iam.gserviceaccount.com"'


@L
def la_kms_key(r):
    return f"sops --kms arn:aws:kms:{pick(r, REGIONS)}:{digits(r, 12)}:key/{uuid4(r)} -e secrets.yaml"


@L
def la_stripe_docs_key(r):
    return f'From the Stripe docs (test example, not ours): stripe.api_key = "{"sk" + "_test_" + "4eC39HqLyjWDarjtT1zdp7dc"}" - see {pick(r, ["quickstart", "api reference", "testing guide"])} p.{r.randint(1, 40)}'


@L
def la_aws_docs_secret(r):
    return f"AWS docs example only: aws_secret_access_key = {'wJalrXUtnFEMI/K7MDENG' + '/bPxRfiCYEXAMPLEKEY'} (copied into training doc {r.randint(1, 99)})"


@L
def la_xxx_placeholder(r):
    return f"{pick(r, ['KLAVIYO_PRIVATE_KEY', 'OMNISEND_API_KEY', 'GORGIAS_API_KEY'])}={'x' * r.randint(20, 40)}\n# fill in from vault"


@L
def la_redacted_log(r):
    return f"{a_ts(r)} INFO amadeus.auth token request client_id=*** client_secret=[REDACTED] status={pick(r, ['200', '401'])}"


@L
def la_password_stars(r):
    return f"{a_ts(r)} Connecting to SiteMinder pmsXchange as {pick(r, ['lotusstay_pms', 'reef_resorts'])} password=******** attempt {r.randint(1, 5)}"


@L
def la_env_names(r):
    names = r.sample(
        [
            "SHOPIFY_API_SECRET",
            "STRIPE_SECRET_KEY",
            "ADYEN_API_KEY",
            "DUFFEL_ACCESS_TOKEN",
            "TWILIO_AUTH_TOKEN",
            "ZENDESK_API_TOKEN",
            "HOTELBEDS_SECRET",
            "RAZORPAY_KEY_SECRET",
        ],
        4,
    )
    return "Required env vars: " + ", ".join(names) + ". Ask ops for values."


@L
def la_op_ref(r):
    return f'STRIPE_SECRET_KEY="op://{pick(r, ["Clients", "Payments", "Travel"])}/{_c(r)} Stripe/credential"  # op run --env-file'


@L
def la_ssm_param(r):
    return f"aws ssm get-parameter --with-decryption --name /prod/{slug(_c(r))}/{pick(r, ['stripe_sk', 'mp_token', 'xendit_sk'])} --query Parameter.Value"


@L
def la_existing_secret(r):
    return f"payments:\n  existingSecret: {slug(_c(r))}-payments\n  existingSecretKey: stripe-secret-key\n  replicas: {r.randint(1, 6)}"


@L
def la_gh_secret_set(r):
    return f"gh secret set {pick(r, ['STRIPE_SECRET_KEY', 'SHOPIFY_TOKEN', 'DUFFEL_TOKEN'])} --repo agency/{slug(_c(r))} < /dev/stdin  # paste, don't echo"


@L
def la_sealed(r):
    return f"kind: SealedSecret\nspec:\n  encryptedData:\n    api-key: AgB{rs(r, B64, 300)}=="


@L
def la_magento_encrypted(r):
    return f"core_config_data payment/adyen/api_key_live = 0:3:{rs(r, B64, 64)}="


@L
def la_variant_ids(r):
    return f"Theme {digits(r, 12)} published; variant ids {digits(r, 14)}, {digits(r, 14)} out of stock"


@L
def la_tracking(r):
    return f"ShipStation label created: UPS 1Z{rs(r, UALN, 16)}, USPS 9400{digits(r, 18)}"


@L
def la_easypost_ids(r):
    return f"EasyPost shipment shp_{rs(r, HEX, 32)} rate rate_{rs(r, HEX, 32)} bought"


@L
def la_shippo_object(r):
    return f'{{"object_id": "{rs(r, HEX, 32)}", "status": "SUCCESS", "tracking_number": "{digits(r, 12)}"}}'


@L
def la_avalara_account(r):
    return f"AvaTax account id {digits(r, 10)}, company code {slug(_c(r)).upper()[:8]}, doc code SO-{r.randint(1000, 99999)}"


@L
def la_taxjar_txn(r):
    return f"TaxJar transaction_id={r.randint(10000, 999999)}-refund created for order #{r.randint(1000, 99999)}"


@L
def la_travelport_branch(r):
    return f"Travelport TargetBranch P{digits(r, 7)}, PCC {rs(r, UALN, 4)}, UniversalRecordLocatorCode {rs(r, UALN, 6)}"


@L
def la_expedia_ids(r):
    return f"Expedia Rapid itinerary_id {digits(r, 13)} property_id {digits(r, 8)} - cancel penalty applies"


@L
def la_cloudbeds_ids(r):
    return f"Cloudbeds propertyID={digits(r, 6)} reservationID={digits(r, 12)} status=checked_in"


@L
def la_siteminder_code(r):
    return f'<HotelReservation><UniqueID Type="14" ID="{rs(r, UALN, 10)}"/><BasicPropertyInfo HotelCode="{rs(r, UALN, 8)}"/></HotelReservation>'


@L
def la_test_cards(r):
    card = pick(
        r,
        [
            "4242 4242 4242 4242",
            "4111 1111 1111 1111",
            "5555 5555 5555 4444",
            "4000 0000 0000 3220",
        ],
    )
    return f"QA checkout {_c(r)}: test card {card}, exp 12/{r.randint(27, 34)}, CVC {r.randint(100, 999)}"


@L
def la_own_webhook_url(r):
    return f"Webhook subscription: orders/create -> https://{slug(_c(r))}.agency.dev/webhooks/orders/create?v={r.randint(1, 99)}"


@L
def la_slack_ids(r):
    return f"Posted to channel C{rs(r, UALN, 10)} (thread ts {r.randint(1760000000, 1790000000)}.{digits(r, 6)})"


@L
def la_versions(r):
    return (
        f"Upgraded magento/product-community-edition 2.4.{r.randint(5, 8)}-p{r.randint(1, 12)}, build {rs(r, HEX, 12)}"
    )


@L
def la_host_param(r):
    import base64

    shop = slug(_c(r)) + str(r.randint(1, 99))
    host = base64.b64encode(f"admin.shopify.com/store/{shop}".encode()).decode().rstrip("=")
    return f"Embedded app loaded with ?shop={shop}.myshopify.com&host={host}&embedded=1"


@L
def la_shopify_session(r):
    return f"Session id offline_{slug(_c(r))}.myshopify.com saved, scope=read_orders,write_products, api_version=2024-{r.randint(1, 12):02d}"


@L
def la_policy_text(r):
    return f"Password policy for {_c(r)} admins: minimum {r.randint(12, 16)} chars, 1 symbol, rotate every {r.randint(60, 180)} days, no reuse of last {r.randint(4, 12)}."


@L
def la_rotation_note(r):
    return f"Rotated the {pick(r, ['Stripe', 'Adyen', 'Mollie', 'Xendit'])} secret key on {a_date(r)}; new one is in 1Password item '{_c(r)} payments'. Old key revoked."


@L
def la_last4(r):
    return f"Zendesk token ending in {rs(r, ALN, 4)} was revoked by {_p(r)} on {a_date(r)}"


@L
def la_age_recipient(r):
    return f"creation_rules:\n  - path_regex: secrets/.*\n    age: age1{rs(r, B32.replace('b', ''), 58)}"


@L
def la_gmc_offer(r):
    return f"GMC item online:{pick(r, ['en:US', 'pt:BR', 'es:MX', 'th:TH'])}:SKU-{r.randint(1000, 99999)} disapproved: missing gtin"


@L
def la_meta_app_id(r):
    return f"Meta app id {digits(r, 15)} (public), business id {digits(r, 15)}, dataset id {digits(r, 15)}"


@L
def la_amadeus_docs(r):
    return f"Amadeus Self-Service test env: base URL https://test.api.amadeus.com, use API key/secret from the workspace (see vault path travel/amadeus/{r.randint(1, 99)})"


@L
def la_hmac_example_calc(r):
    return f"Hotelbeds X-Signature = SHA256(apiKey + secret + ts); sample output for ts={r.randint(1760000000, 1790000000)}: {rs(r, HEX, 64)}"


@L
def la_uuid_order(r):
    return f"Checkout.com payment pay_{rs(r, B32, 26)} action act_{rs(r, B32, 26)} approved"


@L
def la_ci_masked(r):
    return f"Run shopify app deploy --force\n  SHOPIFY_CLI_PARTNERS_TOKEN: ***\n  SHOPIFY_API_KEY: ***\n✓ New version released ({r.randint(1, 200)})"


@L
def la_env_example(r):
    return (
        "# .env.example\nSTRIPE_SECRET_KEY="
        + "sk"
        + "_live_your_key_here"
        + f"\nSHOPIFY_API_SECRET=<your-app-secret>\nPORT={r.randint(3000, 9000)}"
    )


@L
def la_wsse_nonce(r):
    return f'<wsse:Nonce EncodingType="...#Base64Binary">{rs(r, B64, 22)}==</wsse:Nonce>\n<wsu:Created>{a_ts(r)}</wsu:Created>\n<wsse:Password Type="...#PasswordDigest">{{{{PASSWORD_DIGEST}}}}</wsse:Password>'


@L
def la_jwt_header_only(r):
    return f'JWT header decoded: {{"alg":"RS256","kid":"{rs(r, HEX, 40)}","typ":"JWT"}} - kid matches JWKS'


@L
def la_gcash_ref(r):
    return f"GCash ref no. {digits(r, 13)} via PayMongo source src_{rs(r, ALN, 24)} chargeable"


@L
def la_2c2p_invoice(r):
    return f"2C2P invoiceNo=INV{digits(r, 10)} merchantID=JT{digits(r, 2)} respCode=0000 tranRef={digits(r, 7)}"


@L
def la_lock_hash(r):
    return f'poetry.lock content-hash = "{rs(r, HEX, 64)}"'


# ---------------------------------------------------------------- generate
def _lookalikes(rng: random.Random, seen: set) -> list[str]:
    out = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 2000:
                raise RuntimeError(f"{fn.__name__} cannot produce {LOOK_PER_GEN} distinct texts")
            text = fn(rng)
            if text in seen:
                continue
            seen.add(text)
            out.append(text)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(seed)
    seen: set = set()
    positives = _positives(rng, seen)
    lookalikes = _lookalikes(random.Random(seed * 7919 + 1), seen)
    return positives, lookalikes
