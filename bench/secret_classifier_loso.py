"""Would a learned classifier beside the secret scanner's rules hold up on a writer it has not
seen? Leave-one-writer-out over the blind sets (docs/secrets.md, "A learned classifier, tried").

Every whitespace-delimited value in a text (and its pieces after "=", ":", "@", "/", …) is a
candidate. A logistic regression on hashed features of the candidate's shape (length, character
classes, entropy, runs, prefix) and its context (the separator before it, the words before and
after it, the nearest secret-sounding and id-sounding words and their distance) learns which
candidates are the labelled secret, from every set but one. On the held-out set it is combined
with the rules *as they stood when that set was scored blind* (the scanner at the commit that
added the set, fetched with `git show`), two ways: its candidates at p >= ADD are added to the
rules' findings, and a rule finding whose overlapping candidates all score below VETO is dropped.

    python bench/secret_classifier_loso.py [--held z,aa,ab] [--seeds 13,1] [--json]

Needs git (the blind-time scanners) and numpy; about ten minutes on two cores.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import math
import re
import subprocess
import sys
import tempfile
import zlib
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from eval_secrets import OTHER_SETS  # noqa: E402

DIM = 1 << 18
HELD = ("z", "aa", "ab", "ac", "ad", "ae", "af", "ag", "ah", "ai")
ADD = (0.8, 0.9, 0.95, 0.98, 2.0)  # (2.0: add nothing)
VETO = (0.0, 0.01, 0.03, 0.1)  # (0.0: drop nothing)

_CHUNK = re.compile(r"[^\s\"'`,;<>(){}\[\]|]+")
_SPLIT = re.compile(r"[=:@/?&#]")
_TRIM = ".,;:!?)]}>'\"`*"
_WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[^\x00-\x7f]+")
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_B64 = re.compile(r"^[A-Za-z0-9+/_-]+=*$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_PFX = re.compile(r"^([A-Za-z]{2,10})[_.-]")
_NAMES = frozenset(
    [
        "key",
        "secret",
        "token",
        "password",
        "passwd",
        "pass",
        "pwd",
        "pin",
        "passphrase",
        "credential",
        "credentials",
        "auth",
        "apikey",
        "code",
        "signing",
        "psk",
        "pw",
        "passcode",
        "login",
        "contraseña",
        "passwort",
        "parola",
        "heslo",
        "salasana",
        "lösenord",
        "wachtwoord",
        "senha",
        "hasło",
        "şifre",
        "пароль",
    ]
)
_IDS = frozenset(
    [
        "id",
        "hash",
        "sha",
        "digest",
        "commit",
        "fingerprint",
        "public",
        "example",
        "uuid",
        "checksum",
        "version",
        "build",
        "request",
        "trace",
        "run",
        "image",
        "revision",
        "sample",
        "placeholder",
    ]
)


def candidates(text: str) -> list[tuple[int, int]]:
    """Spans that may be a secret: whole chunks, the part after "=" or ":", the pieces between
    URL and assignment separators, a URL's password."""
    out: dict[tuple[int, int], None] = {}
    for m in _CHUNK.finditer(text):
        s, e = m.span()
        while e > s and text[e - 1] in _TRIM:
            e -= 1
        while s < e and text[s] in "(['\"`":
            s += 1
        if e - s < 6:
            continue
        out[(s, e)] = None
        full = m.end()
        while full > e and text[full - 1] in ".,:;":
            full -= 1
        if full > e:
            out[(s, full)] = None  # (a password may end in "!" or "?")
        chunk = text[s:e]
        for sep in "=:":
            i = chunk.find(sep)
            if 0 < i < len(chunk) - 6:
                out[(s + i + 1, e)] = None
        pos = s
        for piece in _SPLIT.split(chunk):
            if 6 <= len(piece) < e - s:
                out[(pos, pos + len(piece))] = None
            pos += len(piece) + 1
        j = chunk.find("://")
        at, colon = chunk.rfind("@"), chunk.find(":", j + 3)
        if j > 0 and j + 3 < colon < at:
            out[(s + colon + 1, s + at)] = None
    return [k for k in out if 6 <= k[1] - k[0] <= 400]


