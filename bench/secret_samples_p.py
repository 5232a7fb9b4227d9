"""Secret-detector test set P.

Theme: the memory of a personal assistant agent and of a solo developer's side projects -- life
admin mixed with hobby code.  Accounts and subscriptions, the home network (router admin pages,
Wi-Fi passphrases, NAS, Home Assistant, MQTT smart plugs, Plex, Pi-hole, Tailscale/ZeroTier,
UniFi), self-hosting (Compose files for Nextcloud/Immich/Vaultwarden/Gitea/Paperless, Traefik and
Caddy with basic auth and ACME DNS provider tokens, Cloudflare tunnels), personal finance tooling
(Plaid, YNAB, exchange API secrets, wallet seeds and keys), game servers and Discord bots, hobby ML
(Kaggle, Hugging Face, Replicate, OpenRouter, local LLM servers), extension/mobile/static-site
publishing, e-mail app passwords, 2FA seeds and recovery codes, and messages to family and friends
in English, Spanish, French, German, Italian, Japanese and Polish.

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts in the same places and styles that contain no credential.

Labelling choices (a careful security engineer's view):

* Positive: passwords and passphrases of every kind (Wi-Fi PSKs, router/NAS admin, RCON),
  sandbox/test secret keys (Stripe test-mode secret keys, Plaid sandbox secrets and sandbox access tokens are
  still per-account credentials), BIP-39 mnemonics and raw wallet keys, TOTP seeds, single 2FA
  recovery/backup codes, PINs and alarm/keypad codes (they authenticate a person), raw 64-hex WPA
  PSKs (they join the network as well as the passphrase does), UUID-shaped DuckDNS tokens (the
  context, not the shape, makes them secret -- plain UUIDs are look-alikes), htpasswd/bcrypt
  hashes used for basic auth (fast-to-crack apr1 hashes leak the password; they are redacted like
  credentials), and passwords embedded in URLs.
* Look-alike: software product licence keys (they unlock a product, not an account or data; a
  leak costs a seat, not access), gift-card codes that the text says were already redeemed (no
  remaining value), publicly documented sandbox test data (Plaid ``user_good``/``pass_good``,
  Stripe test card numbers), publishable/public values (Stripe ``pk_``, Mapbox ``pk.``, Supabase
  anon key, SSH/WireGuard/age/Nostr public keys, DKIM public keys, Chrome extension manifest
  keys), identifiers (client ids, zone/account ids, UUIDs, serials, MACs, IMEIs, IBANs, order and
  tracking numbers), digests and checksums, masked values, references to where a secret is kept,
  and code that reads secrets from the environment or a file.
* Left out on purpose because the label is arguable: Firebase web ``apiKey`` configs, unredeemed
  gift cards, push-notification device tokens, one-time SMS codes, argon2 PHC hashes of admin
  tokens, capability URLs such as meeting-room links and build hooks, and AWS access key ids.

Everything is built with ``random.Random(seed)``; every vendor prefix, key body, mnemonic and PEM
armour line is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import sys
import time
from collections import Counter
from collections.abc import Callable

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
CRYPT64 = "./" + DIGITS + UPPER + LOWER
BASE32 = UPPER + "234567"
B58 = "".join(c for c in DIGITS + UPPER + LOWER if c not in "0OIl")
BECH32 = "qpzry 9x8gf 2tvdw 0s3jn 54khc e6mua 7l".replace(" ", "")
DJANGO_CHARS = LOWNUM + "!@#%^&*(-_=+)"
EXT_ID = LOWER[:16]
VIN_CHARS = "".join(c for c in UPNUM if c not in "IOQ")
ONION32 = LOWER + "234567"
NIX32 = "".join(c for c in DIGITS + LOWER if c not in "eotu")
PW_SYMS = "!*-_.@^~+%"
URLSAFE = ALNUM + "-_.~"
DASH = "-" * 5
PK = "PRIV" + "ATE KEY"
RSA_PKCS8_HEAD = bytes.fromhex("308204be 020100 300d0609 2a864886 f70d0101 010500 048204a8".replace(" ", ""))
RSA_SPKI_HEAD = bytes.fromhex(
    "30820122 300d0609 2a864886 f70d0101 01050003 82010f00 3082010a 02820101 00".replace(" ", "")
)
PNG_HEAD = bytes.fromhex("89504e47 0d0a1a0a 0000000d 49484452".replace(" ", ""))

POS_PER_KIND = 32
LOOK_PER_GEN = 12


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def _b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def _date(r: random.Random) -> str:
    return f"{r.randint(2021, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _time(r: random.Random) -> str:
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}"


def _lan_ip(r: random.Random) -> str:
    net = r.choice(["192.168.1", "192.168.0", "192.168.178", "10.0.0", "192.168.86", "10.10.20", "192.168.50"])
    return f"{net}.{r.randint(2, 250)}"


def _pub_ip(r: random.Random) -> str:
    first = r.choice([31, 46, 62, 77, 81, 84, 86, 89, 91, 93, 95, 104, 142, 145, 172, 185, 188, 203, 212, 217])
    return f"{first}.{r.randint(1, 254)}.{r.randint(0, 254)}.{r.randint(1, 254)}"


def _mac(r: random.Random, sep: str = ":") -> str:
    return (
        sep.join(_hex(r, 2) for _ in range(6)).upper() if r.random() < 0.5 else sep.join(_hex(r, 2) for _ in range(6))
    )


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def _jwt(r: random.Random, payload: dict, alg: str = "HS256") -> str:
    head = _b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{_rs(r, B64URL, 43)}"


def _b58(b: bytes) -> str:
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, m = divmod(n, 58)
        out = B58[m] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def _b58check(payload: bytes) -> str:
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return _b58(payload + chk)


def _bech32_polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def _to5(data: bytes) -> list[int]:
    acc = bits = 0
    out: list[int] = []
    for b in data:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append((acc >> bits) & 31)
    if bits:
        out.append((acc << (5 - bits)) & 31)
    return out


def _bech32(hrp: str, words: list[int]) -> str:
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = _bech32_polymod(exp + words + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in words + chk)


def _pem(label: str, body: bytes, width: int = 64) -> str:
    b = _b64(body)
    lines = [b[i : i + width] for i in range(0, len(b), width)]
    return "\n".join([f"{DASH}BEGIN {label}{DASH}", *lines, f"{DASH}END {label}{DASH}"])


def _ssh_pub(r: random.Random) -> str:
    algo = b"ssh-" + b"ed25519"
    blob = len(algo).to_bytes(4, "big") + algo + (32).to_bytes(4, "big") + r.randbytes(32)
    return f"{algo.decode()} {_b64(blob)}"


def _wg_key(r: random.Random) -> str:
    return _b64(r.randbytes(32))


def _iban(r: random.Random) -> str:
    cc, spec = r.choice(
        [("DE", "d18"), ("ES", "d20"), ("FR", "d10a11d2"), ("PL", "d24"), ("GB", "A4d14"), ("IT", "A1d10a12")]
    )
    bban = ""
    i = 0
    while i < len(spec):
        t = spec[i]
        j = i + 1
        while j < len(spec) and spec[j].isdigit():
            j += 1
        n = int(spec[i + 1 : j])
        bban += _rs(r, DIGITS if t == "d" else (UPNUM if t == "a" else UPPER), n)
        i = j
    numeric = "".join(str(int(c, 36)) for c in bban + cc + "00")
    check = 98 - int(numeric) % 97
    raw = f"{cc}{check:02d}{bban}"
    return " ".join(raw[k : k + 4] for k in range(0, len(raw), 4)) if r.random() < 0.6 else raw


# ----------------------------------------------------------------------------------------------
# vocabulary
# ----------------------------------------------------------------------------------------------

WORDS = [
    "abandon",
    "ability",
    "able",
    "about",
    "above",
    "absent",
    "absorb",
    "abstract",
    "absurd",
    "abuse",
    "access",
    "accident",
    "account",
    "accuse",
    "achieve",
    "acid",
    "acoustic",
    "acquire",
    "across",
    "action",
    "actor",
    "actress",
    "actual",
    "adapt",
    "addict",
    "address",
    "adjust",
    "admit",
    "adult",
    "advance",
    "advice",
    "aerobic",
    "affair",
    "afford",
    "afraid",
    "again",
    "agent",
    "agree",
    "ahead",
    "airport",
    "aisle",
    "alarm",
    "album",
    "alcohol",
    "alert",
    "alien",
    "alley",
    "allow",
    "almost",
    "alone",
    "alpha",
    "already",
    "alter",
    "always",
    "amateur",
    "amazing",
    "among",
    "amount",
    "amused",
    "analyst",
    "anchor",
    "ancient",
    "anger",
    "angle",
    "angry",
    "animal",
    "ankle",
    "announce",
    "annual",
    "another",
    "answer",
    "antenna",
    "antique",
    "anxiety",
    "apart",
    "apology",
    "appear",
    "apple",
    "approve",
    "april",
    "arch",
    "arctic",
    "arena",
    "argue",
    "armed",
    "armor",
    "army",
    "around",
    "arrange",
    "arrest",
    "arrive",
    "arrow",
    "artefact",
    "artist",
    "artwork",
    "aspect",
    "assault",
    "asset",
    "assist",
    "assume",
    "asthma",
    "athlete",
    "atom",
    "attack",
    "attend",
    "attitude",
    "attract",
    "auction",
    "audit",
    "august",
    "aunt",
    "author",
    "auto",
    "autumn",
    "average",
    "avocado",
    "avoid",
    "awake",
    "aware",
    "awesome",
    "awful",
    "awkward",
    "axis",
    "baby",
    "bachelor",
    "bacon",
    "badge",
    "balance",
    "balcony",
    "bamboo",
    "banana",
    "banner",
    "barely",
    "bargain",
    "barrel",
    "basic",
    "basket",
    "battle",
    "beach",
    "bean",
    "beauty",
    "because",
    "become",
    "beef",
    "before",
    "begin",
    "behave",
    "behind",
    "believe",
    "below",
    "bench",
    "benefit",
    "betray",
    "better",
    "between",
    "beyond",
    "bicycle",
    "bike",
    "biology",
    "bird",
    "birth",
    "bitter",
    "black",
    "blade",
    "blame",
    "blanket",
    "blast",
    "bleak",
    "bless",
    "blind",
    "blood",
    "blossom",
    "blouse",
    "blue",
    "blur",
    "blush",
    "board",
    "boat",
    "body",
    "boil",
    "bomb",
    "bone",
    "bonus",
    "book",
    "boost",
    "border",
    "boring",
    "borrow",
    "boss",
    "bottom",
    "bounce",
    "brain",
    "brand",
    "brass",
    "brave",
    "bread",
    "breeze",
    "brick",
    "bridge",
    "brief",
    "bright",
    "bring",
    "brisk",
    "broccoli",
    "broken",
    "bronze",
    "broom",
    "brother",
    "brown",
    "brush",
    "bubble",
    "buddy",
    "budget",
    "buffalo",
    "build",
    "bulb",
    "bulk",
    "bullet",
    "bundle",
    "bunker",
    "burden",
    "burger",
    "burst",
    "business",
    "busy",
    "butter",
    "buyer",
    "buzz",
    "cabbage",
    "cabin",
    "cable",
    "cactus",
    "cage",
    "cake",
    "call",
    "calm",
    "camera",
    "camp",
    "canal",
    "cancel",
    "candy",
    "cannon",
    "canoe",
    "canvas",
    "canyon",
    "capable",
    "capital",
    "captain",
    "carbon",
    "card",
    "cargo",
    "carpet",
    "carry",
    "cart",
    "case",
    "cash",
    "casino",
    "castle",
    "casual",
    "catalog",
    "catch",
    "category",
    "cattle",
    "caught",
    "cause",
    "caution",
    "cave",
    "ceiling",
    "celery",
    "cement",
    "census",
    "century",
    "cereal",
    "certain",
    "chair",
    "chalk",
    "champion",
    "change",
    "chaos",
    "chapter",
    "charge",
    "chase",
    "cheap",
    "check",
    "cheese",
    "chef",
    "cherry",
    "chest",
    "chicken",
    "chief",
    "child",
    "chimney",
    "choice",
    "choose",
    "chronic",
    "chuckle",
    "chunk",
    "cinnamon",
    "circle",
    "citizen",
    "city",
    "civil",
    "claim",
    "clarify",
    "claw",
    "clay",
    "clean",
    "clerk",
    "clever",
    "click",
    "client",
    "cliff",
    "climb",
    "clinic",
    "clock",
    "close",
    "cloth",
    "cloud",
    "clown",
    "club",
    "clump",
    "cluster",
    "clutch",
    "coach",
    "coast",
    "coconut",
    "code",
    "coffee",
    "coin",
    "collect",
    "color",
    "column",
    "combine",
    "comfort",
    "comic",
    "common",
    "company",
    "concert",
    "conduct",
    "confirm",
    "congress",
    "connect",
    "consider",
    "control",
    "convince",
    "cook",
    "cool",
    "copper",
    "copy",
    "coral",
    "core",
    "corn",
    "correct",
    "cost",
    "cotton",
    "couch",
    "country",
    "couple",
    "course",
    "cousin",
    "cover",
    "coyote",
    "crack",
    "cradle",
    "craft",
    "crane",
    "crash",
    "crater",
    "crawl",
    "crazy",
    "cream",
    "credit",
    "creek",
    "crew",
    "cricket",
    "crime",
    "crisp",
    "critic",
    "crop",
    "cross",
    "crouch",
    "crowd",
    "crucial",
    "cruel",
    "cruise",
    "crumble",
    "crunch",
    "crush",
    "crystal",
    "cube",
    "culture",
    "cupboard",
    "curious",
    "current",
    "curtain",
    "curve",
    "cushion",
    "custom",
    "cute",
    "cycle",
    "damage",
    "damp",
    "dance",
    "danger",
    "daring",
    "dash",
    "daughter",
    "dawn",
    "deal",
    "debate",
    "debris",
    "decade",
    "december",
    "decide",
    "decline",
    "decorate",
    "decrease",
    "deer",
    "defense",
    "define",
    "defy",
    "degree",
    "delay",
    "deliver",
    "demand",
    "denial",
    "dentist",
    "deny",
    "depart",
    "depend",
    "deposit",
    "depth",
    "deputy",
    "derive",
    "describe",
    "desert",
    "design",
    "desk",
    "despair",
    "destroy",
    "detail",
    "detect",
    "develop",
    "device",
    "devote",
    "diagram",
    "dial",
    "diamond",
    "diary",
    "dice",
    "diesel",
    "diet",
    "differ",
    "digital",
    "dignity",
    "dilemma",
    "dinner",
    "dinosaur",
    "direct",
    "dirt",
    "discover",
    "disease",
    "dish",
    "dismiss",
    "disorder",
    "display",
    "distance",
    "divert",
    "divide",
    "dizzy",
    "doctor",
    "document",
    "dolphin",
    "domain",
    "donate",
    "donkey",
    "donor",
    "door",
    "dose",
    "double",
    "dove",
    "draft",
    "dragon",
    "drama",
    "drastic",
    "dream",
    "dress",
    "drift",
    "drill",
    "drink",
    "drip",
    "drive",
    "drum",
    "duck",
    "dumb",
    "dune",
    "during",
    "dust",
    "dutch",
    "duty",
    "dwarf",
    "dynamic",
    "eager",
    "eagle",
    "early",
    "earn",
    "earth",
    "easily",
    "east",
    "echo",
    "ecology",
    "economy",
    "edge",
    "edit",
    "educate",
    "effort",
    "eight",
    "either",
    "elbow",
    "elder",
    "electric",
    "elegant",
    "element",
    "elephant",
    "elevator",
    "elite",
    "embark",
    "embody",
    "embrace",
    "emerge",
    "emotion",
    "employ",
    "empower",
    "empty",
    "enable",
    "enact",
    "endless",
    "endorse",
    "enemy",
    "energy",
    "enforce",
    "engage",
    "engine",
    "enhance",
    "enjoy",
    "enlist",
    "enough",
    "enrich",
    "enroll",
    "ensure",
    "enter",
    "entire",
    "entry",
    "envelope",
    "episode",
    "equal",
    "equip",
    "erase",
    "erode",
    "erosion",
    "error",
    "erupt",
    "escape",
    "essay",
    "essence",
    "estate",
    "eternal",
    "ethics",
    "evidence",
    "evil",
    "evoke",
    "evolve",
    "exact",
    "example",
    "excess",
    "exchange",
    "excite",
    "exclude",
    "excuse",
    "execute",
    "exercise",
    "exhaust",
    "exhibit",
    "exile",
    "exist",
    "exotic",
    "expand",
    "expect",
    "expire",
    "explain",
    "expose",
    "express",
    "extend",
    "extra",
    "eyebrow",
    "fabric",
    "faculty",
    "fade",
    "faint",
    "faith",
    "false",
    "fame",
    "family",
    "famous",
    "fancy",
    "fantasy",
    "farm",
    "fashion",
    "fatal",
    "father",
    "fatigue",
    "fault",
    "favorite",
    "feature",
    "february",
    "federal",
    "feed",
    "feel",
    "female",
    "fence",
    "festival",
    "fetch",
    "fever",
    "fiber",
    "fiction",
    "field",
    "figure",
    "file",
    "film",
    "filter",
    "final",
    "finger",
    "finish",
    "fire",
    "firm",
    "first",
    "fiscal",
    "fitness",
    "flag",
    "flame",
    "flash",
    "flat",
    "flavor",
    "flee",
    "flight",
    "flip",
    "float",
    "flock",
    "floor",
    "flower",
    "fluid",
    "flush",
    "foam",
    "focus",
    "foil",
    "fold",
    "follow",
    "food",
    "force",
    "forest",
    "forget",
    "fork",
    "fortune",
    "forum",
    "forward",
    "fossil",
    "foster",
    "found",
    "fragile",
    "frame",
    "frequent",
    "fresh",
    "friend",
    "fringe",
    "frog",
    "front",
    "frost",
    "frown",
    "frozen",
    "fruit",
    "fuel",
    "funny",
    "furnace",
    "fury",
    "future",
    "gadget",
    "galaxy",
    "gallery",
    "game",
    "garage",
    "garbage",
    "garden",
    "garlic",
    "garment",
    "gasp",
    "gate",
    "gather",
    "gauge",
    "gaze",
    "general",
    "genius",
    "genre",
    "gentle",
    "genuine",
    "gesture",
    "ghost",
    "giant",
    "gift",
    "giggle",
    "ginger",
    "giraffe",
    "glad",
    "glance",
    "glare",
    "glass",
    "glide",
    "glimpse",
    "globe",
    "gloom",
    "glory",
    "glove",
    "glow",
    "glue",
    "goat",
    "goddess",
    "gold",
    "goose",
    "gorilla",
    "gospel",
    "gossip",
    "govern",
    "grab",
    "grace",
    "grain",
    "grant",
    "grape",
    "grass",
    "gravity",
    "great",
    "green",
    "grid",
    "grief",
    "grit",
    "grocery",
    "group",
    "grow",
    "grunt",
    "guard",
    "guess",
    "guide",
    "guilt",
    "guitar",
    "habit",
    "hair",
    "half",
    "hammer",
    "hamster",
    "happy",
    "harbor",
    "hard",
    "harsh",
    "harvest",
    "hawk",
    "hazard",
    "head",
    "health",
    "heart",
    "heavy",
    "hedgehog",
    "height",
    "hello",
    "helmet",
    "hero",
    "hidden",
    "high",
    "hill",
    "hint",
    "hire",
    "history",
    "hobby",
    "hockey",
    "hold",
    "hole",
    "holiday",
    "hollow",
    "home",
    "honey",
    "hood",
    "hope",
    "horn",
    "horror",
    "horse",
    "hospital",
    "host",
    "hotel",
    "hour",
    "hover",
    "huge",
    "human",
    "humble",
    "humor",
    "hundred",
    "hungry",
    "hunt",
    "hurdle",
    "hurry",
    "hurt",
    "husband",
    "hybrid",
    "icon",
    "idea",
    "identify",
    "idle",
    "ignore",
    "illegal",
    "illness",
    "image",
    "imitate",
    "immense",
    "immune",
    "impact",
    "impose",
    "improve",
    "impulse",
    "inch",
    "include",
    "income",
    "increase",
    "index",
    "indicate",
    "indoor",
    "industry",
    "infant",
    "inflict",
    "inform",
    "inhale",
    "inherit",
    "initial",
    "inject",
    "injury",
    "inmate",
    "inner",
    "innocent",
    "input",
    "inquiry",
    "insane",
    "insect",
    "inside",
    "inspire",
    "install",
    "intact",
    "interest",
    "invest",
    "invite",
    "involve",
    "iron",
    "island",
    "isolate",
    "issue",
    "item",
    "ivory",
    "jacket",
    "jaguar",
    "jazz",
    "jealous",
    "jeans",
    "jelly",
    "jewel",
    "join",
    "joke",
    "journey",
    "judge",
    "juice",
    "jungle",
    "junior",
    "junk",
    "kangaroo",
    "keen",
    "ketchup",
    "kidney",
    "kingdom",
    "kitchen",
    "kite",
    "kitten",
    "kiwi",
    "knee",
    "knife",
    "knock",
    "label",
    "labor",
    "ladder",
    "lady",
    "lake",
    "lamp",
    "language",
    "laptop",
    "large",
    "later",
    "latin",
    "laugh",
    "laundry",
    "lava",
    "lawn",
    "lawsuit",
    "layer",
    "lazy",
    "leader",
    "leaf",
    "learn",
    "leave",
    "lecture",
    "legal",
    "legend",
    "leisure",
    "lemon",
    "lend",
    "length",
    "lens",
    "leopard",
    "lesson",
    "letter",
    "level",
    "liberty",
    "library",
    "license",
    "lift",
    "light",
    "limb",
    "limit",
    "link",
    "lion",
    "liquid",
    "little",
    "lizard",
    "load",
    "loan",
    "lobster",
    "local",
    "lock",
    "logic",
    "lonely",
    "loop",
    "lottery",
    "loud",
    "lounge",
    "loyal",
    "lucky",
    "luggage",
    "lumber",
    "lunar",
    "lunch",
    "luxury",
    "lyrics",
    "machine",
    "magic",
    "magnet",
    "maid",
    "mail",
    "main",
    "major",
    "mammal",
    "manage",
    "mandate",
    "mango",
    "mansion",
    "manual",
    "maple",
    "marble",
    "march",
    "margin",
    "marine",
    "market",
    "marriage",
    "mask",
    "master",
    "match",
    "material",
    "matrix",
    "matter",
    "maximum",
    "meadow",
    "measure",
    "meat",
    "mechanic",
    "medal",
    "media",
    "melody",
    "member",
    "memory",
    "mention",
    "menu",
    "mercy",
    "merge",
    "merit",
    "merry",
]

TITLE_WORDS = [w.capitalize() for w in WORDS[::7]]

HUMAN_BASES = [
    "Sunflower", "Bluebird", "Lighthouse", "Marmalade", "Pumpkin", "Snowboard", "Tortuga", "Gingersnap",
    "Rocket", "Biscuit", "Koala", "Zeppelin", "Nebula", "Cactus", "Paprika", "Wombat", "Juniper",
    "Falcon", "Mango", "Otter", "Pistachio", "Tarragon", "Bramble", "Quokka", "Velvet", "Harbor",
]  # fmt: skip

PROJECTS = [
    "plant-water-bot", "recipe-box", "budget-sync", "trail-log", "mc-server", "birdcam", "habit-tracker",
    "pixel-weather", "tab-sorter", "photo-frame", "ynab-importer", "grocery-bot", "dnd-dice", "homelab",
    "blog", "tidepool", "sourdough-timer", "bike-ride-stats", "kid-chores", "vinyl-catalog",
]  # fmt: skip

USERS = ["marta", "jkowalski", "sam", "alex.r", "lena", "tomasz", "chloe", "pablo", "yuki", "giulia", "ben", "admin"]
DOMAINS = ["kowalski.dev", "casa-garcia.net", "lenamueller.de", "rossi.family", "yuki-home.jp", "bramblehouse.uk",
           "pablo.codes", "chloe-martin.fr", "tidepool.io", "samlab.xyz"]  # fmt: skip
MAILDOMAINS = ["gmail.com", "outlook.com", "fastmail.com", "icloud.com", "proton.me", "yahoo.com", "gmx.de", "wp.pl"]
STREAMING = ["Netflix", "Disney+", "Spotify", "HBO Max", "Prime Video", "YouTube Premium", "Apple TV+",
             "Crunchyroll", "Paramount+", "Audible", "Deezer", "Canal+", "DAZN", "Tidal"]  # fmt: skip
ACCOUNTS = [*STREAMING, "Amazon", "eBay", "Steam", "Nintendo", "PlayStation", "Xbox", "Duolingo", "Strava",
                        "Costco", "IKEA Family", "Uber", "Airbnb", "Booking.com", "PayPal", "Revolut"]  # fmt: skip
SSIDS = ["Pretty Fly for a WiFi", "FRITZ!Box 7590 XQ", "TP-Link_5G_3F2A", "NETGEAR47", "Casa-Garcia",
         "Livebox-8E1C", "Vodafone-7C21", "HomeNet_IoT", "guest-lounge", "TheLANBeforeTime", "UPC4412871",
         "Orange_Swiatlowod_9A20", "aterm-3f1c2a-g", "Bill Wi the Science Fi", "casa_nonna", "Dachgeschoss"]  # fmt: skip
TZS = [
    "Europe/Warsaw",
    "Europe/Madrid",
    "Europe/Berlin",
    "Europe/Paris",
    "Europe/Rome",
    "Asia/Tokyo",
    "America/Chicago",
]
PEOPLE = ["Mom", "Dad", "Grandma", "Ellie", "Ben", "Aunt Rosa", "Kuba", "Noor", "Theo", "Sis"]
SELFHOST = ["nextcloud", "immich", "vaultwarden", "gitea", "paperless", "jellyfin", "homeassistant", "mealie",
            "audiobookshelf", "freshrss", "uptime-kuma", "linkding"]  # fmt: skip
TOTP_ISSUERS = ["GitHub", "Google", "Proton", "Discord", "Binance", "Kraken", "Cloudflare", "Tailscale", "Synology",
                "Nextcloud", "Bitwarden", "Namecheap", "Hetzner", "Steam", "Dropbox"]  # fmt: skip
PLAYERS = ["CreeperKing99", "mossyboots", "Lena_Builds", "tomek_pl", "xXPabloXx", "yuki_mc", "diamondgran"]


def _user(r: random.Random) -> str:
    return r.choice(USERS)


def _email(r: random.Random) -> str:
    return f"{r.choice(USERS).replace('admin', 'me')}{r.choice(['', '.home', str(r.randint(1, 99))])}@{r.choice(MAILDOMAINS)}"


def _domain(r: random.Random) -> str:
    return r.choice(DOMAINS)


def _sub(r: random.Random, app: str | None = None) -> str:
    return f"{app or r.choice(SELFHOST)}.{_domain(r)}"


def _pw_human(r: random.Random) -> str:
    s = r.choice(HUMAN_BASES)
    k = r.randrange(5)
    if k == 0:
        return f"{s}{r.randint(1960, 2025)}{r.choice('!#*')}"
    if k == 1:
        return f"{s.lower()}{r.choice('_.-')}{r.choice(HUMAN_BASES).lower()}{r.randint(10, 99)}"
    if k == 2:
        return f"{r.choice('!#*')}{s[:4]}{r.randint(100, 9999)}{s[4:].upper()}"
    if k == 3:
        return s.replace("a", "@").replace("o", "0").replace("e", "3") + str(r.randint(1, 999))
    return f"{r.choice(HUMAN_BASES)}{r.choice(HUMAN_BASES)}{r.randint(1, 99)}{r.choice('!?')}"


def _pw_random(r: random.Random, lo: int = 14, hi: int = 24, alphabet: str = ALNUM + PW_SYMS) -> str:
    while True:
        pw = _rs(r, alphabet, r.randint(lo, hi))
        if any(c.isdigit() for c in pw) and any(c.isupper() for c in pw):
            return pw


def _pw_dice(r: random.Random) -> str:
    words = r.sample(WORDS, r.randint(4, 5))
    sep = r.choice("-._")
    if r.random() < 0.4:
        words = [w.capitalize() for w in words]
    pw = sep.join(words)
    return pw + str(r.randint(0, 99)) if r.random() < 0.5 else pw


def _password(r: random.Random) -> str:
    k = r.random()
    if k < 0.4:
        return _pw_human(r)
    if k < 0.75:
        return _pw_random(r)
    return _pw_dice(r)


def _url_pw(r: random.Random) -> str:
    k = r.random()
    if k < 0.35:
        return _pw_random(r, 12, 24, URLSAFE)
    if k < 0.7:
        return _pw_human(r).replace("#", "-").replace("?", "_").replace("!", ".").replace("@", "a")
    return _pw_dice(r)


def _wifi_pass(r: random.Random) -> str:
    k = r.random()
    if k < 0.35:
        return _pw_human(r)
    if k < 0.6:
        return _pw_dice(r)
    if k < 0.85:
        return _pw_random(r, 12, 20, ALNUM)
    return " ".join(r.sample(WORDS, 4))


def _mnemonic(r: random.Random, n: int | None = None) -> str:
    return " ".join(r.choices(WORDS, k=n or r.choice([12, 12, 24, 18])))


def _render(r: random.Random, v: str, envs: list[str], prose: list[str]) -> str:
    """Generic placement of a token: shell export, .env, YAML, JSON, inline env or a note."""
    name = r.choice(envs)
    proj = r.choice(PROJECTS)
    k = r.randrange(8)
    if k == 0:
        return f"export {name}={v}"
    if k == 1:
        extra = r.choice(
            [f"TZ={r.choice(TZS)}", f"LOG_LEVEL={r.choice(['info', 'debug', 'warn'])}", f"PORT={r.randint(3000, 9000)}"]
        )
        return f"# {proj}/.env\n{extra}\n{name}={v}"
    if k == 2:
        return f'{proj}:\n  enabled: true\n  {name.lower()}: "{v}"'
    if k == 3:
        return json.dumps({"project": proj, name.lower(): v, "debug": r.random() < 0.5}, indent=2)
    if k == 4:
        return f"{name}='{v}' python {r.choice(['main.py', 'sync.py', 'bot.py', 'run.py', 'cli.py'])} --{r.choice(['once', 'dry-run', 'verbose'])}"
    return r.choice(prose).format(v=v, proj=proj, date=_date(r), user=_user(r))


# ----------------------------------------------------------------------------------------------
# positives
# ----------------------------------------------------------------------------------------------

PosFn = Callable[[random.Random], tuple[str, str]]
_POS: list[tuple[str, PosFn]] = []


def _pos(kind: str) -> Callable[[PosFn], PosFn]:
    def deco(fn: PosFn) -> PosFn:
        _POS.append((kind, fn))
        return fn

    return deco


# --- home network and devices ------------------------------------------------------------------


@_pos("home_assistant_token")
def _p_ha(r: random.Random) -> tuple[str, str]:
    iat = r.randint(1_650_000_000, 1_735_000_000)
    v = _jwt(r, {"iss": _hex(r, 32), "iat": iat, "exp": iat + 315_360_000})
    host = r.choice(["homeassistant.local:8123", f"{_lan_ip(r)}:8123", _sub(r, "ha")])
    opts = [
        f'curl -s -H "Authorization: Bearer {v}" -H "Content-Type: application/json" http://{host}/api/states/sensor.living_room_temperature',
        f"# secrets.yaml\nlatitude_home: 52.23\nha_api_token: {v}",
        f"Created a long-lived access token called '{r.choice(['grafana', 'node-red', 'tablet', 'esp-display'])}' in my HA profile: {v}",
        f'HA_URL = "http://{host}"\nHA_TOKEN = "{v}"\nheaders = {{"Authorization": f"Bearer {{HA_TOKEN}}"}}',
        f"homepage widget:\n  - Home Assistant:\n      widget:\n        type: homeassistant\n        url: http://{host}\n        key: {v}",
    ]
    return r.choice(opts), v


@_pos("plex_token")
def _p_plex(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM, 20) if r.random() < 0.6 else _rs(r, ALNUM + "-_", 20)
    ip = _lan_ip(r)
    opts = [
        f"http://{ip}:32400/library/sections/{r.randint(1, 9)}/all?X-Plex-Token={v}",
        f"Plex token for Tautulli (grabbed via 'View XML' on a movie): {v}",
        f"PLEX_URL=http://{ip}:32400\nPLEX_TOKEN={v}",
        f"curl -s 'http://{ip}:32400/status/sessions' -H 'X-Plex-Token: {v}'",
        f"kometa config.yml:\nplex:\n  url: http://{ip}:32400\n  token: {v}\n  timeout: 60",
    ]
    return r.choice(opts), v


@_pos("wifi_passphrase")
def _p_wifi(r: random.Random) -> tuple[str, str]:
    v = _wifi_pass(r)
    ssid = r.choice(SSIDS)
    opts = [
        f'network={{\n    ssid="{ssid}"\n    psk="{v}"\n    key_mgmt=WPA-PSK\n}}',
        f"interface=wlan0\nssid={ssid}\nwpa=2\nwpa_passphrase={v}\nwpa_key_mgmt=WPA-PSK",
        f"Guest Wi-Fi at the {r.choice(['lake house', 'cabin', 'flat', 'studio'])}: network '{ssid}', password {v}",
        f'wifi:\n  ssid: "{ssid}"\n  password: "{v}"\n  ap:\n    ssid: "{r.choice(PROJECTS)} Fallback"',
        f"WIFI:T:WPA;S:{ssid};P:{v};; <- payload for the fridge QR code",
        f'nmcli dev wifi connect "{ssid}" password "{v}" ifname wlan0',
        f"Wi-Fi for visitors this weekend -> {ssid} / {v}",
    ]
    if r.random() < 0.12:
        v = _hex(r, 64)
        return f'network={{\n    ssid="{ssid}"\n    psk={v}\n}}', v
    return r.choice(opts), v


@_pos("router_admin_password")
def _p_router(r: random.Random) -> tuple[str, str]:
    v = _password(r)
    gw = r.choice(["192.168.1.1", "192.168.0.1", "192.168.178.1", "10.0.0.1", "192.168.50.1"])
    model = r.choice(
        ["RT-AX86U", "Archer AX55", "FRITZ!Box 7590", "Nighthawk R7000", "UDM Pro", "GL-MT3000", "OpenWrt One"]
    )
    opts = [
        f"Router admin page http://{gw} ({model}) -> user admin, password {v}",
        f"Changed the {model} admin password from the sticker default to {v} on {_date(r)}",
        f"UniFi OS console local admin: {_user(r)} / {v} (cloud login disabled)",
        f"OpenWrt root password set with passwd: {v}\nssh root@{gw} works again",
        f"{model} web UI login ~ {v}",
    ]
    return r.choice(opts), v


@_pos("mqtt_password")
def _p_mqtt(r: random.Random) -> tuple[str, str]:
    v = _password(r)
    ip = _lan_ip(r)
    u = r.choice(["z2m", "tasmota", "esphome", "homeassistant", "shelly", "frigate", "mqttuser"])
    opts = [
        f"mosquitto_pub -h {ip} -u {u} -P '{v}' -t 'cmnd/plug_{r.randint(1, 9)}/POWER' -m TOGGLE",
        f"Backlog MqttHost {ip}; MqttUser {u}; MqttPassword {v}; Topic plug_{_hex(r, 4)}",
        f"mqtt:\n  base_topic: zigbee2mqtt\n  server: mqtt://{ip}:1883\n  user: {u}\n  password: {v}",
        f'mqtt:\n  broker: {ip}\n  username: {u}\n  password: "{v}"\n  discovery: true',
        f"Smart plugs talk to mosquitto on the Pi; broker user {u}, pass {v}",
    ]
    return r.choice(opts), v


@_pos("tailscale_auth_key")
def _p_tailscale(r: random.Random) -> tuple[str, str]:
    typ = r.choice(["auth", "auth", "api"])
    v = "tsk" + "ey-" + typ + "-k" + _rs(r, ALNUM, 11) + "CN" + "TRL-" + _rs(r, ALNUM, 33)
    if typ == "api":
        return r.choice(
            [f"TS_API_KEY={v}\nTAILNET={_user(r)}.github", f"tailscale API access token for the ACL sync script: {v}"]
        ), v
    opts = [
        f"sudo tailscale up --authkey={v} --advertise-exit-node --ssh",
        f"  tailscale:\n    image: tailscale/tailscale:latest\n    hostname: {r.choice(SELFHOST)}\n    environment:\n      - TS_AUTHKEY={v}\n      - TS_STATE_DIR=/var/lib/tailscale",
        f"Reusable ephemeral key for the Pi zeros (expires in 90 days): {v}",
    ]
    return r.choice(opts), v


@_pos("zerotier_api_token")
def _p_zerotier(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM, 32)
    nwid = _hex(r, 16)
    opts = [
        f'curl -H "Authorization: token {v}" https://api.zerotier.com/api/v1/network/{nwid}/member',
        f"ZEROTIER_API_TOKEN={v}\nZEROTIER_NETWORK={nwid}",
        f"ZeroTier Central API token (for the member-approve script): {v}",
    ]
    return r.choice(opts), v


@_pos("pihole_api_token")
def _p_pihole(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 64)
    host = r.choice(["pi.hole", _lan_ip(r), "pihole.home.arpa"])
    opts = [
        f"http://{host}/admin/api.php?disable={r.choice([60, 300, 900])}&auth={v}",
        f"- Pi-hole:\n    href: http://{host}/admin\n    widget:\n      type: pihole\n      url: http://{host}\n      key: {v}",
        f"Pi-hole API token (Settings > API > Show API token): {v}",
        f'curl -s "http://{host}/admin/api.php?summaryRaw&auth={v}" | jq .ads_percentage_today',
    ]
    return r.choice(opts), v


@_pos("nas_password")
def _p_nas(r: random.Random) -> tuple[str, str]:
    v = _password(r).replace(",", "")
    ip = _lan_ip(r)
    u = _user(r)
    opts = [
        f"Synology DSM (https://{ip}:5001) admin user {u}, password {v}",
        f"sudo mount -t cifs //{ip}/media /mnt/media -o username={u},password={v},uid=1000",
        f"/root/.smbcredentials\nusername={u}\npassword={v}\ndomain=WORKGROUP",
        f"TrueNAS root pw after the reinstall: {v}",
        f"QNAP admin login changed to {v} (old one was leaked in that forum dump)",
    ]
    return r.choice(opts), v


@_pos("rtsp_url_password")
def _p_rtsp(r: random.Random) -> tuple[str, str]:
    v = _url_pw(r)
    ip = _lan_ip(r)
    u = r.choice(["admin", "viewer", "frigate", "cam"])
    path = r.choice(
        [
            "Streaming/Channels/101",
            "stream1",
            "h264Preview_01_main",
            "cam/realmonitor?channel=1&subtype=0",
            "live/ch00_0",
        ]
    )
    url = f"rtsp://{u}:{v}@{ip}:554/{path}"
    opts = [
        f"cameras:\n  driveway:\n    ffmpeg:\n      inputs:\n        - path: {url}\n          roles: [detect, record]",
        f"ffplay -rtsp_transport tcp '{url}'",
        f"Birdcam stream for VLC: {url}",
        f"go2rtc:\n  streams:\n    porch: {url}",
    ]
    return r.choice(opts), v


# --- self-hosting --------------------------------------------------------------------------------


@_pos("compose_db_password")
def _p_compose_db(r: random.Random) -> tuple[str, str]:
    v = _password(r).replace("$", "")
    app = r.choice(["nextcloud", "immich", "gitea", "paperless", "vaultwarden", "mealie", "authentik"])
    db = r.choice(["postgres:16-alpine", "postgres:15", "mariadb:11", "tensorchord/pgvecto-rs:pg14-v0.2.0"])
    var = "MYSQL_PASSWORD" if "maria" in db else "POSTGRES_PASSWORD"
    k = r.randrange(4)
    if k == 0:
        t = f"services:\n  {app}-db:\n    image: {db}\n    restart: unless-stopped\n    environment:\n      - {var}={v}\n      - {var.replace('PASSWORD', 'USER')}={app}\n      - {var.replace('PASSWORD', 'DB') if 'POST' in var else 'MYSQL_DATABASE'}={app}"
    elif k == 1:
        t = f'  db:\n    image: {db}\n    environment:\n      {var}: "{v}"\n    volumes:\n      - ./{app}/db:/var/lib/postgresql/data'
    elif k == 2:
        t = f"# {app} .env (next to docker-compose.yml)\nDB_HOSTNAME={app}-db\nDB_USERNAME={app}\nDB_PASSWORD={v}\nUPLOAD_LOCATION=/mnt/tank/{app}"
    else:
        t = f"{app} stack: the postgres password in compose is {v} -- same one goes into the app container"
    return t, v


@_pos("vaultwarden_admin_token")
def _p_vw(r: random.Random) -> tuple[str, str]:
    v = _b64(r.randbytes(48))
    opts = [
        f'  vaultwarden:\n    image: vaultwarden/server:latest\n    environment:\n      DOMAIN: "https://{_sub(r, "vault")}"\n      SIGNUPS_ALLOWED: "false"\n      ADMIN_TOKEN: "{v}"',
        f"ADMIN_TOKEN={v}",
        f"vaultwarden /admin page token (before I switch it to argon2): {v}",
    ]
    return r.choice(opts), v


@_pos("gitea_token")
def _p_gitea(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 40)
    host = _sub(r, r.choice(["git", "gitea", "code"]))
    opts = [
        f"tea login add --name home --url https://{host} --token {v}",
        f'{{\n  "platform": "gitea",\n  "endpoint": "https://{host}/api/v1",\n  "token": "{v}",\n  "autodiscover": true\n}}',
        f"GITEA_TOKEN={v}\nGITEA_URL=https://{host}",
        f"git clone https://{_user(r)}:{v}@{host}/{_user(r)}/{r.choice(PROJECTS)}.git",
        f"Gitea access token 'ci-mirror' (repo scope): {v}",
    ]
    return r.choice(opts), v


@_pos("django_secret_key")
def _p_django(r: random.Random) -> tuple[str, str]:
    v = _rs(r, DJANGO_CHARS, 50)
    opts = [
        f"PAPERLESS_SECRET_KEY={v}\nPAPERLESS_URL=https://{_sub(r, 'docs')}\nPAPERLESS_TIME_ZONE={r.choice(TZS)}",
        f"# settings/local.py\nDEBUG = False\nSECRET_KEY = '{v}'\nALLOWED_HOSTS = ['{_sub(r)}']",
        f"      - SECRET_KEY={v}\n      - DB_ENGINE=django.db.backends.postgresql",
        f"Healthchecks SECRET_KEY generated for the homelab instance: {v}",
    ]
    return r.choice(opts), v


@_pos("htpasswd_hash")
def _p_htpasswd(r: random.Random) -> tuple[str, str]:
    u = _user(r)
    if r.random() < 0.5:
        h = "$" + "apr1$" + _rs(r, CRYPT64, 8) + "$" + _rs(r, CRYPT64, 22)
    else:
        h = "$" + "2y$" + r.choice(["05", "10", "12", "14"]) + "$" + _rs(r, CRYPT64, 53)
    k = r.randrange(4)
    if k == 0:
        v = h.replace("$", "$$")
        t = f'    labels:\n      - "traefik.http.middlewares.{r.choice(SELFHOST)}-auth.basicauth.users={u}:{v}"'
    elif k == 1:
        v = "$" + "2a$14$" + _rs(r, CRYPT64, 53)
        t = f"{_sub(r)} {{\n    basic_auth {{\n        {u} {v}\n    }}\n    reverse_proxy localhost:{r.randint(3000, 9000)}\n}}"
    elif k == 2:
        v = h
        t = f"/etc/nginx/.htpasswd\n{u}:{v}"
    else:
        v = h
        t = f"htpasswd -nb output for the dashboard: {u}:{v}"
    return t, v


@_pos("basic_auth_url")
def _p_basic_url(r: random.Random) -> tuple[str, str]:
    v = _url_pw(r)
    u = _user(r).replace(".", "")
    opts = [
        f"restic -r rest:https://{u}:{v}@backup.{_domain(r)}:8000/{u}-laptop snapshots",
        f"Uptime Kuma monitor URL: https://{u}:{v}@{_sub(r)}/status",
        f"CalDAV for DAVx5: https://{u}:{v}@{_sub(r, 'dav')}/remote.php/dav",
        f"curl -fsS https://{u}:{v}@{_sub(r, 'traefik')}/api/rawdata | jq '.routers | length'",
        f"sudo mount -t davfs https://{u}:{v}@{_sub(r, 'files')}/webdav /mnt/webdav",
    ]
    return r.choice(opts), v


# --- DNS / ACME / tunnels ------------------------------------------------------------------------


@_pos("cloudflare_api_token")
def _p_cf_token(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM + "_-", 40)
    opts = [
        f"  traefik:\n    environment:\n      - CF_DNS_API_TOKEN={v}\n    command:\n      - --certificatesresolvers.le.acme.dnschallenge.provider=cloudflare",
        f"{{\n    acme_dns cloudflare {v}\n    email {_email(r)}\n}}",
        f"# /etc/letsencrypt/cloudflare.ini (chmod 600)\ndns_cloudflare_api_token = {v}",
        f"protocol=cloudflare\nzone={_domain(r)}\nlogin=token\npassword={v}\nhome.{_domain(r)}",
        f"Cloudflare token 'Zone.DNS edit' for {_domain(r)} (ddns + certs): {v}",
    ]
    return r.choice(opts), v


@_pos("cloudflare_global_api_key")
def _p_cf_global(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 37)
    em = _email(r)
    opts = [
        f"CF_API_EMAIL={em}\nCF_API_KEY={v}",
        f"dns_cloudflare_email = {em}\ndns_cloudflare_api_key = {v}",
        f"old Cloudflare Global API Key (should really switch to a scoped token): {v}",
        f'curl -X GET "https://api.cloudflare.com/client/v4/zones" -H "X-Auth-Email: {em}" -H "X-Auth-Key: {v}"',
    ]
    return r.choice(opts), v


@_pos("cloudflare_tunnel_token")
def _p_cf_tunnel(r: random.Random) -> tuple[str, str]:
    payload = {"a": _hex(r, 32), "t": _uuid(r), "s": _b64(r.randbytes(32))}
    v = _b64(json.dumps(payload, separators=(",", ":")).encode())
    opts = [
        f"cloudflared tunnel --no-autoupdate run --token {v}",
        f"  cloudflared:\n    image: cloudflare/cloudflared:latest\n    command: tunnel run\n    environment:\n      - TUNNEL_TOKEN={v}",
        f"sudo cloudflared service install {v}",
        f"tunnel token for the {r.choice(SELFHOST)} tunnel: {v}",
    ]
    return r.choice(opts), v


@_pos("duckdns_token")
def _p_duck(r: random.Random) -> tuple[str, str]:
    v = _uuid(r)
    sub = r.choice(["lenahome", "pablo-nas", "kowalskilab", "yukicam", "bramble"]) + str(r.randint(1, 99))
    opts = [
        f'echo url="https://www.duckdns.org/update?domains={sub}&token={v}&ip=" | curl -k -o ~/duckdns/duck.log -K -',
        f"  duckdns:\n    image: lscr.io/linuxserver/duckdns:latest\n    environment:\n      - SUBDOMAINS={sub}\n      - TOKEN={v}",
        f"duckdns addon config:\ndomains:\n  - {sub}.duckdns.org\ntoken: {v}",
        f"{sub}.duckdns.org {{\n    tls {{\n        dns duckdns {v}\n    }}\n}}",
    ]
    return r.choice(opts), v


@_pos("digitalocean_token")
def _p_do(r: random.Random) -> tuple[str, str]:
    v = "do" + "p_v1_" + _hex(r, 64)
    opts = [
        f"doctl auth init --access-token {v}",
        f'do_token = "{v}"\nregion   = "{r.choice(["fra1", "ams3", "nyc3"])}"',
        f"DO_AUTH_TOKEN={v} lego --dns digitalocean -d '*.{_domain(r)}' run",
        f"DigitalOcean PAT for the droplet that runs the minecraft server: {v}",
    ]
    return r.choice(opts), v


@_pos("porkbun_secret_key")
def _p_porkbun(r: random.Random) -> tuple[str, str]:
    v = "sk" + "1_" + _hex(r, 64)
    opts = [
        f"PORKBUN_SECRET_API_KEY={v}\nPORKBUN_API_KEY=${{PORKBUN_API_KEY}}",
        f'{{"secretapikey": "{v}", "apikey": "see bitwarden", "domain": "{_domain(r)}"}}',
        f"porkbun secret key for the ddns script: {v}",
    ]
    return r.choice(opts), v


@_pos("hetzner_dns_token")
def _p_hetzner(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM, 32)
    opts = [
        f"HETZNER_API_KEY={v} lego --dns hetzner --domains '{_domain(r)}' --email {_email(r)} run",
        f'curl "https://dns.hetzner.com/api/v1/zones" -H "Auth-API-Token: {v}"',
        f"Hetzner DNS console token (only DNS, not cloud): {v}",
    ]
    return r.choice(opts), v


# --- personal finance and crypto -----------------------------------------------------------------


@_pos("plaid_secret")
def _p_plaid_secret(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 30)
    env = r.choice(["sandbox", "sandbox", "production", "development"])
    opts = [
        f"PLAID_CLIENT_ID={_hex(r, 24)}\nPLAID_SECRET={v}\nPLAID_ENV={env}\nPLAID_PRODUCTS=transactions",
        f"plaid {env} secret for the budget dashboard: {v}",
        f'client = plaid.ApiClient(plaid.Configuration(host=plaid.Environment.{env.capitalize()}, api_key={{"clientId": CLIENT_ID, "secret": "{v}"}}))',
    ]
    return r.choice(opts), v


@_pos("plaid_access_token")
def _p_plaid_access(r: random.Random) -> tuple[str, str]:
    v = "acc" + "ess-" + r.choice(["sandbox", "production", "development"]) + "-" + _uuid(r)
    bank = r.choice(["Chase", "Ally", "Amex", "Schwab", "Capital One", "Wells Fargo"])
    opts = [
        f"INSERT INTO items (institution, access_token) VALUES ('{bank}', '{v}');",
        f"{bank} item linked. access_token = {v}, item_id = {_rs(r, ALNUM, 37)}",
        f'ACCESS_TOKENS = {{"{bank.lower()}": "{v}"}}',
    ]
    return r.choice(opts), v


@_pos("ynab_token")
def _p_ynab(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 64)
    opts = [
        f'curl -H "Authorization: Bearer {v}" https://api.ynab.com/v1/budgets/last-used/transactions',
        f"YNAB_TOKEN={v}\nYNAB_BUDGET_ID={_uuid(r)}",
        f"YNAB personal access token (Account settings > Developer settings): {v}",
    ]
    return r.choice(opts), v


@_pos("binance_api_secret")
def _p_binance(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM, 64)
    opts = [
        f'exchange = ccxt.binance({{\n    "apiKey": os.environ["BINANCE_KEY"],\n    "secret": "{v}",\n    "enableRateLimit": True,\n}})',
        f'"exchange": {{\n    "name": "binance",\n    "key": "",\n    "secret": "{v}",\n    "pair_whitelist": ["BTC/USDT", "ETH/USDT"]\n}}',
        f"BINANCE_API_SECRET={v}",
        f"Binance read-only API secret for the portfolio tracker: {v}",
    ]
    return r.choice(opts), v


@_pos("kraken_private_key")
def _p_kraken(r: random.Random) -> tuple[str, str]:
    v = _b64(r.randbytes(64))
    opts = [
        f"KRAKEN_PRIVATE_KEY={v}",
        f'kraken = ccxt.kraken({{"apiKey": KEY, "secret": "{v}"}})',
        f"Kraken private key (query funds + ledger only): {v}",
    ]
    return r.choice(opts), v


@_pos("bip39_mnemonic")
def _p_bip39(r: random.Random) -> tuple[str, str]:
    v = _mnemonic(r)
    k = r.randrange(6)
    if k == 0:
        t = f"Ledger seed (copy of the steel plate, delete after moving to the safe): {v}"
    elif k == 1:
        t = f'MNEMONIC="{v}"\nRPC_URL=https://rpc.sepolia.org\nCHAIN_ID=11155111'
    elif k == 2:
        t = f'networks: {{\n  hardhat: {{ accounts: {{ mnemonic: "{v}" }} }}\n}}'
    elif k == 3:
        words = v.split()
        v = "\n".join(f"{i + 1}. {w}" for i, w in enumerate(words))
        t = f"Recovery phrase for Dad's Trezor:\n{v}"
    elif k == 4:
        t = f'electrum restore "{v}" --offline'
    else:
        t = f"seed words for the test wallet: {v}"
    return t, v


@_pos("bitcoin_wif")
def _p_wif(r: random.Random) -> tuple[str, str]:
    v = _b58check(b"\x80" + r.randbytes(32) + (b"\x01" if r.random() < 0.8 else b""))
    opts = [
        f"Paper wallet from {r.randint(2013, 2018)} -- private key (WIF): {v}",
        f'bitcoin-cli importprivkey {v} "paper{r.randint(2013, 2018)}" false',
        f"sweep in Electrum: Wallet > Private keys > Sweep > {v}",
    ]
    return r.choice(opts), v


@_pos("eth_private_key")
def _p_eth(r: random.Random) -> tuple[str, str]:
    v = ("0x" if r.random() < 0.6 else "") + _hex(r, 64)
    opts = [
        f"PRIVATE_KEY={v}\nETHERSCAN_API_KEY=${{ETHERSCAN_API_KEY}}",
        f"cast send --rpc-url $RPC --private-key {v} 0x{_hex(r, 40)} --value 0.01ether",
        f"exported the MetaMask account 2 key for the bot: {v}",
        f'const wallet = new ethers.Wallet("{v}", provider);',
    ]
    return r.choice(opts), v


@_pos("nostr_private_key")
def _p_nsec(r: random.Random) -> tuple[str, str]:
    v = _bech32("nsec", _to5(r.randbytes(32)))
    opts = [
        f"nostr key for the blog cross-poster: {v}",
        f'{{"relays": ["wss://relay.damus.io", "wss://nos.lol"], "private_key": "{v}"}}',
        f"NOSTR_NSEC={v}",
    ]
    return r.choice(opts), v


# --- game servers and bots -----------------------------------------------------------------------


@_pos("rcon_password")
def _p_rcon(r: random.Random) -> tuple[str, str]:
    v = _password(r).replace("'", "")
    ip = _lan_ip(r)
    opts = [
        f"enable-rcon=true\nrcon.port=25575\nrcon.password={v}\nmotd=Family server",
        f"mcrcon -H {ip} -P 25575 -p '{v}' \"whitelist add {r.choice(PLAYERS)}\"",
        f'  mc:\n    image: itzg/minecraft-server\n    environment:\n      EULA: "TRUE"\n      TYPE: PAPER\n      RCON_PASSWORD: "{v}"',
        f'AdminPassword="{v}",RCONEnabled=True,RCONPort=25575',
        f"rcon pw for the kids' server: {v}",
    ]
    return r.choice(opts), v


@_pos("discord_bot_token")
def _p_discord_bot(r: random.Random) -> tuple[str, str]:
    snow = str(r.randint(10**17, 13 * 10**17))
    v = _b64u(snow.encode()) + "." + _rs(r, B64URL, 6) + "." + _rs(r, B64URL, 38)
    opts = [
        f"DISCORD_TOKEN={v}\nGUILD_ID={r.randint(10**17, 12 * 10**17)}",
        f'bot.run("{v}")',
        f'{{\n  "token": "{v}",\n  "prefix": "!",\n  "owner": "{r.randint(10**17, 12 * 10**17)}"\n}}',
        f"Reset the bot token after the leak, new one: {v}",
    ]
    return r.choice(opts), v


@_pos("discord_webhook")
def _p_discord_hook(r: random.Random) -> tuple[str, str]:
    hid = str(r.randint(10**17, 13 * 10**17))
    v = _rs(r, B64URL, 68)
    url = f"https://discord.com/api/webhooks/{hid}/{v}"
    opts = [
        f"curl -H 'Content-Type: application/json' -d '{{\"content\": \"backup finished\"}}' {url}",
        f"WATCHTOWER_NOTIFICATION_URL=discord://{v}@{hid}",
        f"Sonarr > Connect > Discord webhook: {url}",
        f"DISCORD_WEBHOOK_URL={url}",
    ]
    return r.choice(opts), v


@_pos("telegram_bot_token")
def _p_telegram(r: random.Random) -> tuple[str, str]:
    v = f"{r.randint(10**8, 8 * 10**9)}:AA{_rs(r, B64URL, 33)}"
    opts = [
        f"telegram_bot:\n  - platform: polling\n    api_key: {v}\n    allowed_chat_ids:\n      - {r.randint(10**8, 10**10)}",
        f"curl -s https://api.telegram.org/bot{v}/sendMessage -d chat_id={r.randint(10**8, 10**10)} -d text='door opened'",
        f"TELEGRAM_BOT_TOKEN={v}",
        f"NOTIFY_URL=telegram://{v}@telegram?chats={r.randint(10**8, 10**10)}",
        f"BotFather gave me the token for @{r.choice(PROJECTS).replace('-', '_')}_bot: {v}",
    ]
    return r.choice(opts), v


@_pos("pushover_token")
def _p_pushover(r: random.Random) -> tuple[str, str]:
    v = "a" + _rs(r, LOWNUM, 29)
    opts = [
        f'curl -s -F "token={v}" -F "user=$PUSHOVER_USER" -F "message=UPS on battery" https://api.pushover.net/1/messages.json',
        f"PUSHOVER_APP_TOKEN={v}",
        f"Pushover application token for the NAS alerts: {v}",
    ]
    return r.choice(opts), v


# --- hobby ML ------------------------------------------------------------------------------------


@_pos("kaggle_key")
def _p_kaggle(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 32)
    u = _user(r).replace(".", "")
    opts = [
        f'~/.kaggle/kaggle.json\n{{"username":"{u}","key":"{v}"}}',
        f"KAGGLE_USERNAME={u}\nKAGGLE_KEY={v}",
        f"import os\nos.environ['KAGGLE_USERNAME'] = '{u}'\nos.environ['KAGGLE_KEY'] = '{v}'",
    ]
    return r.choice(opts), v


@_pos("hf_token")
def _p_hf(r: random.Random) -> tuple[str, str]:
    v = "h" + "f_" + _rs(r, UPPER + LOWER, 34)
    model = r.choice(["meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mistral-7B-v0.3", "google/gemma-2-9b-it"])
    opts = [
        f"huggingface-cli login --token {v} --add-to-git-credential",
        f'tok = AutoTokenizer.from_pretrained("{model}", token="{v}")',
        f"git clone https://{_user(r)}:{v}@huggingface.co/{model}",
        _render(
            r,
            v,
            ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"],
            ["HF read token for {proj}: {v}", "new fine-grained HF token (gated repos only): {v}"],
        ),
    ]
    return r.choice(opts), v


@_pos("replicate_token")
def _p_replicate(r: random.Random) -> tuple[str, str]:
    v = "r" + "8_" + _rs(r, ALNUM, 37)
    opts = [
        f'client = replicate.Client(api_token="{v}")',
        _render(r, v, ["REPLICATE_API_TOKEN"], ["replicate token for the sticker generator: {v}"]),
    ]
    return r.choice(opts), v


@_pos("openrouter_key")
def _p_openrouter(r: random.Random) -> tuple[str, str]:
    v = "sk" + "-or-v1-" + _hex(r, 64)
    opts = [
        f'client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key="{v}")',
        f'models:\n  - title: OpenRouter\n    provider: openrouter\n    model: anthropic/claude-3.5-sonnet\n    apiKey: "{v}"',
        _render(r, v, ["OPENROUTER_API_KEY"], ["OpenRouter key with a $10 limit, used by {proj}: {v}"]),
    ]
    return r.choice(opts), v


@_pos("openai_key")
def _p_openai(r: random.Random) -> tuple[str, str]:
    mark = "T3Blbk" + "FJ"
    v = "sk" + "-proj-" + _rs(r, B64URL, 74) + mark + _rs(r, B64URL, 74)
    opts = [
        f'client = OpenAI(api_key="{v}")',
        _render(r, v, ["OPENAI_API_KEY"], ["OpenAI project key for {proj} (monthly cap $5): {v}"]),
    ]
    return r.choice(opts), v


@_pos("anthropic_key")
def _p_anthropic(r: random.Random) -> tuple[str, str]:
    v = "sk" + "-ant-api03-" + _rs(r, B64URL, 93) + "AA"
    opts = [
        f'client = anthropic.Anthropic(api_key="{v}")',
        _render(r, v, ["ANTHROPIC_API_KEY"], ["Anthropic key for the {proj} summariser: {v}"]),
    ]
    return r.choice(opts), v


@_pos("local_llm_api_key")
def _p_local_llm(r: random.Random) -> tuple[str, str]:
    k = r.randrange(3)
    v = ("sk" + "-" + _rs(r, ALNUM, 32)) if k == 0 else (_hex(r, 48) if k == 1 else _b64u(r.randbytes(32)))
    port = r.choice([8080, 8000, 4000, 11434, 5001])
    opts = [
        f"llama-server -m models/qwen2.5-7b-instruct-q4_k_m.gguf --host 0.0.0.0 --port {port} --api-key {v}",
        f"python -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-Instruct-v0.3 --api-key {v}",
        f"general_settings:\n  master_key: {v}\n  database_url: sqlite:///litellm.db",
        f"  open-webui:\n    environment:\n      - OPENAI_API_BASE_URL=http://{_lan_ip(r)}:{port}/v1\n      - OPENAI_API_KEY={v}",
        f'@auth header Authorization "Bearer {v}"\nreverse_proxy @auth localhost:11434',
        f"key for the llama box in the closet (port {port}): {v}",
    ]
    return r.choice(opts), v


# --- extension, mobile and static sites ----------------------------------------------------------


@_pos("google_oauth_client_secret")
def _p_gocspx(r: random.Random) -> tuple[str, str]:
    v = "GOC" + "SPX-" + _rs(r, B64URL, 28)
    cid = f"{r.randint(10**11, 10**12 - 1)}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com"
    opts = [
        f"EXTENSION_ID={_rs(r, EXT_ID, 32)}\nCLIENT_ID={cid}\nCLIENT_SECRET={v}",
        f'{{"installed":{{"client_id":"{cid}","project_id":"{r.choice(PROJECTS)}","client_secret":"{v}","redirect_uris":["http://localhost"]}}}}',
        f"[gdrive]\ntype = drive\nclient_id = {cid}\nclient_secret = {v}\nscope = drive.file",
        f"Chrome Web Store publish API: OAuth client secret {v}",
    ]
    return r.choice(opts), v


@_pos("google_refresh_token")
def _p_grefresh(r: random.Random) -> tuple[str, str]:
    v = "1//0" + r.choice("49cdeg") + _rs(r, B64URL, r.randint(90, 100))
    opts = [
        f"REFRESH_TOKEN={v}",
        f'{{"refresh_token": "{v}", "token_uri": "https://oauth2.googleapis.com/token", "scopes": ["https://www.googleapis.com/auth/gmail.readonly"]}}',
        f"refresh token from the OAuth playground for the webstore upload: {v}",
    ]
    return r.choice(opts), v


@_pos("google_api_key")
def _p_gapi(r: random.Random) -> tuple[str, str]:
    v = "AI" + "za" + _rs(r, B64URL, 35)
    opts = [
        f'url = "https://www.googleapis.com/youtube/v3/playlistItems?part=snippet&maxResults=50&key={v}"',
        f"GEMINI_API_KEY={v}",
        _render(
            r,
            v,
            ["YOUTUBE_API_KEY", "GOOGLE_MAPS_KEY", "GEMINI_API_KEY"],
            ["server-side Google API key for {proj} (IP-restricted): {v}"],
        ),
    ]
    return r.choice(opts), v


@_pos("apple_app_specific_password")
def _p_apple_asp(r: random.Random) -> tuple[str, str]:
    v = "-".join(_rs(r, LOWER, 4) for _ in range(4))
    team = _rs(r, UPNUM, 10)
    opts = [
        f'xcrun notarytool store-credentials "notary" --apple-id {_email(r)} --team-id {team} --password {v}',
        f"FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD={v}",
        f"app-specific password for Thunderbird calendar (iCloud): {v}",
        f'[storage icloud_remote]\ntype = "caldav"\nurl = "https://caldav.icloud.com/"\nusername = "{_email(r)}"\npassword = "{v}"',
    ]
    return r.choice(opts), v


@_pos("expo_token")
def _p_expo(r: random.Random) -> tuple[str, str]:
    v = _rs(r, B64URL, 40)
    opts = [
        f"EXPO_TOKEN={v} eas build --platform android --non-interactive",
        f"Added EXPO_TOKEN to the repo secrets; value for reference: {v}",
        f"      - run: eas update --auto\n        env:\n          EXPO_TOKEN: {v}",
    ]
    return r.choice(opts), v


@_pos("fcm_server_key")
def _p_fcm(r: random.Random) -> tuple[str, str]:
    v = "AAAA" + _rs(r, B64URL, 7) + ":" + "APA" + "91b" + _rs(r, B64URL, 134)
    opts = [
        f'curl -X POST https://fcm.googleapis.com/fcm/send -H "Authorization: key={v}" -H "Content-Type: application/json" -d @msg.json',
        f"FCM_SERVER_KEY={v}",
        f"Firebase legacy server key (Cloud Messaging tab): {v}",
    ]
    return r.choice(opts), v


@_pos("gcp_service_account_key")
def _p_gcp_sa(r: random.Random) -> tuple[str, str]:
    der = RSA_PKCS8_HEAD + r.randbytes(r.randint(600, 900))
    pem = _pem(PK, der) + "\n"
    v = pem.replace("\n", "\\n")
    proj = r.choice(PROJECTS) + "-" + str(r.randint(1000, 9999))
    doc = (
        '{\n  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key_id": "{_hex(r, 40)}",\n'
        f'  "private_key": "{v}",\n'
        f'  "client_email": "firebase-adminsdk-{_rs(r, LOWNUM, 5)}@{proj}.iam.gserviceaccount.com"\n}}'
    )
    return doc, v


@_pos("netlify_token")
def _p_netlify(r: random.Random) -> tuple[str, str]:
    v = "nf" + "p_" + _rs(r, ALNUM, 36)
    opts = [
        f"netlify deploy --prod --dir=public --auth {v} --site {_uuid(r)}",
        _render(r, v, ["NETLIFY_AUTH_TOKEN"], ["Netlify PAT for the blog deploy: {v}"]),
    ]
    return r.choice(opts), v


@_pos("vercel_token")
def _p_vercel(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM, 24)
    opts = [
        f"vercel deploy --prod --token {v}",
        f"VERCEL_TOKEN={v}\nVERCEL_ORG_ID=team_{_rs(r, ALNUM, 24)}",
        f"Vercel token (scope: personal account, no expiry -- fix): {v}",
    ]
    return r.choice(opts), v


@_pos("github_pat")
def _p_github(r: random.Random) -> tuple[str, str]:
    if r.random() < 0.6:
        v = "gh" + "p_" + _rs(r, ALNUM, 36)
    else:
        v = "github" + "_pat_" + _rs(r, ALNUM, 22) + "_" + _rs(r, ALNUM, 59)
    u = _user(r).replace(".", "")
    opts = [
        f"git remote set-url origin https://{v}@github.com/{u}/{r.choice(PROJECTS)}.git",
        f"github.com:\n    user: {u}\n    oauth_token: {v}\n    git_protocol: https",
        f"//npm.pkg.github.com/:_authToken={v}\n@{u}:registry=https://npm.pkg.github.com",
        _render(r, v, ["GH_TOKEN", "GITHUB_TOKEN"], ["PAT for the pages deploy of {proj}: {v}"]),
    ]
    return r.choice(opts), v


@_pos("ssh_private_key")
def _p_ssh(r: random.Random) -> tuple[str, str]:
    body = (
        b"openssh-key-v1\x00"
        + b"\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
        + r.randbytes(r.randint(260, 360))
    )
    v = _pem("OPENSSH " + PK, body, 70)
    repo = r.choice(PROJECTS)
    opts = [
        f"Deploy key (write) for {repo} -> gh-pages:\n{v}",
        f"$ cat ~/.ssh/id_ed25519\n{v}",
        f"ACTIONS_DEPLOY_KEY for peaceiris/actions-gh-pages:\n{v}\n",
    ]
    return r.choice(opts), v


@_pos("gitlab_pat")
def _p_gitlab(r: random.Random) -> tuple[str, str]:
    v = "gl" + "pat-" + _rs(r, B64URL, 20)
    opts = [
        f"git push https://oauth2:{v}@gitlab.com/{_user(r)}/{r.choice(PROJECTS)}.git main",
        _render(r, v, ["GITLAB_TOKEN", "CI_PUSH_TOKEN"], ["gitlab token for the mirror job: {v}"]),
    ]
    return r.choice(opts), v


@_pos("dockerhub_pat")
def _p_dockerhub(r: random.Random) -> tuple[str, str]:
    v = "dck" + "r_pat_" + _rs(r, B64URL, 27)
    opts = [
        f"echo {v} | docker login -u {_user(r).replace('.', '')} --password-stdin",
        _render(r, v, ["DOCKERHUB_TOKEN"], ["Docker Hub PAT (read/write) for {proj} images: {v}"]),
    ]
    return r.choice(opts), v


@_pos("npm_token")
def _p_npm(r: random.Random) -> tuple[str, str]:
    v = "np" + "m_" + _rs(r, ALNUM, 36)
    opts = [
        f"//registry.npmjs.org/:_authToken={v}",
        _render(r, v, ["NPM_TOKEN", "NODE_AUTH_TOKEN"], ["npm automation token for publishing {proj}: {v}"]),
    ]
    return r.choice(opts), v


@_pos("pypi_token")
def _p_pypi(r: random.Random) -> tuple[str, str]:
    mac = b"\x02\x01\x08pypi.org\x02\x25\x08\x01\x12\x20" + _uuid(r).encode() + r.randbytes(r.randint(90, 120))
    v = "py" + "pi-" + _b64u(mac)
    opts = [
        f"[pypi]\n  username = __token__\n  password = {v}",
        f"twine upload -u __token__ -p {v} dist/*",
        _render(r, v, ["UV_PUBLISH_TOKEN", "PYPI_API_TOKEN"], ["PyPI token scoped to {proj}: {v}"]),
    ]
    return r.choice(opts), v


# --- e-mail and 2FA ------------------------------------------------------------------------------


@_pos("gmail_app_password")
def _p_gmail(r: random.Random) -> tuple[str, str]:
    raw = _rs(r, LOWER, 16)
    v = " ".join(raw[i : i + 4] for i in range(0, 16, 4)) if r.random() < 0.5 else raw
    em = f"{_user(r).replace('admin', 'me')}@gmail.com"
    opts = [
        f'server.login("{em}", "{v}")',
        f'notify:\n  - name: gmail\n    platform: smtp\n    server: smtp.gmail.com\n    port: 587\n    username: {em}\n    password: "{v}"',
        f"Gmail app password for the NAS alerts ({em}): {v}",
        f"PAPERLESS_EMAIL_HOST=smtp.gmail.com\nPAPERLESS_EMAIL_HOST_USER={em}\nPAPERLESS_EMAIL_HOST_PASSWORD={v}",
    ]
    return r.choice(opts), v


@_pos("email_app_password")
def _p_mailapp(r: random.Random) -> tuple[str, str]:
    prov, host = r.choice(
        [
            ("outlook.com", "outlook.office365.com"),
            ("fastmail.com", "imap.fastmail.com"),
            ("yahoo.com", "imap.mail.yahoo.com"),
        ]
    )
    v = _rs(r, LOWNUM if prov == "fastmail.com" else LOWER, 16)
    em = f"{_user(r).replace('admin', 'me')}@{prov}"
    opts = [
        f"IMAPAccount main\nHost {host}\nUser {em}\nPass {v}\nTLSType IMAPS",
        f"[{prov}]\nsource = imaps://{em.replace('@', '%40')}:{v}@{host}\ndefault = INBOX",
        f"app password for aerc on {prov}: {v}",
        f"account {prov.split('.')[0]}\nhost {host.replace('imap', 'smtp').replace('outlook.office365', 'smtp-mail.outlook')}\nfrom {em}\nuser {em}\npassword {v}",
    ]
    return r.choice(opts), v


@_pos("smtp_password")
def _p_smtp(r: random.Random) -> tuple[str, str]:
    v = _password(r).replace("'", "").replace(" ", "")
    relay = r.choice(
        ["smtp-relay.brevo.com", "smtp.fastmail.com", "smtp.migadu.com", "mail.smtp2go.com", "smtp.zoho.eu"]
    )
    opts = [
        f"[{relay}]:587 {_email(r)}:{v}",
        f"SMTP_HOST={relay}\nSMTP_FROM=vault@{_domain(r)}\nSMTP_PASSWORD={v}",
        f"[mailer]\nENABLED = true\nSMTP_ADDR = {relay}\nUSER = {_email(r)}\nPASSWD = {v}",
        f"  'mail_smtphost' => '{relay}',\n  'mail_smtpname' => '{_email(r)}',\n  'mail_smtppassword' => '{v}',",
    ]
    return r.choice(opts), v


@_pos("totp_secret")
def _p_totp(r: random.Random) -> tuple[str, str]:
    raw = _rs(r, BASE32, r.choice([16, 32, 32, 26]))
    iss = r.choice(TOTP_ISSUERS)
    k = r.randrange(5)
    if k == 0:
        v = raw
        t = f"otpauth://totp/{iss}:{_email(r)}?secret={v}&issuer={iss}&algorithm=SHA1&digits=6&period=30"
    elif k == 1:
        v = " ".join(raw.lower()[i : i + 4] for i in range(0, len(raw), 4))
        t = f"{iss} 2FA setup key (in case the phone dies): {v}"
    elif k == 2:
        v = raw
        t = f"oathtool --totp -b {v}"
    elif k == 3:
        v = raw
        t = f"TOTP seed for the shared {iss} account: {v}"
    else:
        v = raw
        t = f'{{"issuer": "{iss}", "account": "{_user(r)}", "secret": "{v}", "digits": 6}}'
    return t, v


@_pos("recovery_code")
def _p_recovery(r: random.Random) -> tuple[str, str]:
    k = r.randrange(5)
    if k == 0:
        v = f"{_hex(r, 5)}-{_hex(r, 5)}"
        t = f"GitHub recovery code I haven't used yet: {v}"
    elif k == 1:
        v = f"{r.randint(1000, 9999)} {r.randint(1000, 9999)}"
        t = f"Google backup code for Mom's account: {v}"
    elif k == 2:
        v = _rs(r, UPNUM, 32)
        t = f"Bitwarden two-step login recovery code: {v}"
    elif k == 3:
        v = f"{_rs(r, LOWNUM, 4)}-{_rs(r, LOWNUM, 4)}"
        t = f"Discord backup code (one of the ten): {v}"
    else:
        v = "-".join(_rs(r, UPNUM, 4) for _ in range(4))
        t = f"{r.choice(['Proton', 'Tailscale', 'Cloudflare', 'Nintendo'])} recovery code: {v}"
    return t, v


@_pos("pin_code")
def _p_pin(r: random.Random) -> tuple[str, str]:
    k = r.randrange(6)
    if k == 0:
        v = str(r.randint(1000, 9999))
        t = f"Alarm panel disarm code is {v} then the tick key."
    elif k == 1:
        v = f"{r.randint(0, 9999):04d}"
        t = f"New PIN for the {r.choice(['Visa debit', 'Revolut', 'credit union', 'Amex'])} card: {v}"
    elif k == 2:
        v = f"{r.randint(10**7, 10**8 - 1)}"
        t = f"PUK for Dad's SIM (if he locks it again): {v}"
    elif k == 3:
        v = str(r.randint(100000, 999999))
        t = f"Garage keypad code changed to {v} -- tell the cleaner on Friday"
    elif k == 4:
        v = str(r.randint(1000, 9999))
        t = f"Key lockbox by the back door, combination {v}"
    else:
        v = str(r.randint(100000, 999999))
        t = f"iPad screen-time passcode: {v}"
    return t, v


# --- misc app secrets ----------------------------------------------------------------------------


@_pos("account_password")
def _p_account(r: random.Random) -> tuple[str, str]:
    v = _password(r)
    svc = r.choice(ACCOUNTS)
    em = _email(r)
    opts = [
        f"{svc} moved to the family plan; login is {em} / {v}",
        f"{svc}: {em}, pw {v} (changed {_date(r)})",
        f"Password for the shared {svc} account is now {v}",
        f"Reset the {svc} password after the suspicious login email. New: {v}",
        f"- [x] cancel {svc} trial\n- [ ] {svc} login for grandma's tablet: {em} / {v}",
    ]
    return r.choice(opts), v


@_pos("sendgrid_key")
def _p_sendgrid(r: random.Random) -> tuple[str, str]:
    v = "S" + "G." + _rs(r, B64URL, 22) + "." + _rs(r, B64URL, 43)
    return _render(r, v, ["SENDGRID_API_KEY", "SMTP_PASSWORD"], ["SendGrid key for the {proj} contact form: {v}"]), v


@_pos("mailgun_key")
def _p_mailgun(r: random.Random) -> tuple[str, str]:
    v = "ke" + "y-" + _hex(r, 32)
    opts = [
        f"curl -s --user 'api:{v}' https://api.eu.mailgun.net/v3/mg.{_domain(r)}/messages -F to={_email(r)} -F subject=test",
        _render(r, v, ["MAILGUN_API_KEY"], ["mailgun private key: {v}"]),
    ]
    return r.choice(opts), v


@_pos("aws_secret_key")
def _p_aws(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM + "+/", 40)
    kid = r.choice(["restic-laptop", "backup-bot", "photos-sync", "velero"])
    opts = [
        f"[{kid}]\naws_access_key_id = {kid}\naws_secret_access_key = {v}\nregion = eu-central-1",
        f"AWS_SECRET_ACCESS_KEY={v}\nRESTIC_REPOSITORY=s3:https://s3.{_domain(r)}/backups",
        f"MinIO user {kid} secret key: {v}",
    ]
    return r.choice(opts), v


@_pos("b2_application_key")
def _p_b2(r: random.Random) -> tuple[str, str]:
    v = "K00" + r.choice("0123456") + _rs(r, ALNUM, 27)
    kid = "00" + r.choice("0123456") + _hex(r, 22)
    opts = [
        f"[b2]\ntype = b2\naccount = {kid}\nkey = {v}\nhard_delete = false",
        f"B2_ACCOUNT_ID={kid}\nB2_ACCOUNT_KEY={v}",
        f"Backblaze app key 'nas-photos' (bucket-limited): {v}",
    ]
    return r.choice(opts), v


@_pos("restic_password")
def _p_restic(r: random.Random) -> tuple[str, str]:
    v = _password(r).replace("'", "")
    opts = [
        f"export RESTIC_PASSWORD='{v}'\nrestic -r /mnt/usb/restic backup ~/Documents",
        f"BORG_PASSPHRASE='{v}' borg create ::{{hostname}}-{{now}} /home",
        f"restic repo password (paper copy is in the safe): {v}",
        f"Duplicati backup passphrase for the photos job: {v}",
    ]
    return r.choice(opts), v


@_pos("wireguard_private_key")
def _p_wg(r: random.Random) -> tuple[str, str]:
    v = _wg_key(r)
    pub = _wg_key(r)
    opts = [
        f"[Interface]\nPrivateKey = {v}\nAddress = 10.8.0.{r.randint(2, 50)}/32\nDNS = 10.8.0.1\n\n[Peer]\nPublicKey = {pub}\nEndpoint = vpn.{_domain(r)}:51820\nAllowedIPs = 0.0.0.0/0",
        f"wg set wg0 private-key <(echo {v})",
        f"phone peer private key (QR already scanned): {v}",
    ]
    return r.choice(opts), v


@_pos("nextcloud_app_password")
def _p_nc(r: random.Random) -> tuple[str, str]:
    v = "-".join(_rs(r, ALNUM, 5) for _ in range(5))
    host = _sub(r, r.choice(["cloud", "nextcloud", "nc"]))
    opts = [
        f"nextcloudcmd -u {_user(r)} -p '{v}' ~/Nextcloud https://{host}",
        f"curl -u {_user(r)}:{v} -X PROPFIND https://{host}/remote.php/dav/files/{_user(r)}/",
        f"Nextcloud app password for DAVx5 on the Pixel: {v}",
    ]
    return r.choice(opts), v


@_pos("immich_api_key")
def _p_immich(r: random.Random) -> tuple[str, str]:
    v = _rs(r, ALNUM, 43)
    host = _sub(r, "photos")
    opts = [
        f"immich login https://{host}/api {v}",
        f"immich-go upload from-folder --server=https://{host} --api-key={v} ~/Pictures/2019",
        f'curl -H "x-api-key: {v}" https://{host}/api/server/statistics',
        f"Immich API key 'frame' for the kitchen photo frame: {v}",
    ]
    return r.choice(opts), v


@_pos("arr_api_key")
def _p_arr(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 32)
    app = r.choice(["sonarr", "radarr", "prowlarr", "lidarr", "jellyfin", "bazarr"])
    port = {"sonarr": 8989, "radarr": 7878, "prowlarr": 9696, "lidarr": 8686, "jellyfin": 8096, "bazarr": 6767}[app]
    ip = _lan_ip(r)
    opts = [
        f"- {app.capitalize()}:\n    href: http://{ip}:{port}\n    widget:\n      type: {app}\n      url: http://{ip}:{port}\n      key: {v}",
        f"{app}:\n  main:\n    base_url: http://{ip}:{port}\n    api_key: {v}",
        f'curl -H "X-Api-Key: {v}" http://{ip}:{port}/api/v3/system/status',
        f"<Config>\n  <Port>{port}</Port>\n  <ApiKey>{v}</ApiKey>\n  <AuthenticationMethod>Forms</AuthenticationMethod>\n</Config>",
    ]
    return r.choice(opts), v


@_pos("stripe_secret_key")
def _p_stripe(r: random.Random) -> tuple[str, str]:
    pre = r.choice(["sk_" + "live_", "sk_" + "test_", "rk_" + "live_"])
    v = pre + _rs(r, ALNUM, r.choice([24, 99]))
    opts = [
        f'stripe.api_key = "{v}"',
        _render(r, v, ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"], ["Stripe key for the {proj} tip jar: {v}"]),
    ]
    return r.choice(opts), v


@_pos("supabase_service_key")
def _p_supabase(r: random.Random) -> tuple[str, str]:
    iat = r.randint(1_680_000_000, 1_730_000_000)
    ref = _rs(r, LOWER, 20)
    v = _jwt(r, {"iss": "supabase", "ref": ref, "role": "service_role", "iat": iat, "exp": iat + 315_360_000})
    opts = [
        f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={v}",
        f'const admin = createClient("https://{ref}.supabase.co", "{v}")',
        f"service_role key for the cron job (never ship to the app!): {v}",
    ]
    return r.choice(opts), v


@_pos("mapbox_secret_token")
def _p_mapbox(r: random.Random) -> tuple[str, str]:
    body = _b64u(
        json.dumps({"u": _user(r).replace(".", ""), "a": "c" + _rs(r, LOWNUM, 24)}, separators=(",", ":")).encode()
    )
    v = "s" + "k." + body + "." + _rs(r, B64URL, 22)
    return _render(
        r,
        v,
        ["MAPBOX_DOWNLOADS_TOKEN", "MAPBOX_SECRET_TOKEN"],
        ["Mapbox secret token (downloads:read) for the iOS build: {v}"],
    ), v


@_pos("spotify_client_secret")
def _p_spotify(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 32)
    opts = [
        f"SPOTIPY_CLIENT_ID={_hex(r, 32)}\nSPOTIPY_CLIENT_SECRET={v}\nSPOTIPY_REDIRECT_URI=http://127.0.0.1:8888/callback",
        f"spotify:\n  client_id: {_hex(r, 32)}\n  client_secret: {v}",
        f"Spotify app 'vinyl-catalog' client secret: {v}",
    ]
    return r.choice(opts), v


@_pos("reddit_client_secret")
def _p_reddit(r: random.Random) -> tuple[str, str]:
    v = _rs(r, B64URL, r.choice([27, 30]))
    opts = [
        f"[bot1]\nclient_id={_rs(r, B64URL, 14)}\nclient_secret={v}\nuser_agent=script:{r.choice(PROJECTS)}:v0.{r.randint(1, 9)} (by u/{_user(r)})",
        f'reddit = praw.Reddit(client_id="{_rs(r, B64URL, 22)}", client_secret="{v}", user_agent="deal-watcher")',
        f"reddit script app secret: {v}",
    ]
    return r.choice(opts), v


@_pos("openweather_api_key")
def _p_owm(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 32)
    city = r.choice(["Lisbon", "Krakow", "Lyon", "Bologna", "Sapporo", "Freiburg", "Valencia"])
    opts = [
        f"https://api.openweathermap.org/data/2.5/weather?q={city}&units=metric&appid={v}",
        f'{{\n  module: "weather",\n  position: "top_right",\n  config: {{ type: "current", location: "{city}", apiKey: "{v}" }}\n}}',
        _render(r, v, ["OWM_API_KEY", "OPENWEATHER_KEY"], ["OpenWeather key for the e-ink display: {v}"]),
    ]
    return r.choice(opts), v


@_pos("pgp_private_key")
def _p_pgp(r: random.Random) -> tuple[str, str]:
    label = "PGP " + PK + " BLOCK"
    body = _b64(b"\x95\x03\xc6\x04" + r.randbytes(r.randint(300, 500)))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    v = "\n".join([f"{DASH}BEGIN {label}{DASH}", "", *lines, "=" + _rs(r, B64, 4), f"{DASH}END {label}{DASH}"])
    opts = [
        f"backup of my signing subkey for the apt repo:\n{v}",
        f"$ gpg --export-secret-keys --armor {_email(r)}\n{v}",
    ]
    return r.choice(opts), v


@_pos("jwt_signing_secret")
def _p_jwtsecret(r: random.Random) -> tuple[str, str]:
    v = _hex(r, 64) if r.random() < 0.5 else _b64(r.randbytes(32))
    opts = [
        f"identity_validation:\n  reset_password:\n    jwt_secret: {v}",
        f"NEXTAUTH_URL=https://{_sub(r)}\nNEXTAUTH_SECRET={v}",
        _render(r, v, ["JWT_SECRET", "SESSION_SECRET", "COOKIE_SECRET"], ["signing secret for {proj} sessions: {v}"]),
    ]
    return r.choice(opts), v


@_pos("database_url")
def _p_dburl(r: random.Random) -> tuple[str, str]:
    v = _url_pw(r)
    u = r.choice(["app", "postgres", _user(r).replace(".", ""), "umami", "ghost"])
    k = r.randrange(4)
    if k == 0:
        url = f"postgresql://{u}:{v}@{r.choice(['db', 'localhost', _lan_ip(r)])}:5432/{r.choice(PROJECTS).replace('-', '_')}"
    elif k == 1:
        url = f"mysql://{u}:{v}@127.0.0.1:3306/{r.choice(['ghost', 'wordpress', 'matomo'])}"
    elif k == 2:
        url = f"mongodb+srv://{u}:{v}@cluster0.{_rs(r, LOWNUM, 5)}.mongodb.net/?retryWrites=true"
    else:
        url = f"redis://default:{v}@{_lan_ip(r)}:6379/0"
    opts = [
        f"DATABASE_URL={url}",
        f'engine = create_engine("{url}")',
        f"connection string for {r.choice(PROJECTS)}: {url}",
    ]
    return r.choice(opts), v


@_pos("matrix_access_token")
def _p_matrix(r: random.Random) -> tuple[str, str]:
    u = _user(r).replace(".", "")
    v = "sy" + "t_" + _b64u(u.encode()) + "_" + _rs(r, ALNUM, 20) + "_" + _rs(r, ALNUM, 6)
    opts = [
        f'curl -H "Authorization: Bearer {v}" https://matrix.{_domain(r)}/_matrix/client/v3/joined_rooms',
        f"homeserver: https://matrix.{_domain(r)}\nuser_id: '@{u}:{_domain(r)}'\naccess_token: {v}",
        f"maubot access token for @{u}: {v}",
    ]
    return r.choice(opts), v


@_pos("ngrok_authtoken")
def _p_ngrok(r: random.Random) -> tuple[str, str]:
    v = "2" + _rs(r, ALNUM, 26) + "_" + _rs(r, ALNUM, 21)
    opts = [
        f"ngrok config add-authtoken {v}",
        f'version: "2"\nauthtoken: {v}\ntunnels:\n  web:\n    proto: http\n    addr: 3000',
        f"NGROK_AUTHTOKEN={v}",
    ]
    return r.choice(opts), v


@_pos("notion_token")
def _p_notion(r: random.Random) -> tuple[str, str]:
    v = (
        ("nt" + "n_" + _rs(r, DIGITS, 11) + _rs(r, ALNUM, 35))
        if r.random() < 0.6
        else ("sec" + "ret_" + _rs(r, ALNUM, 43))
    )
    opts = [
        f'notion = Client(auth="{v}")',
        _render(r, v, ["NOTION_TOKEN", "NOTION_API_KEY"], ["Notion integration secret for the reading list sync: {v}"]),
    ]
    return r.choice(opts), v


@_pos("dropbox_token")
def _p_dropbox(r: random.Random) -> tuple[str, str]:
    v = "s" + "l." + ("u." if r.random() < 0.4 else "") + _rs(r, B64URL, r.randint(130, 150))
    opts = [
        f'dbx = dropbox.Dropbox("{v}")',
        f'curl -X POST https://api.dropboxapi.com/2/files/list_folder --header "Authorization: Bearer {v}" --data \'{{"path": ""}}\'',
        f"DROPBOX_ACCESS_TOKEN={v}",
    ]
    return r.choice(opts), v


@_pos("age_secret_key")
def _p_age(r: random.Random) -> tuple[str, str]:
    v = _bech32("age-secret" + "-key-", _to5(r.randbytes(32))).upper()
    pub = _bech32("age", _to5(r.randbytes(32)))
    opts = [
        f"# created: {_date(r)}T{_time(r)}:00+02:00\n# public key: {pub}\n{v}",
        f"SOPS_AGE_KEY={v}",
        f"age identity for the dotfiles secrets: {v}",
    ]
    return r.choice(opts), v


# --- messages to family and friends --------------------------------------------------------------

_CHAT = {
    "en": [
        "Hey {name}! {svc} password is {pw} -- don't change it please",
        "{name}, the wifi here is {ssid} and the password is {pw}",
        "ok new {svc} login: same email, password {pw}",
        "Mum the password for the {svc} on the TV is {pw} (capital letters matter!)",
    ],
    "es": [
        "Mamá, la contraseña de {svc} ahora es {pw}",
        "{name}, la clave del wifi de la casa de la playa es {pw} (red {ssid})",
        "Te paso la contraseña de {svc}: {pw} -- no la cambies porfa",
        "Oye, ¿me recuerdas? ya está: usuario el de siempre, contraseña {pw}",
    ],
    "fr": [
        "Salut {name} ! Le mot de passe {svc} c'est {pw}",
        "Le code wifi chez nous : {pw} (réseau {ssid})",
        "Maman, j'ai changé le mot de passe de {svc}, le nouveau est {pw}",
        "Pour la box, identifiant admin et mot de passe {pw}",
    ],
    "de": [
        "Hi {name}, das neue WLAN-Passwort lautet {pw} ({ssid})",
        "Papa, das {svc}-Passwort ist jetzt {pw}",
        "Kennwort für {svc} geändert: {pw} -- bitte nicht weitergeben",
        "Zugang für die Fritzbox-Oberfläche: {pw}",
    ],
    "it": [
        "Ciao {name}! La password del wifi è {pw} (rete {ssid})",
        "Nonna, la nuova password di {svc} è {pw}",
        "Ti giro la password di {svc}: {pw}",
        "Ho cambiato la password di {svc}, adesso è {pw}",
    ],
    "ja": [
        "{name}へ、Wi-Fiのパスワードは {pw} です（{ssid}）",
        "{svc}のパスワード変えたよ。新しいのは {pw}",
        "お母さん、{svc}のパスワードは {pw} だよ",
        "実家のルーターの管理画面パスワード: {pw}",
    ],
    "pl": [
        "Hej {name}, hasło do Wi-Fi: {pw} (sieć {ssid})",
        "Mamo, nowe hasło do {svc} to {pw}",
        "Zmieniłem hasło do {svc}, teraz jest {pw}",
        "Hasło do routera u babci: {pw}",
    ],
}
_CHAT_NAMES = {
    "en": PEOPLE,
    "es": ["Lucía", "Javi", "Carmen", "tía Marisa", "Pablo"],
    "fr": ["Chloé", "Julien", "Mamie", "Élodie", "Hugo"],
    "de": ["Lena", "Jonas", "Oma", "Katrin", "Felix"],
    "it": ["Giulia", "Marco", "zia Paola", "Luca", "Chiara"],
    "ja": ["ゆき", "たけし", "お父さん", "はるか", "けんじ"],
    "pl": ["Kasia", "Tomek", "babcia", "Ola", "Kuba"],
}


def _chat_gen(lang: str) -> PosFn:
    def gen(r: random.Random) -> tuple[str, str]:
        pw = _wifi_pass(r) if r.random() < 0.4 else _password(r)
        t = r.choice(_CHAT[lang]).format(
            name=r.choice(_CHAT_NAMES[lang]), svc=r.choice(ACCOUNTS), ssid=r.choice(SSIDS), pw=pw
        )
        if r.random() < 0.3:
            t = f"[{_date(r)} {_time(r)}] {t}"
        return t, pw

    return gen


for _lang in _CHAT:
    _pos(f"chat_password_{_lang}")(_chat_gen(_lang))


# ----------------------------------------------------------------------------------------------
# look-alikes (no credential in any of these)
# ----------------------------------------------------------------------------------------------

LookFn = Callable[[random.Random], str]
_LOOK: list[LookFn] = []


def _look(fn: LookFn) -> LookFn:
    _LOOK.append(fn)
    return fn


# --- references to where a secret lives, placeholders, masks ------------------------------------


@_look
def _l_pm_reference(r: random.Random) -> str:
    svc = r.choice(ACCOUNTS)
    pm = r.choice(["1Password", "Bitwarden", "KeePassXC", "Proton Pass", "the family vault"])
    return r.choice([
        f"{svc} moved to the family plan. Login is in {pm} under 'Streaming / {svc} (family)'.",
        f"{svc} password: see {pm} item '{svc} - shared'",
        f"Updated the {svc} entry in {pm} on {_date(r)}; everyone in the family vault can see it.",
        f"Q: what's the {svc} login? A: it's in {pm}, folder 'Subscriptions'",
    ])  # fmt: skip


@_look
def _l_physical_reference(r: random.Random) -> str:
    thing = r.choice(
        ["Wi-Fi password", "router admin password", "alarm code", "safe combination", "restic password", "seed phrase"]
    )
    where = r.choice([
        "on the sticky note in the kitchen drawer", "in the fire safe in the closet", "on the back of the router",
        "in the red notebook on the bookshelf", "on the card taped inside the fuse box", "in the envelope with the passports",
    ])  # fmt: skip
    return r.choice([
        f"The {thing} is {where}.",
        f"Reminder for {r.choice(PEOPLE)}: {thing} -> {where}",
        f"Where's the {thing}? {where.capitalize()} (since {_date(r)}).",
    ])  # fmt: skip


@_look
def _l_router_sticker(r: random.Random) -> str:
    model = r.choice(["FRITZ!Box 7530", "Livebox 6", "Vodafone Station", "Sky Hub", "Funbox 3.0", "Aterm WX3000HP"])
    return r.choice([
        f"{model}: Wi-Fi key is printed on the sticker under the box (the one with the QR).",
        f"Default admin password for the {model} is on the label on the bottom; I changed it and stored the new one in Bitwarden.",
        f"If the {model} gets reset, use the password from the card that came in the box -- don't ask me for it.",
    ])  # fmt: skip


@_look
def _l_masked_token(r: random.Random) -> str:
    pre = r.choice(["h" + "f_", "sk" + "-or-v1-", "gh" + "p_", "r" + "8_", "gl" + "pat-", "nf" + "p_", "np" + "m_"])
    stars = r.choice(["*" * r.randint(12, 30), "•" * r.randint(8, 20), "..."])
    tail = _rs(r, ALNUM, 4)
    return r.choice([
        f"Token list: {pre}{stars}{tail} (created {_date(r)}, last used {r.randint(2, 40)} days ago)",
        f"Using key {pre}{stars}{tail} for {r.choice(PROJECTS)}",
        f"{r.choice(['HF_TOKEN', 'GH_TOKEN', 'NPM_TOKEN'])}={pre}{stars}{tail}  # masked in the dashboard",
    ])  # fmt: skip


@_look
def _l_masked_card(r: random.Random) -> str:
    last4 = f"{r.randint(0, 9999):04d}"
    return r.choice([
        f"{r.choice(STREAMING)} is billed to the Visa ending {last4}, next charge {_date(r)}.",
        f"Card •••• {last4} expires {r.randint(1, 12):02d}/{r.randint(25, 30)} -- update it in {r.choice(ACCOUNTS)}",
        f"Payment method: Mastercard **** **** **** {last4}",
    ])  # fmt: skip


@_look
def _l_masked_password(r: random.Random) -> str:
    return r.choice([
        f"{r.choice(ACCOUNTS)} password: {'*' * r.randint(8, 16)} (changed {_date(r)})",
        f"SMTP_PASSWORD=<redacted>\nSMTP_HOST=smtp.{r.choice(MAILDOMAINS)}\nSMTP_PORT={r.choice([465, 587])}",
        f"mqtt: user {r.choice(['z2m', 'tasmota'])}, password [REDACTED], broker {_lan_ip(r)}",
        f"wpa_passphrase=********  # real one only on the router, ssid {r.choice(SSIDS)}",
    ])  # fmt: skip


@_look
def _l_placeholder_env(r: random.Random) -> str:
    ph = r.choice(
        [
            "changeme-in-.env.local",
            "<your-token-here>",
            "YOUR_API_KEY",
            "xxxxxxxxxxxxxxxx",
            "replace_me",
            "...",
            "TODO",
            "",
        ]
    )
    name = r.choice(
        [
            "OPENROUTER_API_KEY",
            "HF_TOKEN",
            "DISCORD_TOKEN",
            "PLEX_TOKEN",
            "KAGGLE_KEY",
            "YNAB_TOKEN",
            "TELEGRAM_BOT_TOKEN",
        ]
    )
    return f"# {r.choice(PROJECTS)}/.env.example -- copy to .env and fill in\n{name}={ph}\nLOG_LEVEL={r.choice(['info', 'debug'])}\nPORT={r.randint(3000, 9000)}"


@_look
def _l_compose_interp(r: random.Random) -> str:
    app = r.choice(SELFHOST)
    return r.choice([
        f"  {app}-db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${{DB_PASSWORD:?set it in .env}}\n      POSTGRES_USER: {app}",
        f"  {app}:\n    secrets:\n      - db_password\n    environment:\n      - DB_PASSWORD_FILE=/run/secrets/db_password\nsecrets:\n  db_password:\n    file: ./secrets/{app}_db_password.txt",
        f"  {app}:\n    env_file: .env\n    environment:\n      ADMIN_TOKEN_FILE: /run/secrets/admin_token\n    ports:\n      - \"{r.randint(8000, 9000)}:80\"",
    ])  # fmt: skip


@_look
def _l_ha_secret_ref(r: random.Random) -> str:
    return r.choice([
        f"mqtt:\n  broker: {_lan_ip(r)}\n  username: homeassistant\n  password: !secret mqtt_password",
        f"wifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\n  fast_connect: true\napi:\n  encryption:\n    key: !secret api_key_{r.choice(['plug', 'porch', 'desk'])}",
        f"telegram_bot:\n  - platform: polling\n    api_key: !secret telegram_token\n    allowed_chat_ids:\n      - {r.randint(10**8, 10**10)}",
        f"sensor:\n  - platform: rest\n    resource: http://{_lan_ip(r)}/api/status\n    headers:\n      Authorization: !secret pihole_auth_header",
    ])  # fmt: skip


@_look
def _l_code_env_read(r: random.Random) -> str:
    name = r.choice(
        [
            "HA_TOKEN",
            "DISCORD_TOKEN",
            "OPENROUTER_API_KEY",
            "BINANCE_SECRET",
            "PLAID_SECRET",
            "KAGGLE_KEY",
            "REPLICATE_API_TOKEN",
        ]
    )
    return r.choice([
        f'token = os.environ["{name}"]\nif not token:\n    sys.exit("{name} is not set")',
        f"const token = process.env.{name};\nif (!token) throw new Error('missing {name}');",
        f'{name.lower()} := os.Getenv("{name}")\nif {name.lower()} == "" {{\n\tlog.Fatal("{name} required")\n}}',
        f'api_key = os.getenv("{name}", "")  # set in {r.choice(PROJECTS)}/.env, never commit it',
        f"let key = std::env::var(\"{name}\").expect(\"{name} not set\");",
    ])  # fmt: skip


@_look
def _l_code_file_read(r: random.Random) -> str:
    return r.choice([
        f'with open("/run/secrets/{r.choice(SELFHOST)}_token") as fh:\n    TOKEN = fh.read().strip()',
        f"PASSWORD=$(cat ~/.config/{r.choice(PROJECTS)}/password)\nrestic -r /mnt/usb/repo --password-file ~/.config/restic/pw backup ~/",
        f'creds = json.load(open(Path.home() / ".kaggle" / "kaggle.json"))\napi.authenticate()  # reads {r.choice(["KAGGLE_KEY", "kaggle.json"])}',
        f"key_file = Path(os.environ.get('CREDENTIALS_DIRECTORY', '/etc/{r.choice(PROJECTS)}')) / 'api_key'",
    ])  # fmt: skip


@_look
def _l_cli_pm_fetch(r: random.Random) -> str:
    svc = r.choice(ACCOUNTS).lower().replace(" ", "-").replace("+", "plus")
    return r.choice([
        f"export RESTIC_PASSWORD=$(bw get password {svc})",
        f'export OPENROUTER_API_KEY="$(op read op://Personal/{svc}/credential)"',
        f"pass show email/{r.choice(MAILDOMAINS)} | head -1 | wl-copy",
        f"security find-generic-password -s '{svc}' -w",
        f"TOKEN=$(secret-tool lookup service {svc} user {_user(r)})",
    ])  # fmt: skip


@_look
def _l_generate_cmd(r: random.Random) -> str:
    n = r.choice([16, 24, 32, 48, 64])
    return r.choice([
        f"Generate the vaultwarden admin token with `openssl rand -base64 {n}` and put it in .env (not here).",
        f"python -c 'import secrets; print(secrets.token_urlsafe({n}))'  # paste into ADMIN_TOKEN",
        f"pwgen -s {n} 1 > ./secrets/{r.choice(SELFHOST)}_db_password.txt && chmod 600 ./secrets/*",
        f"head -c {n} /dev/urandom | base64  -> use for JWT_SECRET in {r.choice(PROJECTS)}",
    ])  # fmt: skip


@_look
def _l_gh_secret_ref(r: random.Random) -> str:
    name = r.choice(
        ["NETLIFY_AUTH_TOKEN", "VERCEL_TOKEN", "EXPO_TOKEN", "NPM_TOKEN", "CWS_CLIENT_SECRET", "DEPLOY_KEY"]
    )
    return r.choice([
        f"      - name: Deploy\n        env:\n          {name}: ${{{{ secrets.{name} }}}}\n        run: npm run deploy -- --site {_uuid(r)}",
        f"      - uses: peaceiris/actions-gh-pages@v{r.randint(3, 4)}\n        with:\n          deploy_key: ${{{{ secrets.ACTIONS_DEPLOY_KEY }}}}\n          publish_dir: ./public",
        f"gh secret set {name} --repo {_user(r).replace('.', '')}/{r.choice(PROJECTS)} < token.txt",
    ])  # fmt: skip


@_look
def _l_kaggle_placeholder(r: random.Random) -> str:
    return r.choice([
        f'{{"username":"{_user(r).replace(".", "")}","key":"YOUR_KAGGLE_KEY"}}',
        f"kaggle datasets download -d {r.choice(['zillow', 'uciml', 'nasa'])}/{r.choice(['zecon', 'iris', 'meteorites'])}-{r.randint(1, 99)} -p data/",
        f"Put kaggle.json in ~/.kaggle and chmod 600 it (downloaded {_date(r)}).",
    ])  # fmt: skip


@_look
def _l_otpauth_redacted(r: random.Random) -> str:
    iss = r.choice(TOTP_ISSUERS)
    return r.choice([
        f"otpauth://totp/{iss}:{_email(r)}?secret=REDACTED&issuer={iss}",
        f"TOTP for {iss} lives in Aegis; encrypted export on the NAS ({_date(r)}).",
        f"2FA on {iss}: authenticator app + {r.randint(1, 2)} hardware keys. Backup codes printed and in the fire safe.",
        f"Moved {r.randint(3, 40)} TOTP entries from Google Authenticator to Ente Auth on {_date(r)}.",
    ])  # fmt: skip


@_look
def _l_backup_codes_stored(r: random.Random) -> str:
    return r.choice([
        f"Regenerated the {r.choice(TOTP_ISSUERS)} recovery codes; old set invalidated, new set printed (not saved digitally).",
        f"{r.randint(2, 9)} of 10 {r.choice(TOTP_ISSUERS)} backup codes left -- regenerate soon",
        f"Recovery kit PDF for {r.choice(TOTP_ISSUERS)} saved to the encrypted USB stick, label '{r.choice(TITLE_WORDS)}'",
    ])  # fmt: skip


@_look
def _l_pin_reference(r: random.Random) -> str:
    return r.choice([
        f"The card PIN is the usual one ({r.choice(PEOPLE)} knows it).",
        f"Alarm code didn't change after the service visit on {_date(r)}.",
        f"Reminder: SIM PIN is the default {r.choice(['from the card', 'on the plastic holder'])}, change it at some point.",
        f"Enter a {r.choice([4, 6])}-digit PIN when the terminal asks; after 3 tries it locks.",
    ])  # fmt: skip


@_look
def _l_password_hint(r: random.Random) -> str:
    return r.choice([
        f"Hint for the guest Wi-Fi: our dog's name plus the year we moved in. Network: {r.choice(SSIDS)}",
        f"{r.choice(ACCOUNTS)} password hint: 'first concert + street'",
        f"Password rule for the family accounts: 4 random words, at least 20 chars, no reuse ({r.choice(PEOPLE)} agreed).",
    ])  # fmt: skip


# --- identifiers and numbers ---------------------------------------------------------------------


@_look
def _l_serials(r: random.Random) -> str:
    return r.choice([
        f"Synology DS920+ serial {r.randint(20, 24)}{r.randint(10, 90)}PCN{r.randint(100000, 999999)} -- warranty until {_date(r)}",
        f"iPhone serial {_rs(r, UPNUM, 12)}, AppleCare agreement {r.randint(10**9, 10**10 - 1)}",
        f"UPS: APC Back-UPS 700, S/N {r.randint(3, 5)}B{r.randint(1000, 2400)}X{r.randint(10000, 99999)}",
        f"Fridge model RB38T600FB1 serial {_rs(r, UPNUM, 15)} (for the repair appointment)",
        f"Shelly Plus 1PM device id shellyplus1pm-{_hex(r, 12)}",
    ])  # fmt: skip


@_look
def _l_mac_leases(r: random.Random) -> str:
    lines = [
        f"{_lan_ip(r)}\t{_mac(r)}\t{h}"
        for h in r.sample(["tv-livingroom", "plug-desk", "pixel-8", "printer", "nas", "esp-porch", "ipad"], 3)
    ]
    return r.choice([
        "DHCP leases:\n" + "\n".join(lines),
        f"Static lease for the NAS: MAC {_mac(r)} -> {_lan_ip(r)}",
        f"UniFi: client {_mac(r, '-')} blocked (unknown device on IoT VLAN)",
    ])  # fmt: skip


@_look
def _l_imei(r: random.Random) -> str:
    body = _rs(r, DIGITS, 14)
    imei = body + _luhn_digit(body)
    return r.choice([
        f"Lost phone report: IMEI {imei}, model {r.choice(['Pixel 8', 'Galaxy S23', 'iPhone 13'])}",
        f"*#06# shows IMEI1 {imei}",
        f"Insurance claim needs the IMEI: {imei}",
    ])  # fmt: skip


@_look
def _l_license_key(r: random.Random) -> str:
    key = "-".join(_rs(r, UPNUM, 5) for _ in range(5))
    prod = r.choice(
        ["Windows 11 Pro", "Affinity Photo", "Sublime Text", "Beyond Compare", "JetBrains All Products", "Office 2021"]
    )
    return r.choice([
        f"{prod} licence key: {key} (bought {_date(r)})",
        f"Product key for the old laptop ({prod}): {key}",
        f"License: {prod}\nSeats: 1\nKey: {key}",
    ])  # fmt: skip


@_look
def _l_order_number(r: random.Random) -> str:
    return r.choice([
        f"Amazon order {r.randint(100, 999)}-{r.randint(10**6, 10**7 - 1)}-{r.randint(10**6, 10**7 - 1)} -- ESP32 boards, arriving {_date(r)}",
        f"AliExpress order #{r.randint(10**15, 10**16 - 1)}: 10x Zigbee plugs",
        f"IKEA order {r.randint(10**8, 10**9 - 1)} -- delivery slot {_time(r)}",
        f"Thomann order no. {r.randint(10**7, 10**8 - 1)}, invoice RE-{r.randint(10**6, 10**7 - 1)}",
    ])  # fmt: skip


@_look
def _l_tracking(r: random.Random) -> str:
    return r.choice([
        f"UPS tracking 1Z{_rs(r, UPNUM, 6)}{_rs(r, DIGITS, 10)}",
        f"USPS: {_rs(r, DIGITS, 22)}",
        f"DHL Sendungsnummer {_rs(r, DIGITS, 10)} -- Paketshop um die Ecke",
        f"InPost paczka {_rs(r, DIGITS, 24)}",
        f"Royal Mail {_rs(r, UPPER, 2)}{_rs(r, DIGITS, 9)}GB",
    ])  # fmt: skip


@_look
def _l_booking(r: random.Random) -> str:
    pnr = _rs(r, UPPER.replace("O", "").replace("I", "") + "23456789", 6)
    return r.choice([
        f"Flight {r.choice(['LH', 'IB', 'FR', 'LO', 'NH'])}{r.randint(100, 9999)} booking reference {pnr}, seats 14A/14B",
        f"Hotel confirmation {r.randint(10**9, 10**10 - 1)} (Booking.com), check-in {_date(r)}",
        f"Renfe localizador {pnr} -- Madrid-Valencia {_time(r)}",
        f"Airbnb reservation HM{_rs(r, UPNUM, 8)} for the cabin",
    ])  # fmt: skip


@_look
def _l_loyalty(r: random.Random) -> str:
    return r.choice([
        f"Miles & More number {r.randint(10**14, 10**15 - 1)}",
        f"IKEA Family card {_rs(r, DIGITS, 19)}",
        f"Library card for {r.choice(PEOPLE)}: {r.randint(10**13, 10**14 - 1)}",
        f"Costco membership #{r.randint(10**11, 10**12 - 1)} renews {_date(r)}",
        f"Payback Kundennummer {_rs(r, DIGITS, 10)}",
    ])  # fmt: skip


@_look
def _l_gift_redeemed(r: random.Random) -> str:
    code = "-".join(_rs(r, UPNUM, 4) for _ in range(4))
    return r.choice([
        f"Steam gift card {code} -- REDEEMED on {_date(r)}, balance added",
        f"Amazon gift code {code} (already applied to my account, $25)",
        f"Redeemed the Nintendo eShop card {code} for {r.choice(PEOPLE)}'s birthday game -- code is used up",
    ])  # fmt: skip


@_look
def _l_promo_code(r: random.Random) -> str:
    code = r.choice(["WELCOME", "SPRING", "SAVE", "FAMILY", "HOMELAB", "BLACKFRIDAY"]) + str(
        r.choice([10, 15, 20, 25, 30])
    )
    return r.choice([
        f"Public promo code from the newsletter: {code} ({r.randint(10, 30)}% off until {_date(r)})",
        f"Use code {code} at checkout for the Raspberry Pi kit",
        f"Podcast sponsor code {code} -- works for first month of {r.choice(STREAMING)}",
    ])  # fmt: skip


@_look
def _l_iban(r: random.Random) -> str:
    return r.choice([
        f"Rent goes to IBAN {_iban(r)} by the 3rd",
        f"Transfer {r.randint(20, 900)}.{r.randint(0, 99):02d} EUR to {_iban(r)} (ref: {r.choice(['Kita', 'Strom', 'Miete', 'piso'])} {r.randint(1, 12)}/{r.randint(2023, 2025)})",
        f"{r.choice(PEOPLE)}'s account for the holiday split: {_iban(r)}",
    ])  # fmt: skip


@_look
def _l_phone(r: random.Random) -> str:
    return r.choice([
        f"Plumber: +34 6{_rs(r, DIGITS, 2)} {_rs(r, DIGITS, 3)} {_rs(r, DIGITS, 3)}",
        f"{r.choice(PEOPLE)} new number: +48 {_rs(r, DIGITS, 3)} {_rs(r, DIGITS, 3)} {_rs(r, DIGITS, 3)}",
        f"ISP support hotline 0800 {_rs(r, DIGITS, 3)} {_rs(r, DIGITS, 4)}",
        f"Vet: +49 30 {_rs(r, DIGITS, 8)}",
        f"Call {r.choice(['Yuki', 'Kenji'])} at 090-{_rs(r, DIGITS, 4)}-{_rs(r, DIGITS, 4)}",
    ])  # fmt: skip


@_look
def _l_ssid(r: random.Random) -> str:
    ch = r.choice([1, 6, 11, 36, 44, 149])
    return r.choice([
        f"Networks: main '{r.choice(SSIDS)}' (ch {ch}), IoT '{r.choice(SSIDS)}_IoT' on VLAN {r.randint(2, 50)}",
        f"Renamed the guest network to '{r.choice(SSIDS)}' on {_date(r)}",
        f"Phone keeps hopping between {r.choice(SSIDS)} and the mesh node on channel {ch}",
    ])  # fmt: skip


@_look
def _l_wifi_scan(r: random.Random) -> str:
    rows = [
        f"  {_mac(r)}  {s:<24} Infra  {r.choice([1, 6, 11, 36, 149])}  {r.randint(50, 866)} Mbit/s  {r.randint(20, 99)}"
        for s in r.sample(SSIDS, 3)
    ]
    return (
        "$ nmcli dev wifi list\nIN-USE  BSSID              SSID                     MODE   CHAN  RATE        SIGNAL\n"
        + "\n".join(rows)
    )


@_look
def _l_open_guest(r: random.Random) -> str:
    return r.choice([
        f"The café network '{r.choice(SSIDS)}' is open, no password -- accept the captive portal.",
        f"Guest SSID has no key on purpose; it's isolated and rate-limited to {r.randint(5, 50)} Mbit/s.",
        f"Hotel Wi-Fi login is room number + last name (room {r.randint(100, 999)}).",
    ])  # fmt: skip


@_look
def _l_public_ip(r: random.Random) -> str:
    return r.choice([
        f"Public IP changed to {_pub_ip(r)} after the router reboot; DDNS updated.",
        f"A record home.{_domain(r)} -> {_pub_ip(r)} (proxied: false)",
        f"ssh -p {r.randint(2000, 65000)} {_user(r)}@{_pub_ip(r)}",
        f"Traceroute hop {r.randint(3, 9)}: {_pub_ip(r)} ({r.randint(4, 40)} ms)",
    ])  # fmt: skip


@_look
def _l_hostnames(r: random.Random) -> str:
    return r.choice([
        f"Services: https://{_sub(r)} , https://{_sub(r)} , https://{_sub(r)}",
        f"Split DNS: *.home.{_domain(r)} -> {_lan_ip(r)} (Pi-hole local records)",
        f"{_sub(r)} CNAME {_uuid(r)}.cfargotunnel.com",
    ])  # fmt: skip


@_look
def _l_tailscale_ids(r: random.Random) -> str:
    return r.choice([
        f"nas.{r.choice(['tail', 'tailnet-'])}{_hex(r, 4)}.ts.net -> 100.{r.randint(64, 127)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
        f"tailscale status\n100.{r.randint(64, 127)}.{r.randint(0, 255)}.{r.randint(1, 254)}  pi4  {_user(r)}@  linux  active; direct {_pub_ip(r)}:41641",
        f"Node key of the exit node: nodekey:{_hex(r, 64)}",
    ])  # fmt: skip


@_look
def _l_zerotier_ids(r: random.Random) -> str:
    return r.choice([
        f"zerotier-cli join {_hex(r, 16)}",
        f"ZeroTier network {_hex(r, 16)}, member {_hex(r, 10)} authorised, managed IP 10.147.{r.randint(17, 20)}.{r.randint(2, 250)}",
        f"200 info {_hex(r, 10)} 1.{r.randint(10, 14)}.{r.randint(0, 9)} ONLINE",
    ])  # fmt: skip


@_look
def _l_plex_ids(r: random.Random) -> str:
    return r.choice([
        f'<MediaContainer machineIdentifier="{_hex(r, 40)}" version="1.{r.randint(32, 41)}.{r.randint(0, 9)}.{r.randint(1000, 9999)}-{_hex(r, 9)}">',
        f"Plex server ID {_hex(r, 40)} -- library 'Films' has {r.randint(200, 2000)} items",
        f"X-Plex-Client-Identifier: {_uuid(r)}",
    ])  # fmt: skip


@_look
def _l_docker_digest(r: random.Random) -> str:
    img = r.choice(
        [
            "ghcr.io/immich-app/immich-server",
            "vaultwarden/server",
            "nextcloud",
            "gitea/gitea",
            "ghcr.io/paperless-ngx/paperless-ngx",
            "traefik",
        ]
    )
    return r.choice([
        f"image: {img}@sha256:{_hex(r, 64)}",
        f"Pinned {img} to sha256:{_hex(r, 64)} after the broken release",
        f"{img}   latest   {_hex(r, 12)}   {r.randint(2, 9)} days ago   {r.randint(100, 900)}MB",
    ])  # fmt: skip


@_look
def _l_checksum(r: random.Random) -> str:
    f = r.choice(
        [
            "debian-12.7.0-amd64-netinst.iso",
            "ubuntu-24.04.1-live-server-amd64.iso",
            "haos_rpi4-64-13.2.img.xz",
            "proxmox-ve_8.2-2.iso",
            "TrueNAS-SCALE-24.04.2.iso",
        ]
    )
    return r.choice([
        f"{_hex(r, 64)}  {f}",
        f"sha256sum {f}\n{_hex(r, 64)}  {f}\nmatches the SHA256SUMS file",
        f"MD5 of the firmware: {_hex(r, 32)} (from the vendor page)",
    ])  # fmt: skip


@_look
def _l_commit_sha(r: random.Random) -> str:
    return r.choice([
        f"commit {_hex(r, 40)}\nAuthor: {_user(r)} <{_email(r)}>\nDate:   {_date(r)}\n\n    fix plant watering schedule",
        f"reverted {_hex(r, 7)} (broke the discord bot), now at {_hex(r, 7)}",
        f"pip install git+https://github.com/{_user(r).replace('.', '')}/{r.choice(PROJECTS)}@{_hex(r, 40)}",
    ])  # fmt: skip


@_look
def _l_uuid(r: random.Random) -> str:
    return r.choice([
        f"Immich album {_uuid(r)} shared with {r.choice(PEOPLE)}",
        f"YNAB budget id {_uuid(r)}, category 'Groceries' {_uuid(r)}",
        f"blkid: /dev/sda1: UUID=\"{_uuid(r)}\" TYPE=\"ext4\"",
        f"UUID={_uuid(r)} /mnt/tank ext4 defaults,nofail 0 2",
        f"Expo projectId: {_uuid(r)}",
    ])  # fmt: skip


@_look
def _l_ha_device_ids(r: random.Random) -> str:
    return r.choice([
        f"automation:\n  - alias: Porch light at sunset\n    trigger:\n      - platform: sun\n        event: sunset\n    action:\n      - service: light.turn_on\n        target:\n          device_id: {_hex(r, 32)}",
        f"  - device_id: {_hex(r, 32)}\n    domain: zha\n    type: remote_button_short_press\n    subtype: turn_on",
        f"HA config entry {_hex(r, 26).upper()} for the Hue bridge failed to set up",
    ])  # fmt: skip


@_look
def _l_zigbee(r: random.Random) -> str:
    ieee = "0x" + _hex(r, 16)
    return r.choice([
        f"'{ieee}':\n  friendly_name: {r.choice(['kitchen_plug', 'hall_motion', 'desk_lamp'])}\n  retain: false",
        f"Zigbee2MQTT: Device '{ieee}' joined (IKEA E1603)",
        f"zigbee2mqtt/bridge/request/device/remove {{\"id\": \"{ieee}\"}}",
    ])  # fmt: skip


@_look
def _l_mqtt_topics(r: random.Random) -> str:
    dev = f"tasmota_{_hex(r, 6).upper()}"
    return r.choice([
        f"mosquitto_sub -h {_lan_ip(r)} -t 'tele/{dev}/SENSOR' -v",
        "listener 1883\nallow_anonymous false\npassword_file /mosquitto/config/passwd\npersistence true",
        f'tele/{dev}/STATE {{"Time":"{_date(r)}T{_time(r)}:00","Uptime":"{r.randint(0, 40)}T02:11:05","POWER":"ON","Wifi":{{"SSId":"{r.choice(SSIDS)}","RSSI":{r.randint(30, 99)}}}}}',
    ])  # fmt: skip


@_look
def _l_pihole_log(r: random.Random) -> str:
    dom = r.choice(
        [
            "telemetry.example-tv.com",
            "ads.doubleclick.net",
            "graph.facebook.com",
            "time.apple.com",
            "connectivitycheck.gstatic.com",
        ]
    )
    return r.choice([
        f"{_date(r)} {_time(r)}:{r.randint(10, 59)} query[A] {dom} from {_lan_ip(r)}\n... gravity blocked {dom} is 0.0.0.0",
        f"Pi-hole: {r.randint(10, 40)}.{r.randint(0, 9)}% of {r.randint(10000, 90000)} queries blocked today",
        "pihole -a -p   # prompts for the new web password, nothing to paste here",
    ])  # fmt: skip


@_look
def _l_unifi_log(r: random.Random) -> str:
    return r.choice([
        f"UniFi: Device U6-Lite ({_mac(r)}) adopted, firmware 6.{r.randint(0, 6)}.{r.randint(10, 60)}",
        f"[{_date(r)} {_time(r)}] WLAN 'IoT' client {_mac(r)} roamed from AP-Hall to AP-Office (RSSI -{r.randint(40, 80)})",
        f"set-inform http://{_lan_ip(r)}:8080/inform",
    ])  # fmt: skip


@_look
def _l_firmware_versions(r: random.Random) -> str:
    return r.choice([
        f"Router firmware RT-AX86U 3.0.0.4.388_{r.randint(20000, 25000)} installed {_date(r)}",
        f"Home Assistant 20{r.randint(23, 25)}.{r.randint(1, 12)}.{r.randint(0, 4)}, Supervisor 20{r.randint(23, 25)}.{r.randint(1, 12)}.{r.randint(0, 4)}",
        f"DSM 7.2.{r.randint(0, 2)}-{r.randint(64000, 72000)} Update {r.randint(1, 6)}",
        f"FRITZ!OS {r.randint(7, 8)}.{r.randint(10, 60)} -- changelog mentions Wi-Fi mesh fixes",
    ])  # fmt: skip


# --- self-hosting configs without secrets --------------------------------------------------------


@_look
def _l_traefik_usersfile(r: random.Random) -> str:
    app = r.choice(SELFHOST)
    return r.choice([
        f'      - "traefik.http.middlewares.{app}-auth.basicauth.usersfile=/etc/traefik/users.htpasswd"\n      - "traefik.http.routers.{app}.middlewares={app}-auth"',
        f"      - \"traefik.http.routers.{app}.rule=Host(`{_sub(r, app)}`)\"\n      - \"traefik.http.routers.{app}.tls.certresolver=le\"",
        f"certificatesResolvers:\n  le:\n    acme:\n      email: {_email(r)}\n      storage: /letsencrypt/acme.json\n      dnsChallenge:\n        provider: cloudflare",
    ])  # fmt: skip


@_look
def _l_caddy_plain(r: random.Random) -> str:
    app = r.choice(SELFHOST)
    return r.choice([
        f"{_sub(r, app)} {{\n    reverse_proxy {app}:{r.randint(3000, 9000)}\n    encode zstd gzip\n}}",
        f"{{\n    email {_email(r)}\n    acme_dns cloudflare {{env.CF_API_TOKEN}}\n}}",
        f"{_sub(r, app)} {{\n    forward_auth authelia:9091 {{\n        uri /api/authz/forward-auth\n    }}\n    reverse_proxy {app}:80\n}}",
    ])  # fmt: skip


@_look
def _l_cf_tunnel_config(r: random.Random) -> str:
    tid = _uuid(r)
    return r.choice([
        f"tunnel: {tid}\ncredentials-file: /home/{_user(r).replace('.', '')}/.cloudflared/{tid}.json\ningress:\n  - hostname: {_sub(r)}\n    service: http://localhost:{r.randint(3000, 9000)}\n  - service: http_status:404",
        f"cloudflared tunnel route dns {tid} {_sub(r)}",
        f"Tunnel {tid} healthy, {r.randint(2, 4)} connections ({r.choice(['fra', 'ams', 'waw', 'nrt'])}{r.randint(1, 20):02d})",
    ])  # fmt: skip


@_look
def _l_cf_ids(r: random.Random) -> str:
    return r.choice([
        f"zone_id = \"{_hex(r, 32)}\"\naccount_id = \"{_hex(r, 32)}\"",
        f"Cloudflare zone id for {_domain(r)}: {_hex(r, 32)}",
        f"CF_ZONE_ID={_hex(r, 32)}\nCF_RECORD_NAME=home.{_domain(r)}",
        f"Ray ID: {_hex(r, 16)}-{r.choice(['FRA', 'WAW', 'MAD', 'CDG', 'NRT'])}",
    ])  # fmt: skip


@_look
def _l_dns_records(r: random.Random) -> str:
    d = _domain(r)
    return r.choice([
        f'{d}. TXT "v=spf1 include:_spf.{r.choice(["fastmail.com", "google.com", "mailgun.org"])} ~all"',
        f'_dmarc.{d}. TXT "v=DMARC1; p=quarantine; rua=mailto:dmarc@{d}; pct=100"',
        f"MX 10 in1-smtp.messagingengine.com.\nMX 20 in2-smtp.messagingengine.com. ; {d}",
    ])  # fmt: skip


@_look
def _l_dkim(r: random.Random) -> str:
    der = RSA_SPKI_HEAD + r.randbytes(256) + bytes.fromhex("0203010001")
    return f'{r.choice(["fm1", "google", "mail", "s1"])}._domainkey.{_domain(r)}. TXT "v=DKIM1; k=rsa; p={_b64(der)}"'


@_look
def _l_acme_challenge(r: random.Random) -> str:
    return r.choice([
        f'_acme-challenge.{_domain(r)}. 120 IN TXT "{_rs(r, B64URL, 43)}"',
        f"lego: [INFO] [*.{_domain(r)}] acme: Waiting for DNS record propagation. TXT value {_rs(r, B64URL, 43)}",
        f"Certificate for {_sub(r)} renewed, expires {_date(r)} (serial {_hex(r, 36)})",
    ])  # fmt: skip


@_look
def _l_nextcloud_occ(r: random.Random) -> str:
    return r.choice([
        f"docker exec -u www-data nextcloud php occ user:resetpassword {_user(r)}   # asks interactively",
        f"php occ files:scan --path='/{_user(r)}/files/Photos/{r.randint(2015, 2025)}'",
        f"occ config:system:set trusted_domains {r.randint(1, 4)} --value={_sub(r, 'cloud')}",
        f"Nextcloud {r.randint(27, 30)}.0.{r.randint(0, 9)}: {r.randint(10, 99)} GB used by {_user(r)}, {r.randint(2, 8)} app passwords listed under Security (names only)",
    ])  # fmt: skip


@_look
def _l_immich_paperless_ids(r: random.Random) -> str:
    return r.choice([
        f"Paperless document #{r.randint(100, 4000)} ASN {r.randint(1, 999):05d} tagged 'tax-{r.randint(2019, 2025)}'",
        f"Immich asset {_uuid(r)} checksum {_b64(r.randbytes(20))}",
        f"Immich server v1.{r.randint(90, 130)}.{r.randint(0, 3)}, machine learning container healthy",
    ])  # fmt: skip


@_look
def _l_gitea_refs(r: random.Random) -> str:
    host = _sub(r, "git")
    return r.choice([
        f"git clone ssh://git@{host}:2222/{_user(r).replace('.', '')}/{r.choice(PROJECTS)}.git",
        f"act_runner: labels ubuntu-latest:docker://node:20-bookworm, instance https://{host}, registered {_date(r)}",
        f"Gitea {r.randint(1, 1)}.{r.randint(20, 23)}.{r.randint(0, 5)} -- mirror of github.com/{_user(r).replace('.', '')}/{r.choice(PROJECTS)} synced",
    ])  # fmt: skip


@_look
def _l_cron(r: random.Random) -> str:
    return r.choice([
        f"{r.randint(0, 59)} {r.randint(0, 23)} * * * /usr/local/bin/restic-backup.sh >> /var/log/restic.log 2>&1",
        "*/5 * * * * ~/duckdns/duck.sh >/dev/null 2>&1   # token lives in duck.sh (chmod 700)",
        f"@reboot sleep {r.randint(10, 90)} && docker compose -f /opt/{r.choice(SELFHOST)}/compose.yml up -d",
    ])  # fmt: skip


@_look
def _l_container_ids(r: random.Random) -> str:
    return r.choice([
        f"CONTAINER ID   IMAGE   STATUS\n{_hex(r, 12)}   {r.choice(SELFHOST)}:latest   Up {r.randint(2, 60)} hours (healthy)",
        f"docker logs {_hex(r, 64)} --tail 50",
        f"journalctl --boot={_hex(r, 32)} -u docker",
    ])  # fmt: skip


@_look
def _l_request_ids(r: random.Random) -> str:
    return r.choice([
        f"{_date(r)}T{_time(r)}:12Z INFO request_id={_hex(r, 32)} path=/api/photos status=200 dur={r.randint(2, 400)}ms",
        f"traceparent: 00-{_hex(r, 32)}-{_hex(r, 16)}-01",
        f"X-Request-Id: {_uuid(r)}\nX-RateLimit-Remaining: {r.randint(0, 5000)}",
    ])  # fmt: skip


@_look
def _l_error_messages(r: random.Random) -> str:
    return r.choice([
        f"401 Unauthorized: {{\"message\": \"Invalid API key\", \"code\": {r.choice([401, 403])}}} -- regenerate in the dashboard",
        f"psycopg2.OperationalError: FATAL:  password authentication failed for user \"{r.choice(SELFHOST)}\"",
        f"Error: RCON authentication failed (server {_lan_ip(r)}:25575)",
        f"discord.errors.LoginFailure: Improper token has been passed. (after rotating on {_date(r)})",
        f"mosquitto: Client {r.choice(['tasmota', 'z2m', 'esphome'])}_{_hex(r, 6)} disconnected, not authorised.",
        "ERROR: The HF token is expired or revoked (HTTP 401), see https://huggingface.co/settings/tokens",
    ])  # fmt: skip


# --- public keys, publishable keys, digests -----------------------------------------------------


@_look
def _l_ssh_pub(r: random.Random) -> str:
    return r.choice([
        f"{_ssh_pub(r)} {_user(r)}@{r.choice(['laptop', 'pi4', 'desktop', 'phone'])}",
        f"Deploy key (public half, read-only) added to {r.choice(PROJECTS)}:\n{_ssh_pub(r)} deploy@gh-pages",
        f"~/.ssh/authorized_keys\n{_ssh_pub(r)} {_user(r)}\n{_ssh_pub(r)} backup@nas",
    ])  # fmt: skip


@_look
def _l_ssh_fingerprint(r: random.Random) -> str:
    return r.choice([
        f"ED25519 key fingerprint is SHA256:{_b64(r.randbytes(32)).rstrip('=')}.",
        f"256 SHA256:{_b64(r.randbytes(32)).rstrip('=')} {_user(r)}@laptop (ED25519)",
        f"{_sub(r, 'git')} ssh-ed25519 {_ssh_pub(r).split()[1]}",
    ])  # fmt: skip


@_look
def _l_wg_public(r: random.Random) -> str:
    return r.choice([
        f"[Peer]\n# {r.choice(['phone', 'laptop', 'parents'])}\nPublicKey = {_wg_key(r)}\nAllowedIPs = 10.8.0.{r.randint(2, 50)}/32",
        "[Interface]\nAddress = 10.8.0.1/24\nListenPort = 51820\nPostUp = wg set %i private-key /etc/wireguard/%i.key",
        f"wg show\npeer: {_wg_key(r)}\n  endpoint: {_pub_ip(r)}:{r.randint(1024, 65000)}\n  latest handshake: {r.randint(1, 59)} seconds ago",
    ])  # fmt: skip


@_look
def _l_age_pub(r: random.Random) -> str:
    pub = _bech32("age", _to5(r.randbytes(32)))
    return r.choice([
        f"creation_rules:\n  - path_regex: secrets/.*\\.yaml$\n    age: {pub}",
        f"age -r {pub} -o backup.tar.age backup.tar",
        f"my age recipient (public, fine to share): {pub}",
    ])  # fmt: skip


@_look
def _l_npub(r: random.Random) -> str:
    npub = _bech32("npub", _to5(r.randbytes(32)))
    return r.choice(
        [
            f"Follow the blog bot on nostr: {npub}",
            f'{{"name": "{_user(r)}", "nip05": "{_user(r)}@{_domain(r)}", "pubkey": "{npub}"}}',
        ]
    )


@_look
def _l_pgp_public(r: random.Random) -> str:
    fpr = _hex(r, 40).upper()
    return r.choice([
        f"PGP fingerprint: {' '.join(fpr[i : i + 4] for i in range(0, 40, 4))}",
        f"gpg --recv-keys {fpr[-16:]}",
        f"Signed release with key 0x{fpr[-16:]}; verify with gpg --verify SHA256SUMS.asc",
    ])  # fmt: skip


@_look
def _l_tls_cert(r: random.Random) -> str:
    der = bytes.fromhex("308203") + r.randbytes(r.randint(300, 500))
    return f"Root CA of the homelab (public, install on phones):\n{_pem('CERTIFICATE', der)}"


@_look
def _l_publishable_keys(r: random.Random) -> str:
    pk = r.choice(["pk_" + "live_", "pk_" + "test_"]) + _rs(r, ALNUM, r.choice([24, 99]))
    return r.choice([
        f"STRIPE_PUBLISHABLE_KEY={pk}",
        f'<script>const stripe = Stripe("{pk}");</script>',
        f"NEXT_PUBLIC_STRIPE_KEY={pk}  # safe to ship in the bundle",
    ])  # fmt: skip


@_look
def _l_mapbox_public(r: random.Random) -> str:
    body = _b64u(
        json.dumps({"u": _user(r).replace(".", ""), "a": "c" + _rs(r, LOWNUM, 24)}, separators=(",", ":")).encode()
    )
    tok = "p" + "k." + body + "." + _rs(r, B64URL, 22)
    return r.choice([f"mapboxgl.accessToken = '{tok}';", f"EXPO_PUBLIC_MAPBOX_TOKEN={tok}"])


@_look
def _l_supabase_anon(r: random.Random) -> str:
    iat = r.randint(1_680_000_000, 1_730_000_000)
    ref = _rs(r, LOWER, 20)
    tok = _jwt(r, {"iss": "supabase", "ref": ref, "role": "anon", "iat": iat, "exp": iat + 315_360_000})
    return r.choice([
        f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={tok}",
        f'const supabase = createClient("https://{ref}.supabase.co", "{tok}") // anon key, RLS on',
    ])  # fmt: skip


@_look
def _l_client_ids(r: random.Random) -> str:
    cid = f"{r.randint(10**11, 10**12 - 1)}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com"
    return r.choice([
        f"OAuth client ID for the extension: {cid}",
        f"SPOTIPY_CLIENT_ID={_hex(r, 32)}\nSPOTIPY_REDIRECT_URI=http://127.0.0.1:8888/callback",
        f"PLAID_CLIENT_ID={_hex(r, 24)}\nPLAID_ENV=sandbox\nPLAID_COUNTRY_CODES=US,CA",
        f"Discord application id {r.randint(10**17, 12 * 10**17)}, public key {_hex(r, 64)}",
        f"reddit app client id {_rs(r, B64URL, 14)} (the secret is in the password manager)",
    ])  # fmt: skip


@_look
def _l_chrome_ext(r: random.Random) -> str:
    ext = _rs(r, EXT_ID, 32)
    der = RSA_SPKI_HEAD + r.randbytes(256) + bytes.fromhex("0203010001")
    return r.choice([
        f"Chrome Web Store item: https://chromewebstore.google.com/detail/{r.choice(PROJECTS)}/{ext}",
        f'manifest.json:\n{{\n  "manifest_version": 3,\n  "name": "Tab Sorter",\n  "key": "{_b64(der)}"\n}}',
        f"chrome-extension://{ext}/options.html",
    ])  # fmt: skip


@_look
def _l_apple_ids(r: random.Random) -> str:
    return r.choice([
        f"Team ID {_rs(r, UPNUM, 10)}, bundle id com.{_user(r).replace('.', '')}.{r.choice(PROJECTS).replace('-', '')}",
        f"App Store Connect app id {r.randint(10**9, 7 * 10**9)}; TestFlight build {r.randint(1, 300)}",
        f"UDID of the test iPad: 0000{r.randint(8000, 8120)}-{_hex(r, 16).upper()}",
        f"notarytool submission id {_uuid(r)}: Accepted",
    ])  # fmt: skip


@_look
def _l_expo_firebase_ids(r: random.Random) -> str:
    proj = r.choice(PROJECTS)
    return r.choice([
        f'"extra": {{ "eas": {{ "projectId": "{_uuid(r)}" }} }}, "owner": "{_user(r).replace(".", "")}", "slug": "{proj}"',
        f"EAS build {_uuid(r)} finished: https://expo.dev/accounts/{_user(r).replace('.', '')}/projects/{proj}/builds",
        f'"project_info": {{ "project_number": "{r.randint(10**11, 10**12 - 1)}", "project_id": "{proj}-{r.randint(1000, 9999)}" }}',
        f"mobilesdk_app_id: 1:{r.randint(10**11, 10**12 - 1)}:android:{_hex(r, 22)}",
    ])  # fmt: skip


@_look
def _l_netlify_vercel_ids(r: random.Random) -> str:
    return r.choice([
        f"NETLIFY_SITE_ID={_uuid(r)}",
        f'{{"projectId":"prj_{_rs(r, ALNUM, 28)}","orgId":"team_{_rs(r, ALNUM, 24)}"}}',
        f"Deployed to https://{r.choice(PROJECTS)}-{_rs(r, LOWNUM, 9)}-{_user(r).replace('.', '')}.vercel.app",
        f"Netlify deploy {_hex(r, 24)} published in {r.randint(8, 90)}s",
    ])  # fmt: skip


@_look
def _l_base64_image(r: random.Random) -> str:
    png = PNG_HEAD + r.randbytes(r.randint(60, 140))
    return r.choice([
        f'<img alt="favicon" src="data:image/png;base64,{_b64(png)}">',
        f".logo {{ background-image: url(data:image/png;base64,{_b64(png)}); }}",
        f'{{"avatar": "data:image/png;base64,{_b64(png)}", "name": "{_user(r)}"}}',
    ])  # fmt: skip


@_look
def _l_base64_config(r: random.Random) -> str:
    cfg = {
        "theme": r.choice(["dark", "light"]),
        "lang": r.choice(["es", "fr", "de", "it", "ja", "pl", "en"]),
        "widgets": r.sample(["clock", "weather", "calendar", "photos", "tasks"], 3),
    }
    blob = _b64(json.dumps(cfg).encode())
    return r.choice(
        [
            f"Dashboard share link state: https://{_sub(r)}/#/s/{blob}",
            f"echo {blob} | base64 -d  # just the layout config",
        ]
    )


@_look
def _l_qr_description(r: random.Random) -> str:
    return r.choice([
        f"Printed the guest Wi-Fi QR (WPA2, SSID '{r.choice(SSIDS)}') and framed it by the door; password not written anywhere else.",
        f"QR on the back of the smart plug encodes the HomeKit pairing info; sticker photographed for {r.choice(PEOPLE)}.",
        f"The TOTP QR for {r.choice(TOTP_ISSUERS)} was scanned into Aegis and then the screenshot deleted.",
        f"QR code on the parcel label links to the tracking page (https://inpost.pl/sledzenie-przesylek?number={_rs(r, DIGITS, 24)})",
    ])  # fmt: skip


@_look
def _l_hashes_lockfiles(r: random.Random) -> str:
    return r.choice([
        f'"integrity": "sha512-{_b64(r.randbytes(64))}"',
        f"requests==2.32.{r.randint(0, 3)} \\\n    --hash=sha256:{_hex(r, 64)}",
        f"golang.org/x/crypto v0.{r.randint(20, 30)}.0 h1:{_b64(r.randbytes(32))}",
        f'<script src="https://cdn.jsdelivr.net/npm/alpinejs@3" integrity="sha384-{_b64(r.randbytes(48))}" crossorigin="anonymous"></script>',
    ])  # fmt: skip


@_look
def _l_lfs_pointer(r: random.Random) -> str:
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(10**5, 10**9)}"


@_look
def _l_hf_refs(r: random.Random) -> str:
    model = r.choice(
        [
            "meta-llama/Llama-3.2-3B-Instruct",
            "Qwen/Qwen2.5-7B-Instruct",
            "microsoft/Phi-3-mini-4k-instruct",
            "BAAI/bge-small-en-v1.5",
        ]
    )
    return r.choice([
        f"~/.cache/huggingface/hub/models--{model.replace('/', '--')}/snapshots/{_hex(r, 40)}/config.json",
        f'AutoModel.from_pretrained("{model}", revision="{_hex(r, 40)}")',
        f"ollama pull {r.choice(['llama3.1:8b', 'qwen2.5:7b', 'mistral:7b'])}\npulling manifest\npulling {_hex(r, 12)}... 100% {r.randint(2, 9)}.{r.randint(0, 9)} GB\nverifying sha256 digest",
    ])  # fmt: skip


@_look
def _l_replicate_version(r: random.Random) -> str:
    return r.choice([
        f'output = replicate.run("stability-ai/sdxl:{_hex(r, 64)}", input={{"prompt": "watercolor fox"}})',
        f"Prediction {_rs(r, LOWNUM, 26)} succeeded in {r.randint(2, 40)}.{r.randint(0, 9)}s",
    ])  # fmt: skip


@_look
def _l_llm_usage(r: random.Random) -> str:
    return r.choice([
        f"OpenRouter usage this month: ${r.randint(0, 30)}.{r.randint(0, 99):02d}, {r.randint(10**5, 10**7)} tokens, model anthropic/claude-3.5-sonnet",
        f"max_tokens: {r.choice([256, 1024, 4096, 8192])}\ntemperature: 0.{r.randint(0, 9)}\nmodel: openai/gpt-4o-mini",
        f"llama-server listening on http://127.0.0.1:{r.choice([8080, 8081])} (no --api-key; bound to localhost only), ctx {r.choice([4096, 8192, 32768])}",
        f"The context window is {r.choice([8, 32, 128, 200])}k tokens; token count of the prompt was {r.randint(200, 9000)}.",
    ])  # fmt: skip


@_look
def _l_gguf_checksum(r: random.Random) -> str:
    return f"{r.choice(['qwen2.5-7b-instruct-q4_k_m.gguf', 'llama-3.1-8b-instruct.Q5_K_M.gguf', 'phi-3-mini-4k-instruct-q4.gguf'])}: sha256 {_hex(r, 64)}, {r.randint(2, 9)}.{r.randint(0, 99)} GB"


# --- crypto and finance look-alikes -------------------------------------------------------------


@_look
def _l_eth_address(r: random.Random) -> str:
    return r.choice([
        f"Send the ETH for the concert tickets to 0x{_hex(r, 40)}",
        f"ENS {_user(r).replace('.', '')}.eth resolves to 0x{_hex(r, 40)}",
        f"contract deployed at 0x{_hex(r, 40)} (sepolia)",
    ])  # fmt: skip


@_look
def _l_btc_address(r: random.Random) -> str:
    seg = _bech32("bc", [0, *_to5(r.randbytes(20))])
    legacy = _b58check(b"\x00" + r.randbytes(20))
    return r.choice(
        [
            f"Donations: {seg}",
            f"Cold wallet receive address #{r.randint(1, 40)}: {seg}",
            f"old 2016 address {legacy} still has dust",
        ]
    )


@_look
def _l_tx_hash(r: random.Random) -> str:
    return r.choice([
        f"Withdrawal tx: https://etherscan.io/tx/0x{_hex(r, 64)}",
        f"txid {_hex(r, 64)} has {r.randint(1, 6)} confirmations",
        f"Kraken withdrawal reference {_rs(r, UPNUM, 6)}-{_rs(r, UPNUM, 5)}-{_rs(r, UPNUM, 6)}, on-chain {_hex(r, 64)}",
    ])  # fmt: skip


@_look
def _l_exchange_orders(r: random.Random) -> str:
    return r.choice([
        f"Binance order {r.randint(10**9, 10**11)} filled: BUY {r.randint(1, 9)}.{r.randint(0, 999):03d} SOL @ {r.randint(90, 250)}.{r.randint(0, 99):02d}",
        f"symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price={r.randint(20000, 90000)}&recvWindow=5000&timestamp={r.randint(1_700_000_000_000, 1_740_000_000_000)}",
        f"Kraken API key 'tax-export' has query-only permissions; created {_date(r)} (value in Bitwarden)",
    ])  # fmt: skip


@_look
def _l_seed_prose(r: random.Random) -> str:
    return r.choice([
        f"The {r.choice([12, 24])}-word recovery phrase is stamped on the steel plate in the safe. Never type it into a computer.",
        f"Checked the Trezor backup with the device's dry-run on {_date(r)} -- all words matched.",
        f"Reminder: a seed phrase is never needed for support; {r.choice(PEOPLE)} got a scam DM asking for one.",
        f"Split the backup with SLIP-39 into 3-of-5 shares; locations: bank box, parents, {r.choice(['office drawer', 'lawyer', 'safe'])}.",
    ])  # fmt: skip


@_look
def _l_word_lists(r: random.Random) -> str:
    food = r.sample(
        [
            "apple",
            "bread",
            "butter",
            "cheese",
            "coffee",
            "lemon",
            "garlic",
            "honey",
            "ginger",
            "mango",
            "bacon",
            "celery",
            "cereal",
            "broccoli",
            "cabbage",
            "cinnamon",
        ],
        r.randint(7, 12),
    )
    return r.choice([
        "Shopping: " + ", ".join(food),
        "Grocery list\n- " + "\n- ".join(food),
        f"{r.choice(PEOPLE)} asked for: " + " and ".join([", ".join(food[:-1]), food[-1]]),
    ])  # fmt: skip


@_look
def _l_sentences(r: random.Random) -> str:
    return r.choice([
        f"The garden needs water before the frost; the cat knocked the lamp off the desk again ({_date(r)}).",
        f"Weekend plan: bike to the lake, picnic with {r.choice(PEOPLE)}, then fix the garage door remote.",
        f"Kids' word game answers: {', '.join(r.sample(['rocket', 'jungle', 'pumpkin', 'dragon', 'kitten', 'island', 'castle', 'guitar'], 5))}",
        f"Lyrics I keep forgetting: 'we drift across the river in the early morning light' -- {r.choice(['verse 2', 'chorus', 'bridge'])}",
    ])  # fmt: skip


@_look
def _l_plaid_sandbox(r: random.Random) -> str:
    return r.choice([
        f"Plaid sandbox test login (public, from the docs): username user_good, password pass_good, MFA code 1234 -- used for {r.choice(PROJECTS)}",
        f"Sandbox institution ins_{r.randint(1, 130)} with user_good / pass_good works; production needs real Link flow",
        f"In Link sandbox pick 'First Platypus Bank' and type user_good / pass_good (test {r.randint(1, 50)})",
    ])  # fmt: skip


@_look
def _l_stripe_test_cards(r: random.Random) -> str:
    card = " ".join(["4242"] * 4)
    return r.choice([
        f"Stripe test card {card}, any future expiry, CVC {r.randint(100, 999)} (test mode only)",
        f"Use {' '.join(['4000', '0025', '0000', '3155'])} to trigger 3DS in test mode; exp 12/{r.randint(30, 34)}",
        f"Declined test card {' '.join(['4000', '0000', '0000', r.choice(['0002', '9995', '0069'])])} for the error-path test",
    ])  # fmt: skip


@_look
def _l_ynab_data(r: random.Random) -> str:
    return r.choice([
        f'{{"amount": -{r.randint(1000, 900000)}, "payee_name": "{r.choice(["Lidl", "Biedronka", "Mercadona", "Carrefour", "Rewe"])}", "category_id": "{_uuid(r)}", "date": "{_date(r)}"}}',
        f"YNAB import: {r.randint(3, 90)} transactions, {r.randint(0, 4)} duplicates skipped (budget {_uuid(r)})",
        f"Budget {r.choice(['Groceries', 'Kids', 'Car', 'Streaming'])}: {r.randint(50, 900)} assigned, {r.randint(0, 500)} spent",
    ])  # fmt: skip


# --- home / life-admin misc ----------------------------------------------------------------------


@_look
def _l_asin_sku(r: random.Random) -> str:
    return r.choice([
        f"Replacement filter ASIN B0{_rs(r, UPNUM, 8)}",
        f"SKU {_rs(r, UPPER, 3)}-{r.randint(1000, 9999)}-{_rs(r, UPPER, 2)} out of stock",
        f"EAN {_rs(r, DIGITS, 13)} -- the good coffee",
    ])  # fmt: skip


@_look
def _l_vin(r: random.Random) -> str:
    vin = _rs(r, VIN_CHARS, 17)
    return r.choice([f"Car VIN {vin} for the insurance renewal", f"VIN: {vin}\nRegistration due {_date(r)}"])


@_look
def _l_yubikey(r: random.Random) -> str:
    return r.choice([
        f"YubiKey 5C NFC serial {r.randint(10**7, 3 * 10**7)} registered on {r.choice(TOTP_ISSUERS)}",
        f"Backup YubiKey (serial {r.randint(10**7, 3 * 10**7)}) lives in the safe deposit box",
        f"Passkey registered for {r.choice(TOTP_ISSUERS)} on the Pixel and the MacBook, {_date(r)}",
    ])  # fmt: skip


@_look
def _l_disk_serials(r: random.Random) -> str:
    return r.choice([
        f"smartctl -i /dev/sd{r.choice('abcd')}\nSerial Number:    WD-WX{r.randint(10, 99)}D{r.randint(10**6, 10**7)}\nPower_On_Hours {r.randint(1000, 40000)}",
        f"Replaced disk {r.randint(1, 4)} (ST8000VN004 serial ZA{_rs(r, UPNUM, 6)}) in the pool",
        f"ata-{r.choice(['WDC_WD80EFZZ', 'ST4000VN008', 'Samsung_SSD_870'])}_{_rs(r, UPNUM, 12)} -> ../../sd{r.choice('abcd')}",
    ])  # fmt: skip


@_look
def _l_speedtest(r: random.Random) -> str:
    return f"Speedtest ({_date(r)} {_time(r)}): {r.randint(100, 940)} Mbps down, {r.randint(20, 300)} Mbps up, ping {r.randint(3, 30)} ms, server {r.choice(['Orange', 'Vodafone', 'Movistar', 'Telekom'])} id {r.randint(1000, 60000)}"


@_look
def _l_isbn(r: random.Random) -> str:
    body = "978" + _rs(r, DIGITS, 9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return f"Book club pick: ISBN {body}{(10 - s % 10) % 10} ({r.choice(['hardcover', 'paperback', 'ebook'])})"


@_look
def _l_meeting(r: random.Random) -> str:
    return r.choice([
        f"Zoom with the landlord: meeting ID {r.randint(100, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)}, passcode sent by SMS",
        f"Family call {_date(r)} {_time(r)} on FaceTime, {r.choice(PEOPLE)} starts it",
        f"Dentist {_date(r)} {_time(r)}, appointment no. {r.randint(10**5, 10**6)}",
    ])  # fmt: skip


@_look
def _l_colors_css(r: random.Random) -> str:
    return f":root {{\n  --bg: #{_hex(r, 6)};\n  --fg: #{_hex(r, 6)};\n  --accent: #{_hex(r, 6)};\n}}"


@_look
def _l_weather_json(r: random.Random) -> str:
    return json.dumps(
        {
            "name": r.choice(["Lisbon", "Krakow", "Lyon", "Sapporo"]),
            "main": {"temp": round(r.uniform(-5, 35), 1), "humidity": r.randint(20, 99)},
            "id": r.randint(10**5, 10**7),
            "cod": 200,
        }
    )


@_look
def _l_tasmota_status(r: random.Random) -> str:
    return json.dumps(
        {
            "StatusNET": {
                "Hostname": f"plug-{_hex(r, 4)}",
                "IPAddress": _lan_ip(r),
                "Mac": _mac(r),
                "Gateway": "192.168.1.1",
            },
            "StatusMQT": {
                "MqttHost": _lan_ip(r),
                "MqttPort": 1883,
                "MqttClient": f"DVES_{_hex(r, 6).upper()}",
                "MqttUser": "DVES_USER",
            },
        }
    )


@_look
def _l_minecraft_props(r: random.Random) -> str:
    return r.choice([
        f"level-seed={r.randint(-(2**62), 2**62)}\nenable-rcon=false\nrcon.password=\nmax-players={r.randint(4, 20)}\nmotd=Family server",
        f"mcrcon -H {_lan_ip(r)} -P 25575 -p \"$RCON_PASSWORD\" \"say restarting in 5\"",
        f"Seed for the new world: {r.randint(-(2**62), 2**62)} (village right at spawn)",
    ])  # fmt: skip


@_look
def _l_minecraft_whitelist(r: random.Random) -> str:
    return json.dumps([{"uuid": _uuid(r), "name": p} for p in r.sample(PLAYERS, 3)], indent=2)


@_look
def _l_discord_ids(r: random.Random) -> str:
    return r.choice([
        f"https://discord.com/channels/{r.randint(10**17, 12 * 10**17)}/{r.randint(10**17, 12 * 10**17)}/{r.randint(10**17, 12 * 10**17)}",
        f"Invite for the family server: https://discord.gg/{_rs(r, ALNUM, 8)} (expires in 7 days)",
        f"Bot invite: https://discord.com/oauth2/authorize?client_id={r.randint(10**17, 12 * 10**17)}&permissions={r.randint(1000, 10**6)}&scope=bot",
        f"<@{r.randint(10**17, 12 * 10**17)}> pinged the bot at {_time(r)}",
    ])  # fmt: skip


@_look
def _l_syncthing(r: random.Random) -> str:
    did = "-".join(_rs(r, BASE32, 7) for _ in range(8))
    return r.choice(
        [
            f"Syncthing device ID of the laptop: {did}",
            f'<device id="{did}" name="{r.choice(["pixel", "nas", "laptop"])}" compression="metadata">',
        ]
    )


@_look
def _l_onion(r: random.Random) -> str:
    return f"Mirror of the blog over Tor: http://{_rs(r, ONION32, 56)}.onion/"


@_look
def _l_email_headers(r: random.Random) -> str:
    d = _domain(r)
    return r.choice([
        f"Message-ID: <{_hex(r, 16)}.{r.randint(10**5, 10**6)}@{d}>\nDate: {_date(r)}\nSubject: Re: Netflix plan",
        f"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d={d}; s=fm1; t={r.randint(1_700_000_000, 1_740_000_000)}; bh={_b64(r.randbytes(32))}; b={_b64(r.randbytes(96))}",
        f"Received: from smtp.{d} ([{_pub_ip(r)}]) by mx.{r.choice(MAILDOMAINS)} with ESMTPS id {_rs(r, ALNUM, 12)}",
    ])  # fmt: skip


@_look
def _l_imap_settings(r: random.Random) -> str:
    p = r.choice(["fastmail.com", "outlook.office365.com", "gmail.com", "mail.yahoo.com"])
    return r.choice([
        f"IMAP: imap.{p}:993 SSL/TLS\nSMTP: smtp.{p}:{r.choice([465, 587])} STARTTLS\nUser: full email address\nPassword: app password (see Bitwarden)",
        f"IMAPAccount main\nHost imap.{p}\nUser {_email(r)}\nPassCmd \"pass show mail/{p}\"\nTLSType IMAPS",
        f"Thunderbird autodetected {p} settings; OAuth2 sign-in, no app password needed.",
    ])  # fmt: skip


@_look
def _l_jwt_like_prose(r: random.Random) -> str:
    return r.choice([
        f"HA long-lived tokens expire after 10 years; I have {r.randint(1, 6)} (grafana, node-red, tablet...). Revoke the tablet one when it dies.",
        f"Rotated the {r.choice(['Plex', 'Pi-hole', 'Sonarr', 'Discord bot', 'Tailscale'])} token on {_date(r)}; updated the homepage widget and Tautulli.",
        f"Kaggle API key regenerated (Settings > API > Create New Token) on {_date(r)}; old kaggle.json deleted from the laptop.",
    ])  # fmt: skip


@_look
def _l_security_prose(r: random.Random) -> str:
    return r.choice([
        f"Security habits: unique passwords in Bitwarden, hardware key on email and bank, app passwords only for old IMAP clients. Reviewed {_date(r)}.",
        f"Never paste tokens into chat; use the password manager's share link (expires in {r.choice([1, 3, 7])} days).",
        f"Note to self: rotate API keys every {r.choice([3, 6, 12])} months and keep scopes minimal.",
        f"{r.choice(PEOPLE)} asked why the bank app wants a new PIN -- it's the yearly reset, do it inside the app only.",
    ])  # fmt: skip


@_look
def _l_token_words(r: random.Random) -> str:
    return r.choice([
        f"primary key (id, created_at); foreign key user_id -> users.id ({r.choice(PROJECTS)})",
        f"Secret Santa {r.randint(2022, 2026)}: {r.choice(PEOPLE)} draws {r.choice(PEOPLE)}, budget {r.randint(20, 60)} EUR",
        f"Trip to Key West {_date(r)}; passport renewal first",
        f"Keyboard shortcut: Ctrl+Shift+{r.choice('PTKL')} opens the command palette",
        f"The bus token machine at the station only takes coins ({r.randint(1, 3)}.{r.randint(0, 9)}0 EUR)",
        f"Password reset email for {r.choice(ACCOUNTS)} never arrived; check spam ({_date(r)}).",
    ])  # fmt: skip


@_look
def _l_password_policy(r: random.Random) -> str:
    return r.choice([
        f"Passwords must be at least {r.choice([12, 14, 16])} characters and include a number.",
        f"password_min_length: {r.choice([8, 10, 12])}\npassword_require_special: {r.choice(['true', 'false'])}",
        f"Wi-Fi WPA2 passphrases must be 8 to 63 characters; mine is {r.choice([20, 24, 28])}.",
    ])  # fmt: skip


@_look
def _l_calendar(r: random.Random) -> str:
    return r.choice([
        f"BEGIN:VEVENT\nUID:{_uuid(r)}\nDTSTART:{_date(r).replace('-', '')}T{r.randint(7, 20):02d}0000\nSUMMARY:{r.choice(STREAMING)} renewal\nEND:VEVENT",
        f"{_date(r)} renew domain {_domain(r)} (auto-renew off)",
    ])  # fmt: skip


@_look
def _l_subscriptions(r: random.Random) -> str:
    s = r.choice(STREAMING)
    return r.choice([
        f"{s} moved to the family plan ({r.randint(10, 25)}.{r.randint(0, 99):02d}/month). Invite sent to {r.choice(PEOPLE)}.",
        f"Cancelled {s} on {_date(r)}; access until the end of the billing period.",
        f"{s} price goes up to {r.randint(8, 20)}.99 next month -- keep or drop?",
        f"Subscriptions: {', '.join(r.sample(STREAMING, 4))}",
    ])  # fmt: skip


@_look
def _l_pihole_admin(r: random.Random) -> str:
    return r.choice([
        "Pi-hole admin: http://pi.hole/admin (web password set via `pihole setpassword`, stored in Bitwarden)",
        f"pihole -g\n  [i] Number of gravity domains: {r.randint(10**5, 10**6)}",
        f"Added adlist https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts on {_date(r)}",
    ])  # fmt: skip


@_look
def _l_router_pages(r: random.Random) -> str:
    gw = r.choice(["192.168.1.1", "192.168.0.1", "192.168.178.1", "10.0.0.1"])
    return r.choice([
        f"Router admin page is http://{gw} (or http://fritz.box); login is admin + the password in 1Password.",
        f"Port forward {r.randint(1024, 65000)} -> {_lan_ip(r)}:{r.choice([25565, 32400, 51820])} ({r.choice(['minecraft', 'plex', 'wireguard'])})",
        f"DHCP range {gw.rsplit('.', 1)[0]}.100-{gw.rsplit('.', 1)[0]}.199, DNS {_lan_ip(r)} (Pi-hole)",
    ])  # fmt: skip


@_look
def _l_nas_shares(r: random.Random) -> str:
    ip = _lan_ip(r)
    return r.choice([
        f"//{ip}/media /mnt/media cifs credentials=/root/.smbcredentials,uid=1000,iocharset=utf8 0 0",
        f"NFS export /volume1/photos {ip.rsplit('.', 1)[0]}.0/24(rw,sync,no_subtree_check)",
        f"Shared folder 'Family' quota {r.randint(100, 2000)} GB, {r.choice(PEOPLE)} has read-only",
    ])  # fmt: skip


@_look
def _l_ha_automation(r: random.Random) -> str:
    ent = r.choice(["switch.coffee_machine", "light.hallway", "climate.living_room", "cover.garage_door"])
    return f'- alias: {r.choice(["Morning", "Away", "Night"])} routine {r.randint(1, 99)}\n  trigger:\n    - platform: time\n      at: "{_time(r)}:00"\n  action:\n    - service: homeassistant.turn_{r.choice(["on", "off"])}\n      target:\n        entity_id: {ent}'


@_look
def _l_restic_output(r: random.Random) -> str:
    return r.choice([
        f"snapshot {_hex(r, 8)} saved\nFiles: {r.randint(10, 9000)} new, {r.randint(0, 900)} changed\nAdded to the repository: {r.randint(1, 900)}.{r.randint(0, 999)} MiB",
        f"restic -r b2:{r.choice(['nas-backup', 'photos-bkt'])}:/ --password-file /root/.restic-pw forget --keep-daily 7 --keep-weekly 4",
        f"repository {_hex(r, 8)} opened (version 2, compression level auto)",
    ])  # fmt: skip


@_look
def _l_api_docs_snippets(r: random.Random) -> str:
    return r.choice([
        'curl -H "Authorization: Bearer $HA_TOKEN" http://homeassistant.local:8123/api/',
        f'curl -H "X-Api-Key: ${{SONARR_API_KEY}}" http://{_lan_ip(r)}:8989/api/v3/queue',
        f"Authorization: Bearer <token>  (see docs section {r.randint(2, 9)}.{r.randint(1, 9)})",
        f'curl -u "api:$MAILGUN_API_KEY" https://api.mailgun.net/v3/{_domain(r)}/messages',
        f"export HF_TOKEN=$(cat ~/.cache/huggingface/token)  # {r.choice(PROJECTS)}",
    ])  # fmt: skip


@_look
def _l_version_hashes(r: random.Random) -> str:
    return r.choice([
        f"{r.choice(PROJECTS)} v{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)} (build {_hex(r, 7)}, {_date(r)})",
        f"Firmware image SHA-1: {_hex(r, 40)}",
        f"ESPHome compiled {r.choice(['porch', 'desk', 'plant'])}.bin, MD5 {_hex(r, 32)}",
    ])  # fmt: skip


@_look
def _l_nix_paths(r: random.Random) -> str:
    return (
        f"/nix/store/{_rs(r, NIX32, 32)}-{r.choice(['nextcloud-29.0.4', 'home-assistant-2024.8.1', 'immich-1.112.0'])}"
    )


@_look
def _l_uuid_config(r: random.Random) -> str:
    return r.choice([
        f"[Unit]\nDescription=Plant watering bot\n[Service]\nEnvironmentFile=/etc/{r.choice(PROJECTS)}.env\nExecStart=/opt/bot/.venv/bin/python main.py\nInvocationID={_hex(r, 32)}",
        f"bluetoothctl connect {_mac(r)}  # the kitchen speaker",
    ])  # fmt: skip


@_look
def _l_wifi_credential_ref_config(r: random.Random) -> str:
    return r.choice([
        f"[wifi]\nssid={r.choice(SSIDS)}\nmode=infrastructure\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk-flags=1\n# secret kept by the agent (GNOME keyring), uuid={_uuid(r)}",
        f"wpa_passphrase output pasted into the Pi image on {_date(r)} -- the plaintext line was removed",
    ])  # fmt: skip


# --- multilingual references without values -----------------------------------------------------


@_look
def _l_msg_es(r: random.Random) -> str:
    return r.choice([
        f"Mamá, la contraseña del wifi está pegada en la nevera, detrás del imán de {r.choice(['Cádiz', 'Roma', 'París'])}.",
        f"{r.choice(['Lucía', 'Javi', 'Carmen'])}, la clave de {r.choice(STREAMING)} está en el gestor de contraseñas, carpeta 'Familia'.",
        f"Ya pagué {r.choice(STREAMING)} ({r.randint(5, 20)},99 €); el código de pedido es {r.randint(10**7, 10**8)}.",
        f"No me mandes contraseñas por WhatsApp, ¡usa el enlace de Bitwarden! ({_date(r)})",
    ])  # fmt: skip


@_look
def _l_msg_fr(r: random.Random) -> str:
    return r.choice([
        f"Le mot de passe du wifi est sur l'étiquette de la Livebox, sous la boîte ({r.choice(['salon', 'bureau'])}).",
        f"{r.choice(['Chloé', 'Hugo'])}, le code de {r.choice(STREAMING)} est dans le gestionnaire, dossier 'Maison'.",
        f"Numéro de commande {r.randint(10**8, 10**9)} -- livraison prévue le {_date(r)}.",
        f"J'ai activé la double authentification sur {r.choice(TOTP_ISSUERS)} ; les codes de secours sont dans le coffre.",
    ])  # fmt: skip


@_look
def _l_msg_de(r: random.Random) -> str:
    return r.choice([
        f"Das WLAN-Passwort steht auf der Rückseite der Fritzbox ({r.choice(['Flur', 'Keller', 'Büro'])}).",
        f"{r.choice(['Oma', 'Jonas', 'Katrin'])}, das {r.choice(STREAMING)}-Passwort ist im Passwortmanager unter 'Familie'.",
        f"Sendungsnummer {_rs(r, DIGITS, 12)} -- Paket liegt bei der Packstation.",
        f"Neue IBAN für die Miete kommt per Brief, bitte nicht per Mail schicken ({_date(r)}).",
    ])  # fmt: skip


@_look
def _l_msg_it(r: random.Random) -> str:
    return r.choice([
        f"La password del wifi è scritta sul foglietto nel cassetto della cucina ({r.choice(['primo', 'secondo'])} cassetto).",
        f"{r.choice(['Giulia', 'Marco'])}, la password di {r.choice(STREAMING)} è nel gestore password, non te la scrivo qui.",
        f"Prenotazione confermata, codice {_rs(r, UPNUM, 6)}, check-in il {_date(r)}.",
        f"Ho cambiato il PIN della carta, te lo dico a voce stasera alle {_time(r)}.",
    ])  # fmt: skip


@_look
def _l_msg_ja(r: random.Random) -> str:
    return r.choice([
        f"Wi-Fiのパスワードはルーターの裏のシールに書いてあるよ（{r.choice(['リビング', '二階'])}）。",
        f"{r.choice(STREAMING)}のパスワードはパスワード管理アプリに入れておいた。",
        f"注文番号 {r.randint(10**9, 10**10)}、{_date(r)} に届く予定。",
        f"二段階認証のバックアップコードは金庫の中です（{_date(r)} 更新）。",
    ])  # fmt: skip


@_look
def _l_msg_pl(r: random.Random) -> str:
    return r.choice([
        f"Hasło do Wi-Fi jest na naklejce pod routerem ({r.choice(['w salonie', 'w przedpokoju'])}).",
        f"{r.choice(['Kasia', 'Tomek'])}, hasło do {r.choice(STREAMING)} jest w menedżerze haseł, folder 'Rodzina'.",
        f"Numer przesyłki InPost {_rs(r, DIGITS, 24)}, kod odbioru dostaniesz SMS-em.",
        f"Przelew na konto {_iban(r)} tytułem 'czynsz {r.randint(1, 12)}/{r.randint(2023, 2025)}'.",
    ])  # fmt: skip


@_look
def _l_msg_en(r: random.Random) -> str:
    return r.choice([
        f"{r.choice(PEOPLE)}, I'll text you the Wi-Fi password when you get here -- it's on the fridge anyway.",
        f"Don't send me the {r.choice(STREAMING)} password, just accept the family invite I sent at {_time(r)}.",
        f"Grandma's tablet is set up: {r.choice(STREAMING)} signed in, passcode is the one she always uses.",
        f"Heads up: the bank will never ask for your PIN or one-time code by phone. ({_date(r)})",
    ])  # fmt: skip


# ----------------------------------------------------------------------------------------------
# assembly
# ----------------------------------------------------------------------------------------------


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    positives: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for kind, fn in _POS:
        got = tries = 0
        while got < POS_PER_KIND and tries < POS_PER_KIND * 30:
            tries += 1
            text, secret = fn(r)
            if secret not in text:
                raise AssertionError(f"{kind}: secret not in text")
            if text in seen:
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = tries = 0
        while got < LOOK_PER_GEN and tries < LOOK_PER_GEN * 40:
            tries += 1
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    t0 = time.perf_counter()
    pos, look = generate(seed)
    dt = time.perf_counter() - t0
    counts = Counter(k for _, k, _ in pos)
    for kind, n in sorted(counts.items()):
        print(f"{kind:32s} {n}")
    print(
        f"\n{len(counts)} kinds, {len(pos)} positives, {len(look)} look-alikes from {len(_LOOK)} generators, {dt:.2f}s"
    )
    rs = random.Random(seed)
    print("\n--- sample positives ---")
    for text, kind, secret in rs.sample(pos, 5):
        print(f"[{kind}] secret={secret!r}\n{text}\n")
    print("--- sample look-alikes ---")
    for text in rs.sample(look, 5):
        print(f"{text}\n")
