"""Words as the detectors see them: the stemmer, the patterns that classify a token, and
the token itself."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

#: The caches of analysed texts and words, cleared together (`model._clear_caches`).
_CACHES: list[Callable[[], None]] = []

# -- words --------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_DOUBLE = re.compile(r"([bcdfgkmnprtvz])\1$")
_ALPHA = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?$")


@functools.lru_cache(maxsize=16384)
def _stem(word: str) -> str:
    """A light stemmer: "uses" / "used" / "using" → "use", "validation" → "validat" (as
    "validate"), "synchronously" → "synchronous". Both texts and the lexicon go through it,
    so it only needs to be consistent."""
    if len(word) <= 3 or not _ALPHA.match(word):
        return word
    w = word
    if w.endswith("ically") and len(w) > 8:
        w = w[:-4]
    elif (w.endswith("ly") and len(w) > 5 and not w.endswith(("ply", "ally", "ily", "gly", "bly"))) or (
        w.endswith("ally") and len(w) > 6
    ):
        w = w[:-2]
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "shes", "ches", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) >= 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) >= 4 and not w.endswith("eed"):
        w = w[:-2]
    elif w.endswith("ation") and len(w) >= 8:
        w = w[:-5] + "ate"
    w = _DOUBLE.sub(r"\1", w)
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if w in _PROTECTED and w != word:
        w += "e"  # "notes" / "uses" must not meet "not" / "us"
    return w


_PROTECTED = _words("not no on off us is as do be we in at an or it to so up")


_CONTRACTIONS = [
    (re.compile(r"\bcan't\b|\bcannot\b", re.I), "can not"),
    (re.compile(r"\bwon't\b", re.I), "will not"),
    (re.compile(r"\bshan't\b", re.I), "shall not"),
    (re.compile(r"n't\b", re.I), " not"),
    (re.compile(r"'re\b", re.I), " are"),
    (re.compile(r"'ve\b", re.I), " have"),
    (re.compile(r"'ll\b", re.I), " will"),
    (re.compile(r"'d\b", re.I), " would"),
    (re.compile(r"'m\b", re.I), " am"),
    (re.compile(r"\b(it|that|what|there|here|he|she|who|where|this)'s\b", re.I), r"\1 is"),
    (re.compile(r"\blet's\b", re.I), "let us"),
    (re.compile(r"'s\b"), " 's"),
    (re.compile(r"(?<=s)'(?=\s)"), " 's"),
]
_ABBREVIATIONS = [
    (re.compile(r"\b([ap])\.m\.?(?=\W|$)", re.I), r"\1m"),
    (re.compile(r"\b(?:e\.g|i\.e|cf)\.?(?=\W)", re.I), ","),
    (re.compile(r"\b(etc|approx|vs|incl|min|max|ca)\.(?=\s)", re.I), r"\1"),
    (re.compile(r"\s[—–]\s|—|\s--\s|\s-\s"), " ; "),
    (re.compile(r"\s+&\s+"), " and "),
]
_COMMIT = re.compile(
    r"^\s*(?:feat|fix|chore|refactor|build|ci|docs|perf|test|tests|deps|security|ops|obs|db|style|revert|release|infra)"
    r"(?:\(([^)]*)\))?!?:\s+",  # lower case, as commits write it: "Docs: Confluence" is a note
)
_CHAT = re.compile(r"^\s*(?:fyi|btw|heads up|psa|reminder|update|note|ps|post-incident update)\b[\s:,;—–-]*", re.I)
_CHANNEL = re.compile(r"^\s*(?:note for\s+|reminder in\s+)?#[\w-]+\s*[:—–-]?\s*", re.I)
_SPEAKER = re.compile(r"^\s*([a-z][a-zà-ÿ]+)(\s*\((?:chat|dm|slack)\)|\s+in\s+(?:#[\w-]+|chat|slack|dm))?\s*:\s+")
#: Marks the end of a label (a commit's scope, a chat channel) in front of a note.
_LABEL = "::"
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|me|my|mine|myself)\b", re.I)
_NON_WORD = re.compile(r"[^\w\s.,;:!?()'\"/@~#%$€£<>=+*&-]")

_NUMBER = re.compile(r"^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
_NUMBER_UNIT = re.compile(r"^((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)([a-z%]+)$", re.I)
_VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}$|^v\d+$", re.I)
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
_DATE = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?$")
_RANGE = re.compile(r"^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)([a-z%]*)$", re.I)
_RATE = re.compile(r"^([a-z\d.]+)/(s|sec|second|min|minute|h|hr|hour|day|week|month|mo|yr|year)$", re.I)
_LETTERS_DIGITS = re.compile(r"^([a-z]+)(\d+(?:\.\d+)*)$", re.I)
_CODE_CHARS = re.compile(r"[/._@:~<>=*]|\d.*[a-z]|[a-z].*\d", re.I)
_LONG_DIGITS = re.compile(r"^\d{7,}$")
_LEADING = "([{\"'`*"
_TRAILING = ")]}\"'`*"
_BOUNDARY = ",;:.!?"


@dataclass(frozen=True, slots=True)
class _Tok:
    low: str
    orig: str
    kind: str  # w word, n number, c code, t clock, i identifier, p punctuation
    key: str  # what the lexicon is matched on