def _entropy(v: str) -> float:
    counts: dict[str, int] = {}
    for c in v:
        counts[c] = counts.get(c, 0) + 1
    return -sum(k / len(v) * math.log2(k / len(v)) for k in counts.values())


def _class(c: str) -> str:
    if c.islower():
        return "a"
    if c.isupper():
        return "A"
    if c.isdigit():
        return "0"
    return c if c in "_-.:/+=@!#$%&*~^" else "?"


def _shape(v: str) -> tuple[list[str], str]:
    n, ent = len(v), _entropy(v)
    runs: list[str] = []
    for c in v:
        k = _class(c)
        if not runs or runs[-1] != k:
            runs.append(k)
    classes = "".join(
        flag
        for flag, present in (
            ("a", any(c.islower() for c in v)),
            ("A", any(c.isupper() for c in v)),
            ("0", any(c.isdigit() for c in v)),
            (".", any(not c.isalnum() for c in v)),
        )
        if present
    )
    words = [w for w in _WORD.findall(v) if len(w) >= 3]
    wordy = sum(len(w) for w in words)
    f = [
        f"len:{min(n // 4, 20)}",
        f"cls:{classes}",
        f"ent:{int(ent * 2)}",
        f"entn:{int(ent / max(1.0, math.log2(n)) * 10)}",
        f"runs:{min(len(runs) * 10 // n, 10)}",
        f"nruns:{min(len(runs), 30)}",
        "pat:" + "".join(runs[:6]),
        "pate:" + "".join(runs[-3:]),
        f"wordfrac:{wordy * 5 // n}",
        f"nwords:{min(len(words), 6)}",
        f"vow:{sum(c in 'aeiouAEIOU' for c in v) * 10 // n}",
    ]
    if _HEX.match(v):
        f += ["hex", f"hexlen:{n}"]
    if v.isdigit():
        f += ["num", f"numlen:{min(n, 20)}"]
    if _B64.match(v):
        f.append("b64")
    if _UUID.match(v):
        f.append("uuid")
    if (m := _PFX.match(v)) is not None:
        f += ["pfx:" + m.group(1).lower(), "haspfx"]
    if re.search(r"(?:19|20)\d\d", v):
        f.append("year")
    for flag, present in (("slash", "/" in v), ("at", "@" in v), ("endsym", v[-1] in "!?#$%&*")):
        if present:
            f.append(flag)
    coarse = "hexy" if _HEX.match(v) else "num" if v.isdigit() else f"rand{min(int(ent * 2) // 2, 5)}"
    return f, coarse + ("w" if wordy * 2 > n else "")


def _words(s: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(s)]


