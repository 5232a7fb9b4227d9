"""Secret-detector test set M.

Theme: data, ML, mobile, IoT and enterprise-integration work, written partly by people outside the
English-speaking world. Places: Airflow connections (URIs and JSON extras), dbt ``profiles.yml``,
Spark/Hadoop/Hive configs, Snowflake/BigQuery/Redshift/ClickHouse/Databricks/Trino connection
settings, Kafka/RabbitMQ/NATS/MQTT clients, MLflow/W&B/Comet/Neptune/Hugging Face/Kaggle settings and
notebook cells, Android ``gradle.properties``/``keystore.properties``/``google-services.json``, iOS
xcconfig/Info.plist/fastlane (App Store Connect ``.p8`` keys), Firebase, IoT provisioning (MQTT,
AWS IoT, Azure IoT Hub/DPS), enterprise SSO and directories (LDAP, SAML, OIDC, Kerberos), CRM/ERP/
helpdesk integrations, regional payment gateways, game and media APIs, email/SMS providers, and team
chat in Hindi, Arabic, Vietnamese, Indonesian, Hebrew, Greek, Ukrainian, Thai, Portuguese (BR) and
Spanish (MX) -- including right-to-left text, mixed scripts and full-width punctuation.

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts in the same places and styles that contain no credential
  (templating, secret-manager references, env-var names, masked values, public identifiers, hashes,
  device ids, run ids and digests, public keys and certificates, base64 of non-secret data, code
  that reads secrets, prose and error messages about credentials, fixtures clearly marked fake).

Labelling choices: Firebase *client* configuration ``apiKey`` values (``firebaseConfig``,
``google-services.json``, ``GoogleService-Info.plist``) are look-alikes, because Google documents
them as identifiers that ship inside every app; the same key format used *server-side* (YouTube Data
API, legacy FCM server keys) is a positive. Vendor keys documented as public (Razorpay key id,
Paystack/Flutterwave public keys, Midtrans client key, Xendit public key, Mercado Pago public key,
Adyen client key) are look-alikes; OAuth client ids, tenant/app/merchant ids, Salesforce consumer
keys, Confluent and Vonage key *ids* are look-alikes. Password hashes and HMAC digests are
look-alikes. Test-mode keys of documented formats are never used as look-alikes.

Everything is built with ``random.Random(seed)``; every vendor prefix, key body and PEM armour line
is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import sys
import uuid

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
LETTERS = UPPER + LOWER
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UPPER + "234567"
DASH = "-" * 5
PK = "PRIV" + "ATE KEY"

# vendor prefixes, assembled so that no literal in this file looks like a token
P_RZP = "rz" + "p_"
P_SK = "s" + "k_"
P_PK = "p" + "k_"
P_FLW = "FLW"
P_MP = "APP" + "_USR-"
P_MID = "Mid" + "-"
P_XND = "xn" + "d_"
P_DAPI = "da" + "pi"
P_HF = "h" + "f_"
P_OAI = "s" + "k-" + "pr" + "oj-"
P_OAI_MARK = "T3Bl" + "bkFJ"
P_ANT = "s" + "k-" + "an" + "t-" + "api" + "03-"
P_ATL = "ATA" + "TT" + "3xFf" + "GF0"
P_HS = "pa" + "t-"
P_FCM = "APA" + "91b"
P_AIZA = "AI" + "za"
P_AKIA = "AK" + "IA"
P_AQE = "AQ" + "E"
P_LIVE = "li" + "ve_"
P_SF = "00" + "D"
P_SFCK = "3MV" + "G9"
P_EOS = "xyz" + "a7891"


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _uuid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(r.randbytes(nbytes)).decode()


def _b64url(r: random.Random, nbytes: int) -> str:
    return base64.urlsafe_b64encode(r.randbytes(nbytes)).decode().rstrip("=")


def _t(tpl: str, /, **kw: object) -> str:
    """Fill ``⟦name⟧`` slots; braces stay literal so JSON/Jinja text needs no escaping."""
    for k, v in kw.items():
        tpl = tpl.replace("⟦" + k + "⟧", str(v))
    return tpl


def _one(rng: random.Random, templates: list[str], /, **kw: object) -> str:
    return _t(rng.choice(templates), **kw)


def _digits(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + _rs(r, DIGITS, n - 1)


CO = [
    "nusantara",
    "andina",
    "karavan",
    "dravya",
    "marmara",
    "palmeira",
    "kalinga",
    "lumbung",
    "zafiro",
    "pampas",
    "olimpo",
    "dnipro",
    "mekong",
    "sertao",
    "cenote",
    "saffron",
    "orkide",
    "tavola",
    "bintang",
    "yamuna",
    "sahel",
    "kinneret",
    "ithaca",
    "chaopraya",
    "tlaloc",
    "ipanema",
    "karpaty",
    "halong",
]
TLD = ["com", "io", "co.id", "in", "com.br", "mx", "co.il", "gr", "com.ua", "vn", "co.th", "ae", "net", "dev"]
AWS_REGIONS = [
    "us-east-1",
    "eu-west-1",
    "ap-south-1",
    "ap-southeast-1",
    "ap-southeast-3",
    "sa-east-1",
    "me-central-1",
    "eu-central-1",
    "il-central-1",
    "ap-southeast-7",
    "mx-central-1",
]
AZ_REGIONS = [
    "westeurope",
    "centralindia",
    "brazilsouth",
    "southeastasia",
    "uaenorth",
    "israelcentral",
    "mexicocentral",
    "greececentral",
]
DBUSERS = [
    "etl_user",
    "airflow",
    "analytics",
    "dbt_runner",
    "svc_ingest",
    "loader",
    "reporting",
    "ml_pipeline",
    "svc_sync",
    "integration",
    "bi_reader",
    "ops_admin",
    "cdc_reader",
    "feast",
]
PEOPLE = [
    "priya",
    "arjun",
    "fatima",
    "omar",
    "linh",
    "minh",
    "dewi",
    "budi",
    "noa",
    "yossi",
    "eleni",
    "nikos",
    "oksana",
    "taras",
    "somchai",
    "nok",
    "joao",
    "ana",
    "diego",
    "lupita",
    "rahul",
    "layla",
]
DBS = ["analytics", "dwh", "raw", "staging", "marts", "events", "billing", "crm", "erp", "telemetry"]
WORDS = [
    "kopi",
    "hujan",
    "gunung",
    "samudra",
    "bintang",
    "mawar",
    "nuvem",
    "praia",
    "montanha",
    "lluvia",
    "nopal",
    "jaguar",
    "maiz",
    "oliva",
    "thalassa",
    "ilios",
    "sonce",
    "mriya",
    "kalyna",
    "bahar",
    "qamar",
    "shams",
    "yasmin",
    "boker",
    "mekong",
    "sawasdee",
    "mango",
    "monsoon",
    "chai",
    "nimbu",
    "tara",
    "orbit",
    "falcon",
    "cobalt",
    "harbor",
    "violet",
    "granite",
    "ember",
    "quartz",
    "willow",
    "saffron",
    "cacto",
    "pirata",
    "tortuga",
    "caju",
    "lontar",
    "durian",
    "pelangi",
    "zeytin",
    "kedr",
]
CITYWORDS = [
    "Verano",
    "Primavera",
    "Invierno",
    "Jakarta",
    "Bandung",
    "Mumbai",
    "Kyiv",
    "Lisboa",
    "Recife",
    "Monterrey",
    "Hanoi",
    "Saigon",
    "Athina",
    "Haifa",
    "Cairo",
    "Bangkok",
    "Chiangmai",
    "Guadalajara",
    "Floripa",
    "Pune",
    "Surabaya",
    "Odesa",
    "Oaxaca",
    "Dubai",
]
SYMS = "!#*-_.+=?@^~$"


def _word(r: random.Random) -> str:
    return r.choice(WORDS)


def _host(r: random.Random, pre: str | None = None) -> str:
    pre = pre or r.choice(["db", "warehouse", "pg", "mq", "broker", "etl", "analytics", "data", "core", "olap"])
    return f"{pre}{r.choice(['', '-1', '-2', '-prod', '-01', '-int'])}.{r.choice(CO)}.{r.choice(TLD)}"


def _ip(r: random.Random) -> str:
    return f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(2, 254)}"


def _co(r: random.Random) -> str:
    return r.choice(CO)


def _email(r: random.Random) -> str:
    return f"{r.choice(PEOPLE)}.{_rs(r, LOWER, 1)}@{r.choice(CO)}.{r.choice(TLD)}"


def _pw(r: random.Random, url_safe: bool = False) -> str:
    """A password of one of many realistic shapes."""
    shape = r.randrange(8)
    syms = "-_.~" if url_safe else SYMS
    if shape == 0:
        core = _rs(r, ALNUM, r.randint(12, 22))
        pos = r.randrange(1, len(core))
        return core[:pos] + r.choice(syms) + core[pos:] + r.choice(DIGITS)
    if shape == 1:
        sep = r.choice(["-", ".", "_"] if url_safe else ["-", ".", "_", " ", "+"])
        return sep.join(r.choice(WORDS) for _ in range(r.randint(3, 5))) + sep + str(r.randint(10, 999))
    if shape == 2:
        return r.choice(CITYWORDS) + str(r.randint(2019, 2026)) + r.choice(syms) + _rs(r, DIGITS, r.randint(1, 3))
    if shape == 3:
        return _hex(r, r.choice([20, 24, 32]))
    if shape == 4:
        return _b64url(r, r.choice([15, 18, 24]))
    if shape == 5:
        return "".join(w.capitalize() for w in r.sample(WORDS, 3)) + r.choice(syms) + str(r.randint(10, 99))
    if shape == 6:
        return "".join(r.choice(UPPER) + r.choice(LOWER) + r.choice(DIGITS) + r.choice(syms) for _ in range(4))
    return (
        _rs(r, LOWNUM, 6) + r.choice(syms) + _rs(r, UPPER, 2) + _rs(r, LOWNUM, 6) + r.choice(syms) + _rs(r, DIGITS, 3)
    )


def _apple_pw(r: random.Random) -> str:
    return "-".join(_rs(r, LOWER, 4) for _ in range(4))


# ----------------------------------------------------------------------------------------------
# DER / PEM builders (random material in realistic ASN.1 shells, so bodies start like real keys)
# ----------------------------------------------------------------------------------------------


def _dlen(n: int) -> bytes:
    if n < 128:
        return bytes([n])
    if n < 256:
        return bytes([0x81, n])
    return bytes([0x82, n >> 8, n & 255])


def _tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + _dlen(len(content)) + content


def _seq(*parts: bytes) -> bytes:
    return _tlv(0x30, b"".join(parts))


def _rint(r: random.Random, n: int) -> bytes:
    b = r.randbytes(n)
    return _tlv(0x02, b"\x00" + bytes([b[0] | 0x80]) + b[1:])


RSA_ALG = bytes.fromhex("300d06092a864886f70d0101010500")
SHA256RSA = bytes.fromhex("300d06092a864886f70d01010b0500")
EC_ALG = bytes.fromhex("301306072a8648ce3d020106082a8648ce3d030107")
P256_OID = bytes.fromhex("06082a8648ce3d030107")
INT0 = bytes.fromhex("020100")
E65537 = bytes.fromhex("0203010001")


def _rsa_pkcs1(r: random.Random, bits: int = 2048) -> bytes:
    n = bits // 8
    h = n // 2
    return _seq(
        INT0,
        _rint(r, n),
        E65537,
        _rint(r, n - 1),
        _rint(r, h),
        _rint(r, h),
        _rint(r, h - 1),
        _rint(r, h - 1),
        _rint(r, h - 1),
    )


def _rsa_pkcs8(r: random.Random, bits: int = 2048) -> bytes:
    return _seq(INT0, RSA_ALG, _tlv(0x04, _rsa_pkcs1(r, bits)))


def _ec_sec1(r: random.Random) -> bytes:
    return _seq(
        bytes.fromhex("020101"),
        _tlv(0x04, r.randbytes(32)),
        _tlv(0xA0, P256_OID),
        _tlv(0xA1, _tlv(0x03, b"\x00\x04" + r.randbytes(64))),
    )


def _ec_pkcs8(r: random.Random) -> bytes:
    return _seq(INT0, EC_ALG, _tlv(0x04, _ec_sec1(r)))


def _rsa_spki(r: random.Random, bits: int = 2048) -> bytes:
    return _seq(RSA_ALG, _tlv(0x03, b"\x00" + _seq(_rint(r, bits // 8), E65537)))


def _name(cn: str, org: str, country: str) -> bytes:
    def atv(oid: bytes, tag: int, val: str) -> bytes:
        return _tlv(0x31, _seq(_tlv(0x06, oid), _tlv(tag, val.encode())))

    return _seq(atv(b"\x55\x04\x06", 0x13, country), atv(b"\x55\x04\x0a", 0x0C, org), atv(b"\x55\x04\x03", 0x0C, cn))


def _cert(r: random.Random, cn: str, org: str = "Example Org", issuer: str | None = None) -> bytes:
    y = r.randint(22, 25)
    validity = _seq(
        _tlv(0x17, f"{y}0{r.randint(1, 9)}1{r.randint(0, 9)}000000Z".encode()),
        _tlv(0x17, f"{y + r.choice([1, 2, 10])}0{r.randint(1, 9)}1{r.randint(0, 9)}235959Z".encode()),
    )
    cc = r.choice(["IN", "BR", "MX", "ID", "IL", "GR", "UA", "TH", "VN", "AE", "US"])
    tbs = _seq(
        _tlv(0xA0, bytes.fromhex("020102")),
        _tlv(0x02, b"\x01" + r.randbytes(19)),
        SHA256RSA,
        _name(issuer or cn, org, cc),
        validity,
        _name(cn, org, cc),
        _rsa_spki(r),
        _tlv(0xA3, _seq(_seq(bytes.fromhex("0603551d0e"), _tlv(0x04, _tlv(0x04, r.randbytes(20)))))),
    )
    return _seq(tbs, SHA256RSA, _tlv(0x03, b"\x00" + r.randbytes(256)))


def _armour(label: str, begin: bool) -> str:
    return DASH + ("BEGIN " if begin else "END ") + label + DASH


def _pem(label: str, der: bytes, sep: str = "\n", width: int = 64) -> str:
    body = base64.b64encode(der).decode()
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return sep.join([_armour(label, True), *lines, _armour(label, False)])


def _indent(block: str, pad: str) -> str:
    return "\n".join(pad + line for line in block.split("\n"))


def _jwt(r: random.Random, claims: dict | None = None, alg: str = "RS256") -> str:
    def enc(d: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(d, separators=(",", ":")).encode()).decode().rstrip("=")

    head = {"alg": alg, "typ": "JWT", "kid": _b64url(r, 12)}
    now = r.randint(1_700_000_000, 1_760_000_000)
    body = claims or {
        "iss": f"https://auth.{_co(r)}.{r.choice(TLD)}/",
        "sub": _uuid(r),
        "aud": "api",
        "iat": now,
        "exp": now + r.choice([3600, 86400, 31536000]),
    }
    sig = _b64url(r, 256 if alg.startswith("RS") else 64 if "ed25519" in alg else 32)
    return enc(head) + "." + enc(body) + "." + sig


# ----------------------------------------------------------------------------------------------
# vendor token shapes
# ----------------------------------------------------------------------------------------------


def _aws_secret(r: random.Random) -> str:
    return _rs(r, B64, 40)


def _aws_id(r: random.Random) -> str:
    return P_AKIA + _rs(r, UPNUM, 16)


def _google_key(r: random.Random) -> str:
    return P_AIZA + "Sy" + _rs(r, B64URL, 33)


def _azure_key(r: random.Random, nbytes: int = 32) -> str:
    return _b64(r, nbytes)


def _nkey(r: random.Random, first: str, n: int) -> str:
    return first + _rs(r, B32, n)


def _sf_org(r: random.Random) -> str:
    return P_SF + _rs(r, ALNUM, 2) + "0" * r.randint(3, 5) + _rs(r, ALNUM, 1)


def _sf_org15(r: random.Random) -> str:
    s = _sf_org(r)
    return (s + _rs(r, ALNUM, 15))[:15]


def _apple_key_id(r: random.Random) -> str:
    return _rs(r, UPNUM, 10)


def _mac(r: random.Random, sep: str = ":") -> str:
    return sep.join(f"{b:02X}" for b in r.randbytes(6))


def _imei(r: random.Random) -> str:
    d = [int(c) for c in _digits(r, 14)]
    s = 0
    for i, x in enumerate(d):
        if i % 2 == 1:
            x *= 2
            x = x - 9 if x > 9 else x
        s += x
    return "".join(map(str, d)) + str((10 - s % 10) % 10)


# ----------------------------------------------------------------------------------------------
# multilingual chat wrappers
# ----------------------------------------------------------------------------------------------

LRM = "\u200e"
RLM = "\u200f"

CHAT_POS = {
    "hi": [
        "⟦w⟧ का नया पासवर्ड: ⟦v⟧ — कृपया इसे किसी के साथ साझा न करें।",
        "प्रोडक्शन के लिए ⟦w⟧ की key यह है ⟦v⟧ , कल सुबह तक rotate कर देंगे।",
        "भाई, staging वाला ⟦w⟧ अभी भी पुराना है: ⟦v⟧ (इसे .env में डाल दो)",
        "नोट: ⟦w⟧ = ⟦v⟧ — यह सिर्फ़ डेमो सर्वर के लिए है, पर फिर भी बाहर मत भेजना।",
    ],
    "ar": [
        "كلمة المرور الجديدة لـ ⟦w⟧ هي: ⟦v⟧ — يرجى عدم مشاركتها.",
        "مفتاح ⟦w⟧ لبيئة الإنتاج: ⟦v⟧ ، سنقوم بتغييره بعد الإطلاق.",
        "تم تحديث ⟦w⟧ على الخادم، القيمة الحالية ⟦rv⟧",
        "يا شباب، هذا ⟦w⟧ الخاص بالعميل: «⟦v⟧» احذفوا الرسالة بعد الحفظ.",
    ],
    "vi": [
        "Mật khẩu mới của ⟦w⟧ là: ⟦v⟧ — đừng chia sẻ ra ngoài nhé.",
        "Key ⟦w⟧ cho môi trường production: ⟦v⟧ (nhớ xóa tin nhắn này sau khi lưu)",
        "Anh ơi, em đã đổi ⟦w⟧ rồi, giá trị mới là ⟦v⟧ ạ.",
        "Ghi chú triển khai: ⟦w⟧ → ⟦v⟧ , sẽ chuyển vào Vault tuần sau.",
    ],
    "id": [
        "Password baru ⟦w⟧: ⟦v⟧ — jangan disebar ya.",
        "Ini kunci ⟦w⟧ untuk production: ⟦v⟧ , tolong simpan di vault setelah dipakai.",
        "Mas, ⟦w⟧ yang lama sudah di-revoke, pakai yang ini aja: ⟦v⟧",
        "Catatan deploy: ⟦w⟧ sekarang ⟦v⟧ (berlaku mulai Senin).",
    ],
    "he": [
        "הסיסמה החדשה ל-⟦w⟧ היא: ⟦v⟧ — לא להעביר הלאה.",
        "המפתח של ⟦w⟧ לסביבת פרודקשן: ⟦rv⟧",
        "עדכנתי את ⟦w⟧ בשרת, הערך הנוכחי ⟦v⟧ , תמחקו את ההודעה אחרי ששמרתם.",
        'לתשומת לבכם: ⟦w⟧ הוחלף. החדש: "⟦v⟧"',
    ],
    "el": [
        "Ο νέος κωδικός για ⟦w⟧ είναι: ⟦v⟧ — μην τον μοιραστείς.",
        "Κλειδί ⟦w⟧ για την παραγωγή: ⟦v⟧",
        "Άλλαξα το ⟦w⟧ στον server, η νέα τιμή είναι ⟦v⟧ · σβήστε το μήνυμα μετά.",
        "Σημείωση: ⟦w⟧ = «⟦v⟧» (μόνο για το staging)",
    ],
    "uk": [
        "Новий пароль для ⟦w⟧: ⟦v⟧ — нікому не передавай.",
        "Ключ ⟦w⟧ для продакшену: ⟦v⟧ , після збереження видаліть повідомлення.",
        "Оновив ⟦w⟧ на сервері, поточне значення — ⟦v⟧",
        "Нотатка: ⟦w⟧ = «⟦v⟧» (діє до кінця кварталу)",
    ],
    "th": [
        "รหัสผ่านใหม่ของ ⟦w⟧ คือ ⟦v⟧ อย่าแชร์ให้คนอื่นนะครับ",
        "คีย์ ⟦w⟧ สำหรับ production：⟦v⟧ เก็บไว้ใน vault ด้วยนะคะ",
        "เปลี่ยน ⟦w⟧ แล้ว ค่าใหม่คือ⟦v⟧ลบข้อความนี้หลังบันทึกด้วย",
        "บันทึก：⟦w⟧（⟦v⟧）ใช้ได้ถึงสิ้นเดือน",
    ],
    "pt": [
        "A senha nova do ⟦w⟧ é ⟦v⟧ — não compartilha com ninguém, beleza?",
        "Segue a chave do ⟦w⟧ de produção: ⟦v⟧ (apaga a mensagem depois de salvar)",
        "Galera, troquei o ⟦w⟧ ontem, o valor atual é ⟦v⟧",
        "Anotação do deploy: ⟦w⟧ → ⟦v⟧ , vou mover pro cofre semana que vem.",
    ],
    "es": [
        "La contraseña nueva de ⟦w⟧ es ⟦v⟧, no la compartas porfa.",
        "Aquí va la llave de ⟦w⟧ para producción: ⟦v⟧ — bórrala del chat cuando la guardes.",
        "Oye, ya cambié ⟦w⟧, quedó así: ⟦v⟧",
        "Nota rápida: ⟦w⟧ ＝ ⟦v⟧ （solo para el ambiente de QA）",
    ],
}

CHAT_PREFIX = ["", "", "", "[09:41] ", "> ", "- ", "@channel ", "**{n}**: ", "{n}: "]


def _chat(r: random.Random, what: str, v: str, lang: str | None = None) -> str:
    lang = lang or r.choice(sorted(CHAT_POS))
    rv = (RLM + v + RLM) if r.random() < 0.5 else (LRM + v + LRM)
    body = _t(r.choice(CHAT_POS[lang]), w=what, v=v, rv=rv)
    pre = r.choice(CHAT_PREFIX).replace("{n}", r.choice(PEOPLE))
    return pre + body


# ----------------------------------------------------------------------------------------------
# positives: data platforms
# ----------------------------------------------------------------------------------------------


def p_airflow_conn(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=True)
    scheme, port = r.choice(
        [
            ("postgres", 5432),
            ("mysql", 3306),
            ("mssql", 1433),
            ("oracle", 1521),
            ("redshift", 5439),
            ("vertica", 5433),
            ("clickhouse", 9000),
        ]
    )
    name = r.choice(["DWH", "ERP_RO", "CRM_REPLICA", "BILLING", "MARTS", "SAP_STAGING", "EVENTS_DB"])
    user, host, db = r.choice(DBUSERS), _host(r), r.choice(DBS)
    t = r.randrange(5)
    if t == 0:
        text = f"export AIRFLOW_CONN_{name}='{scheme}://{user}:{pw}@{host}:{port}/{db}'"
    elif t == 1:
        d = {
            "conn_type": scheme,
            "login": user,
            "password": pw,
            "host": host,
            "port": port,
            "schema": db,
            "extra": {"sslmode": "require"} if scheme == "postgres" else {},
        }
        text = f"AIRFLOW_CONN_{name}='{json.dumps(d)}'"
    elif t == 2:
        text = (
            f"airflow connections add '{name.lower()}' \\\n    --conn-uri '{scheme}://{user}:{pw}@{host}:{port}/{db}'"
        )
    elif t == 3:
        text = (
            f"airflow connections add {name.lower()} --conn-type {scheme} --conn-host {host} "
            f"--conn-login {user} --conn-password '{pw}' --conn-port {port} --conn-schema {db}"
        )
    else:
        text = (
            f"# values-airflow.yaml\nairflow:\n  connections:\n    - id: {name.lower()}\n      type: {scheme}\n"
            f'      host: {host}\n      port: {port}\n      login: {user}\n      password: "{pw}"\n      schema: {db}'
        )
    return text, pw


def p_airflow_fernet(r: random.Random) -> tuple[str, str]:
    k = base64.urlsafe_b64encode(r.randbytes(32)).decode()
    text = _one(
        r,
        [
            "[core]\ndags_folder = /opt/airflow/dags\nexecutor = CeleryExecutor\nfernet_key = ⟦k⟧\nload_examples = False",
            "AIRFLOW__CORE__FERNET_KEY=⟦k⟧\nAIRFLOW__CORE__EXECUTOR=LocalExecutor",
            '# helm values\nfernetKey: "⟦k⟧"\nwebserverSecretKeySecretName: airflow-webserver-secret',
            "In [3]: from cryptography.fernet import Fernet\n   ...: Fernet.generate_key()\nOut[3]: b'⟦k⟧'",
            "services:\n  airflow-scheduler:\n    environment:\n      AIRFLOW__CORE__FERNET_KEY: '⟦k⟧'",
        ],
        k=k,
    )
    return text, k


def p_aws_secret(r: random.Random) -> tuple[str, str]:
    s, i = _aws_secret(r), _aws_id(r)
    reg = r.choice(AWS_REGIONS)
    text = _one(
        r,
        [
            '{"conn_type": "aws", "login": "⟦i⟧", "password": "⟦s⟧", "extra": {"region_name": "⟦reg⟧"}}',
            "spark.hadoop.fs.s3a.access.key   ⟦i⟧\nspark.hadoop.fs.s3a.secret.key   ⟦s⟧\nspark.hadoop.fs.s3a.endpoint s3.⟦reg⟧.amazonaws.com",
            "<property>\n  <name>fs.s3a.access.key</name>\n  <value>⟦i⟧</value>\n</property>\n<property>\n  <name>fs.s3a.secret.key</name>\n  <value>⟦s⟧</value>\n</property>",
            'hconf = spark._jsc.hadoopConfiguration()\nhconf.set("fs.s3a.access.key", "⟦i⟧")\nhconf.set("fs.s3a.secret.key", "⟦s⟧")',
            "[etl-prod]\naws_access_key_id = ⟦i⟧\naws_secret_access_key = ⟦s⟧\nregion = ⟦reg⟧",
            "COPY raw.events FROM 's3://lake-⟦reg⟧/events/'\nCREDENTIALS 'aws_access_key_id=⟦i⟧;aws_secret_access_key=⟦s⟧'\nFORMAT AS PARQUET;",
        ],
        s=s,
        i=i,
        reg=reg,
    )
    return text, s


def p_dbt(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    proj = r.choice(["analytics", "jaffle_shop", "finance_marts", "growth", "dwh_core"])
    t = r.randrange(4)
    host = _host(r)
    if t == 0:
        text = (
            f"{proj}:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      host: {host}\n"
            f'      user: {r.choice(DBUSERS)}\n      password: "{pw}"\n      port: 5432\n      dbname: {r.choice(DBS)}\n'
            f"      schema: dbt_prod\n      threads: 8"
        )
    elif t == 1:
        text = (
            f"{proj}:\n  outputs:\n    dev:\n      type: snowflake\n      account: {_rs(r, LOWER, 2)}{_digits(r, 5)}.{r.choice(['ap-southeast-1', 'eu-central-1', 'sa-east-1'])}\n"
            f"      user: {r.choice(PEOPLE).upper()}\n      password: '{pw}'\n      role: TRANSFORMER\n      warehouse: TRANSFORMING\n"
            f"      database: ANALYTICS\n      schema: dbt_{r.choice(PEOPLE)}"
        )
    elif t == 2:
        text = (
            f"{proj}:\n  target: prod\n  outputs:\n    prod:\n      type: redshift\n      host: {proj}.{_rs(r, LOWNUM, 12)}.{r.choice(AWS_REGIONS)}.redshift.amazonaws.com\n"
            f"      user: dbt\n      pass: {pw!r}\n      port: 5439\n      dbname: dev\n      schema: analytics"
        )
    else:
        text = (
            f"{proj}:\n  outputs:\n    prod:\n      type: sqlserver\n      driver: 'ODBC Driver 18 for SQL Server'\n"
            f'      server: {host}\n      port: 1433\n      user: dbt_svc\n      password: "{pw}"\n      database: {r.choice(DBS)}'
        )
    return text, pw


def p_azure_storage(r: random.Random) -> tuple[str, str]:
    k = _azure_key(r, 64)
    acct = f"{_co(r)}{r.choice(['lake', 'dl', 'raw', 'bronze'])}{r.randint(1, 99)}"
    text = _one(
        r,
        [
            "<property>\n  <name>fs.azure.account.key.⟦a⟧.dfs.core.windows.net</name>\n  <value>⟦k⟧</value>\n</property>",
            'spark.conf.set(\n    "fs.azure.account.key.⟦a⟧.dfs.core.windows.net",\n    "⟦k⟧",\n)',
            "DefaultEndpointsProtocol=https;AccountName=⟦a⟧;AccountKey=⟦k⟧;EndpointSuffix=core.windows.net",
            '{"conn_type": "wasb", "login": "⟦a⟧", "password": "⟦k⟧"}',
            "spark.hadoop.fs.azure.account.key.⟦a⟧.blob.core.windows.net ⟦k⟧",
        ],
        a=acct,
        k=k,
    )
    return text, k


def p_hive(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    h = _host(r, "metastore-db")
    text = _one(
        r,
        [
            "<property>\n  <name>javax.jdo.option.ConnectionURL</name>\n  <value>jdbc:mysql://⟦h⟧:3306/hive_metastore</value>\n</property>\n"
            "<property>\n  <name>javax.jdo.option.ConnectionUserName</name>\n  <value>hive</value>\n</property>\n"
            "<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>⟦p⟧</value>\n</property>",
            "spark.hadoop.javax.jdo.option.ConnectionURL jdbc:mariadb://⟦h⟧:3306/metastore\nspark.hadoop.javax.jdo.option.ConnectionUserName hive\nspark.hadoop.javax.jdo.option.ConnectionPassword ⟦p⟧",
            "beeline -u 'jdbc:hive2://⟦h⟧:10000/default' -n hive -p '⟦p⟧' -e 'show databases;'",
            'metastore:\n  db:\n    url: jdbc:postgresql://⟦h⟧:5432/metastore\n    user: hive\n    password: "⟦p⟧"',
        ],
        h=h,
        p=pw,
    )
    return text, pw


def _sf_account(r: random.Random) -> str:
    return r.choice(
        [
            f"{_rs(r, LOWER, 2)}{_digits(r, 5)}.{r.choice(['ap-southeast-1', 'eu-central-1', 'sa-east-1', 'ap-south-1.aws'])}",
            f"{_co(r)}-{r.choice(['prod', 'analytics', 'dwh'])}",
        ]
    )


def p_snowflake_pw(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=r.random() < 0.4)
    acct = _sf_account(r)
    user = r.choice(DBUSERS).upper()
    t = r.randrange(4)
    if t == 0:
        text = (
            f'[connections.prod]\naccount = "{acct}"\nuser = "{user}"\npassword = "{pw}"\n'
            f'warehouse = "COMPUTE_WH"\ndatabase = "ANALYTICS"\nrole = "LOADER"'
        )
    elif t == 1:
        text = (
            f'conn = snowflake.connector.connect(\n    account="{acct}",\n    user="{user}",\n'
            f'    password="{pw}",\n    warehouse="ETL_WH",\n)'
        )
    elif t == 2:
        text = f"[connections]\naccountname = {acct}\nusername = {user}\npassword = {pw}\ndbname = RAW\nrolename = SYSADMIN"
    else:
        pw = _pw(r, url_safe=True)
        text = (
            f"jdbc:snowflake://{acct}.snowflakecomputing.com/?user={user}&password={pw}"
            f"&warehouse=ETL_WH&db=RAW&role=LOADER"
        )
    return text, pw


def p_snowflake_key(r: random.Random) -> tuple[str, str]:
    pem = _pem(PK, _rsa_pkcs8(r))
    t = r.randrange(3)
    if t == 0:
        text = f"$ cat ~/.snowflake/rsa_key_{r.choice(PEOPLE)}.p8\n{pem}"
        return text, pem
    if t == 1:
        block = _indent(pem, "        ")
        text = (
            f"analytics:\n  outputs:\n    prod:\n      type: snowflake\n      account: {_sf_account(r)}\n"
            f"      user: DBT_SVC\n      private_key: |\n{block}\n      warehouse: TRANSFORMING"
        )
        return text, block.lstrip()
    esc = pem.replace("\n", "\\n")
    text = json.dumps({"account": _sf_account(r), "user": "KAFKA_CONNECTOR", "private_key": esc}, ensure_ascii=False)
    text = text.replace("\\\\n", "\\n")
    return text, esc


def p_gcp_sa(r: random.Random) -> tuple[str, str]:
    proj = f"{_co(r)}-{r.choice(['data', 'analytics', 'mobile', 'prod'])}-{r.randint(100, 999)}"
    sa = r.choice(["bigquery-loader", "firebase-adminsdk-" + _rs(r, LOWNUM, 5), "dbt-runner", "airflow-etl", "looker"])
    pem = _pem(PK, _rsa_pkcs8(r), sep="\\n") + "\\n"
    cid = _digits(r, 21)
    email = f"{sa}@{proj}.iam.gserviceaccount.com"
    body = (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key_id": "{_hex(r, 40)}",\n'
        f'  "private_key": "{pem}",\n'
        f'  "client_email": "{email}",\n'
        f'  "client_id": "{cid}",\n'
        '  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token",\n'
        '  "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",\n'
        f'  "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/{email.replace("@", "%40")}"\n'
        "}"
    )
    text = _one(
        r,
        [
            "⟦b⟧",
            "// serviceAccountKey.json (Firebase Admin SDK)\n⟦b⟧",
            'AIRFLOW_CONN_BIGQUERY_DEFAULT=\'{"conn_type": "google_cloud_platform", "extra": {"keyfile_dict": ⟦c⟧}}\'',
            "credentials_info = ⟦b⟧\ncreds = service_account.Credentials.from_service_account_info(credentials_info)",
        ],
        b=body,
        c=body.replace("\n", "").replace("  ", ""),
    )
    return text, pem


def p_redshift(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    cl = f"{_co(r)}-dwh.{_rs(r, LOWNUM, 12)}.{r.choice(AWS_REGIONS)}.redshift.amazonaws.com"
    text = _one(
        r,
        [
            "jdbc:redshift://⟦c⟧:5439/dev;UID=⟦u⟧;PWD=⟦p⟧;ssl=true",
            "conn = redshift_connector.connect(\n    host='⟦c⟧',\n    database='dev',\n    user='⟦u⟧',\n    password='⟦p⟧'\n)",
            "[Redshift-Prod]\nDriver=/opt/amazon/redshiftodbc/lib/64/libamazonredshiftodbc64.so\nServer=⟦c⟧\nPort=5439\nDatabase=dev\nUID=⟦u⟧\nPWD=⟦p⟧",
            "PGPASSWORD='⟦p⟧' psql -h ⟦c⟧ -p 5439 -U ⟦u⟧ -d dev -c 'select count(*) from stl_load_errors'",
        ],
        c=cl,
        u=r.choice(DBUSERS),
        p=pw,
    )
    return text, pw


def p_clickhouse(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=True)
    h = _host(r, "clickhouse")
    text = _one(
        r,
        [
            "clickhouse-client --host ⟦h⟧ --secure --port 9440 --user ⟦u⟧ --password '⟦p⟧' --query 'SELECT version()'",
            "<clickhouse>\n  <users>\n    <⟦u⟧>\n      <password>⟦p⟧</password>\n      <networks><ip>::/0</ip></networks>\n      <profile>default</profile>\n    </⟦u⟧>\n  </users>\n</clickhouse>",
            "CLICKHOUSE_URL=clickhouse://⟦u⟧:⟦p⟧@⟦h⟧:9440/telemetry?secure=true",
            "client = clickhouse_connect.get_client(host='⟦h⟧', port=8443, username='⟦u⟧', password='⟦p⟧', secure=True)",
            "<remote_servers>\n  <events_cluster>\n    <shard><replica><host>⟦h⟧</host><port>9000</port><user>⟦u⟧</user><password>⟦p⟧</password></replica></shard>\n  </events_cluster>\n</remote_servers>",
        ],
        h=h,
        u=r.choice(["default", "ingest", "grafana_ro", "etl"]),
        p=pw,
    )
    return text, pw


def p_databricks(r: random.Random) -> tuple[str, str]:
    tok = P_DAPI + _hex(r, 32) + r.choice(["", "", "-2", "-3"])
    host = r.choice(
        [
            f"https://adb-{_digits(r, 16)}.{r.randint(1, 19)}.azuredatabricks.net",
            f"https://{_co(r)}-{r.choice(['prod', 'ml', 'data'])}.cloud.databricks.com",
            f"https://{_digits(r, 16)}.{r.randint(1, 9)}.gcp.databricks.com",
        ]
    )
    text = _one(
        r,
        [
            "[DEFAULT]\nhost  = ⟦h⟧\ntoken = ⟦t⟧",
            "export DATABRICKS_HOST=⟦h⟧\nexport DATABRICKS_TOKEN=⟦t⟧",
            "curl -s -H 'Authorization: Bearer ⟦t⟧' ⟦h⟧/api/2.1/jobs/list | jq '.jobs[].settings.name'",
            "analytics:\n  outputs:\n    prod:\n      type: databricks\n      host: ⟦hh⟧\n      http_path: /sql/1.0/warehouses/⟦w⟧\n      token: ⟦t⟧\n      schema: marts",
            'import os\nos.environ["MLFLOW_TRACKING_URI"] = "databricks"\nos.environ["DATABRICKS_TOKEN"] = "⟦t⟧"',
        ],
        h=host,
        hh=host.removeprefix("https://"),
        t=tok,
        w=_hex(r, 16),
    )
    return text, tok


def p_trino(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=True)
    h = _host(r, "trino")
    text = _one(
        r,
        [
            "engine = create_engine('trino://⟦u⟧:⟦p⟧@⟦h⟧:443/hive/default', connect_args={'http_scheme': 'https'})",
            "connector.name=postgresql\nconnection-url=jdbc:postgresql://⟦db⟧:5432/⟦d⟧\nconnection-user=trino_ro\nconnection-password=⟦p⟧",
            "TRINO_PASSWORD='⟦p⟧' trino --server https://⟦h⟧ --user ⟦u⟧ --password --catalog iceberg",
            "conn = trino.dbapi.connect(host='⟦h⟧', port=443, user='⟦u⟧', auth=BasicAuthentication('⟦u⟧', '⟦p⟧'), http_scheme='https')",
            "jdbc:trino://⟦h⟧:443/iceberg/marts?SSL=true&user=⟦u⟧&password=⟦p⟧",
        ],
        h=h,
        u=r.choice(DBUSERS),
        p=pw,
        db=_host(r),
        d=r.choice(DBS),
    )
    return text, pw


# ----------------------------------------------------------------------------------------------
# positives: messaging and IoT
# ----------------------------------------------------------------------------------------------


def p_confluent(r: random.Random) -> tuple[str, str]:
    key, sec = _rs(r, UPNUM, 16), _rs(r, B64, 64)
    bs = f"pkc-{_rs(r, LOWNUM, 5)}.{r.choice(AWS_REGIONS)}.aws.confluent.cloud:9092"
    text = _one(
        r,
        [
            "bootstrap.servers=⟦b⟧\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='⟦k⟧' password='⟦s⟧';",
            "conf = {\n    'bootstrap.servers': '⟦b⟧',\n    'security.protocol': 'SASL_SSL',\n    'sasl.mechanisms': 'PLAIN',\n    'sasl.username': '⟦k⟧',\n    'sasl.password': '⟦s⟧',\n}",
            "$ confluent api-key create --resource lkc-⟦c⟧\n+------------+------------------------------------------------------------------+\n| API Key    | ⟦k⟧                                                 |\n| API Secret | ⟦s⟧ |\n+------------+------------------------------------------------------------------+",
            "KAFKA_SASL_USERNAME=⟦k⟧\nKAFKA_SASL_PASSWORD=⟦s⟧\nKAFKA_BOOTSTRAP=⟦b⟧",
        ],
        b=bs,
        k=key,
        s=sec,
        c=_rs(r, LOWNUM, 5),
    )
    return text, sec


def p_kafka_sasl(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    u = r.choice(["svc-orders", "connect", "ksql", "mirror-maker", "flink-job", "debezium"])
    text = _one(
        r,
        [
            'sasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="⟦u⟧" password="⟦p⟧";',
            "kafka-configs.sh --bootstrap-server ⟦h⟧:9093 --alter --add-config 'SCRAM-SHA-512=[password=⟦p⟧]' --entity-type users --entity-name ⟦u⟧",
            'KafkaClient {\n  org.apache.kafka.common.security.plain.PlainLoginModule required\n  username="⟦u⟧"\n  password="⟦p⟧";\n};',
            'spring:\n  kafka:\n    properties:\n      sasl.mechanism: SCRAM-SHA-256\n      sasl.jaas.config: org.apache.kafka.common.security.scram.ScramLoginModule required username="⟦u⟧" password="⟦p⟧";',
        ],
        u=u,
        p=pw,
        h=_host(r, "kafka"),
    )
    return text, pw


def p_keystore_pw(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    text = _one(
        r,
        [
            "security.protocol=SSL\nssl.keystore.location=/etc/kafka/secrets/⟦n⟧.keystore.jks\nssl.keystore.password=⟦p⟧\nssl.truststore.location=/etc/kafka/secrets/truststore.jks",
            "<property>\n  <name>ssl.server.keystore.password</name>\n  <value>⟦p⟧</value>\n</property>",
            "server.ssl.key-store=classpath:⟦n⟧.p12\nserver.ssl.key-store-type=PKCS12\nserver.ssl.key-store-password=⟦p⟧",
            "keytool -importkeystore -srckeystore ⟦n⟧.p12 -srcstoretype PKCS12 -destkeystore ⟦n⟧.jks -deststorepass '⟦p⟧'",
        ],
        n=r.choice(["broker", "nifi", "hiveserver2", "connect", "gateway"]),
        p=pw,
    )
    return text, pw


def p_spark_secret(r: random.Random) -> tuple[str, str]:
    s = r.choice([_hex(r, 64), _b64(r, 32), _pw(r)])
    text = _one(
        r,
        [
            "spark.authenticate true\nspark.authenticate.secret ⟦s⟧\nspark.network.crypto.enabled true",
            "spark-submit --conf spark.authenticate=true --conf spark.authenticate.secret=⟦s⟧ --master yarn jobs/etl.py",
            "# /etc/security/http_secret (hadoop.http.authentication.signature.secret.file)\n⟦s⟧",
            "spark.io.encryption.enabled=true\nspark.authenticate.secret=⟦s⟧",
        ],
        s=s,
    )
    return text, s


def p_rabbit(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=True)
    u = r.choice(["orders", "celery", "iot_ingest", "notifier", "admin", "worker"])
    h = _host(r, "rabbitmq")
    text = _one(
        r,
        [
            "CELERY_BROKER_URL=amqps://⟦u⟧:⟦p⟧@⟦h⟧:5671/⟦v⟧",
            "rabbitmqctl add_user ⟦u⟧ '⟦p⟧'\nrabbitmqctl set_permissions -p /⟦v⟧ ⟦u⟧ '.*' '.*' '.*'",
            "spring.rabbitmq.host=⟦h⟧\nspring.rabbitmq.username=⟦u⟧\nspring.rabbitmq.password=⟦p⟧\nspring.rabbitmq.virtual-host=⟦v⟧",
            "params = pika.URLParameters('amqp://⟦u⟧:⟦p⟧@⟦h⟧:5672/%2F')",
            'rabbitmq:\n  auth:\n    username: ⟦u⟧\n    password: "⟦p⟧"',
        ],
        u=u,
        p=pw,
        h=h,
        v=r.choice(["prod", "iot", "billing"]),
    )
    return text, pw


def p_erlang_cookie(r: random.Random) -> tuple[str, str]:
    c = _rs(r, UPPER, 20)
    text = _one(
        r,
        [
            "$ sudo cat /var/lib/rabbitmq/.erlang.cookie\n⟦c⟧",
            "RABBITMQ_ERLANG_COOKIE=⟦c⟧\nRABBITMQ_NODENAME=rabbit@⟦h⟧",
            "auth:\n  username: admin\n  existingPasswordSecret: rabbitmq-admin\n  erlangCookie: ⟦c⟧",
            "rabbitmqctl --erlang-cookie ⟦c⟧ -n rabbit@⟦h⟧ cluster_status",
            '  environment:\n    RABBITMQ_ERLANG_COOKIE: "⟦c⟧"',
        ],
        c=c,
        h=_host(r, "mq").split(".")[0],
    )
    return text, c


def p_nats_seed(r: random.Random) -> tuple[str, str]:
    seed = _nkey(r, "SU", 56)
    pub = _nkey(r, "U", 55)
    t = r.randrange(3)
    if t == 0:
        jwt = _jwt(
            r,
            {
                "jti": _rs(r, B32, 52),
                "iat": r.randint(1_700_000_000, 1_760_000_000),
                "iss": _nkey(r, "A", 55),
                "name": r.choice(["sensor-gw", "telemetry", "ops"]),
                "sub": pub,
                "nats": {"pub": {}, "sub": {}, "type": "user", "version": 2},
            },
            alg="ed25519-nkey",
        )
        text = (
            f"{DASH}BEGIN NATS USER JWT{DASH}\n{jwt}\n-{DASH}END NATS USER JWT{DASH}-\n\n"
            "************************* IMPORTANT *************************\n"
            "NKEY Seed printed below can be used to sign and prove identity.\n"
            "NKEYs are sensitive and should be treated as secrets.\n\n"
            f"{DASH}BEGIN USER NKEY SEED{DASH}\n{seed}\n-{DASH}END USER NKEY SEED{DASH}-\n"
        )
    elif t == 1:
        text = f"NATS_URL=tls://{_host(r, 'nats')}:4222\nNATS_NKEY_SEED={seed}"
    else:
        text = f'kp, _ := nkeys.FromSeed([]byte("{seed}"))\nnc, err := nats.Connect(url, nats.Nkey("{pub}", kp.Sign))'
    return text, seed


def p_mqtt(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=r.random() < 0.5)
    dev = f"{r.choice(['esp32', 'gw', 'meter', 'pump', 'cam', 'sensor'])}-{_hex(r, 6)}"
    h = _host(r, "mqtt")
    text = _one(
        r,
        [
            "mosquitto_pub -h ⟦h⟧ -p 8883 --cafile ca.crt -u ⟦d⟧ -P '⟦p⟧' -t 'site/⟦d⟧/telemetry' -m '{\"t\":21.4}'",
            'client = mqtt.Client(client_id="⟦d⟧")\nclient.username_pw_set("⟦d⟧", "⟦p⟧")\nclient.tls_set()\nclient.connect("⟦h⟧", 8883)',
            'const char* mqtt_server = "⟦h⟧";\nconst char* mqtt_user = "⟦d⟧";\nconst char* mqtt_password = "⟦p⟧";',
            "mqtt:\n  base_topic: zigbee2mqtt\n  server: mqtts://⟦h⟧:8883\n  user: ⟦d⟧\n  password: '⟦p⟧'",
            '#define MQTT_BROKER "⟦h⟧"\n#define MQTT_USER "⟦d⟧"\n#define MQTT_PASS "⟦p⟧"',
        ],
        h=h,
        d=dev,
        p=pw,
    )
    return text, pw


def p_azure_iot_key(r: random.Random) -> tuple[str, str]:
    k = _azure_key(r, 32)
    hub = f"{_co(r)}-{r.choice(['iot', 'hub', 'fleet'])}-{r.choice(['prod', 'weu', 'cin'])}"
    dev = f"{r.choice(['gw', 'meter', 'kiosk', 'pos'])}-{_digits(r, 5)}"
    text = _one(
        r,
        [
            "HostName=⟦h⟧.azure-devices.net;DeviceId=⟦d⟧;SharedAccessKey=⟦k⟧",
            'IOTHUB_CONNECTION_STRING="HostName=⟦h⟧.azure-devices.net;SharedAccessKeyName=iothubowner;SharedAccessKey=⟦k⟧"',
            '{\n  "deviceId": "⟦d⟧",\n  "authentication": {\n    "symmetricKey": {\n      "primaryKey": "⟦k⟧",\n      "secondaryKey": null\n    },\n    "type": "sas"\n  }\n}',
            'provisioning:\n  source: "dps"\n  global_endpoint: "https://global.azure-devices-provisioning.net"\n  id_scope: "0ne00⟦s⟧"\n  attestation:\n    method: "symmetric_key"\n    registration_id: "⟦d⟧"\n    symmetric_key: { value = "⟦k⟧" }',
            "Endpoint=sb://⟦h⟧.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=⟦k⟧;EntityPath=telemetry",
        ],
        h=hub,
        d=dev,
        k=k,
        s=_rs(r, UPNUM, 6),
    )
    return text, k


def p_azure_sas(r: random.Random) -> tuple[str, str]:
    sig = _b64(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    se = r.randint(1_760_000_000, 1_900_000_000)
    hub = f"{_co(r)}-iot"
    text = _one(
        r,
        [
            "SharedAccessSignature sr=⟦h⟧.azure-devices.net%2Fdevices%2F⟦d⟧&sig=⟦s⟧&se=⟦e⟧",
            "Authorization: SharedAccessSignature sr=https%3A%2F%2F⟦h⟧.servicebus.windows.net%2Forders&sig=⟦s⟧&se=⟦e⟧&skn=send-only",
            "https://⟦h⟧lake.blob.core.windows.net/exports/daily.parquet?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-0⟦m⟧-01T00:00:00Z&spr=https&sig=⟦s⟧",
            "azcopy copy ./out 'https://⟦h⟧raw.blob.core.windows.net/landing?sp=racwl&st=2025-01-01T00:00:00Z&se=2026-01-01T00:00:00Z&spr=https&sv=2022-11-02&sr=c&sig=⟦s⟧' --recursive",
        ],
        h=hub,
        d=f"dev-{_digits(r, 4)}",
        s=sig,
        e=se,
        m=r.randint(1, 9),
    )
    return text, sig


def p_aws_iot_key(r: random.Random) -> tuple[str, str]:
    t = r.randrange(4)
    if t == 0:
        pem = _pem("RSA " + PK, _rsa_pkcs1(r))
        return f"# certs/{_hex(r, 10)}-private.pem.key\n{pem}", pem
    if t == 1:
        pem = _pem("EC " + PK, _ec_sec1(r))
        body = "\n".join(f'"{line}\\n"' for line in pem.split("\n"))
        text = f"static const char AWS_IOT_PRIVATE_KEY[] =\n{body};"
        end = _armour("EC " + PK, False)
        return text, text[text.index(DASH + "BEGIN") : text.index(end) + len(end)]
    if t == 2:
        pem = _pem("RSA " + PK, _rsa_pkcs1(r))
        text = f'static const char AWS_CERT_PRIVATE[] PROGMEM = R"KEY(\n{pem}\n)KEY";'
        return text, pem
    priv = _pem("RSA " + PK, _rsa_pkcs1(r), sep="\\n") + "\\n"
    pub = _pem("PUBLIC KEY", _rsa_spki(r), sep="\\n") + "\\n"
    arn = f"arn:aws:iot:{r.choice(AWS_REGIONS)}:{_digits(r, 12)}:cert/{_hex(r, 64)}"
    text = (
        f'{{\n    "certificateArn": "{arn}",\n    "certificateId": "{arn.rsplit("/", 1)[1]}",\n'
        f'    "keyPair": {{\n        "PublicKey": "{pub}",\n        "PrivateKey": "{priv}"\n    }}\n}}'
    )
    return text, priv


# ----------------------------------------------------------------------------------------------
# positives: ML tooling and notebooks
# ----------------------------------------------------------------------------------------------


def p_mlflow(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    uri = f"https://mlflow.{_co(r)}.{r.choice(TLD)}"
    text = _one(
        r,
        [
            "export MLFLOW_TRACKING_URI=⟦u⟧\nexport MLFLOW_TRACKING_USERNAME=⟦n⟧\nexport MLFLOW_TRACKING_PASSWORD='⟦p⟧'",
            'os.environ["MLFLOW_TRACKING_USERNAME"] = "⟦n⟧"\nos.environ["MLFLOW_TRACKING_PASSWORD"] = "⟦p⟧"\nmlflow.set_tracking_uri("⟦u⟧")',
            "[mlflow]\ndefault_permission = READ\ndatabase_uri = sqlite:///basic_auth.db\nadmin_username = admin\nadmin_password = ⟦p⟧",
            '  mlflow:\n    image: ghcr.io/mlflow/mlflow:v2.14.1\n    environment:\n      MLFLOW_TRACKING_USERNAME: ⟦n⟧\n      MLFLOW_TRACKING_PASSWORD: "⟦p⟧"',
        ],
        u=uri,
        n=r.choice(PEOPLE),
        p=pw,
    )
    return text, pw


def p_wandb(r: random.Random) -> tuple[str, str]:
    k = _hex(r, 40)
    text = _one(
        r,
        [
            "export WANDB_API_KEY=⟦k⟧\nexport WANDB_ENTITY=⟦e⟧\nexport WANDB_PROJECT=⟦p⟧",
            "machine api.wandb.ai\n  login user\n  password ⟦k⟧",
            'import wandb\nwandb.login(key="⟦k⟧")\nrun = wandb.init(project="⟦p⟧", entity="⟦e⟧")',
            "!wandb login ⟦k⟧\nwandb: Appending key for api.wandb.ai to your netrc file: /root/.netrc",
            '  env:\n    - name: WANDB_API_KEY\n      value: "⟦k⟧"',
        ],
        k=k,
        e=_co(r),
        p=r.choice(["llm-finetune", "asr-hindi", "ocr-thai", "recsys", "yolo-farm"]),
    )
    return text, k


def p_comet(r: random.Random) -> tuple[str, str]:
    k = _rs(r, ALNUM, 25)
    text = _one(
        r,
        [
            "[comet]\napi_key = ⟦k⟧\nworkspace = ⟦w⟧\nproject_name = ⟦p⟧",
            'experiment = Experiment(\n    api_key="⟦k⟧",\n    project_name="⟦p⟧",\n    workspace="⟦w⟧",\n)',
            "COMET_API_KEY=⟦k⟧\nCOMET_WORKSPACE=⟦w⟧",
            'comet_ml.login(api_key="⟦k⟧")',
        ],
        k=k,
        w=_co(r),
        p=r.choice(["churn", "ner-ar", "whisper-vi", "demand-forecast"]),
    )
    return text, k


def p_neptune(r: random.Random) -> tuple[str, str]:
    d = {"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": _uuid(r)}
    tok = base64.b64encode(json.dumps(d, separators=(",", ":")).encode()).decode()
    text = _one(
        r,
        [
            'export NEPTUNE_API_TOKEN="⟦t⟧"\nexport NEPTUNE_PROJECT="⟦w⟧/⟦p⟧"',
            'run = neptune.init_run(\n    project="⟦w⟧/⟦p⟧",\n    api_token="⟦t⟧",\n)',
            "NEPTUNE_API_TOKEN=⟦t⟧",
        ],
        t=tok,
        w=_co(r),
        p=r.choice(["segmentation", "tts-uk", "fraud"]),
    )
    return text, tok


def p_hf(r: random.Random) -> tuple[str, str]:
    k = P_HF + _rs(r, LETTERS, 34)
    org = _co(r)
    text = _one(
        r,
        [
            "HF_TOKEN=⟦k⟧",
            "!huggingface-cli login --token ⟦k⟧ --add-to-git-credential",
            'from huggingface_hub import login\nlogin("⟦k⟧")',
            "git clone https://⟦o⟧:⟦k⟧@huggingface.co/⟦o⟧/⟦m⟧",
            'model = AutoModelForCausalLM.from_pretrained("⟦o⟧/⟦m⟧", token="⟦k⟧")',
        ],
        k=k,
        o=org,
        m=r.choice(["llama-3-8b-id", "whisper-th", "bert-ar-ner", "mt5-uk"]),
    )
    return text, k


def p_kaggle(r: random.Random) -> tuple[str, str]:
    k = _hex(r, 32)
    u = r.choice(PEOPLE) + str(r.randint(1, 999))
    text = _one(
        r,
        [
            '{"username":"⟦u⟧","key":"⟦k⟧"}',
            '!mkdir -p ~/.kaggle\n!echo \'{"username":"⟦u⟧","key":"⟦k⟧"}\' > ~/.kaggle/kaggle.json\n!chmod 600 ~/.kaggle/kaggle.json',
            "export KAGGLE_USERNAME=⟦u⟧\nexport KAGGLE_KEY=⟦k⟧",
            'os.environ["KAGGLE_USERNAME"] = "⟦u⟧"\nos.environ["KAGGLE_KEY"] = "⟦k⟧"',
        ],
        u=u,
        k=k,
    )
    return text, k


def p_openai(r: random.Random) -> tuple[str, str]:
    k = P_OAI + _rs(r, B64URL, 74) + P_OAI_MARK + _rs(r, B64URL, 74)
    text = _one(
        r,
        [
            'import os\nos.environ["OPENAI_API_KEY"] = "⟦k⟧"',
            'client = OpenAI(api_key="⟦k⟧")',
            "OPENAI_API_KEY=⟦k⟧\nOPENAI_MODEL=gpt-4o-mini",
            '{\n "cell_type": "code",\n "source": [\n  "openai.api_key = \\"⟦k⟧\\"\\n"\n ]\n}',
        ],
        k=k,
    )
    return text, k


def p_anthropic(r: random.Random) -> tuple[str, str]:
    k = P_ANT + _rs(r, B64URL, 93) + "AA"
    text = _one(
        r,
        [
            "ANTHROPIC_API_KEY=⟦k⟧",
            'client = anthropic.Anthropic(api_key="⟦k⟧")',
            "curl https://api.anthropic.com/v1/messages -H 'x-api-key: ⟦k⟧' -H 'anthropic-version: 2023-06-01'",
        ],
        k=k,
    )
    return text, k


def p_jwt(r: random.Random) -> tuple[str, str]:
    tok = _jwt(r)
    h = _host(r, r.choice(["trino", "api", "gateway", "scim"]))
    text = _one(
        r,
        [
            "curl -H 'Authorization: Bearer ⟦t⟧' https://⟦h⟧/v1/statement",
            "trino --server https://⟦h⟧ --access-token ⟦t⟧",
            'headers = {"Authorization": "Bearer ⟦t⟧"}\nresp = requests.get("https://⟦h⟧/api/v2/datasets", headers=headers)',
            "GET /odata/v4/Orders HTTP/1.1\nHost: ⟦h⟧\nAuthorization: Bearer ⟦t⟧",
        ],
        t=tok,
        h=h,
    )
    return text, tok


# ----------------------------------------------------------------------------------------------
# positives: mobile
# ----------------------------------------------------------------------------------------------


def p_android_ks(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    alias = r.choice(["upload", "release", "key0", "prod-signing"])
    store = r.choice(["upload-keystore.jks", "release.keystore", "../keys/app-release.jks"])
    text = _one(
        r,
        [
            "storeFile=⟦s⟧\nstorePassword=⟦p⟧\nkeyAlias=⟦a⟧",
            "org.gradle.jvmargs=-Xmx4g\nandroid.useAndroidX=true\nRELEASE_STORE_FILE=⟦s⟧\nRELEASE_STORE_PASSWORD=⟦p⟧\nRELEASE_KEY_ALIAS=⟦a⟧",
            'signingConfigs {\n    release {\n        storeFile file("⟦s⟧")\n        storePassword "⟦p⟧"\n        keyAlias "⟦a⟧"\n        keyPassword System.getenv("KEY_PASSWORD")\n    }\n}',
            "keytool -genkeypair -v -keystore ⟦s⟧ -alias ⟦a⟧ -keyalg RSA -keysize 2048 -validity 10000 -storepass '⟦p⟧'",
            "apksigner sign --ks ⟦s⟧ --ks-key-alias ⟦a⟧ --ks-pass pass:⟦p⟧ app-release-unsigned.apk",
        ],
        s=store,
        a=alias,
        p=pw,
    )
    return text, pw


def p_asc_p8(r: random.Random) -> tuple[str, str]:
    kid, iss = _apple_key_id(r), _uuid(r)
    t = r.randrange(3)
    if t == 0:
        pem = _pem(PK, _ec_pkcs8(r))
        return f"$ cat AuthKey_{kid}.p8\n{pem}", pem
    esc = _pem(PK, _ec_pkcs8(r), sep="\\n")
    if t == 1:
        text = f'{{\n  "key_id": "{kid}",\n  "issuer_id": "{iss}",\n  "key": "{esc}",\n  "duration": 1200,\n  "in_house": false\n}}'
    else:
        text = (
            f'app_store_connect_api_key(\n  key_id: "{kid}",\n  issuer_id: "{iss}",\n'
            f'  key_content: "{esc}",\n  is_key_content_base64: false\n)'
        )
    return text, esc


def p_match(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    text = _one(
        r,
        [
            'MATCH_PASSWORD="⟦p⟧"\nMATCH_GIT_URL=git@github.com:⟦o⟧/ios-certificates.git',
            "  env:\n    MATCH_PASSWORD: '⟦p⟧'\n    FASTLANE_USER: ⟦e⟧",
            "export MATCH_PASSWORD='⟦p⟧'\nbundle exec fastlane match appstore --readonly",
            "# passphrase used to encrypt the match repo\nmatch_password: ⟦p⟧",
        ],
        p=pw,
        o=_co(r),
        e=_email(r),
    )
    return text, pw


def p_apple_asp(r: random.Random) -> tuple[str, str]:
    pw = _apple_pw(r)
    e = _email(r)
    text = _one(
        r,
        [
            "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD=⟦p⟧\nFASTLANE_USER=⟦e⟧",
            "xcrun altool --upload-app -f build/App.ipa -t ios -u ⟦e⟧ -p ⟦p⟧",
            'xcrun notarytool store-credentials "notary" --apple-id ⟦e⟧ --team-id ⟦t⟧ --password ⟦p⟧',
            'xcrun notarytool submit App.zip --apple-id "⟦e⟧" --password "⟦p⟧" --team-id ⟦t⟧ --wait',
        ],
        p=pw,
        e=e,
        t=_rs(r, UPNUM, 10),
    )
    return text, pw


def p_fcm(r: random.Random) -> tuple[str, str]:
    k = "AAAA" + _rs(r, B64URL, 7) + ":" + P_FCM + _rs(r, B64URL, 134)
    text = _one(
        r,
        [
            "curl -X POST https://fcm.googleapis.com/fcm/send -H 'Authorization: key=⟦k⟧' -H 'Content-Type: application/json' -d @push.json",
            "define('FIREBASE_SERVER_KEY', '⟦k⟧');",
            "FCM_SERVER_KEY=⟦k⟧\nFCM_SENDER_ID=⟦s⟧",
            "headers = {'Authorization': 'key=⟦k⟧', 'Content-Type': 'application/json'}",
        ],
        k=k,
        s=_digits(r, 12),
    )
    return text, k


def p_google_key(r: random.Random) -> tuple[str, str]:
    k = _google_key(r)
    text = _one(
        r,
        [
            "curl 'https://www.googleapis.com/youtube/v3/search?part=snippet&channelId=UC⟦c⟧&maxResults=50&key=⟦k⟧'",
            'youtube = build("youtube", "v3", developerKey="⟦k⟧")',
            "YOUTUBE_API_KEY=⟦k⟧",
            "# backend/geocode.py (server side, unrestricted key)\nGEOCODE_URL = 'https://maps.googleapis.com/maps/api/geocode/json?address={}&key=⟦k⟧'",
            "GEMINI_API_KEY=⟦k⟧",
        ],
        k=k,
        c=_rs(r, B64URL, 22),
    )
    return text, k


# ----------------------------------------------------------------------------------------------
# positives: enterprise SSO and directories
# ----------------------------------------------------------------------------------------------


def _dn(r: random.Random) -> tuple[str, str]:
    co = _co(r)
    tld = r.choice(["local", "corp", "com", "co.id", "com.br"])
    base = ",".join("dc=" + p for p in [co, *tld.split(".")])
    return base, f"cn={r.choice(['svc-ldap', 'gitlab-bind', 'grafana', 'keycloak', 'jenkins'])},ou=service,{base}"


def p_ldap(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    base, bind = _dn(r)
    h = _host(r, "ldap")
    text = _one(
        r,
        [
            "[domain/⟦b⟧]\nid_provider = ldap\nldap_uri = ldaps://⟦h⟧\nldap_search_base = ⟦base⟧\nldap_default_bind_dn = ⟦d⟧\nldap_default_authtok_type = password\nldap_default_authtok = ⟦p⟧",
            "ldapsearch -x -H ldaps://⟦h⟧ -D '⟦d⟧' -w '⟦p⟧' -b '⟦base⟧' '(uid=⟦u⟧)'",
            '[[servers]]\nhost = "⟦h⟧"\nport = 636\nuse_ssl = true\nbind_dn = "⟦d⟧"\nbind_password = \'⟦p⟧\'\nsearch_base_dns = ["⟦base⟧"]',
            "spring.ldap.urls=ldaps://⟦h⟧:636\nspring.ldap.base=⟦base⟧\nspring.ldap.username=⟦d⟧\nspring.ldap.password=⟦p⟧",
            "gitlab_rails['ldap_servers'] = {\n  'main' => {\n    'host' => '⟦h⟧',\n    'bind_dn' => '⟦d⟧',\n    'password' => '⟦p⟧',\n    'base' => '⟦base⟧'\n  }\n}",
        ],
        h=h,
        base=base,
        d=bind,
        p=pw,
        u=r.choice(PEOPLE),
        b=base.split(",")[0][3:],
    )
    return text, pw


def p_saml_key(r: random.Random) -> tuple[str, str]:
    t = r.randrange(4)
    if t == 0:
        pem = _pem(PK, _rsa_pkcs8(r))
        return f"# /etc/shibboleth/sp-signing-key.pem\n{pem}", pem
    if t == 1:
        raw = base64.b64encode(_rsa_pkcs1(r)).decode()
        text = (
            '"components": {\n  "org.keycloak.keys.KeyProvider": [\n    {\n      "name": "rsa-generated",\n'
            '      "providerId": "rsa-generated",\n      "config": {\n'
            f'        "privateKey": ["{raw}"],\n        "priority": ["100"]\n      }}\n    }}\n  ]\n}}'
        )
        return text, raw
    if t == 2:
        raw = base64.b64encode(_rsa_pkcs8(r)).decode()
        cert = base64.b64encode(_cert(r, f"sp.{_co(r)}.com")).decode()
        text = (
            f'{{\n  "sp": {{\n    "entityId": "https://app.{_co(r)}.com/saml/metadata",\n'
            f'    "x509cert": "{cert}",\n    "privateKey": "{raw}"\n  }}\n}}'
        )
        return text, raw
    pem = _pem("RSA " + PK, _rsa_pkcs1(r))
    text = f"$config['default-sp'] = ['saml:SP', 'privatekey' => 'saml.pem'];\n// saml.pem:\n{pem}"
    return text, pem


def p_azure_ad(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 3) + "8Q" + "~" + _rs(r, ALNUM + "_.~-", 34)
    tid, cid = _uuid(r), _uuid(r)
    text = _one(
        r,
        [
            '"AzureAd": {\n  "Instance": "https://login.microsoftonline.com/",\n  "TenantId": "⟦t⟧",\n  "ClientId": "⟦c⟧",\n  "ClientSecret": "⟦s⟧"\n}',
            '{\n  "appId": "⟦c⟧",\n  "displayName": "sp-⟦n⟧",\n  "password": "⟦s⟧",\n  "tenant": "⟦t⟧"\n}',
            "AZURE_TENANT_ID=⟦t⟧\nAZURE_CLIENT_ID=⟦c⟧\nAZURE_CLIENT_SECRET=⟦s⟧",
            'app = msal.ConfidentialClientApplication(\n    "⟦c⟧",\n    authority="https://login.microsoftonline.com/⟦t⟧",\n    client_credential="⟦s⟧",\n)',
        ],
        s=s,
        t=tid,
        c=cid,
        n=r.choice(["databricks", "adf-etl", "powerbi", "iot-ops"]),
    )
    return text, s


def p_keycloak(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 32)
    kc = f"https://sso.{_co(r)}.{r.choice(TLD)}"
    text = _one(
        r,
        [
            '{\n  "realm": "⟦rl⟧",\n  "auth-server-url": "⟦k⟧/",\n  "resource": "⟦c⟧",\n  "credentials": {\n    "secret": "⟦s⟧"\n  }\n}',
            'provider = "keycloak-oidc"\nclient_id = "⟦c⟧"\nclient_secret = "⟦s⟧"\noidc_issuer_url = "⟦k⟧/realms/⟦rl⟧"',
            "[auth.generic_oauth]\nenabled = true\nclient_id = ⟦c⟧\nclient_secret = ⟦s⟧\nauth_url = ⟦k⟧/realms/⟦rl⟧/protocol/openid-connect/auth",
            "OIDC_CLIENT_ID=⟦c⟧\nOIDC_CLIENT_SECRET=⟦s⟧\nOIDC_ISSUER=⟦k⟧/realms/⟦rl⟧",
        ],
        s=s,
        k=kc,
        rl=r.choice(["corp", "staff", "partners"]),
        c=r.choice(["grafana", "superset", "airflow", "jupyterhub", "mlflow"]),
    )
    return text, s


def p_okta(r: random.Random) -> tuple[str, str]:
    tok = "00" + _rs(r, B64URL, 40)
    org = f"https://{_co(r)}.okta.com"
    text = _one(
        r,
        [
            "curl -H 'Authorization: SSWS ⟦t⟧' -H 'Accept: application/json' ⟦o⟧/api/v1/users?limit=200",
            "okta:\n  client:\n    orgUrl: ⟦o⟧\n    token: ⟦t⟧",
            'provider "okta" {\n  org_name  = "⟦n⟧"\n  base_url  = "okta.com"\n  api_token = "⟦t⟧"\n}',
            "OKTA_ORG_URL=⟦o⟧\nOKTA_API_TOKEN=⟦t⟧",
        ],
        t=tok,
        o=org,
        n=org.split("//")[1].split(".")[0],
    )
    return text, tok


def _keytab(r: random.Random, princ: str, realm: str) -> bytes:
    comps = princ.split("/")
    body = len(comps).to_bytes(2, "big") + len(realm).to_bytes(2, "big") + realm.encode()
    for c in comps:
        body += len(c).to_bytes(2, "big") + c.encode()
    body += (
        (1).to_bytes(4, "big") + r.randint(1_600_000_000, 1_760_000_000).to_bytes(4, "big") + bytes([r.randint(1, 9)])
    )
    key = r.randbytes(32)
    body += (18).to_bytes(2, "big") + len(key).to_bytes(2, "big") + key
    return b"\x05\x02" + len(body).to_bytes(4, "big") + body


def p_kerberos(r: random.Random) -> tuple[str, str]:
    realm = f"{_co(r).upper()}.{r.choice(['LOCAL', 'CORP', 'COM'])}"
    svc = r.choice(["HTTP", "hive", "hdfs", "kafka", "trino"])
    princ = f"{svc}/{_host(r, svc.lower())}"
    t = r.randrange(3)
    if t == 0:
        k = _hex(r, 64)
        text = (
            f"$ klist -k -t -K -e /etc/security/keytabs/{svc.lower()}.service.keytab\nKeytab name: FILE:/etc/security/keytabs/{svc.lower()}.service.keytab\n"
            f"KVNO Timestamp           Principal\n---- ------------------- ------------------------------------------------------\n"
            f"   2 0{r.randint(1, 9)}/1{r.randint(0, 9)}/2025 10:2{r.randint(0, 9)}:00 {princ}@{realm} (aes256-cts-hmac-sha1-96)  (0x{k})"
        )
        return text, k
    kt = base64.b64encode(_keytab(r, princ, realm)).decode()
    if t == 1:
        text = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc.lower()}-keytab\ntype: Opaque\ndata:\n  krb5.keytab: {kt}"
    else:
        text = f"# base64 of {svc.lower()}.keytab, decode with: base64 -d > /tmp/{svc.lower()}.keytab\n{kt}"
    return text, kt


# ----------------------------------------------------------------------------------------------
# positives: CRM / ERP / helpdesk
# ----------------------------------------------------------------------------------------------


def _sf_inst(r: random.Random) -> str:
    return f"https://{_co(r)}{r.choice(['', '--uat.sandbox', '--dev.sandbox'])}.my.salesforce.com"


def p_sf_token(r: random.Random) -> tuple[str, str]:
    tok = _sf_org15(r) + "!" + r.choice(["AQ", "AR", "AW"]) + _rs(r, ALNUM + "._", r.randint(94, 110))
    inst = _sf_inst(r)
    text = _one(
        r,
        [
            "curl ⟦i⟧/services/data/v60.0/query?q=SELECT+Id,Name+FROM+Account -H 'Authorization: Bearer ⟦t⟧'",
            "=== Org Description\nKEY              VALUE\nAccess Token     ⟦t⟧\nAlias            ⟦a⟧\nInstance Url     ⟦i⟧\nUsername         ⟦e⟧",
            "sf = Salesforce(instance_url='⟦i⟧', session_id='⟦t⟧')",
            "SF_INSTANCE_URL=⟦i⟧\nSF_ACCESS_TOKEN=⟦t⟧",
        ],
        t=tok,
        i=inst,
        a=r.choice(["prod", "uat", "dev-hub"]),
        e=_email(r),
    )
    return text, tok


def p_sf_secret(r: random.Random) -> tuple[str, str]:
    s = _rs(r, HEXU, 64)
    ck = P_SFCK + _rs(r, ALNUM + "._", 76)
    inst = _sf_inst(r)
    text = _one(
        r,
        [
            "salesforce.consumerKey=⟦k⟧\nsalesforce.consumerSecret=⟦s⟧\nsalesforce.tokenEndpoint=⟦i⟧/services/oauth2/token",
            "curl ⟦i⟧/services/oauth2/token -d grant_type=client_credentials -d client_id=⟦k⟧ -d client_secret=⟦s⟧",
            "SFDC_CLIENT_ID=⟦k⟧\nSFDC_CLIENT_SECRET=⟦s⟧",
            "Connected App 'Data Loader Sync'\n  Consumer Key:    ⟦k⟧\n  Consumer Secret: ⟦s⟧",
        ],
        s=s,
        k=ck,
        i=inst,
    )
    return text, s


def p_sap(r: random.Random) -> tuple[str, str]:
    pw = _pw(r)
    h = _host(r, "sap")
    text = _one(
        r,
        [
            "jco.client.ashost=⟦h⟧\njco.client.sysnr=00\njco.client.client=⟦c⟧\njco.client.user=RFC_⟦u⟧\njco.client.passwd=⟦p⟧\njco.client.lang=EN",
            "conn = Connection(ashost='⟦h⟧', sysnr='00', client='⟦c⟧', user='RFC_⟦u⟧', passwd='⟦p⟧')",
            "hdbsql -n ⟦h⟧:30015 -u SYSTEM -p '⟦p⟧' \"SELECT * FROM M_DATABASE\"",
            "hdbuserstore SET ETLKEY ⟦h⟧:30015 ETL_USER '⟦p⟧'",
            'sap:\n  odata:\n    url: https://⟦h⟧:44300/sap/opu/odata/sap/API_SALES_ORDER_SRV\n    user: RFC_⟦u⟧\n    password: "⟦p⟧"',
        ],
        h=h,
        c=r.choice(["100", "200", "300", "800"]),
        u=r.choice(["SYNC", "CRM", "BI", "IDOC"]),
        p=pw,
    )
    return text, pw


def p_hubspot(r: random.Random) -> tuple[str, str]:
    tok = P_HS + r.choice(["na1", "eu1", "na2", "ap1"]) + "-" + _uuid(r)
    text = _one(
        r,
        [
            "curl --request GET --url 'https://api.hubapi.com/crm/v3/objects/contacts?limit=10' --header 'authorization: Bearer ⟦t⟧'",
            "HUBSPOT_ACCESS_TOKEN=⟦t⟧\nHUBSPOT_PORTAL_ID=⟦p⟧",
            'api_client = HubSpot(access_token="⟦t⟧")',
            "const hubspotClient = new hubspot.Client({ accessToken: '⟦t⟧' })",
        ],
        t=tok,
        p=_digits(r, 8),
    )
    return text, tok


def p_zendesk(r: random.Random) -> tuple[str, str]:
    tok = _rs(r, ALNUM, 40)
    sub, e = _co(r), _email(r)
    text = _one(
        r,
        [
            "curl https://⟦s⟧.zendesk.com/api/v2/tickets.json -u ⟦e⟧/token:⟦t⟧",
            "creds = {\n    'email': '⟦e⟧',\n    'token': '⟦t⟧',\n    'subdomain': '⟦s⟧'\n}\nzenpy_client = Zenpy(**creds)",
            "ZENDESK_SUBDOMAIN=⟦s⟧\nZENDESK_EMAIL=⟦e⟧\nZENDESK_API_TOKEN=⟦t⟧",
        ],
        s=sub,
        e=e,
        t=tok,
    )
    return text, tok


def p_atlassian(r: random.Random) -> tuple[str, str]:
    tok = P_ATL + _rs(r, B64URL, 170) + "=" + _rs(r, HEXU, 8)
    site, e = f"https://{_co(r)}.atlassian.net", _email(r)
    text = _one(
        r,
        [
            "curl -u ⟦e⟧:⟦t⟧ -H 'Accept: application/json' ⟦s⟧/rest/api/3/search?jql=project=DATA",
            "jira = JIRA(server='⟦s⟧', basic_auth=('⟦e⟧', '⟦t⟧'))",
            "CONFLUENCE_URL=⟦s⟧/wiki\nCONFLUENCE_USER=⟦e⟧\nCONFLUENCE_API_TOKEN=⟦t⟧",
            "installation: cloud\nserver: ⟦s⟧\nlogin: ⟦e⟧\napi_token: ⟦t⟧",
        ],
        t=tok,
        s=site,
        e=e,
    )
    return text, tok


def p_servicenow(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=r.random() < 0.3)
    inst = f"{_co(r)}{r.choice(['', 'dev', 'test'])}"
    text = _one(
        r,
        [
            "curl 'https://⟦i⟧.service-now.com/api/now/table/incident?sysparm_limit=5' --user 'integration.user:⟦p⟧'",
            "c = pysnow.Client(instance='⟦i⟧', user='svc_integration', password='⟦p⟧')",
            '<parameter name="url" value="https://⟦i⟧.service-now.com/"/>\n<parameter name="mid.instance.username" value="mid.server"/>\n<parameter name="mid.instance.password" value="⟦p⟧"/>',
            "SERVICENOW_INSTANCE=⟦i⟧\nSERVICENOW_USER=svc_itsm\nSERVICENOW_PASSWORD='⟦p⟧'",
        ],
        i=inst,
        p=pw,
    )
    return text, pw


def p_freshdesk(r: random.Random) -> tuple[str, str]:
    k = _rs(r, ALNUM, 20)
    d = _co(r)
    text = _one(
        r,
        [
            "curl -v -u ⟦k⟧:X -H 'Content-Type: application/json' -X GET 'https://⟦d⟧.freshdesk.com/api/v2/tickets'",
            "FRESHDESK_DOMAIN=⟦d⟧.freshdesk.com\nFRESHDESK_API_KEY=⟦k⟧",
            "a = Api('⟦d⟧.freshdesk.com', '⟦k⟧')",
        ],
        k=k,
        d=d,
    )
    return text, k


def p_intercom(r: random.Random) -> tuple[str, str]:
    raw = "tok:" + _uuid(r).replace("-", "_") + ":1:0"
    tok = base64.b64encode(raw.encode()).decode()
    text = _one(
        r,
        [
            "curl https://api.intercom.io/conversations -H 'Authorization: Bearer ⟦t⟧' -H 'Intercom-Version: 2.11'",
            "INTERCOM_ACCESS_TOKEN=⟦t⟧",
            "intercom = Intercom::Client.new(token: '⟦t⟧')",
        ],
        t=tok,
    )
    return text, tok


# ----------------------------------------------------------------------------------------------
# positives: regional payment gateways
# ----------------------------------------------------------------------------------------------


def p_adyen(r: random.Random) -> tuple[str, str]:
    tail = _rs(r, ALNUM + "!#%()*+,;?@[]^{}~", 16)
    k = P_AQE + _rs(r, B64, 95) + "==-" + _rs(r, B64, 43) + "=-" + tail
    text = _one(
        r,
        [
            "curl https://checkout-test.adyen.com/v71/paymentMethods -H 'x-API-key: ⟦k⟧' -H 'content-type: application/json' -d '{\"merchantAccount\": \"⟦m⟧\"}'",
            "ADYEN_API_KEY=⟦k⟧\nADYEN_MERCHANT_ACCOUNT=⟦m⟧",
            "adyen.apiKey=⟦k⟧\nadyen.merchantAccount=⟦m⟧\nadyen.environment=LIVE",
        ],
        k=k,
        m=f"{_co(r).capitalize()}ECOM",
    )
    return text, k


def p_razorpay(r: random.Random) -> tuple[str, str]:
    kid = P_RZP + "live_" + _rs(r, ALNUM, 14)
    s = _rs(r, ALNUM, 24)
    text = _one(
        r,
        [
            'client = razorpay.Client(auth=("⟦i⟧", "⟦s⟧"))',
            "RAZORPAY_KEY_ID=⟦i⟧\nRAZORPAY_KEY_SECRET=⟦s⟧",
            'curl -u ⟦i⟧:⟦s⟧ -X POST https://api.razorpay.com/v1/orders -H \'content-type: application/json\' -d \'{"amount": 50000, "currency": "INR"}\'',
            "var instance = new Razorpay({ key_id: '⟦i⟧', key_secret: '⟦s⟧' });",
        ],
        i=kid,
        s=s,
    )
    return text, s


def p_paystack(r: random.Random) -> tuple[str, str]:
    k = P_SK + "live_" + _hex(r, 40)
    text = _one(
        r,
        [
            'curl https://api.paystack.co/transaction/initialize -H \'Authorization: Bearer ⟦k⟧\' -H \'Content-Type: application/json\' -d \'{"email": "⟦e⟧", "amount": "20000"}\'',
            "PAYSTACK_SECRET_KEY=⟦k⟧",
            "'secretKey' => '⟦k⟧',\n'paymentUrl' => 'https://api.paystack.co',",
        ],
        k=k,
        e=_email(r),
    )
    return text, k


def p_flutterwave(r: random.Random) -> tuple[str, str]:
    k = P_FLW + "SECK-" + _hex(r, 32) + "-X"
    text = _one(
        r,
        [
            "FLW_PUBLIC_KEY=⟦p⟧\nFLW_SECRET_KEY=⟦k⟧",
            "curl https://api.flutterwave.com/v3/payments -H 'Authorization: Bearer ⟦k⟧' -H 'Content-Type: application/json'",
            "const flw = new Flutterwave('⟦p⟧', '⟦k⟧');",
        ],
        k=k,
        p=P_FLW + "PUBK-" + _hex(r, 32) + "-X",
    )
    return text, k


def p_mercadopago(r: random.Random) -> tuple[str, str]:
    k = P_MP + _digits(r, 16) + "-" + _rs(r, DIGITS, 6) + "-" + _hex(r, 32) + "-" + _digits(r, 9)
    text = _one(
        r,
        [
            'sdk = mercadopago.SDK("⟦k⟧")',
            "MP_ACCESS_TOKEN=⟦k⟧\nMP_PUBLIC_KEY=⟦p⟧",
            "curl -X POST 'https://api.mercadopago.com/checkout/preferences' -H 'Authorization: Bearer ⟦k⟧' -H 'Content-Type: application/json'",
            'MercadoPagoConfig.setAccessToken("⟦k⟧");',
        ],
        k=k,
        p=P_MP + _uuid(r),
    )
    return text, k


def p_midtrans(r: random.Random) -> tuple[str, str]:
    k = P_MID + "server-" + _rs(r, B64URL, 24)
    ck = P_MID + "client-" + _rs(r, B64URL, 16)
    if r.random() < 0.25:
        b = base64.b64encode((k + ":").encode()).decode()
        text = (
            "curl -X POST https://app.midtrans.com/snap/v1/transactions -H 'Accept: application/json' "
            f"-H 'Authorization: Basic {b}' -d @order.json"
        )
        return text, b
    text = _one(
        r,
        [
            "snap = midtransclient.Snap(\n    is_production=True,\n    server_key='⟦k⟧',\n    client_key='⟦c⟧'\n)",
            "MIDTRANS_SERVER_KEY=⟦k⟧\nMIDTRANS_CLIENT_KEY=⟦c⟧\nMIDTRANS_IS_PRODUCTION=true",
            "\\Midtrans\\Config::$serverKey = '⟦k⟧';\n\\Midtrans\\Config::$isProduction = true;",
        ],
        k=k,
        c=ck,
    )
    return text, k


def p_xendit(r: random.Random) -> tuple[str, str]:
    k = P_XND + "production_" + _b64(r, 46)
    text = _one(
        r,
        [
            "curl https://api.xendit.co/v2/invoices -X POST -u ⟦k⟧: -H 'Content-Type: application/json' -d @invoice.json",
            "XENDIT_SECRET_KEY=⟦k⟧",
            'Configuration configuration = new Configuration();\nconfiguration.setApiKey("⟦k⟧");',
        ],
        k=k,
    )
    return text, k


def p_payu(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 32)
    key = _rs(r, ALNUM, r.choice([6, 7, 8]))
    text = _one(
        r,
        [
            "PAYU_MERCHANT_KEY=⟦k⟧\nPAYU_MERCHANT_SALT=⟦s⟧\nPAYU_BASE_URL=https://secure.payu.in/_payment",
            '$MERCHANT_KEY = "⟦k⟧";\n$SALT = "⟦s⟧";\n$hash = strtolower(hash(\'sha512\', $hashString . $SALT));',
            "payu:\n  key: ⟦k⟧\n  salt: ⟦s⟧\n  env: prod",
            'hash = sha512("⟦k⟧|" + txnid + "|" + amount + "|" + productinfo + "|" + firstname + "|" + email + "|||||||||||⟦s⟧")',
        ],
        k=key,
        s=s,
    )
    return text, s


def p_mollie(r: random.Random) -> tuple[str, str]:
    k = P_LIVE + _rs(r, ALNUM, 30)
    text = _one(
        r,
        [
            '$mollie = new \\Mollie\\Api\\MollieApiClient();\n$mollie->setApiKey("⟦k⟧");',
            "MOLLIE_API_KEY=⟦k⟧",
            "curl -X GET https://api.mollie.com/v2/payments -H 'Authorization: Bearer ⟦k⟧'",
            "mollie_client.set_api_key('⟦k⟧')",
        ],
        k=k,
    )
    return text, k


def p_klarna(r: random.Random) -> tuple[str, str]:
    pw = _rs(r, ALNUM, 16)
    u = f"PK{_digits(r, 5)}_{_hex(r, 12)}"
    text = _one(
        r,
        [
            "curl -u '⟦u⟧:⟦p⟧' -H 'Content-Type: application/json' https://api.klarna.com/payments/v1/sessions -d @session.json",
            "klarna:\n  region: eu\n  username: ⟦u⟧\n  password: ⟦p⟧",
            "KLARNA_API_USERNAME=⟦u⟧\nKLARNA_API_PASSWORD=⟦p⟧",
        ],
        u=u,
        p=pw,
    )
    return text, pw


# ----------------------------------------------------------------------------------------------
# positives: game and media services
# ----------------------------------------------------------------------------------------------


def p_steam(r: random.Random) -> tuple[str, str]:
    k = _rs(r, HEXU, 32)
    sid = "7656119" + _rs(r, DIGITS, 10)
    text = _one(
        r,
        [
            "https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key=⟦k⟧&steamids=⟦s⟧",
            "STEAM_WEB_API_KEY=⟦k⟧\nSTEAM_APP_ID=⟦a⟧",
            "const steam = new SteamAPI('⟦k⟧');",
            "curl 'https://partner.steam-api.com/ISteamUserStats/GetNumberOfCurrentPlayers/v1/?appid=⟦a⟧&key=⟦k⟧'",
        ],
        k=k,
        s=sid,
        a=r.randint(200000, 3200000),
    )
    return text, k


def p_unity(r: random.Random) -> tuple[str, str]:
    s = _rs(r, B64URL, 32)
    kid = _uuid(r)
    text = _one(
        r,
        [
            "UNITY_SERVICE_ACCOUNT_KEY_ID=⟦i⟧\nUNITY_SERVICE_ACCOUNT_SECRET=⟦s⟧\nUNITY_PROJECT_ID=⟦p⟧",
            "curl -u '⟦i⟧:⟦s⟧' https://services.api.unity.com/remote-config/v1/projects/⟦p⟧/configs",
            "ugs config set service-account ⟦i⟧ ⟦s⟧",
        ],
        i=kid,
        s=s,
        p=_uuid(r),
    )
    return text, s


def p_epic(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM + "+/", 43)
    cid = P_EOS + _rs(r, ALNUM, 24)
    text = _one(
        r,
        [
            "# dedicated server (Trusted Server policy)\nEOS_CLIENT_ID=⟦c⟧\nEOS_CLIENT_SECRET=⟦s⟧\nEOS_DEPLOYMENT_ID=⟦d⟧",
            "curl -X POST https://api.epicgames.dev/auth/v1/oauth/token -u '⟦c⟧:⟦s⟧' -d 'grant_type=client_credentials&deployment_id=⟦d⟧'",
            'backend:\n  eos:\n    clientId: ⟦c⟧\n    clientSecret: "⟦s⟧"\n    deploymentId: ⟦d⟧',
        ],
        s=s,
        c=cid,
        d=_hex(r, 32),
    )
    return text, s


def p_twitch_oauth(r: random.Random) -> tuple[str, str]:
    tok = _rs(r, LOWNUM, 30)
    ch = r.choice(["canal_mx", "streamer_th", "kyiv_gaming", "jogatina_br", "bot_id"])
    text = _one(
        r,
        [
            "PASS oauth:⟦t⟧\nNICK ⟦c⟧\nJOIN #⟦c⟧",
            "const client = new tmi.Client({ identity: { username: '⟦c⟧', password: 'oauth:⟦t⟧' }, channels: ['⟦c⟧'] });",
            "TWITCH_OAUTH_TOKEN=oauth:⟦t⟧",
            "curl -H 'Authorization: Bearer ⟦t⟧' -H 'Client-Id: ⟦i⟧' https://api.twitch.tv/helix/users",
        ],
        t=tok,
        c=ch,
        i=_rs(r, LOWNUM, 30),
    )
    return text, tok


def p_twitch_secret(r: random.Random) -> tuple[str, str]:
    s, cid = _rs(r, LOWNUM, 30), _rs(r, LOWNUM, 30)
    text = _one(
        r,
        [
            "curl -X POST 'https://id.twitch.tv/oauth2/token?client_id=⟦c⟧&client_secret=⟦s⟧&grant_type=client_credentials'",
            "TWITCH_CLIENT_ID=⟦c⟧\nTWITCH_CLIENT_SECRET=⟦s⟧",
            "twitch = await Twitch('⟦c⟧', '⟦s⟧')",
        ],
        s=s,
        c=cid,
    )
    return text, s


def p_spotify(r: random.Random) -> tuple[str, str]:
    s, cid = _hex(r, 32), _hex(r, 32)
    if r.random() < 0.25:
        b = base64.b64encode(f"{cid}:{s}".encode()).decode()
        text = (
            "curl -X POST https://accounts.spotify.com/api/token -H "
            f"'Authorization: Basic {b}' -d grant_type=client_credentials"
        )
        return text, b
    text = _one(
        r,
        [
            'sp = spotipy.Spotify(auth_manager=SpotifyClientCredentials(client_id="⟦c⟧", client_secret="⟦s⟧"))',
            "SPOTIPY_CLIENT_ID=⟦c⟧\nSPOTIPY_CLIENT_SECRET=⟦s⟧\nSPOTIPY_REDIRECT_URI=http://127.0.0.1:8888/callback",
            "const spotifyApi = new SpotifyWebApi({ clientId: '⟦c⟧', clientSecret: '⟦s⟧' });",
        ],
        s=s,
        c=cid,
    )
    return text, s


# ----------------------------------------------------------------------------------------------
# positives: email / SMS
# ----------------------------------------------------------------------------------------------


def p_postmark(r: random.Random) -> tuple[str, str]:
    tok = _uuid(r)
    text = _one(
        r,
        [
            "curl 'https://api.postmarkapp.com/email' -X POST -H 'Accept: application/json' -H 'X-Postmark-Server-Token: ⟦t⟧' -d @mail.json",
            "POSTMARK_SERVER_TOKEN=⟦t⟧",
            "config.action_mailer.delivery_method = :postmark\nconfig.action_mailer.postmark_settings = { api_token: '⟦t⟧' }",
            "client = PostmarkClient(server_token='⟦t⟧')",
        ],
        t=tok,
    )
    return text, tok


def p_sparkpost(r: random.Random) -> tuple[str, str]:
    k = _hex(r, 40)
    text = _one(
        r,
        [
            "curl -X POST https://api.sparkpost.com/api/v1/transmissions -H 'Authorization: ⟦k⟧' -H 'Content-Type: application/json' -d @tx.json",
            "SPARKPOST_API_KEY=⟦k⟧",
            "MAIL_HOST=smtp.sparkpostmail.com\nMAIL_PORT=587\nMAIL_USERNAME=SMTP_Injection\nMAIL_PASSWORD=⟦k⟧",
            "sp = SparkPost('⟦k⟧')",
        ],
        k=k,
    )
    return text, k


def p_vonage(r: random.Random) -> tuple[str, str]:
    s, k = _rs(r, ALNUM, 16), _hex(r, 8)
    text = _one(
        r,
        [
            'client = vonage.Client(key="⟦k⟧", secret="⟦s⟧")',
            "curl -X POST https://rest.nexmo.com/sms/json -d from=⟦f⟧ -d text='OTP 4821' -d to=⟦n⟧ -d api_key=⟦k⟧ -d api_secret=⟦s⟧",
            "NEXMO_API_KEY=⟦k⟧\nNEXMO_API_SECRET=⟦s⟧",
            "VONAGE_API_KEY=⟦k⟧\nVONAGE_API_SECRET=⟦s⟧",
        ],
        s=s,
        k=k,
        f=_co(r).upper()[:11],
        n="52" + _digits(r, 10),
    )
    return text, s


def p_messagebird(r: random.Random) -> tuple[str, str]:
    k = _rs(r, ALNUM, 25)
    text = _one(
        r,
        [
            "curl -X POST https://rest.messagebird.com/messages -H 'Authorization: AccessKey ⟦k⟧' -d recipients=⟦n⟧ -d originator=⟦o⟧ -d body='Kode OTP Anda: 739201'",
            "client = messagebird.Client('⟦k⟧')",
            "MESSAGEBIRD_ACCESS_KEY=⟦k⟧",
        ],
        k=k,
        n="62" + _digits(r, 10),
        o=_co(r).capitalize()[:11],
    )
    return text, k


def p_plivo(r: random.Random) -> tuple[str, str]:
    t, aid = _rs(r, ALNUM, 40), "MA" + _rs(r, UPNUM, 18)
    text = _one(
        r,
        [
            'client = plivo.RestClient(auth_id="⟦a⟧", auth_token="⟦t⟧")',
            "PLIVO_AUTH_ID=⟦a⟧\nPLIVO_AUTH_TOKEN=⟦t⟧",
            'curl -i --user ⟦a⟧:⟦t⟧ -H \'Content-Type: application/json\' -d \'{"src": "+91⟦n⟧", "dst": "+91⟦m⟧", "text": "hi"}\' https://api.plivo.com/v1/Account/⟦a⟧/Message/',
        ],
        t=t,
        a=aid,
        n=_digits(r, 10),
        m=_digits(r, 10),
    )
    return text, t


# ----------------------------------------------------------------------------------------------
# positives: generic shapes
# ----------------------------------------------------------------------------------------------

CHAT_WHAT = [
    "VPN",
    "Wi-Fi",
    "SFTP",
    "Grafana admin",
    "Jenkins",
    "pgAdmin",
    "NAS",
    "Metabase",
    "Superset",
    "MinIO root",
    "router",
    "jump host",
    "Kibana",
    "Airflow admin",
    "ERP",
    "Tally",
    "Odoo",
    "SAP B1",
    "MikroTik",
    "cPanel",
]


def p_chat_pw(r: random.Random) -> tuple[str, str]:
    shape = r.randrange(4)
    if shape == 0:
        pw = (
            r.choice(["Ключ", "Сонце", "Кава", "Ήλιος", "Θάλασσα", "Καφές"])
            + "-"
            + r.choice(WORDS)
            + "-"
            + _digits(r, 4)
        )
    else:
        pw = _pw(r)
    return _chat(r, r.choice(CHAT_WHAT), pw), pw


def p_url_auth(r: random.Random) -> tuple[str, str]:
    pw = _pw(r, url_safe=True)
    u = r.choice(["deploy", "ci", "elastic", "admin", "proxyuser", r.choice(PEOPLE)])
    text = _one(
        r,
        [
            "pip install --index-url https://⟦u⟧:⟦p⟧@nexus.⟦c⟧.⟦t⟧/repository/pypi-internal/simple ml-features==2.3.1",
            "export https_proxy=http://⟦u⟧:⟦p⟧@proxy.⟦c⟧.⟦t⟧:3128",
            "git remote set-url origin https://⟦u⟧:⟦p⟧@git.⟦c⟧.⟦t⟧/data/pipelines.git",
            "ELASTICSEARCH_URL=https://⟦u⟧:⟦p⟧@es.⟦c⟧.⟦t⟧:9200",
            "Fonte de dados: https://⟦u⟧:⟦p⟧@grafana.⟦c⟧.⟦t⟧/api/datasources",
            "wget https://⟦u⟧:⟦p⟧@artifacts.⟦c⟧.⟦t⟧/models/asr-hi-v3.onnx",
        ],
        u=u,
        p=pw,
        c=_co(r),
        t=r.choice(TLD),
    )
    return text, pw


POSITIVES = [
    ("airflow_conn_password", "Airflow connection password", p_airflow_conn),
    ("airflow_fernet_key", "Airflow fernet key", p_airflow_fernet),
    ("aws_secret_access_key", "AWS secret key", p_aws_secret),
    ("dbt_profile_password", "dbt password", p_dbt),
    ("azure_storage_account_key", "ADLS account key", p_azure_storage),
    ("hive_metastore_password", "Hive metastore password", p_hive),
    ("snowflake_password", "Snowflake password", p_snowflake_pw),
    ("snowflake_private_key", None, p_snowflake_key),
    ("gcp_service_account_key", None, p_gcp_sa),
    ("redshift_password", "Redshift password", p_redshift),
    ("clickhouse_password", "ClickHouse password", p_clickhouse),
    ("databricks_token", "Databricks token", p_databricks),
    ("trino_password", "Trino password", p_trino),
    ("confluent_api_secret", "Confluent API secret", p_confluent),
    ("kafka_sasl_password", "Kafka SCRAM password", p_kafka_sasl),
    ("jks_keystore_password", "keystore password", p_keystore_pw),
    ("spark_auth_secret", "spark.authenticate.secret", p_spark_secret),
    ("rabbitmq_password", "RabbitMQ password", p_rabbit),
    ("erlang_cookie", "Erlang cookie", p_erlang_cookie),
    ("nats_nkey_seed", "NATS seed", p_nats_seed),
    ("mqtt_password", "MQTT password", p_mqtt),
    ("azure_iot_shared_access_key", "IoT Hub SharedAccessKey", p_azure_iot_key),
    ("azure_sas_signature", None, p_azure_sas),
    ("aws_iot_device_private_key", None, p_aws_iot_key),
    ("mlflow_tracking_password", "MLflow password", p_mlflow),
    ("wandb_api_key", "W&B API key", p_wandb),
    ("comet_api_key", "Comet API key", p_comet),
    ("neptune_api_token", "Neptune token", p_neptune),
    ("huggingface_token", "HF token", p_hf),
    ("kaggle_api_key", "Kaggle key", p_kaggle),
    ("openai_api_key", "OpenAI key", p_openai),
    ("anthropic_api_key", "Anthropic key", p_anthropic),
    ("jwt_bearer_token", "bearer token", p_jwt),
    ("android_keystore_password", "upload keystore password", p_android_ks),
    ("app_store_connect_private_key", None, p_asc_p8),
    ("fastlane_match_password", "MATCH_PASSWORD", p_match),
    ("apple_app_specific_password", "app-specific password", p_apple_asp),
    ("fcm_server_key", "FCM server key", p_fcm),
    ("google_api_key", "YouTube Data API key", p_google_key),
    ("ldap_bind_password", "LDAP bind password", p_ldap),
    ("saml_signing_private_key", None, p_saml_key),
    ("azure_ad_client_secret", "Entra ID client secret", p_azure_ad),
    ("oidc_client_secret", "Keycloak client secret", p_keycloak),
    ("okta_api_token", "Okta API token", p_okta),
    ("kerberos_key", None, p_kerberos),
    ("salesforce_access_token", "Salesforce session id", p_sf_token),
    ("salesforce_consumer_secret", "Salesforce consumer secret", p_sf_secret),
    ("sap_password", "SAP RFC password", p_sap),
    ("hubspot_access_token", "HubSpot private app token", p_hubspot),
    ("zendesk_api_token", "Zendesk API token", p_zendesk),
    ("atlassian_api_token", "Jira API token", p_atlassian),
    ("servicenow_password", "ServiceNow integration password", p_servicenow),
    ("freshdesk_api_key", "Freshdesk API key", p_freshdesk),
    ("intercom_access_token", "Intercom token", p_intercom),
    ("adyen_api_key", "Adyen API key", p_adyen),
    ("razorpay_key_secret", "Razorpay key secret", p_razorpay),
    ("paystack_secret_key", "Paystack secret key", p_paystack),
    ("flutterwave_secret_key", "Flutterwave secret key", p_flutterwave),
    ("mercadopago_access_token", "Mercado Pago access token", p_mercadopago),
    ("midtrans_server_key", "Midtrans server key", p_midtrans),
    ("xendit_secret_key", "Xendit secret key", p_xendit),
    ("payu_salt", "PayU salt", p_payu),
    ("mollie_api_key", "Mollie API key", p_mollie),
    ("klarna_api_password", "Klarna API password", p_klarna),
    ("steam_web_api_key", "Steam Web API key", p_steam),
    ("unity_service_account_secret", "Unity service account secret", p_unity),
    ("epic_client_secret", "EOS client secret", p_epic),
    ("twitch_oauth_token", "Twitch OAuth token", p_twitch_oauth),
    ("twitch_client_secret", "Twitch client secret", p_twitch_secret),
    ("spotify_client_secret", "Spotify client secret", p_spotify),
    ("postmark_server_token", "Postmark server token", p_postmark),
    ("sparkpost_api_key", "SparkPost API key", p_sparkpost),
    ("vonage_api_secret", "Vonage API secret", p_vonage),
    ("messagebird_access_key", "MessageBird access key", p_messagebird),
    ("plivo_auth_token", "Plivo auth token", p_plivo),
    ("password_in_chat", None, p_chat_pw),
    ("url_basic_auth_password", None, p_url_auth),
]


# ----------------------------------------------------------------------------------------------
# look-alikes: shared helpers
# ----------------------------------------------------------------------------------------------

ENV_NAMES = [
    "SNOWFLAKE_PASSWORD",
    "DBT_ENV_SECRET_PG_PASSWORD",
    "AIRFLOW__CORE__FERNET_KEY",
    "WANDB_API_KEY",
    "HF_TOKEN",
    "DATABRICKS_TOKEN",
    "RAZORPAY_KEY_SECRET",
    "PAYSTACK_SECRET_KEY",
    "MIDTRANS_SERVER_KEY",
    "XENDIT_SECRET_KEY",
    "MATCH_PASSWORD",
    "KAFKA_SASL_PASSWORD",
    "MQTT_PASSWORD",
    "LDAP_BIND_PASSWORD",
    "OIDC_CLIENT_SECRET",
    "SALESFORCE_CLIENT_SECRET",
    "ZENDESK_API_TOKEN",
    "POSTMARK_SERVER_TOKEN",
    "VONAGE_API_SECRET",
    "STEAM_WEB_API_KEY",
    "SPOTIFY_CLIENT_SECRET",
    "MLFLOW_TRACKING_PASSWORD",
    "COMET_API_KEY",
    "NEPTUNE_API_TOKEN",
    "KAGGLE_KEY",
    "AZURE_CLIENT_SECRET",
    "IOTHUB_DEVICE_CONNECTION_STRING",
    "RELEASE_STORE_PASSWORD",
    "MOLLIE_API_KEY",
    "MP_ACCESS_TOKEN",
    "PLIVO_AUTH_TOKEN",
    "CLICKHOUSE_PASSWORD",
]


def _env(r: random.Random) -> str:
    return r.choice(ENV_NAMES)


def _ph(r: random.Random, name: str | None = None) -> str:
    n = name or _env(r)
    low = n.lower()
    return r.choice(
        [
            "${" + n + "}",
            "$" + n,
            "{{ env_var('" + n + "') }}",
            "{{ var.value." + low + " }}",
            "<" + n + ">",
            "%(" + low + ")s",
            "${{ secrets." + n + " }}",
            "{{ " + low + " }}",
            "$(" + n + ")",
            "<your-" + low.replace("_", "-") + ">",
            "${env:" + n + "}",
            "#{" + n + "}#",
        ]
    )


def _vault_ref(r: random.Random) -> str:
    item = r.choice(
        [
            "snowflake-etl",
            "razorpay-live",
            "kafka-prod",
            "ldap-bind",
            "mqtt-fleet",
            "sap-rfc",
            "wandb-team",
            "fastlane-match",
            "iothub-owner",
            "paystack",
            "okta-admin",
            "hubspot-sync",
        ]
    )
    return r.choice(
        [
            f"arn:aws:secretsmanager:{r.choice(AWS_REGIONS)}:{_digits(r, 12)}:secret:prod/{item}-{_rs(r, ALNUM, 6)}",
            f"projects/{_co(r)}-prod/secrets/{item}/versions/{r.randint(1, 14)}",
            f"vault kv get -field=password secret/data/{r.choice(['prod', 'data', 'mobile'])}/{item}",
            f"https://kv-{_co(r)}-prod.vault.azure.net/secrets/{item}/",
            f"op://Engineering/{item}/credential",
            f"ssm:/prod/{item}/password",
            f"secretRef: {{ name: {item}, key: password }}",
            f"doppler secrets get {item.upper().replace('-', '_')} --plain",
        ]
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: templating and references (data platforms)
# ----------------------------------------------------------------------------------------------


def l_airflow_templated(r: random.Random) -> str:
    c = r.choice(["snowflake_default", "pg_dwh", "mssql_erp", "clickhouse_events", "sap_hana"])
    return _one(
        r,
        [
            "load = SQLExecuteQueryOperator(\n    task_id='load_⟦t⟧',\n    conn_id='⟦c⟧',\n    sql=\"COPY INTO raw.⟦t⟧ FROM @stage/{{ ds_nodash }}/\",\n)",
            "bash_command=\"PGPASSWORD='{{ conn.⟦c⟧.password }}' psql -h {{ conn.⟦c⟧.host }} -U {{ conn.⟦c⟧.login }} -f /sql/⟦t⟧.sql\"",
            'api_key = "{{ var.value.⟦t⟧_api_key }}"  # resolved at runtime from the secrets backend',
            "env={'SF_PASSWORD': '{{ conn.⟦c⟧.password }}', 'RUN_DATE': '{{ ds }}'}",
        ],
        c=c,
        t=r.choice(["orders", "events", "payments", "devices"]),
    )


def l_airflow_uri_placeholder(r: random.Random) -> str:
    return _one(
        r,
        [
            "AIRFLOW_CONN_⟦n⟧='postgres://⟦u⟧:${PG_PASSWORD}@⟦h⟧:5432/⟦d⟧'",
            "AIRFLOW_CONN_⟦n⟧=mysql://⟦u⟧:<password>@⟦h⟧:3306/⟦d⟧",
            'airflow connections add ⟦l⟧ --conn-uri "mssql://⟦u⟧:$(cat /run/secrets/mssql_pw)@⟦h⟧:1433/⟦d⟧"',
            'AIRFLOW_CONN_⟦n⟧=\'{"conn_type": "postgres", "login": "⟦u⟧", "password": "{{ PG_PASSWORD }}", "host": "⟦h⟧"}\'',
        ],
        n=r.choice(["DWH", "ERP", "CRM"]),
        l=r.choice(["dwh", "erp", "crm"]),
        u=r.choice(DBUSERS),
        h=_host(r),
        d=r.choice(DBS),
    )


def l_airflow_secrets_backend(r: random.Random) -> str:
    return _one(
        r,
        [
            '[secrets]\nbackend = airflow.providers.hashicorp.secrets.vault.VaultBackend\nbackend_kwargs = {"connections_path": "connections", "variables_path": "variables", "mount_point": "airflow", "url": "https://vault.⟦c⟧.⟦t⟧:8200", "auth_type": "kubernetes", "kubernetes_role": "airflow"}',
            'AIRFLOW__SECRETS__BACKEND=airflow.providers.amazon.aws.secrets.secrets_manager.SecretsManagerBackend\nAIRFLOW__SECRETS__BACKEND_KWARGS=\'{"connections_prefix": "airflow/connections", "region_name": "⟦r⟧"}\'',
            "AIRFLOW__CORE__FERNET_KEY_CMD=cat /run/secrets/airflow_fernet\nAIRFLOW__WEBSERVER__SECRET_KEY_SECRET=airflow/webserver-secret",
            "fernetKeySecretName: airflow-fernet-key\nwebserverSecretKeySecretName: airflow-webserver-secret-key\ndata:\n  metadataSecretName: airflow-metadata",
        ],
        c=_co(r),
        t=r.choice(TLD),
        r=r.choice(AWS_REGIONS),
    )


def l_airflow_conn_nopass(r: random.Random) -> str:
    d = r.choice(
        [
            {
                "conn_type": "google_cloud_platform",
                "extra": {
                    "key_path": "/opt/airflow/keys/bq-loader.json",
                    "project": f"{_co(r)}-data",
                    "num_retries": 5,
                },
            },
            {
                "conn_type": "aws",
                "extra": {
                    "role_arn": f"arn:aws:iam::{_digits(r, 12)}:role/airflow-etl",
                    "region_name": r.choice(AWS_REGIONS),
                },
            },
            {
                "conn_type": "snowflake",
                "login": "AIRFLOW_SVC",
                "extra": {
                    "account": _sf_account(r),
                    "warehouse": "ETL_WH",
                    "private_key_file": "/secrets/sf/rsa_key.p8",
                    "authenticator": "snowflake_jwt",
                },
            },
            {
                "conn_type": "databricks",
                "host": f"adb-{_digits(r, 16)}.{r.randint(1, 19)}.azuredatabricks.net",
                "extra": {"use_azure_managed_identity": True},
            },
        ]
    )
    return f"AIRFLOW_CONN_{r.choice(['BQ', 'S3', 'SF', 'DBX'])}_{r.randint(1, 9)}='{json.dumps(d)}'"


def l_dbt_env_var(r: random.Random) -> str:
    proj = r.choice(["analytics", "jaffle_shop", "finance_marts"])
    return _one(
        r,
        [
            "⟦p⟧:\n  outputs:\n    prod:\n      type: postgres\n      host: ⟦h⟧\n      user: \"{{ env_var('DBT_USER') }}\"\n      password: \"{{ env_var('DBT_ENV_SECRET_PASSWORD') }}\"\n      dbname: ⟦d⟧",
            "⟦p⟧:\n  outputs:\n    prod:\n      type: snowflake\n      account: ⟦a⟧\n      user: DBT_SVC\n      private_key_path: /secrets/snowflake/rsa_key.p8\n      private_key_passphrase: \"{{ env_var('DBT_ENV_SECRET_PK_PASSPHRASE') }}\"",
            "⟦p⟧:\n  outputs:\n    dev:\n      type: snowflake\n      account: ⟦a⟧\n      user: ⟦u⟧@⟦c⟧.com\n      authenticator: externalbrowser\n      role: ANALYST",
            "⟦p⟧:\n  outputs:\n    prod:\n      type: bigquery\n      method: oauth\n      project: ⟦c⟧-analytics\n      dataset: dbt_prod\n      location: asia-southeast2",
        ],
        p=proj,
        h=_host(r),
        d=r.choice(DBS),
        a=_sf_account(r),
        u=r.choice(PEOPLE),
        c=_co(r),
    )


def l_spark_provider(r: random.Random) -> str:
    return _one(
        r,
        [
            "spark.hadoop.fs.s3a.aws.credentials.provider=com.amazonaws.auth.WebIdentityTokenCredentialsProvider\nspark.hadoop.fs.s3a.endpoint=s3.⟦r⟧.amazonaws.com",
            "<property>\n  <name>hadoop.security.credential.provider.path</name>\n  <value>jceks://hdfs@⟦h⟧/user/etl/s3.jceks</value>\n</property>",
            "hadoop credential create fs.s3a.secret.key -provider jceks://hdfs/user/etl/s3.jceks  # prompts for the value",
            "spark.hadoop.fs.azure.account.auth.type.⟦a⟧.dfs.core.windows.net OAuth\nspark.hadoop.fs.azure.account.oauth2.client.secret.⟦a⟧.dfs.core.windows.net {{secrets/adls/sp-secret}}",
            "spark.authenticate true\nspark.authenticate.secret.file /etc/spark/secrets/auth-secret\nspark.authenticate.secret.driver.file /etc/spark/secrets/auth-secret",
        ],
        r=r.choice(AWS_REGIONS),
        h=_host(r, "namenode"),
        a=f"{_co(r)}lake",
    )


def l_hive_site(r: random.Random) -> str:
    return _one(
        r,
        [
            "<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>${env:HIVE_METASTORE_DB_PASSWORD}</value>\n</property>",
            "<property>\n  <name>hive.metastore.uris</name>\n  <value>thrift://⟦h⟧:9083</value>\n</property>\n<property>\n  <name>hive.metastore.sasl.enabled</name>\n  <value>true</value>\n</property>",
            "<property>\n  <name>hive.server2.authentication.kerberos.keytab</name>\n  <value>/etc/security/keytabs/hive.service.keytab</value>\n</property>",
        ],
        h=_host(r, "metastore"),
    )


def l_snowflake_sso(r: random.Random) -> str:
    return _one(
        r,
        [
            '[connections.dev]\naccount = "⟦a⟧"\nuser = "⟦u⟧@⟦c⟧.com"\nauthenticator = "externalbrowser"\nwarehouse = "DEV_WH"',
            'conn = snowflake.connector.connect(\n    account="⟦a⟧",\n    user="KAFKA_CONNECTOR",\n    private_key_file="/secrets/rsa_key.p8",\n    private_key_file_pwd=os.environ["SF_PK_PASSPHRASE"],\n)',
            "ALTER USER KAFKA_CONNECTOR SET RSA_PUBLIC_KEY='⟦k⟧';",
            "DESC USER DBT_SVC;\n-- RSA_PUBLIC_KEY_FP  SHA256:⟦fp⟧",
        ],
        a=_sf_account(r),
        u=r.choice(PEOPLE),
        c=_co(r),
        k=base64.b64encode(_rsa_spki(r)).decode(),
        fp=base64.b64encode(r.randbytes(32)).decode(),
    )


def l_gcp_sa_nokey(r: random.Random) -> str:
    proj = f"{_co(r)}-{r.choice(['data', 'mobile', 'prod'])}-{r.randint(100, 999)}"
    sa = r.choice(["bigquery-loader", "firebase-adminsdk-" + _rs(r, LOWNUM, 5), "dbt-runner"])
    return _one(
        r,
        [
            "$ gcloud iam service-accounts keys list --iam-account ⟦s⟧@⟦p⟧.iam.gserviceaccount.com\nKEY_ID                                    CREATED_AT            EXPIRES_AT            DISABLED\n⟦k⟧  2025-0⟦m⟧-14T08:11:02Z  9999-12-31T23:59:59Z  False",
            '{\n  "type": "service_account",\n  "project_id": "⟦p⟧",\n  "private_key_id": "⟦k⟧",\n  "private_key": "<redacted, see Secret Manager>",\n  "client_email": "⟦s⟧@⟦p⟧.iam.gserviceaccount.com",\n  "client_id": "⟦c⟧"\n}',
            "GOOGLE_APPLICATION_CREDENTIALS=/var/run/secrets/gcp/⟦s⟧.json\nBQ_PROJECT=⟦p⟧\nBQ_DATASET=analytics_⟦c4⟧",
            "gcloud auth application-default login --impersonate-service-account=⟦s⟧@⟦p⟧.iam.gserviceaccount.com",
        ],
        p=proj,
        s=sa,
        k=_hex(r, 40),
        c=_digits(r, 21),
        c4=_digits(r, 9),
        m=r.randint(1, 9),
    )


def l_redshift_iam(r: random.Random) -> str:
    cl = f"{_co(r)}-dwh"
    return _one(
        r,
        [
            "jdbc:redshift:iam://⟦c⟧:⟦r⟧/dev?DbUser=etl&AutoCreate=true&Profile=analytics",
            "aws redshift get-cluster-credentials --cluster-identifier ⟦c⟧ --db-user etl --duration-seconds 900",
            "conn = redshift_connector.connect(iam=True, cluster_identifier='⟦c⟧', database='dev', db_user='etl', region='⟦r⟧')",
            "COPY raw.orders FROM 's3://⟦c⟧-landing/orders/' IAM_ROLE 'arn:aws:iam::⟦a⟧:role/redshift-copy' FORMAT AS PARQUET;",
        ],
        c=cl,
        r=r.choice(AWS_REGIONS),
        a=_digits(r, 12),
    )


def l_clickhouse_hash(r: random.Random) -> str:
    u = r.choice(["grafana_ro", "ingest", "etl", "superset"])
    return _one(
        r,
        [
            "<users>\n  <⟦u⟧>\n    <password_sha256_hex>⟦h⟧</password_sha256_hex>\n    <networks><ip>10.0.0.0/8</ip></networks>\n  </⟦u⟧>\n</users>",
            "CREATE USER ⟦u⟧ IDENTIFIED WITH sha256_hash BY '⟦h⟧' HOST IP '10.0.0.0/8';",
            '<users>\n  <⟦u⟧>\n    <password from_env="CLICKHOUSE_⟦U⟧_PASSWORD"/>\n  </⟦u⟧>\n</users>',
            '<clickhouse>\n  <users>\n    <default>\n      <password remove="1"/>\n      <no_password/>\n      <networks><ip>::1</ip></networks>\n    </default>\n  </users>\n</clickhouse>',
        ],
        u=u,
        U=u.upper(),
        h=hashlib.sha256(r.randbytes(16)).hexdigest(),
    )


def l_databricks_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Cluster ⟦c⟧ (Runtime 14.3 LTS ML) on workspace https://adb-⟦w⟧.⟦n⟧.azuredatabricks.net — run ⟦run⟧ of job ⟦j⟧ FAILED",
            'password = dbutils.secrets.get(scope="kv-prod", key="snowflake-etl-password")',
            'spark.conf.set("fs.azure.account.key.⟦a⟧.dfs.core.windows.net", dbutils.secrets.get(scope="adls", key="⟦a⟧-key"))',
            "databricks secrets put-secret ml-prod wandb-api-key   # value is read from stdin",
            '{\n  "cluster_id": "⟦c⟧",\n  "spark_version": "15.4.x-scala2.12",\n  "spark_conf": {"spark.hadoop.fs.s3a.secret.key": "{{secrets/aws/etl-secret-key}}"}\n}',
        ],
        c=f"{r.randint(1000, 1299):04d}-{_digits(r, 6)}-{_rs(r, LOWNUM, 8)}",
        w=_digits(r, 16),
        n=r.randint(1, 19),
        run=_digits(r, 15),
        j=_digits(r, 14),
        a=f"{_co(r)}lake",
    )


def l_trino_env(r: random.Random) -> str:
    return _one(
        r,
        [
            "connector.name=postgresql\nconnection-url=jdbc:postgresql://⟦h⟧:5432/⟦d⟧\nconnection-user=trino_ro\nconnection-password=${ENV:PG_TRINO_PASSWORD}",
            "http-server.authentication.type=PASSWORD,JWT\nhttp-server.authentication.jwt.key-file=https://sso.⟦c⟧.com/realms/corp/protocol/openid-connect/certs\npassword-authenticator.config-files=etc/ldap.properties",
            "trino --server https://⟦h⟧ --user ⟦u⟧ --external-authentication --catalog iceberg",
        ],
        h=_host(r, "trino"),
        d=r.choice(DBS),
        c=_co(r),
        u=r.choice(PEOPLE),
    )


def l_kafka_config_provider(r: random.Random) -> str:
    return _one(
        r,
        [
            'config.providers=file\nconfig.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${file:/opt/secrets/kafka.properties:user}" password="${file:/opt/secrets/kafka.properties:password}";',
            'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${KAFKA_USER}" password="${KAFKA_PASSWORD}";',
            "ssl.keystore.location=/etc/kafka/secrets/broker.keystore.jks\nssl.keystore.credentials=broker_keystore_creds\nssl.key.credentials=broker_sslkey_creds",
            "sasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=https://sso.⟦c⟧.com/realms/kafka/protocol/openid-connect/token\nsasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
        ],
        c=_co(r),
    )


def l_kafka_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Cluster lkc-⟦a⟧ (⟦r⟧), schema registry lsrc-⟦b⟧, env env-⟦e⟧; consumer group ⟦g⟧ lag 1843 on topic ⟦t⟧ partition ⟦p⟧",
            "[2025-03-0⟦d⟧ 11:02:17,481] INFO [SocketServer listenerType=ZK_BROKER, nodeId=⟦p⟧] Successfully authenticated client: authenticationID=⟦u⟧; authorizationID=⟦u⟧. (org.apache.kafka.common.security.authenticator.SaslServerAuthenticator)",
            "ClusterId: ⟦cid⟧\nTopic: ⟦t⟧  PartitionCount: 12  ReplicationFactor: 3  Configs: min.insync.replicas=2,cleanup.policy=delete",
            "$ confluent api-key list\n  Current |       Key        | Description | Owner        | Resource\n----------+------------------+-------------+--------------+-----------\n          | ⟦k⟧ | orders-svc  | sa-⟦o⟧ | lkc-⟦a⟧",
        ],
        a=_rs(r, LOWNUM, 5),
        b=_rs(r, LOWNUM, 5),
        e=_rs(r, LOWNUM, 5),
        r=r.choice(AWS_REGIONS),
        g=r.choice(["orders-sink", "cdc-debezium"]),
        t=r.choice(["orders.v1", "iot.telemetry", "payments.events"]),
        p=r.randint(0, 11),
        d=r.randint(1, 9),
        u=r.choice(["svc-orders", "connect"]),
        cid=_b64url(r, 16),
        k=_rs(r, UPNUM, 16),
        o=_rs(r, LOWNUM, 6),
    )


def l_rabbit_defs(r: random.Random) -> str:
    salt_hash = base64.b64encode(r.randbytes(4) + hashlib.sha256(r.randbytes(8)).digest()).decode()
    u = r.choice(["orders", "celery", "iot_ingest"])
    return _one(
        r,
        [
            '{\n  "users": [\n    {\n      "name": "⟦u⟧",\n      "password_hash": "⟦h⟧",\n      "hashing_algorithm": "rabbit_password_hashing_sha256",\n      "tags": ""\n    }\n  ]\n}',
            "CELERY_BROKER_URL=amqps://${RABBITMQ_USER}:${RABBITMQ_PASS}@⟦host⟧:5671/prod",
            'rabbitmqctl add_user ⟦u⟧ "$(cat /run/secrets/rabbit_⟦u⟧)"',
            "auth:\n  username: ⟦u⟧\n  existingPasswordSecret: rabbitmq-⟦u⟧\n  existingErlangSecret: rabbitmq-erlang-cookie",
        ],
        u=u,
        h=salt_hash,
        host=_host(r, "rabbitmq"),
    )


def l_nats_public(r: random.Random) -> str:
    return _one(
        r,
        [
            'authorization: {\n  users: [\n    { nkey: ⟦u⟧ }\n    { nkey: ⟦v⟧, permissions: { publish: "telemetry.>" } }\n  ]\n}',
            "$ nsc describe user sensor-gw\n  User Name   sensor-gw\n  User ID     ⟦u⟧\n  Issuer ID   ⟦a⟧\n  Issued      2025-02-11 09:12:44 UTC\n  Expires     2026-02-11 09:12:44 UTC",
            "operator: ⟦o⟧\nsystem_account: ⟦a⟧\nresolver: MEMORY",
            "nats context save prod --server tls://⟦h⟧:4222 --creds ~/.local/share/nats/nsc/keys/creds/⟦c⟧/ops/sensor-gw.creds",
        ],
        u=_nkey(r, "U", 55),
        v=_nkey(r, "U", 55),
        a=_nkey(r, "A", 55),
        o=_nkey(r, "O", 55),
        h=_host(r, "nats"),
        c=_co(r),
    )


def l_mosquitto_hash(r: random.Random) -> str:
    lines = [
        f"{r.choice(['esp32', 'gw', 'meter'])}-{_hex(r, 6)}:$7$101${_b64(r, 12)}${_b64(r, 64)}"
        for _ in range(r.randint(1, 3))
    ]
    return r.choice(["# /etc/mosquitto/passwd\n", "$ cat passwd\n", ""]) + "\n".join(lines)


def l_mqtt_topics(r: random.Random) -> str:
    mac = _mac(r)
    return _one(
        r,
        [
            'site/⟦s⟧/dev/⟦m⟧/telemetry {"rssi": -67, "fw": "2.4.1", "imei": "⟦i⟧", "t": 28.1}',
            "listener 8883\ncafile /etc/mosquitto/certs/ca.crt\ncertfile /etc/mosquitto/certs/server.crt\nkeyfile /etc/mosquitto/certs/server.key\nrequire_certificate true\nuse_identity_as_username true",
            "mqtt:\n  server: mqtts://⟦h⟧:8883\n  user: !secret mqtt_user\n  password: !secret mqtt_password",
            'client.username_pw_set(os.environ["MQTT_USER"], os.environ["MQTT_PASSWORD"])\nclient.tls_set(ca_certs="ca.crt")',
            "[mqtt] CONNACK rc=5 (not authorised) for client ⟦m2⟧ — check the device password in the provisioning DB",
        ],
        s=r.randint(1, 99),
        m=mac.replace(":", ""),
        i=_imei(r),
        h=_host(r, "mqtt"),
        m2=f"esp32-{_hex(r, 6)}",
    )


def l_aws_iot_ids(r: random.Random) -> str:
    reg = r.choice(AWS_REGIONS)
    cid = _hex(r, 64)
    return _one(
        r,
        [
            'endpoint = "⟦e⟧-ats.iot.⟦r⟧.amazonaws.com"\nthing_name = "⟦t⟧"\ncert = "certs/⟦c10⟧-certificate.pem.crt"\nkey = "certs/⟦c10⟧-private.pem.key"',
            "arn:aws:iot:⟦r⟧:⟦a⟧:cert/⟦c⟧",
            '$ aws iot describe-thing --thing-name ⟦t⟧\n{\n    "thingName": "⟦t⟧",\n    "thingId": "⟦u⟧",\n    "thingArn": "arn:aws:iot:⟦r⟧:⟦a⟧:thing/⟦t⟧",\n    "version": 3\n}',
            "aws iot attach-thing-principal --thing-name ⟦t⟧ --principal arn:aws:iot:⟦r⟧:⟦a⟧:cert/⟦c⟧",
        ],
        e=_rs(r, LOWNUM, 14),
        r=reg,
        t=f"pump-{_digits(r, 5)}",
        c=cid,
        c10=cid[:10],
        a=_digits(r, 12),
        u=_uuid(r),
    )


def l_device_cert(r: random.Random) -> str:
    pem = _pem("CERTIFICATE", _cert(r, r.choice([f"pump-{_digits(r, 5)}", "AWS IoT Certificate", f"gw.{_co(r)}.com"])))
    return (
        r.choice(
            ["# certs/device-certificate.pem.crt\n", "ca.crt:\n", "", "Server certificate presented by the broker:\n"]
        )
        + pem
    )


def l_azure_iot_x509(r: random.Random) -> str:
    hub = f"{_co(r)}-iot-prod"
    dev = f"kiosk-{_digits(r, 5)}"
    return _one(
        r,
        [
            "HostName=⟦h⟧.azure-devices.net;DeviceId=⟦d⟧;x509=true",
            "HostName=⟦h⟧.azure-devices.net;DeviceId=⟦d⟧;SharedAccessKey=<primary key from DPS enrollment>",
            "IOTHUB_DEVICE_CONNECTION_STRING=@Microsoft.KeyVault(SecretUri=https://kv-⟦c⟧.vault.azure.net/secrets/⟦d⟧-conn/)",
            "az iot hub device-identity create -n ⟦h⟧ -d ⟦d⟧ --am x509_thumbprint --ptp ⟦tp⟧ --stp ⟦tp2⟧",
            'provisioning:\n  source: "dps"\n  global_endpoint: "https://global.azure-devices-provisioning.net"\n  id_scope: "0ne00⟦s⟧"\n  attestation:\n    method: "x509"\n    registration_id: "⟦d⟧"\n    identity_cert: "file:///var/secrets/device-id.pem"\n    identity_pk: "pkcs11:slot-id=0;object=device-id?pin-value=$PIN"',
        ],
        h=hub,
        d=dev,
        c=_co(r),
        tp=_rs(r, HEXU, 40),
        tp2=_rs(r, HEXU, 40),
        s=_rs(r, UPNUM, 6),
    )


def l_mlflow_ids(r: random.Random) -> str:
    rid = _hex(r, 32)
    return _one(
        r,
        [
            'mlflow.register_model("runs:/⟦rid⟧/model", "⟦m⟧")\n# Registered model \'⟦m⟧\' version ⟦v⟧ created',
            "Run ⟦rid⟧ (experiment ⟦e⟧) finished: val_f1=0.9⟦x⟧, artifact_uri=s3://mlflow-artifacts/⟦e⟧/⟦rid⟧/artifacts",
            "🏃 View run ⟦n⟧ at: https://mlflow.⟦c⟧.com/#/experiments/⟦e⟧/runs/⟦rid⟧",
            'model_uri = f"models:/⟦m⟧/Production"  # resolved to run ⟦rid⟧',
            "export MLFLOW_TRACKING_URI=https://mlflow.⟦c⟧.com\nexport MLFLOW_TRACKING_USERNAME=⟦u⟧\n# MLFLOW_TRACKING_PASSWORD comes from the CI secret store",
        ],
        rid=rid,
        m=r.choice(["churn-xgb", "asr-hi", "fraud-lgbm"]),
        v=r.randint(2, 40),
        e=_digits(r, 15),
        x=r.randint(10, 99),
        n=f"{_word(r)}-{_word(r)}-{r.randint(100, 999)}",
        c=_co(r),
        u=r.choice(PEOPLE),
    )


def l_wandb_meta(r: random.Random) -> str:
    return _one(
        r,
        [
            '{\n  "os": "Linux-5.15.0-1057-aws-x86_64-with-glibc2.35",\n  "python": "3.11.9",\n  "git": {\n    "remote": "https://github.com/⟦c⟧/ml-training.git",\n    "commit": "⟦g⟧"\n  },\n  "host": "gpu-⟦h⟧",\n  "gpu": "NVIDIA A100-SXM4-80GB"\n}',
            "wandb: 🚀 View run ⟦n⟧ at: https://wandb.ai/⟦c⟧/⟦p⟧/runs/⟦id⟧\nwandb: Find logs at: ./wandb/run-2025031⟦d⟧_10⟦m⟧12-⟦id⟧/logs",
            "wandb sweep sweep.yaml\nwandb: Created sweep with ID: ⟦sw⟧\nwandb: Run sweep agent with: wandb agent ⟦c⟧/⟦p⟧/⟦sw⟧",
            'wandb.login(key=os.environ["WANDB_API_KEY"])',
            "artifact = run.use_artifact('⟦c⟧/⟦p⟧/dataset-⟦ds⟧:v⟦v⟧')  # digest ⟦dg⟧",
        ],
        c=_co(r),
        p=r.choice(["asr-hindi", "recsys", "ocr-thai"]),
        g=_hex(r, 40),
        h=r.randint(1, 40),
        n=f"{_word(r)}-{_word(r)}-{r.randint(1, 99)}",
        id=_rs(r, LOWNUM, 8),
        d=r.randint(0, 9),
        m=r.randint(10, 59),
        sw=_rs(r, LOWNUM, 8),
        ds=_word(r),
        v=r.randint(1, 30),
        dg=_hex(r, 32),
    )


def l_comet_neptune_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "COMET INFO: Experiment is live on comet.com https://www.comet.com/⟦c⟧/⟦p⟧/⟦k⟧",
            'experiment = comet_ml.ExistingExperiment(previous_experiment="⟦k⟧")',
            "neptune:info: Explore the metadata in the Neptune app: https://app.neptune.ai/⟦c⟧/⟦p⟧/e/⟦P⟧-⟦n⟧",
            'run = neptune.init_run(project="⟦c⟧/⟦p⟧", with_id="⟦P⟧-⟦n⟧")  # token comes from NEPTUNE_API_TOKEN',
            "COMET_API_KEY=\nCOMET_WORKSPACE=⟦c⟧\nCOMET_PROJECT_NAME=⟦p⟧",
        ],
        c=_co(r),
        p=r.choice(["churn", "ner-ar", "whisper-vi"]),
        k=_hex(r, 32),
        P=_rs(r, UPPER, 3),
        n=r.randint(10, 9999),
    )


def l_hf_revisions(r: random.Random) -> str:
    org = _co(r)
    return _one(
        r,
        [
            'model = AutoModel.from_pretrained("⟦o⟧/⟦m⟧", revision="⟦g⟧")',
            "Downloading model.safetensors: 100%|██████████| 4.97G/4.97G\n  sha256: ⟦s⟧",
            "huggingface-cli login   # paste the token from https://huggingface.co/settings/tokens when prompted",
            '{\n  "_name_or_path": "⟦o⟧/⟦m⟧",\n  "architectures": ["LlamaForCausalLM"],\n  "hidden_size": 4096,\n  "_commit_hash": "⟦g⟧"\n}',
            "from google.colab import userdata\nlogin(userdata.get('HF_TOKEN'))",
        ],
        o=org,
        m=r.choice(["llama-3-8b-id", "whisper-th", "bert-ar-ner"]),
        g=_hex(r, 40),
        s=_hex(r, 64),
    )


def l_artifact_digests(r: random.Random) -> str:
    return _one(
        r,
        [
            "outs:\n- md5: ⟦m⟧.dir\n  size: ⟦n⟧\n  nfiles: ⟦f⟧\n  hash: md5\n  path: data/processed",
            "image: ghcr.io/⟦c⟧/trainer@sha256:⟦s⟧",
            "⟦s⟧  model-⟦v⟧.onnx\n⟦s2⟧  tokenizer.json",
            'Pushed model artifact: s3://models/⟦c⟧/asr/⟦v⟧/model.tar.gz (ETag "⟦m⟧")',
            '{"dataset": "transactions", "version": "⟦v⟧", "snapshot_id": ⟦snap⟧, "delta_version": ⟦dv⟧}',
        ],
        m=_hex(r, 32),
        n=r.randint(10**6, 10**10),
        f=r.randint(2, 9000),
        c=_co(r),
        s=_hex(r, 64),
        s2=_hex(r, 64),
        v=f"v{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
        snap=_digits(r, 19),
        dv=r.randint(1, 900),
    )


def l_notebook_getpass(r: random.Random) -> str:
    return _one(
        r,
        [
            'import getpass\nos.environ["OPENAI_API_KEY"] = getpass.getpass("OpenAI API key: ")',
            "from google.colab import userdata\nwandb_key = userdata.get('WANDB_API_KEY')\nwandb.login(key=wandb_key)",
            "%env KAGGLE_USERNAME=⟦u⟧\n%env KAGGLE_KEY=<paste your key here>",
            'print(os.environ.get("HF_TOKEN", "")[:4] + "…")\nOut[7]: \'⟦p⟧…\'',
            "In [4]: client = OpenAI()  # reads OPENAI_API_KEY from the environment\nIn [5]: client.models.list().data[0].id\nOut[5]: 'gpt-4o-mini'",
        ],
        u=r.choice(PEOPLE),
        p=P_HF[:2] + "_" + _rs(r, LETTERS, 1),
    )


def l_notebook_output(r: random.Random) -> str:
    rows = "\n".join(
        f"{i}  {_hex(r, 12)}  {_uuid(r)}  {r.random():.4f}  {r.choice(['ok', 'fraud', 'review'])}"
        for i in range(r.randint(3, 5))
    )
    return _one(
        r,
        [
            "Out[12]:\n   txn_hash      device_id                             score   label\n⟦rows⟧",
            "Epoch ⟦e⟧/20 - loss: 0.⟦l⟧ - val_auc: 0.9⟦a⟧ - run_id: ⟦rid⟧",
            '{\n "cell_type": "stream",\n "name": "stdout",\n "text": ["Loaded 1,204,331 rows from gs://⟦c⟧-lake/events/dt=2025-04-0⟦e⟧/ (md5 ⟦m⟧)\\n"]\n}',
        ],
        rows=rows,
        e=r.randint(1, 9),
        l=_digits(r, 4),
        a=_digits(r, 3),
        rid=_hex(r, 32),
        c=_co(r),
        m=_hex(r, 32),
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: mobile
# ----------------------------------------------------------------------------------------------


def l_gradle_env(r: random.Random) -> str:
    return _one(
        r,
        [
            "def keystorePropertiesFile = rootProject.file(\"keystore.properties\")\ndef keystoreProperties = new Properties()\nkeystoreProperties.load(new FileInputStream(keystorePropertiesFile))\nsigningConfigs {\n    release {\n        storeFile file(keystoreProperties['storeFile'])\n        storePassword keystoreProperties['storePassword']\n        keyAlias keystoreProperties['keyAlias']\n        keyPassword keystoreProperties['keyPassword']\n    }\n}",
            'signingConfigs {\n    create("release") {\n        storeFile = file(System.getenv("ANDROID_KEYSTORE_PATH") ?: "release.jks")\n        storePassword = System.getenv("ANDROID_KEYSTORE_PASSWORD")\n        keyAlias = "⟦a⟧"\n        keyPassword = System.getenv("ANDROID_KEY_PASSWORD")\n    }\n}',
            "storePassword=<STORE_PASSWORD>\nkeyPassword=<KEY_PASSWORD>\nkeyAlias=⟦a⟧\nstoreFile=../keys/upload-keystore.jks",
            "org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8\nandroid.useAndroidX=true\nandroid.nonTransitiveRClass=true\nkotlin.code.style=official\nVERSION_NAME=⟦v⟧\nVERSION_CODE=⟦c⟧",
            'echo "$KEYSTORE_BASE64" | base64 -d > app/upload-keystore.jks\necho "storePassword=$KEYSTORE_PASSWORD" >> keystore.properties',
        ],
        a=r.choice(["upload", "release", "key0"]),
        v=f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}",
        c=r.randint(100, 99999),
    )


def l_keytool_fingerprints(r: random.Random) -> str:
    def colon(n: int) -> str:
        return ":".join(f"{b:02X}" for b in r.randbytes(n))

    return _one(
        r,
        [
            "Alias name: ⟦a⟧\nCreation date: 12 Mar 2024\nEntry type: PrivateKeyEntry\nCertificate fingerprints:\n\t SHA1: ⟦s1⟧\n\t SHA256: ⟦s2⟧\nSignature algorithm name: SHA384withRSA",
            "Variant: release\nConfig: release\nStore: /home/ci/keys/upload-keystore.jks\nAlias: ⟦a⟧\nMD5: ⟦m⟧\nSHA1: ⟦s1⟧\nSHA-256: ⟦s2⟧\nValid until: Friday, 1 August 2053",
            "Add these SHA-1 fingerprints to the Firebase console: debug ⟦s1⟧, release ⟦s1b⟧",
            '[{\n  "relation": ["delegate_permission/common.handle_all_urls"],\n  "target": {"namespace": "android_app", "package_name": "⟦p⟧",\n    "sha256_cert_fingerprints": ["⟦s2⟧"]}\n}]',
        ],
        a=r.choice(["upload", "release"]),
        s1=colon(20),
        s1b=colon(20),
        s2=colon(32),
        m=colon(16),
        p=f"com.{_co(r)}.{r.choice(['app', 'wallet', 'driver'])}",
    )


def l_google_services(r: random.Random) -> str:
    num = _digits(r, 12)
    proj = f"{_co(r)}-{r.choice(['app', 'prod', 'mobile'])}"
    pkg = f"com.{_co(r)}.{r.choice(['app', 'wallet', 'driver', 'kasir'])}"
    return (
        '{\n  "project_info": {\n'
        f'    "project_number": "{num}",\n    "project_id": "{proj}",\n    "storage_bucket": "{proj}.appspot.com"\n  }},\n'
        '  "client": [\n    {\n      "client_info": {\n'
        f'        "mobilesdk_app_id": "1:{num}:android:{_hex(r, 16)}",\n'
        f'        "android_client_info": {{ "package_name": "{pkg}" }}\n      }},\n'
        f'      "oauth_client": [{{ "client_id": "{num}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com", "client_type": 3 }}],\n'
        f'      "api_key": [{{ "current_key": "{_google_key(r)}" }}]\n    }}\n  ],\n  "configuration_version": "1"\n}}'
    )


def l_firebase_web(r: random.Random) -> str:
    proj = f"{_co(r)}-{r.choice(['web', 'prod', 'app'])}"
    num = _digits(r, 12)
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{_google_key(r)}",\n  authDomain: "{proj}.firebaseapp.com",\n  projectId: "{proj}",\n'
        f'  storageBucket: "{proj}.appspot.com",\n  messagingSenderId: "{num}",\n'
        f'  appId: "1:{num}:web:{_hex(r, 22)}",\n  measurementId: "G-{_rs(r, UPNUM, 10)}"\n}};\n'
        "const app = initializeApp(firebaseConfig);"
    )


def l_google_plist(r: random.Random) -> str:
    num = _digits(r, 12)
    cid = f"{num}-{_rs(r, LOWNUM, 32)}"
    proj = f"{_co(r)}-ios"
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
        f"\t<key>CLIENT_ID</key>\n\t<string>{cid}.apps.googleusercontent.com</string>\n"
        f"\t<key>REVERSED_CLIENT_ID</key>\n\t<string>com.googleusercontent.apps.{cid}</string>\n"
        f"\t<key>API_KEY</key>\n\t<string>{_google_key(r)}</string>\n"
        f"\t<key>GCM_SENDER_ID</key>\n\t<string>{num}</string>\n"
        f"\t<key>BUNDLE_ID</key>\n\t<string>com.{_co(r)}.ios</string>\n"
        f"\t<key>PROJECT_ID</key>\n\t<string>{proj}</string>\n"
        f"\t<key>GOOGLE_APP_ID</key>\n\t<string>1:{num}:ios:{_hex(r, 22)}</string>\n</dict>\n</plist>"
    )


def l_xcconfig(r: random.Random) -> str:
    return _one(
        r,
        [
            "API_BASE_URL = https:/$()/api.⟦c⟧.⟦t⟧\nPRODUCT_BUNDLE_IDENTIFIER = com.⟦c⟧.app\nDEVELOPMENT_TEAM = ⟦team⟧\nCODE_SIGN_STYLE = Manual\nPROVISIONING_PROFILE_SPECIFIER = match AppStore com.⟦c⟧.app",
            '// Secrets.xcconfig is generated in CI from the keychain; do not commit\n#include? "Secrets.xcconfig"\nSENTRY_DSN_HOST = o⟦n⟧.ingest.sentry.io',
            "<key>NSAppTransportSecurity</key>\n<dict>\n\t<key>NSAllowsArbitraryLoads</key>\n\t<false/>\n</dict>\n<key>API_TOKEN</key>\n<string>$(API_TOKEN)</string>",
            'let token = Bundle.main.object(forInfoDictionaryKey: "API_TOKEN") as? String',
        ],
        c=_co(r),
        t=r.choice(TLD),
        team=_rs(r, UPNUM, 10),
        n=_digits(r, 6),
    )


def l_fastlane_ids(r: random.Random) -> str:
    kid = _apple_key_id(r)
    return _one(
        r,
        [
            'app_identifier("com.⟦c⟧.app")\napple_id("⟦e⟧")\nteam_id("⟦team⟧")\nitc_team_id("⟦itc⟧")',
            'app_store_connect_api_key(\n  key_id: "⟦k⟧",\n  issuer_id: "⟦i⟧",\n  key_filepath: "./fastlane/AuthKey_⟦k⟧.p8"\n)',
            'api_key = app_store_connect_api_key(\n  key_id: ENV["ASC_KEY_ID"],\n  issuer_id: ENV["ASC_ISSUER_ID"],\n  key_content: ENV["ASC_KEY_P8_BASE64"],\n  is_key_content_base64: true\n)',
            'match(type: "appstore", readonly: is_ci, git_url: "git@github.com:⟦c⟧/certificates.git")  # MATCH_PASSWORD comes from the CI keychain',
            "[✔] Successfully decrypted certificates repo\n[✔] Installed certificate ⟦cert⟧ (Apple Distribution: ⟦C⟧ (⟦team⟧))\n[✔] Installed provisioning profile ⟦u⟧",
        ],
        c=_co(r),
        C=_co(r).capitalize(),
        e=_email(r),
        team=_rs(r, UPNUM, 10),
        itc=_digits(r, 9),
        k=kid,
        i=_uuid(r),
        cert=_rs(r, UPNUM, 10),
        u=_uuid(r).upper(),
    )


def l_ios_device_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Device: iPhone 15 Pro (iOS 17.⟦m⟧)\nUDID: 00008130-00⟦u⟧\nSerial: ⟦s⟧\nWi-Fi: ⟦mac⟧",
            "ProvisionedDevices:\n  - ⟦h⟧\n  - 00008110-00⟦u2⟧",
            "Crash in com.⟦c⟧.app 4.⟦m⟧.1 (build ⟦b⟧) on device ⟦uu⟧, dSYM UUID ⟦uu2⟧",
        ],
        m=r.randint(0, 6),
        u=_rs(r, HEXU, 14),
        u2=_rs(r, HEXU, 14),
        s=_rs(r, UPNUM, 10),
        mac=_mac(r).lower(),
        h=_hex(r, 40),
        c=_co(r),
        b=r.randint(100, 9999),
        uu=_uuid(r).upper(),
        uu2=_uuid(r).upper(),
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: enterprise SSO and directories
# ----------------------------------------------------------------------------------------------


def l_ldap_env(r: random.Random) -> str:
    base, bind = _dn(r)
    return _one(
        r,
        [
            "ldap_uri = ldaps://⟦h⟧\nldap_search_base = ⟦b⟧\nldap_default_bind_dn = ⟦d⟧\nldap_default_authtok_type = obfuscated_password\n# authtok set with sss_obfuscate, see runbook",
            "spring.ldap.urls=ldaps://⟦h⟧:636\nspring.ldap.base=⟦b⟧\nspring.ldap.username=⟦d⟧\nspring.ldap.password=${LDAP_BIND_PASSWORD}",
            "ldapsearch -x -H ldaps://⟦h⟧ -D '⟦d⟧' -y /etc/ldap/bind.pw -b '⟦b⟧' '(memberOf=cn=data-eng,ou=groups,⟦b⟧)'",
            'bind_dn = "⟦d⟧"\nbind_password = "$__file{/etc/secrets/ldap_bind_password}"\nsearch_base_dns = ["⟦b⟧"]',
            "dn: uid=⟦u⟧,ou=people,⟦b⟧\nobjectClass: inetOrgPerson\nuid: ⟦u⟧\nmail: ⟦u⟧@⟦c⟧.com\nuserPassword: {SSHA}⟦ss⟧",
        ],
        h=_host(r, "ldap"),
        b=base,
        d=bind,
        u=r.choice(PEOPLE),
        c=_co(r),
        ss=base64.b64encode(hashlib.sha1(r.randbytes(8)).digest() + r.randbytes(4)).decode(),
    )


def l_saml_metadata(r: random.Random) -> str:
    cert = base64.b64encode(_cert(r, f"idp.{_co(r)}.com", "Identity")).decode()
    c = _co(r)
    return _one(
        r,
        [
            '<md:EntityDescriptor entityID="https://idp.⟦c⟧.com/saml">\n  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">\n    <md:KeyDescriptor use="signing">\n      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>⟦x⟧</ds:X509Certificate></ds:X509Data></ds:KeyInfo>\n    </md:KeyDescriptor>\n  </md:IDPSSODescriptor>\n</md:EntityDescriptor>',
            '"idp": {\n  "entityId": "https://sts.windows.net/⟦t⟧/",\n  "singleSignOnService": {"url": "https://login.microsoftonline.com/⟦t⟧/saml2"},\n  "x509cert": "⟦x⟧"\n}',
            "spring.security.saml2.relyingparty.registration.okta.signing.credentials[0].private-key-location=file:/etc/saml/sp.key\nspring.security.saml2.relyingparty.registration.okta.signing.credentials[0].certificate-location=file:/etc/saml/sp.crt",
        ],
        c=c,
        x=cert,
        t=_uuid(r),
    )


def l_oidc_public(r: random.Random) -> str:
    kc = f"https://sso.{_co(r)}.{r.choice(TLD)}"
    return _one(
        r,
        [
            '{\n  "issuer": "⟦k⟧/realms/corp",\n  "authorization_endpoint": "⟦k⟧/realms/corp/protocol/openid-connect/auth",\n  "token_endpoint": "⟦k⟧/realms/corp/protocol/openid-connect/token",\n  "jwks_uri": "⟦k⟧/realms/corp/protocol/openid-connect/certs",\n  "code_challenge_methods_supported": ["plain", "S256"]\n}',
            "OIDC_ISSUER=⟦k⟧/realms/corp\nOIDC_CLIENT_ID=superset\nOIDC_CLIENT_SECRET=${OIDC_CLIENT_SECRET}",
            'provider = "keycloak-oidc"\nclient_id = "grafana"\nclient_secret_file = "/etc/oauth2-proxy/client-secret"\ncookie_secret_file = "/etc/oauth2-proxy/cookie-secret"',
            '# public client (PKCE), no secret\nclient_id: mobile-app\nredirect_uris: ["com.⟦c⟧.app:/oauth2redirect"]\npkce: S256',
        ],
        k=kc,
        c=_co(r),
    )


def l_jwks(r: random.Random) -> str:
    n = base64.urlsafe_b64encode(b"\xc1" + r.randbytes(255)).decode().rstrip("=")
    return (
        '{\n  "keys": [\n    {\n'
        f'      "kid": "{_b64url(r, 32)}",\n      "kty": "RSA",\n      "alg": "RS256",\n      "use": "sig",\n'
        f'      "n": "{n}",\n      "e": "AQAB",\n      "x5t": "{_b64url(r, 20)}"\n    }}\n  ]\n}}'
    )


def l_public_key_pem(r: random.Random) -> str:
    t = r.randrange(3)
    if t == 0:
        return "# snowflake rsa_key.pub\n" + _pem("PUBLIC KEY", _rsa_spki(r))
    if t == 1:
        blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)
        return f"ssh-ed25519 {base64.b64encode(blob).decode()} {r.choice(PEOPLE)}@{_co(r)}-laptop"
    blob = b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x01\x00" + r.randbytes(256)
    return f"ssh-rsa {base64.b64encode(blob).decode()} deploy@{_co(r)}"


def l_csr(r: random.Random) -> str:
    der = _seq(
        _seq(INT0, _name(f"{_co(r)}.com", "Org", "IN"), _rsa_spki(r), _tlv(0xA0, b"")),
        SHA256RSA,
        _tlv(0x03, b"\x00" + r.randbytes(256)),
    )
    return "openssl req -new -key server.key -out server.csr\n" + _pem("CERTIFICATE REQUEST", der)


def l_azure_ad_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Application (client) ID: ⟦a⟧\nDirectory (tenant) ID: ⟦t⟧\nObject ID: ⟦o⟧",
            "Client secrets\nDescription   Expires      Value        Secret ID\nadf-etl-2025  12/31/2025   ⟦h⟧~***   ⟦s⟧",
            "az ad app credential reset --id ⟦a⟧ --years 1 --query password -o tsv | az keyvault secret set --vault-name kv-⟦c⟧ --name adf-sp-secret --file /dev/stdin",
            "AZURE_TENANT_ID=⟦t⟧\nAZURE_CLIENT_ID=⟦a⟧\nAZURE_FEDERATED_TOKEN_FILE=/var/run/secrets/azure/tokens/azure-identity-token",
        ],
        a=_uuid(r),
        t=_uuid(r),
        o=_uuid(r),
        s=_uuid(r),
        h=_rs(r, ALNUM, 3),
        c=_co(r),
    )


def l_kerberos_nokeys(r: random.Random) -> str:
    realm = f"{_co(r).upper()}.LOCAL"
    svc = r.choice(["HTTP", "hive", "hdfs", "kafka"])
    h = _host(r, svc.lower())
    return _one(
        r,
        [
            "$ klist -kt /etc/security/keytabs/⟦s⟧.service.keytab\nKeytab name: FILE:/etc/security/keytabs/⟦s⟧.service.keytab\nKVNO Timestamp           Principal\n---- ------------------- ------------------------------------------------------\n   2 03/11/2025 10:21:44 ⟦S⟧/⟦h⟧@⟦r⟧\n   2 03/11/2025 10:21:44 ⟦S⟧/⟦h⟧@⟦r⟧",
            "[libdefaults]\n  default_realm = ⟦r⟧\n  default_keytab_name = FILE:/etc/krb5.keytab\n  dns_lookup_kdc = false\n[realms]\n  ⟦r⟧ = {\n    kdc = kdc1.⟦l⟧\n    admin_server = kdc1.⟦l⟧\n  }",
            "kinit -kt /etc/security/keytabs/⟦s⟧.service.keytab ⟦S⟧/⟦h⟧@⟦r⟧ && klist",
            "The keytab for ⟦S⟧/⟦h⟧ was regenerated (kvno 3); fetch it from Vault at secret/kerberos/⟦s⟧ — do not attach it to the ticket.",
        ],
        s=svc.lower(),
        S=svc,
        h=h,
        r=realm,
        l=realm.lower(),
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: CRM / ERP / helpdesk
# ----------------------------------------------------------------------------------------------


def l_salesforce_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Org ID: ⟦o⟧ | Account ⟦a⟧ | Opportunity ⟦p⟧ | Case ⟦c⟧",
            "sf org login jwt --client-id ⟦k⟧ --jwt-key-file server.key --username ⟦e⟧ --instance-url https://login.salesforce.com",
            "SELECT Id, Name, OwnerId FROM Account WHERE Id = '⟦a⟧'",
            "salesforce.consumerKey=⟦k⟧\nsalesforce.consumerSecret=${secure::salesforce.consumerSecret}",
        ],
        o=_sf_org15(r),
        a="001" + _rs(r, ALNUM, 15),
        p="006" + _rs(r, ALNUM, 15),
        c="500" + _rs(r, ALNUM, 12),
        k=P_SFCK + _rs(r, ALNUM + "._", 76),
        e=_email(r),
    )


def l_sap_env(r: random.Random) -> str:
    return _one(
        r,
        [
            "jco.client.ashost=⟦h⟧\njco.client.sysnr=00\njco.client.client=100\njco.client.user=RFC_SYNC\njco.destination.pool_capacity=5\n# jco.client.passwd is injected from the Cloud Connector destination",
            "hdbuserstore LIST\nDATA FILE       : /usr/sap/⟦s⟧/home/.hdb/⟦h2⟧/SSFS_HDB.DAT\nKEY ETLKEY\n  ENV : ⟦h⟧:30015\n  USER: ETL_USER",
            "IDoc ⟦n⟧ status 51: Application document not posted (message no. ⟦m⟧), partner ⟦p⟧",
        ],
        h=_host(r, "sap"),
        h2=_host(r, "sap").split(".")[0],
        s=_rs(r, UPPER, 3),
        n=_digits(r, 16),
        m=_digits(r, 3),
        p=_digits(r, 10),
    )


def l_helpdesk_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Zendesk ticket #⟦t⟧ (requester ⟦e⟧) merged into #⟦t2⟧; brand_id ⟦b⟧",
            'curl https://⟦c⟧.zendesk.com/api/v2/tickets.json -u "$ZENDESK_EMAIL/token:$ZENDESK_API_TOKEN"',
            "Freshdesk ticket ⟦t⟧, group_id ⟦b⟧, responder_id ⟦r⟧ — see https://⟦c⟧.freshdesk.com/a/tickets/⟦t⟧",
            'window.intercomSettings = {\n  api_base: "https://api-iam.intercom.io",\n  app_id: "⟦a⟧",\n  user_id: "⟦u⟧",\n  user_hash: "⟦h⟧"\n};',
            "ServiceNow INC⟦i⟧ sys_id=⟦s⟧ assigned to group Data Platform (sys_id ⟦s2⟧)",
            "HubSpot portal ⟦p⟧, contact vid ⟦v⟧, deal ⟦d⟧ — pipeline 'B2B Latam'",
        ],
        t=r.randint(10000, 999999),
        t2=r.randint(10000, 999999),
        e=_email(r),
        b=_digits(r, 11),
        c=_co(r),
        r=_digits(r, 11),
        a=_rs(r, LOWNUM, 8),
        u=_uuid(r),
        h=hashlib.sha256(r.randbytes(16)).hexdigest(),
        i=_digits(r, 7),
        s=_hex(r, 32),
        s2=_hex(r, 32),
        p=_digits(r, 8),
        v=_digits(r, 9),
        d=_digits(r, 11),
    )


def l_atlassian_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Assignee accountId: 5⟦a⟧, cloudId ⟦c⟧, issue ⟦k⟧-⟦n⟧",
            "jira = JIRA(server=os.environ['JIRA_URL'], basic_auth=(os.environ['JIRA_EMAIL'], os.environ['JIRA_API_TOKEN']))",
            "Fixed in ⟦k⟧-⟦n⟧ (commit ⟦g⟧); Confluence page id ⟦p⟧ updated",
            "Manage API tokens at https://id.atlassian.com/manage-profile/security/api-tokens — tokens now expire after 1 year.",
        ],
        a=_hex(r, 23),
        c=_uuid(r),
        k=r.choice(["DATA", "MOB", "IOT", "PAY"]),
        n=r.randint(10, 9999),
        g=_hex(r, 40),
        p=_digits(r, 10),
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: payments (public keys and ids)
# ----------------------------------------------------------------------------------------------


def l_razorpay_public(r: random.Random) -> str:
    kid = P_RZP + r.choice(["live_", "test_"]) + _rs(r, ALNUM, 14)
    return _one(
        r,
        [
            'var options = {\n  "key": "⟦k⟧",\n  "amount": "⟦a⟧",\n  "currency": "INR",\n  "name": "⟦c⟧",\n  "order_id": "order_⟦o⟧",\n  "handler": function (response) { verify(response.razorpay_signature); }\n};',
            "payment_id=pay_⟦o⟧ order_id=order_⟦o2⟧ razorpay_signature=⟦s⟧",
            'client = razorpay.Client(auth=(os.environ["RAZORPAY_KEY_ID"], os.environ["RAZORPAY_KEY_SECRET"]))',
            "Webhook: X-Razorpay-Signature: ⟦s⟧ (HMAC-SHA256 of the body, verify with the webhook secret from Vault)",
        ],
        k=kid,
        a=r.randint(100, 99999) * 100,
        c=_co(r).capitalize(),
        o=_rs(r, ALNUM, 14),
        o2=_rs(r, ALNUM, 14),
        s=hashlib.sha256(r.randbytes(16)).hexdigest(),
    )


def l_paystack_flw_public(r: random.Random) -> str:
    return _one(
        r,
        [
            "const handler = PaystackPop.setup({\n  key: '⟦p⟧',\n  email: '⟦e⟧',\n  amount: ⟦a⟧,\n  ref: '⟦ref⟧',\n});",
            'FlutterwaveCheckout({\n  public_key: "⟦f⟧",\n  tx_ref: "⟦ref⟧",\n  amount: ⟦a2⟧,\n  currency: "NGN",\n  customer: { email: "⟦e⟧" }\n});',
            "x-paystack-signature: ⟦h⟧",
            "PAYSTACK_PUBLIC_KEY=⟦p⟧\nPAYSTACK_SECRET_KEY=   # set in Render dashboard",
        ],
        p=P_PK + "live_" + _hex(r, 40),
        e=_email(r),
        a=r.randint(1000, 900000),
        a2=r.randint(100, 90000),
        ref=f"{_co(r)[:4].upper()}-{_digits(r, 10)}",
        f=P_FLW + "PUBK-" + _hex(r, 32) + "-X",
        h=hashlib.sha512(r.randbytes(16)).hexdigest(),
    )


def l_latam_public(r: random.Random) -> str:
    return _one(
        r,
        [
            "const mp = new MercadoPago('⟦p⟧', { locale: 'es-MX' });",
            "Preferencia creada: ⟦u⟧-⟦uu⟧ (collector_id ⟦u⟧), payment_id ⟦pid⟧ status=approved",
            "MP_PUBLIC_KEY=⟦p⟧\nMP_ACCESS_TOKEN=${MP_ACCESS_TOKEN}",
            "Klarna order ⟦uu⟧ captured; merchant_id ⟦m⟧, session_id ⟦uu2⟧",
        ],
        p=P_MP + _uuid(r),
        u=_digits(r, 9),
        uu=_uuid(r),
        uu2=_uuid(r),
        pid=_digits(r, 11),
        m=f"PK{_digits(r, 5)}",
    )


def l_sea_public(r: random.Random) -> str:
    return _one(
        r,
        [
            '<script src="https://app.midtrans.com/snap/snap.js" data-client-key="⟦m⟧"></script>',
            "Xendit.setPublishableKey('⟦x⟧');\nXendit.card.createToken({ amount: ⟦a⟧, card_number: cardNumber, is_multiple_use: false }, handler);",
            "order_id=INV-⟦o⟧ transaction_id=⟦u⟧ signature_key=⟦s⟧ status_code=200",
            "x-callback-token: ${XENDIT_CALLBACK_TOKEN}   // compare with the value stored in Secret Manager",
        ],
        m=P_MID + "client-" + _rs(r, B64URL, 16),
        x=P_XND + "public_production_" + _b64(r, 46),
        a=r.randint(10000, 5000000),
        o=_digits(r, 8),
        u=_uuid(r),
        s=hashlib.sha512(r.randbytes(16)).hexdigest(),
    )


def l_adyen_public(r: random.Random) -> str:
    return _one(
        r,
        [
            "const checkout = await AdyenCheckout({\n  environment: 'live',\n  clientKey: '⟦k⟧',\n  session: { id: '⟦s⟧', sessionData: sessionData }\n});",
            "pspReference=⟦p⟧ merchantReference=⟦m⟧ resultCode=Authorised merchantAccount=⟦ma⟧",
            "ADYEN_MERCHANT_ACCOUNT=⟦ma⟧\nADYEN_CLIENT_KEY=⟦k⟧\nADYEN_API_KEY=   # from AWS Secrets Manager",
        ],
        k=P_LIVE + _rs(r, UPNUM, 32),
        s="CS" + _rs(r, UPNUM, 16),
        p=_rs(r, UPNUM, 16),
        m=f"ORD-{_digits(r, 8)}",
        ma=f"{_co(r).capitalize()}ECOM",
    )


def l_payu_hash(r: random.Random) -> str:
    return _one(
        r,
        [
            '<form action="https://secure.payu.in/_payment" method="post">\n  <input type="hidden" name="key" value="⟦k⟧" />\n  <input type="hidden" name="txnid" value="⟦t⟧" />\n  <input type="hidden" name="amount" value="⟦a⟧" />\n  <input type="hidden" name="hash" value="⟦h⟧" />\n</form>',
            "PayU response: mihpayid=⟦m⟧&status=success&txnid=⟦t⟧&hash=⟦h⟧",
            "hash = sha512(key|txnid|amount|productinfo|firstname|email|||||||||||SALT)  # SALT from PAYU_MERCHANT_SALT",
        ],
        k=_rs(r, ALNUM, 6),
        t=_hex(r, 20),
        a=f"{r.randint(10, 9999)}.00",
        h=hashlib.sha512(r.randbytes(16)).hexdigest(),
        m=_digits(r, 11),
    )


def l_mollie_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "Payment tr_⟦a⟧ for customer cst_⟦b⟧ (profile pfl_⟦c⟧) is paid; mandate mdt_⟦d⟧",
            "$mollie->setApiKey(getenv('MOLLIE_API_KEY'));",
            "Refund re_⟦a⟧ created on order ord_⟦b⟧, settlement stl_⟦c⟧",
        ],
        a=_rs(r, ALNUM, 10),
        b=_rs(r, ALNUM, 10),
        c=_rs(r, ALNUM, 10),
        d=_rs(r, ALNUM, 10),
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: game, media, email/SMS ids
# ----------------------------------------------------------------------------------------------


def l_steam_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "SteamID64 ⟦s⟧ (STEAM_0:⟦b⟧:⟦n⟧) owns app ⟦a⟧; depot ⟦d⟧ manifest ⟦m⟧",
            "https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key=${STEAM_WEB_API_KEY}&steamids=⟦s⟧",
            "steamcmd +login anonymous +app_update ⟦a⟧ validate +quit",
        ],
        s="7656119" + _rs(r, DIGITS, 10),
        b=r.randint(0, 1),
        n=_digits(r, 9),
        a=r.randint(200000, 3200000),
        d=r.randint(200000, 3200000),
        m=_digits(r, 19),
    )


def l_twitch_spotify_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "curl -H \"Authorization: Bearer $TWITCH_APP_TOKEN\" -H 'Client-Id: ⟦t⟧' 'https://api.twitch.tv/helix/streams?user_login=⟦u⟧'",
            "SPOTIPY_CLIENT_ID=⟦s⟧\nSPOTIPY_REDIRECT_URI=http://127.0.0.1:8888/callback\n# client secret lives in the keychain item 'spotify-dev'",
            "Playlist ⟦p⟧ — tracks: spotify:track:⟦a⟧, spotify:track:⟦b⟧",
            "YouTube: video ⟦v⟧, channel UC⟦ch⟧, playlist PL⟦pl⟧",
        ],
        t=_rs(r, LOWNUM, 30),
        u=r.choice(["canal_mx", "streamer_th"]),
        s=_hex(r, 32),
        p=_rs(r, ALNUM, 22),
        a=_rs(r, ALNUM, 22),
        b=_rs(r, ALNUM, 22),
        v=_rs(r, B64URL, 11),
        ch=_rs(r, B64URL, 22),
        pl=_rs(r, B64URL, 32),
    )


def l_epic_unity_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            '[/Script/OnlineSubsystemEOS.EOSSettings]\n+Artifacts=(ArtifactName="⟦n⟧",ClientId="⟦c⟧",ClientSecret="",ProductId="⟦p⟧",SandboxId="⟦s⟧",DeploymentId="⟦d⟧")',
            "Unity project ⟦u⟧ (org ⟦o⟧), Cloud Build target android-release #⟦b⟧ succeeded",
            "EOS ProductUserId ⟦pu⟧ linked to EpicAccountId ⟦ea⟧",
        ],
        n=r.choice(["Live", "Stage"]),
        c=P_EOS + _rs(r, ALNUM, 24),
        p=_hex(r, 32),
        s=_hex(r, 32),
        d=_hex(r, 32),
        u=_uuid(r),
        o=_digits(r, 13),
        b=r.randint(10, 999),
        pu=_hex(r, 32),
        ea=_hex(r, 32),
    )


def l_email_sms_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            '{\n  "To": "⟦e⟧",\n  "SubmittedAt": "2025-04-0⟦d⟧T09:21:11Z",\n  "MessageID": "⟦u⟧",\n  "ErrorCode": 0,\n  "Message": "OK"\n}',
            "X-Postmark-Server-Token: {{ postmark_server_token }}",
            "SparkPost transmission ⟦t⟧ accepted (total_accepted_recipients: ⟦n⟧), template ⟦tpl⟧",
            '{"message-count": "1", "messages": [{"to": "⟦ph⟧", "message-id": "⟦u⟧", "status": "0", "network": "⟦net⟧"}]}',
            "Plivo message_uuid ⟦u⟧ queued; auth id ⟦a⟧ (token in Vault)",
            "MessageBird message ⟦mb⟧ delivered to ⟦ph⟧",
            "VONAGE_API_KEY=⟦vk⟧\nVONAGE_APPLICATION_ID=⟦u⟧\nVONAGE_PRIVATE_KEY_PATH=./private.key",
        ],
        e=_email(r),
        d=r.randint(1, 9),
        u=_uuid(r),
        t=_digits(r, 18),
        n=r.randint(1, 5000),
        tpl=r.choice(["otp-es-mx", "recibo-br"]),
        ph="52" + _digits(r, 10),
        net=_digits(r, 6),
        a="MA" + _rs(r, UPNUM, 18),
        mb=_hex(r, 32),
        vk=_hex(r, 8),
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: generic
# ----------------------------------------------------------------------------------------------


def l_hashes(r: random.Random) -> str:
    data = r.randbytes(24)
    return _one(
        r,
        [
            "$ sha256sum ⟦f⟧\n⟦s⟧  ⟦f⟧",
            "md5: ⟦m⟧\nsha1: ⟦s1⟧\nsize: ⟦n⟧ bytes",
            "commit ⟦s1⟧\nAuthor: ⟦p⟧ <⟦e⟧>\nDate:   Tue Mar 11 10:21:44 2025 +0530\n\n    dbt: add incremental model for ⟦t⟧",
            "Checksum mismatch for ⟦f⟧: expected ⟦s⟧, got ⟦s2⟧",
            "SHA512 (⟦f⟧) = ⟦s5⟧",
        ],
        f=r.choice(["model.onnx", "app-release.aab", "firmware-2.4.1.bin", "events.parquet", "spark-3.5.1-bin.tgz"]),
        s=hashlib.sha256(data).hexdigest(),
        s2=hashlib.sha256(data[1:]).hexdigest(),
        m=hashlib.md5(data).hexdigest(),
        s1=hashlib.sha1(data).hexdigest(),
        s5=hashlib.sha512(data).hexdigest(),
        n=r.randint(10**5, 10**9),
        p=r.choice(PEOPLE),
        e=_email(r),
        t=r.choice(["orders", "devices"]),
    )


def l_trace_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "traceparent: 00-⟦t⟧-⟦s⟧-01",
            "X-Request-Id: ⟦u⟧\nX-B3-TraceId: ⟦t⟧\nX-B3-SpanId: ⟦s⟧",
            "2025-04-0⟦d⟧T10:22:31.118Z ERROR [orders-consumer,⟦t⟧,⟦s⟧] Failed to deserialize record at offset ⟦o⟧",
            '{"level":"warn","trace_id":"⟦t⟧","span_id":"⟦s⟧","request_id":"⟦u⟧","msg":"retrying webhook delivery"}',
            "Correlation ID: ⟦u⟧ — Timestamp: 2025-04-0⟦d⟧ 10:22:31Z",
        ],
        t=_hex(r, 32),
        s=_hex(r, 16),
        u=_uuid(r),
        d=r.randint(1, 9),
        o=r.randint(1000, 10**9),
    )


def l_device_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "IMEI: ⟦i⟧\nICCID: 89⟦c⟧\nMAC: ⟦m⟧\nSerial: ⟦s⟧",
            "device_id,imei,mac,fw\n⟦u⟧,⟦i⟧,⟦m⟧,2.⟦n⟧.1\n⟦u2⟧,⟦i2⟧,⟦m2⟧,2.⟦n⟧.0",
            "Registered gateway SN ⟦s⟧ (EUI-64 ⟦eui⟧) at site ⟦site⟧",
            "adb devices\nList of devices attached\n⟦a⟧\tdevice\nemulator-5554\tdevice",
            "LoRaWAN DevEUI ⟦eui⟧ JoinEUI ⟦eui2⟧ joined via gateway ⟦gw⟧",
        ],
        i=_imei(r),
        i2=_imei(r),
        c=_digits(r, 18),
        m=_mac(r),
        m2=_mac(r, "-"),
        s=_rs(r, UPNUM, 12),
        u=_uuid(r),
        u2=_uuid(r),
        n=r.randint(0, 9),
        eui=_rs(r, HEXU, 16),
        eui2=_rs(r, HEXU, 16),
        gw=_rs(r, HEXU, 16),
        site=r.choice(CO),
        a=_rs(r, UPNUM, 14),
    )


def l_b64_nonsecret(r: random.Random) -> str:
    cfg = {
        "region": r.choice(AWS_REGIONS),
        "batch_size": r.choice([100, 500, 1000]),
        "topic": "iot.telemetry",
        "features": ["dedupe", "geo"],
        "owner": r.choice(PEOPLE),
    }
    b = base64.b64encode(json.dumps(cfg).encode()).decode()
    hdr = (
        base64.urlsafe_b64encode(json.dumps({"alg": "RS256", "typ": "JWT", "kid": _hex(r, 16)}).encode())
        .decode()
        .rstrip("=")
    )
    txt = base64.b64encode(
        r.choice(
            [
                "Olá, mundo! Pipeline concluído.",
                "Привіт, світ",
                "สวัสดีครับ",
                "¡Hola! El reporte diario está listo.",
                "नमस्ते दुनिया",
            ]
        ).encode()
    ).decode()
    return _one(
        r,
        [
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ingest-config\nbinaryData:\n  config.json: ⟦b⟧",
            'The JWT header decodes fine (⟦h⟧ → {"alg":"RS256",...}); the signature part was truncated in the log, so nothing sensitive there.',
            "echo ⟦t⟧ | base64 -d",
            "Content-Transfer-Encoding: base64\n\n⟦t⟧",
            'state = "⟦b⟧"  # OAuth state param, base64 JSON with redirect info',
        ],
        b=b,
        h=hdr,
        t=txt,
    )


def l_env_names(r: random.Random) -> str:
    names = r.sample(ENV_NAMES, r.randint(3, 6))
    style = r.randrange(4)
    if style == 0:
        return "# .env.example\n" + "\n".join(f"{n}=" for n in names)
    if style == 1:
        return "Required environment variables: " + ", ".join(f"`{n}`" for n in names) + "."
    if style == 2:
        return "env:\n" + "\n".join(
            f"  - name: {n}\n    valueFrom:\n      secretKeyRef:\n        name: app-secrets\n        key: {n.lower().replace('_', '-')}"
            for n in names[:3]
        )
    return "| Variable | Description |\n|---|---|\n" + "\n".join(
        f"| `{n}` | set in the CI secret store |" for n in names
    )


def l_vault_refs(r: random.Random) -> str:
    return _one(
        r,
        [
            "Stored the new credential at ⟦v⟧ (rotated by ⟦p⟧).",
            "password: ⟦ph⟧\n# source: ⟦v⟧",
            "valueFrom:\n  secretKeyRef:\n    name: ⟦n⟧\n    key: password",
            "{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/⟦n⟧:password') }}",
            "aws secretsmanager get-secret-value --secret-id prod/⟦n⟧ --query SecretString --output text | jq -r .password",
            "security find-generic-password -s '⟦n⟧' -w",
        ],
        v=_vault_ref(r),
        p=r.choice(PEOPLE),
        ph=_ph(r),
        n=r.choice(["snowflake-etl", "kafka-prod", "razorpay-live", "mqtt-fleet", "ldap-bind"]),
    )


def l_masked(r: random.Random) -> str:
    return _one(
        r,
        [
            "password: ********",
            "RAZORPAY_KEY_SECRET=************************ (set)",
            "API key: ⟦p⟧••••••••••••⟦l⟧",
            "token=[REDACTED] user=⟦u⟧ host=⟦h⟧",
            "Authorization: Bearer ***",
            "Using Databricks token ending in …⟦l⟧ (created 2025-02-01, expires in 88 days)",
            "$ dbt debug\n  password: ****\n  Connection test: [OK connection ok]",
            "SharedAccessKey=<hidden>;HostName=⟦h⟧",
            "FLW_SECRET_KEY=⟦fx⟧",
            "⟦skl⟧•••• ⟦l⟧ — last used 3 hours ago",
        ],
        p=r.choice([P_HS, "sk-", P_DAPI, P_HF, P_AQE]),
        l=_hex(r, 4),
        u=r.choice(DBUSERS),
        h=_host(r),
        fx=P_FLW + "SECK-" + "x" * 32 + "-X",
        skl=P_SK + "live_",
    )


def l_read_secret_code(r: random.Random) -> str:
    return _one(
        r,
        [
            'password = os.environ["⟦e⟧"]',
            'val storePassword = System.getenv("ANDROID_KEYSTORE_PASSWORD") ?: error("missing keystore password")',
            'let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,\n                            kSecAttrService as String: "com.⟦c⟧.api",\n                            kSecReturnData as String: true]\nSecItemCopyMatching(query as CFDictionary, &item)',
            'KeyStore ks = KeyStore.getInstance("AndroidKeyStore");\nks.load(null);\nKeyStore.Entry entry = ks.getEntry("⟦a⟧", null);',
            'secret := os.Getenv("⟦e⟧")\nif secret == "" {\n    log.Fatal("⟦e⟧ not set")\n}',
            "with open('/run/secrets/⟦f⟧') as fh:\n    api_key = fh.read().strip()",
            "const key = process.env.⟦e⟧ ?? throwMissing('⟦e⟧');",
            'val prefs = EncryptedSharedPreferences.create(context, "secure_prefs", masterKey, AES256_SIV, AES256_GCM)\nval token = prefs.getString("refresh_token", null)',
        ],
        e=_env(r),
        c=_co(r),
        a=r.choice(["api_key_alias", "token_key"]),
        f=r.choice(["wandb_key", "mqtt_password", "razorpay_secret"]),
    )


def l_error_messages(r: random.Random) -> str:
    return _one(
        r,
        [
            "ORA-01017: invalid username/password; logon denied",
            "snowflake.connector.errors.DatabaseError: 250001 (08001): Failed to connect to DB: ⟦a⟧.snowflakecomputing.com:443. Incorrect username or password was specified.",
            "org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
            '{"error": {"code": 401, "message": "Invalid API key or token. Check the X-API-Key header.", "status": "UNAUTHENTICATED"}}',
            "wandb: ERROR API key must be 40 characters long, yours was 0",
            'psycopg2.OperationalError: FATAL:  password authentication failed for user "⟦u⟧"',
            "AMQPConnectionError: (403) 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN'",
            "razorpay.errors.BadRequestError: Authentication failed",
            "Error: Invalid credentials (code 31) — the SharedAccessSignature has expired (se=⟦e⟧)",
            'HTTP 401 from https://api.paystack.co/transaction/verify: {"status":false,"message":"Invalid key"}',
            "ldap_bind: Invalid credentials (49)\n\tadditional info: 80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data 52e, v4563",
            "kinit: Preauthentication failed while getting initial credentials",
        ],
        a=_sf_account(r),
        u=r.choice(DBUSERS),
        e=r.randint(1_700_000_000, 1_760_000_000),
    )


def l_fake_fixtures(r: random.Random) -> str:
    return _one(
        r,
        [
            '# tests/conftest.py -- fake values, never valid anywhere\n@pytest.fixture\ndef razorpay_creds():\n    return {"key_id": "⟦rz⟧", "key_secret": "not-a-real-secret"}',
            'FAKE_MQTT_PASSWORD = "test-only-not-real"  # used by the broker mock in tests/iot',
            'DUMMY_TOKEN = "x" * 40  # placeholder for unit tests',
            '@override_settings(SPOTIFY_CLIENT_SECRET="dummy", SPOTIFY_CLIENT_ID="dummy")\ndef test_refresh_token_flow(self): ...',
            'monkeypatch.setenv("WANDB_API_KEY", "fake-key-for-tests")\nmonkeypatch.setenv("WANDB_MODE", "offline")',
            "// Mock data — DO NOT USE: apiKey: 'example-key', secret: 'example-secret'",
            "example.env:\nDB_PASSWORD=example\nAPI_KEY=your-api-key-here",
        ],
        rz=P_RZP + "test_" + "FAKE" * 3 + "00",
    )


def l_format_docs(r: random.Random) -> str:
    return _one(
        r,
        [
            "Razorpay key secrets are 24 characters and must only live on the server; the ⟦rz⟧live_/⟦rz⟧test_ key id is safe to ship in the checkout script.",
            "Paystack secret keys start with ⟦sk⟧live_ or ⟦sk⟧test_; public keys (⟦pk⟧...) are meant for Popup/Inline JS.",
            "Azure IoT device connection strings have three parts: HostName, DeviceId and either SharedAccessKey or x509=true.",
            "Databricks personal access tokens begin with 'dapi'. Prefer OAuth M2M with a service principal for jobs.",
            "A NATS user seed starts with 'SU'; the public key starts with 'U'. Only the public key goes into the server config.",
            "W&B API keys are 40 hex characters — the same shape as a git SHA, so our linter cannot tell them apart without context.",
            "Salesforce session ids start with the 15-char org id followed by '!'; rotate the connected app secret if one leaks.",
            "App Store Connect keys are .p8 files you can download only once; keep the key id and issuer id in the README, the file in the vault.",
        ],
        rz=P_RZP,
        sk=P_SK,
        pk=P_PK,
    )


def l_git_messages(r: random.Random) -> str:
    return _one(
        r,
        [
            "chore(secrets): rotate ⟦w⟧ (new value in ⟦v⟧)",
            "fix: stop logging the MQTT password in device provisioning (#⟦n⟧)",
            'revert "add kaggle.json" — credentials must not be committed; key was revoked',
            "ci: read MATCH_PASSWORD and ASC key from GitHub environment secrets",
            "refactor(airflow): move connections to the Vault secrets backend",
        ],
        w=r.choice(CHAT_WHAT),
        v=_vault_ref(r),
        n=r.randint(100, 9999),
    )


def l_spark_logs(r: random.Random) -> str:
    return _one(
        r,
        [
            "25/04/0⟦d⟧ 10:21:44 INFO YarnClientImpl: Submitted application application_⟦t⟧_⟦n⟧\n25/04/0⟦d⟧ 10:21:45 INFO Client: Application report for application_⟦t⟧_⟦n⟧ (state: ACCEPTED)",
            "Container container_e⟦e⟧_⟦t⟧_⟦n⟧_01_000002 exited with exitCode: 137 (killed by YARN for exceeding memory limits)",
            "INFO SecurityManager: SecurityManager: authentication enabled; ui acls disabled; users with view permissions: ⟦u⟧",
            "spark.app.id=spark-⟦h⟧  spark.sql.shuffle.partitions=400  spark.executor.memory=8g",
        ],
        d=r.randint(1, 9),
        t=_digits(r, 13),
        n=f"{r.randint(1, 9999):04d}",
        e=r.randint(10, 99),
        u=r.choice(DBUSERS),
        h=_hex(r, 32),
    )


def l_cert_chain(r: random.Random) -> str:
    a = _pem("CERTIFICATE", _cert(r, f"*.{_co(r)}.com", "Web"))
    b = _pem("CERTIFICATE", _cert(r, "Intermediate CA R3", "CA"))
    return "# fullchain.pem (public)\n" + a + "\n" + b


def l_json_ids_mixed(r: random.Random) -> str:
    d = {
        "tenant_id": _uuid(r),
        "client_id": _uuid(r),
        "merchant_id": f"M{_digits(r, 9)}",
        "account_id": _digits(r, 12),
        "app_id": f"1:{_digits(r, 12)}:android:{_hex(r, 16)}",
        "workspace_id": _digits(r, 16),
        "request_id": _uuid(r),
    }
    keys = r.sample(sorted(d), r.randint(3, 6))
    return json.dumps({k: d[k] for k in keys}, indent=r.choice([None, 2]))


def l_placeholder_configs(r: random.Random) -> str:
    return _one(
        r,
        [
            "snowflake:\n  password: ⟦a⟧\n  account: ⟦acc⟧",
            "MQTT_PASSWORD=⟦b⟧",
            "sasl.password: '⟦c⟧'",
            "jco.client.passwd=⟦d⟧",
            "HostName=⟦h⟧.azure-devices.net;DeviceId=⟦dev⟧;SharedAccessKey=⟦e⟧",
            '{"key_id": "⟦kid⟧", "key_secret": "⟦f⟧"}',
        ],
        a=_ph(r),
        b=_ph(r, "MQTT_PASSWORD"),
        c=_ph(r, "KAFKA_SASL_PASSWORD"),
        d=_ph(r, "SAP_RFC_PASSWORD"),
        e=_ph(r, "IOT_DEVICE_KEY"),
        f=_ph(r, "RAZORPAY_KEY_SECRET"),
        h=f"{_co(r)}-iot",
        dev=f"gw-{_digits(r, 4)}",
        acc=_sf_account(r),
        kid=P_RZP + "test_" + _rs(r, ALNUM, 14),
    )


def l_jinja_templates(r: random.Random) -> str:
    return _one(
        r,
        [
            "{% set pw = env_var('DBT_ENV_SECRET_PASSWORD') %}\n{{ config(materialized='incremental', unique_key='event_id') }}",
            "password: \"{{ lookup('env', 'LDAP_BIND_PASSWORD') }}\"\nbind_dn: \"{{ ldap_bind_dn }}\"",
            'connection_string: "HostName={{ iothub_host }};DeviceId={{ inventory_hostname }};SharedAccessKey={{ device_keys[inventory_hostname] }}"',
            'url: "amqps://{{ rabbit_user }}:{{ rabbit_password | urlencode }}@{{ rabbit_host }}:5671/prod"',
            "apiKey: {{ .Values.comet.apiKeySecretRef | quote }}",
            'client_secret = {{ with secret "secret/data/oidc/grafana" }}{{ .Data.data.client_secret }}{{ end }}',
        ],
    )


def l_rfc_examples(r: random.Random) -> str:
    return _one(
        r,
        [
            "Basic auth format: https://<user>:<password>@host/path — percent-encode special characters in the password.",
            "Authorization: Basic <base64(key_id:key_secret)>",
            "jdbc:snowflake://<account_identifier>.snowflakecomputing.com/?user=<user>&warehouse=<wh>&authenticator=externalbrowser",
            "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/?retryWrites=true",
            "amqp://user:pass@host:port/vhost — see the RabbitMQ URI spec for the exact grammar.",
        ],
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: prose about credentials in ten languages, RTL and full-width text
# ----------------------------------------------------------------------------------------------

CHAT_NEG = {
    "hi": [
        "कृपया ⟦w⟧ का पासवर्ड नोट्स में न लिखें; यह ⟦v⟧ पर रखा है।",
        "⟦w⟧ की key rotate हो गई है। नई value 1Password में है, यहाँ पेस्ट मत करना।",
        "CI में ⟦e⟧ variable अभी खाली है — किसी admin से सेट करवाइए।",
        "मर्चेंट ID ⟦id⟧ गोपनीय नहीं है, इसे सपोर्ट टीम को भेज सकते हैं।",
    ],
    "ar": [
        "من فضلك لا تكتب كلمة مرور ⟦w⟧ في الملاحظات؛ إنها محفوظة في ⟦v⟧.",
        "تم تدوير مفتاح ⟦w⟧ اليوم، والقيمة الجديدة موجودة في الخزنة فقط.",
        "المتغير ⟦e⟧ غير مضبوط في بيئة CI، لذلك فشل النشر بخطأ 401.",
        "معرّف التاجر ‏⟦id⟧‏ ليس سرياً، يمكن مشاركته مع فريق الدعم.",
    ],
    "vi": [
        "Đừng dán mật khẩu ⟦w⟧ vào ghi chú nhé, nó nằm trong ⟦v⟧.",
        "Key của ⟦w⟧ đã được xoay vòng; giá trị mới chỉ có trong Vault.",
        "Biến môi trường ⟦e⟧ chưa được đặt trên CI nên job bị lỗi 401.",
        "Mã thiết bị ⟦id⟧ là định danh công khai, không phải bí mật.",
    ],
    "id": [
        "Jangan taruh password ⟦w⟧ di catatan ya, sudah ada di ⟦v⟧.",
        "Kunci ⟦w⟧ sudah dirotasi, nilai barunya cuma ada di Vault.",
        "Variabel ⟦e⟧ belum diset di CI, makanya deploy gagal dengan 401.",
        "ID merchant ⟦id⟧ itu bukan rahasia, boleh dibagikan ke tim support.",
    ],
    "he": [
        "בבקשה לא לכתוב את הסיסמה של ⟦w⟧ בפתקים; היא שמורה ב-⟦v⟧.",
        "המפתח של ⟦w⟧ הוחלף היום, הערך החדש נמצא רק בכספת.",
        "המשתנה ⟦e⟧ לא מוגדר ב-CI ולכן הפריסה נכשלה.",
        "מזהה הלקוח ‏⟦id⟧‏ הוא ציבורי, אפשר לשתף אותו.",
    ],
    "el": [
        "Μην γράφετε τον κωδικό του ⟦w⟧ στις σημειώσεις· βρίσκεται στο ⟦v⟧.",
        "Το κλειδί του ⟦w⟧ άλλαξε σήμερα, η νέα τιμή υπάρχει μόνο στο Vault.",
        "Η μεταβλητή ⟦e⟧ δεν έχει οριστεί στο CI, γι' αυτό αποτυγχάνει το deploy.",
        "Το αναγνωριστικό συσκευής ⟦id⟧ δεν είναι μυστικό.",
    ],
    "uk": [
        "Будь ласка, не пишіть пароль ⟦w⟧ у нотатках; він зберігається у ⟦v⟧.",
        "Ключ ⟦w⟧ сьогодні ротували, нове значення є лише у Vault.",
        "Змінна ⟦e⟧ не задана в CI, тому деплой падає з 401.",
        "Ідентифікатор пристрою ⟦id⟧ не є секретом, його можна передати підтримці.",
    ],
    "th": [
        "อย่าใส่รหัสผ่านของ ⟦w⟧ ในโน้ตนะครับ เก็บไว้ที่ ⟦v⟧ แล้ว",
        "คีย์ของ ⟦w⟧ ถูกหมุนเวียนแล้ว ค่าใหม่อยู่ใน Vault เท่านั้น",
        "ตัวแปร ⟦e⟧ ยังไม่ได้ตั้งค่าใน CI เลยทำให้ deploy ล้มเหลว",
        "รหัสอุปกรณ์⟦id⟧ไม่ใช่ความลับ แชร์ให้ทีมซัพพอร์ตได้",
    ],
    "pt": [
        "Não cola a senha do ⟦w⟧ nas notas, ela fica em ⟦v⟧.",
        "A chave do ⟦w⟧ foi rotacionada hoje; o valor novo está só no cofre.",
        "A variável ⟦e⟧ não está configurada no CI, por isso o deploy deu 401.",
        "O ID do merchant ⟦id⟧ não é segredo, pode mandar pro suporte.",
    ],
    "es": [
        "No pegues la contraseña de ⟦w⟧ en las notas, está en ⟦v⟧.",
        "Ya rotamos la llave de ⟦w⟧; el valor nuevo solo está en la bóveda.",
        "La variable ⟦e⟧ no está definida en el CI, por eso falla el deploy con 401.",
        "El ID de comercio ⟦id⟧ no es secreto, se lo puedes pasar a soporte.",
    ],
}


NEG_WHAT = [
    "Snowflake",
    "Razorpay",
    "Kafka",
    "MQTT broker",
    "Salesforce",
    "SAP",
    "Zendesk",
    "W&B",
    "Databricks",
    "Midtrans",
    "Xendit",
    "Mercado Pago",
    "Paystack",
    "Jira",
    "Okta",
    "Keycloak",
    "IoT Hub",
    "Firebase Admin",
    "App Store Connect",
    "ClickHouse",
    "Redshift",
    "Twilio",
    "Plivo",
    "Postmark",
    "Steam",
    "Spotify",
    "HubSpot",
    "ServiceNow",
]


def _pubid(r: random.Random) -> str:
    return r.choice(
        [
            _uuid(r),
            _imei(r),
            f"M{_digits(r, 9)}",
            _mac(r),
            _rs(r, UPNUM, 12),
            f"{_digits(r, 12)}",
            "7656119" + _rs(r, DIGITS, 10),
        ]
    )


def _neg_chat(r: random.Random, lang: str) -> str:
    what = r.choice(CHAT_WHAT + NEG_WHAT)
    body = _t(r.choice(CHAT_NEG[lang]), w=what, v=_vault_ref(r), e=_env(r), id=_pubid(r))
    return r.choice(CHAT_PREFIX).replace("{n}", r.choice(PEOPLE)) + body


def l_prose_hi(r: random.Random) -> str:
    return _neg_chat(r, "hi")


def l_prose_ar(r: random.Random) -> str:
    return _neg_chat(r, "ar")


def l_prose_vi(r: random.Random) -> str:
    return _neg_chat(r, "vi")


def l_prose_id(r: random.Random) -> str:
    return _neg_chat(r, "id")


def l_prose_he(r: random.Random) -> str:
    return _neg_chat(r, "he")


def l_prose_el(r: random.Random) -> str:
    return _neg_chat(r, "el")


def l_prose_uk(r: random.Random) -> str:
    return _neg_chat(r, "uk")


def l_prose_th(r: random.Random) -> str:
    return _neg_chat(r, "th")


def l_prose_pt(r: random.Random) -> str:
    return _neg_chat(r, "pt")


def l_prose_es(r: random.Random) -> str:
    return _neg_chat(r, "es")


def l_rtl_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "رقم الطلب ‏⟦o⟧‏ ومعرّف الجهاز ⟦u⟧ — التتبع: ⟦t⟧",
            "הזמנה ⟦o⟧ נכשלה; trace_id=⟦t⟧, device ‎⟦m⟧‎",
            "تم تسجيل البوابة ⟦m⟧ في IoT Hub باسم gw-⟦n⟧ (x509=true، بدون مفتاح مشترك)",
            "לקוח Salesforce: ‎⟦sf⟧‎ — מספר חשבון ⟦a⟧",
        ],
        o=_digits(r, 10),
        u=_uuid(r),
        t=_hex(r, 32),
        m=_mac(r),
        n=_digits(r, 4),
        sf="001" + _rs(r, ALNUM, 15),
        a=_digits(r, 12),
    )


def l_fullwidth_ids(r: random.Random) -> str:
    return _one(
        r,
        [
            "【设备】IMEI：⟦i⟧（固件 2.⟦n⟧.1）",
            "注文番号：⟦o⟧、追跡ID：⟦t⟧",
            "บันทึก：อุปกรณ์ ⟦m⟧（site ⟦s⟧）ออนไลน์แล้ว",
            "Ghi chú：run_id＝⟦h⟧，dataset＝v⟦n⟧.⟦n2⟧",
            "Nota：merchant_id＝M⟦d⟧（público）",
        ],
        i=_imei(r),
        n=r.randint(0, 9),
        n2=r.randint(0, 20),
        o=_digits(r, 12),
        t=_uuid(r),
        m=_mac(r),
        s=_co(r),
        h=_hex(r, 32),
        d=_digits(r, 9),
    )


def l_keycloak_realm_public(r: random.Random) -> str:
    pub = base64.b64encode(_rsa_spki(r)).decode()
    cert = base64.b64encode(_cert(r, r.choice(["corp", "staff", "partners"]))).decode()
    return (
        f'{{\n  "realm": "{r.choice(["corp", "staff", "partners"])}",\n  "public_key": "{pub}",\n'
        f'  "token-service": "https://sso.{_co(r)}.com/realms/corp/protocol/openid-connect",\n'
        f'  "certificate": "{cert}",\n  "tokens-not-before": 0\n}}'
    )


def l_grafana_secure_json(r: random.Random) -> str:
    return _one(
        r,
        [
            "datasources:\n  - name: ClickHouse\n    type: grafana-clickhouse-datasource\n    jsonData:\n      host: ⟦h⟧\n      username: grafana_ro\n    secureJsonData:\n      password: $CLICKHOUSE_GRAFANA_PASSWORD",
            "datasources:\n  - name: Trino\n    type: trino-datasource\n    url: https://⟦h⟧\n    jsonData:\n      oauthPassThru: true",
            '{"secureJsonFields": {"password": true, "basicAuthPassword": false}, "jsonData": {"sslmode": "require"}}',
        ],
        h=_host(r),
    )


def l_sealed_secret(r: random.Random) -> str:
    enc = base64.b64encode(b"\x02\x00" + r.randbytes(r.randint(300, 420))).decode()
    return (
        f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {r.choice(['kafka-creds', 'mqtt-broker', 'sap-rfc'])}\n"
        f"  namespace: {r.choice(['data', 'iot', 'erp'])}\nspec:\n  encryptedData:\n    password: {enc}"
    )


def l_sops(r: random.Random) -> str:
    def enc() -> str:
        return f"ENC[AES256_GCM,data:{_b64(r, r.randint(12, 40))},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"

    return (
        f"snowflake:\n    user: ETL_SVC\n    password: {enc()}\nsops:\n    kms:\n        - arn: arn:aws:kms:{r.choice(AWS_REGIONS)}:{_digits(r, 12)}:key/{_uuid(r)}\n"
        f'    lastmodified: "2025-03-1{r.randint(0, 9)}T10:11:12Z"\n    mac: {enc()}\n    version: 3.8.1'
    )


def l_ansible_vault(r: random.Random) -> str:
    blob = _hex(r, r.randint(200, 400))
    lines = [blob[i : i + 80] for i in range(0, len(blob), 80)]
    return "ldap_bind_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(
        "          " + x for x in lines
    )


def l_openapi_security(r: random.Random) -> str:
    return _one(
        r,
        [
            "components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key\n    BearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT",
            "security:\n  - OAuth2: [read:orders]\ncomponents:\n  securitySchemes:\n    OAuth2:\n      type: oauth2\n      flows:\n        clientCredentials:\n          tokenUrl: https://auth.⟦c⟧.com/oauth/token",
        ],
        c=_co(r),
    )


def l_ipynb_meta(r: random.Random) -> str:
    return (
        '{\n "metadata": {\n  "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},\n'
        f'  "widgets": {{"application/vnd.jupyter.widget-state+json": {{"{_hex(r, 32)}": {{"model_name": "HBoxModel"}}}}}},\n'
        f'  "colab": {{"provenance": [], "gpuType": "T4"}}\n }},\n "nbformat": 4,\n "nbformat_minor": 0,\n'
        f' "cells": [{{"id": "{_b64url(r, 9)}", "cell_type": "markdown", "source": ["## Load data from `{{{{ var.value.bucket }}}}`"]}}]\n}}'
    )


LOOKALIKES = [
    l_airflow_templated,
    l_airflow_uri_placeholder,
    l_airflow_secrets_backend,
    l_airflow_conn_nopass,
    l_dbt_env_var,
    l_spark_provider,
    l_hive_site,
    l_snowflake_sso,
    l_gcp_sa_nokey,
    l_redshift_iam,
    l_clickhouse_hash,
    l_databricks_ids,
    l_trino_env,
    l_kafka_config_provider,
    l_kafka_ids,
    l_rabbit_defs,
    l_nats_public,
    l_mosquitto_hash,
    l_mqtt_topics,
    l_aws_iot_ids,
    l_device_cert,
    l_azure_iot_x509,
    l_mlflow_ids,
    l_wandb_meta,
    l_comet_neptune_ids,
    l_hf_revisions,
    l_artifact_digests,
    l_notebook_getpass,
    l_notebook_output,
    l_gradle_env,
    l_keytool_fingerprints,
    l_google_services,
    l_firebase_web,
    l_google_plist,
    l_xcconfig,
    l_fastlane_ids,
    l_ios_device_ids,
    l_ldap_env,
    l_saml_metadata,
    l_oidc_public,
    l_jwks,
    l_public_key_pem,
    l_csr,
    l_azure_ad_ids,
    l_kerberos_nokeys,
    l_salesforce_ids,
    l_sap_env,
    l_helpdesk_ids,
    l_atlassian_ids,
    l_razorpay_public,
    l_paystack_flw_public,
    l_latam_public,
    l_sea_public,
    l_adyen_public,
    l_payu_hash,
    l_mollie_ids,
    l_steam_ids,
    l_twitch_spotify_ids,
    l_epic_unity_ids,
    l_email_sms_ids,
    l_hashes,
    l_trace_ids,
    l_device_ids,
    l_b64_nonsecret,
    l_env_names,
    l_vault_refs,
    l_masked,
    l_read_secret_code,
    l_error_messages,
    l_fake_fixtures,
    l_format_docs,
    l_git_messages,
    l_spark_logs,
    l_cert_chain,
    l_json_ids_mixed,
    l_placeholder_configs,
    l_jinja_templates,
    l_rfc_examples,
    l_prose_hi,
    l_prose_ar,
    l_prose_vi,
    l_prose_id,
    l_prose_he,
    l_prose_el,
    l_prose_uk,
    l_prose_th,
    l_prose_pt,
    l_prose_es,
    l_rtl_ids,
    l_fullwidth_ids,
    l_keycloak_realm_public,
    l_grafana_secure_json,
    l_sealed_secret,
    l_sops,
    l_ansible_vault,
    l_openapi_security,
    l_ipynb_meta,
]

PER_KIND = 32
PER_LOOKALIKE = 14
CHAT_RATE = 0.15


# ----------------------------------------------------------------------------------------------
# entry point
# ----------------------------------------------------------------------------------------------


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, label, fn in POSITIVES:
        got = tries = 0
        while got < PER_KIND and tries < PER_KIND * 10:
            tries += 1
            text, secret = fn(r)
            if label and r.random() < CHAT_RATE:
                text = _chat(r, label, secret)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes: list[str] = []
    for fn in LOOKALIKES:
        got = tries = 0
        while got < PER_LOOKALIKE and tries < PER_LOOKALIKE * 8:
            tries += 1
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes


if __name__ == "__main__":
    from collections import Counter

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    pos, neg = generate(seed)
    counts = Counter(k for _, k, _ in pos)
    for kind, n in sorted(counts.items()):
        print(f"{kind:32s} {n}")
    print(f"\n{len(counts)} kinds, {len(pos)} positives, {len(neg)} look-alikes from {len(LOOKALIKES)} generators\n")
    rs = random.Random(seed)
    for text, kind, secret in rs.sample(pos, 4):
        print(f"--- positive [{kind}] secret={secret[:60]!r}\n{text[:400]}\n")
    for text in rs.sample(neg, 4):
        print(f"--- look-alike\n{text[:400]}\n")