def features(text: str, s: int, e: int) -> list[int]:
    """The hashed features of candidate ``text[s:e]``."""
    f, coarse = _shape(text[s:e])
    line_start = text.rfind("\n", 0, s) + 1
    line_end = text.find("\n", e)
    line_end = len(text) if line_end < 0 else line_end
    k = s
    while k > 0 and text[k - 1] in " \t\"'`":
        k -= 1
    sep = text[k - 1] if k > 0 else "^"
    f.append("sep:" + (sep if not sep.isalnum() else "w"))
    if k == line_start:
        f.append("linestart")
    if text[e:line_end].strip(" \t\"'`,;.") == "":
        f.append("lineend")
    before, after = _words(text[max(0, s - 160) : s]), _words(text[e : e + 80])
    f += [f"b{i}:{w}" for i, w in enumerate(reversed(before[-3:]))] + [f"b:{w}" for w in before[-14:]]
    f += [f"a:{w}" for w in after[:6]] + ([f"a0:{after[0]}"] if after else [])
    f += [f"l:{w}" for w in set(_words(text[line_start:line_end]))]
    start = s
    while start > line_start and not text[start - 1].isspace():
        start -= 1
    f += [f"k:{w}" for w in _words(text[start:s])[-3:]]
    near = []
    for label, vocab, words, order in (
        ("nb", _NAMES, before, reversed),
        ("gb", _IDS, before, reversed),
        ("na", _NAMES, after, iter),
        ("ga", _IDS, after, iter),
    ):
        for d, w in enumerate(order(words)):
            if w in vocab:
                f.append(f"{label}:{w}:{min(d, 8) // 2}")
                near.append(f"{label}any:{min(d, 12)}")
                break
    f += near
    end = e
    while end < len(text) and not text[end].isspace() and end - e < 200:
        end += 1
    chunk = text[start:end]
    if start < s:
        f += ["piece", "pre:" + text[s - 1]]
    if end > e:
        f.append("post:" + text[e])
    if "://" in chunk:
        f += ["url"] + [f"host:{w}" for w in _words(chunk.split("://", 1)[1].split("/", 1)[0])[-3:]]
    f += [f"x:{coarse}:{w}" for w in before[-3:]] + [f"x2:{coarse}:{n}" for n in near]
    return sorted({zlib.crc32(x.encode()) & (DIM - 1) for x in f})


def _rows(arg: tuple[str, int]) -> tuple[str, int, list[tuple[int, int, int, int, int, list[int]]]]:
    """(text index, is a secret's text, start, end, label, features) for every candidate of a set;
    the label is 1 for the secret's exact span, -1 for a span overlapping it (left out), else 0."""
    which, seed = arg
    positives, looks = __import__(f"secret_samples_{which}").generate(seed)
    rows = []
    for i, (text, _kind, secret) in enumerate(positives):
        ss = text.find(secret)
        se = ss + len(secret)
        for s, e in candidates(text):
            label = 1 if (s, e) == (ss, se) else -1 if s < se and ss < e else 0
            rows.append((i, 1, s, e, label, features(text, s, e)))
    for i, text in enumerate(looks):
        rows += [(i, 0, s, e, 0, features(text, s, e)) for s, e in candidates(text)]
    return which, seed, rows


def train(rows: list[tuple[int, int, int, int, int, list[int]]], epochs: int = 4) -> np.ndarray:
    """Logistic regression by Adagrad on mini-batches (seeded: the same rows give the same weights)."""
    kept = [r for r in rows if r[4] >= 0]
    idx = np.fromiter((i for r in kept for i in r[5]), np.int64)
    lens = np.array([len(r[5]) for r in kept], np.int64)
    ptr = np.concatenate([[0], np.cumsum(lens)])
    y = np.array([r[4] for r in kept], np.float64)
    w = np.zeros(DIM + 1)
    g2 = np.full(DIM + 1, 1e-3)
    rng = np.random.default_rng(0)
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for b in range(0, len(y), 2048):
            batch = order[b : b + 2048]
            flat = np.concatenate([idx[ptr[r] : ptr[r + 1]] for r in batch])
            row = np.repeat(np.arange(len(batch)), lens[batch])
            z = np.bincount(row, weights=w[flat], minlength=len(batch)) + w[DIM]
            err = 1 / (1 + np.exp(-np.clip(z, -30, 30))) - y[batch]
            grad = np.append(np.bincount(flat, weights=np.repeat(err, lens[batch]), minlength=DIM), err.sum())
            nz = grad != 0
            grad[nz] += 1e-6 * w[nz]
            g2[nz] += grad[nz] ** 2
            w[nz] -= 0.2 * grad[nz] / np.sqrt(g2[nz])
    return w


def _blind_scanner(which: str, workdir: Path) -> Any:
    """The scanner module as it stood at the commit that added set *which* (its blind score)."""
    rel = f"bench/secret_samples_{which}.py"
    log = ["git", "-C", str(HERE.parent), "log", "--diff-filter=A", "--format=%H", "--", rel]
    commit = subprocess.run(log, capture_output=True, text=True, check=True).stdout.split()[-1]
    show = ["git", "-C", str(HERE.parent), "show", f"{commit}:omegad/secretscan.py"]
    source = subprocess.run(show, capture_output=True, text=True, check=True).stdout
    path = workdir / f"blind_scan_{which}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _hidden(text: str, spans: list[tuple[int, int]], secret: str) -> bool:
    """Whether *secret* is gone once *spans* are redacted (`bench/eval_secrets.py`'s test)."""
    out, pos = [], 0
    for a, b in sorted(spans):
        if b <= pos:
            continue
        out += [text[pos : max(pos, a)], "[redacted]"]
        pos = max(pos, b)
    return bool(spans) and secret not in "".join([*out, text[pos:]])


def fold(which: str, rows: dict[tuple[str, int], list[Any]], workdir: Path) -> dict[str, Any]:
    """Train without *which*, score its seed-13 texts with the blind-time rules, both ways."""
    w = train([r for (s, _), rs in rows.items() if s != which for r in rs])
    scanner = _blind_scanner(which, workdir)
    rules = scanner.SecretScanner()
    positives, looks = __import__(f"secret_samples_{which}").generate(13)
    scored: dict[tuple[int, int], list[tuple[int, int, float]]] = {}
    for i, is_pos, s, e, _label, feats in rows[(which, 13)]:
        p = float(1 / (1 + math.exp(-(w[DIM] + w[feats].sum()))))
        scored.setdefault((is_pos, i), []).append((s, e, p))
    found_rules = [[(f.start, f.end) for f in rules.scan(t)] for t, _, _ in positives]
    flagged_rules = [[(f.start, f.end) for f in rules.scan(t)] for t in looks]
    out: dict[str, Any] = {}
    for add, veto in itertools.product(ADD, VETO):

        def kept(spans: list[tuple[int, int]], cands: list[tuple[int, int, float]], veto: float = veto) -> list:
            return [(a, b) for a, b in spans if max((p for s, e, p in cands if s < b and a < e), default=1.0) >= veto]

        hits = 0
        for i, (text, _kind, secret) in enumerate(positives):
            cands = scored.get((1, i), [])
            spans = kept(found_rules[i], cands) + [(s, e) for s, e, p in cands if p >= add]
            hits += _hidden(text, spans, secret)
        false = sum(
            bool(kept(flagged_rules[i], scored.get((0, i), [])) or any(p >= add for *_, p in scored.get((0, i), [])))
            for i in range(len(looks))
        )
        out[f"{add}/{veto}"] = (round(hits / len(positives), 4), round(false / len(looks), 4))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--held", default=",".join(HELD))
    ap.add_argument("--seeds", default="13,1")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    held, seeds = args.held.split(","), [int(s) for s in args.seeds.split(",")]
    if 13 not in seeds:
        seeds.append(13)  # (the held-out set is scored at seed 13, as its blind score was)
    with Pool(2) as pool:
        built = pool.map(_rows, [(w, s) for w in OTHER_SETS for s in seeds], chunksize=1)
    rows = {(w, s): r for w, s, r in built}
    with tempfile.TemporaryDirectory() as tmp:
        results = {w: fold(w, rows, Path(tmp)) for w in held}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print("add/veto | " + " ".join(held) + " | median recall, median false positives, sets meeting both bars")
    for key in results[held[0]]:
        pairs = [results[w][key] for w in held]
        both = sum(r >= 0.98 and f <= 0.01 for r, f in pairs)
        med_r = float(np.median([r for r, _ in pairs]))
        med_f = float(np.median([f for _, f in pairs]))
        cells = " ".join(f"{r:.3f}/{f:.3f}" for r, f in pairs)
        print(f"{key} | {cells} | {med_r:.3f} {med_f:.3f} {both}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
