"""Contradiction detectors: deterministic heuristics over a (newer, older) pair of memories.

No model, no randomness: the same two texts always give the same signals and confidence. The
detectors compare what the two texts *claim*, not their word sequences
(docs/contradictions.md has the design and its measurements):

1. **Read each text** into clauses (split at ``;``, sentence ends, dashes, a colon after a
   statement, a comma before a new predicate, and at "because / since / so / but / which…").
   Each clause becomes a set of *terms*: words and phrases looked up in the lexicon
   (`omegad/contradict_lexicon.toml`), so synonyms share one concept, a state word knows its
   antonym axis and pole, a product knows the role it fills ("pnpm": a package manager), a
   scope word its axis (staging / production). Each term carries its polarity (a clause
   negation, a negating verb such as "stopped", or a rejected alternative such as "instead
   of X"). Quantities are normalised with their units (durations, sizes, ratios, counts,
   times of day, versions, ports); persons, identifiers and code-like values are kept apart.
2. **Align** every clause of the older text with every clause of the newer one, word order
   aside: terms match by concept, by antonym axis, by role (two products of one kind, a
   role's name and one of its products), by quantity dimension.
3. **Guards** silence a clause pair whose core arguments differ: another scope, another
   person, another identifier, another modifier of the same head ("orders table" /
   "customers table"), another circumstance ("for transactional data" / "for analytics"),
   or too little of the older claim found in the newer clause. A clause that only says more
   is never silenced for it.
4. **Detectors**, each with a ceiling from the product design: negation ≤ 0.8 (one side
   denies what the other asserts), antonym ≤ 0.9 (a state moves to its opposite pole),
   preference change ≤ 0.8 (another product or choice in the same role, or the old one
   rejected), temporal override ≤ 0.6 (the newer text says things changed, and something
   did), value change ≤ 0.7 (a quantity, a value such as a path or a host, or the single
   holder of a role such as an owner). A score is its ceiling × how much of the older claim
   the newer clause covers. Two independent changes at once ("X on" / "Y off") silence the
   pair: the texts are about different objects.
5. **Combine**: ``confidence = 1 − Π(1 − score)`` over the signals of the best clause pair (a
   noisy-or); a pair is a contradiction when the confidence reaches
   ``contradiction.threshold`` (0.4).

False negatives are preferred to false positives: any doubt about the subject silences the
pair, and the reason (``Detection.reason``, its first word in ``Detection.stage``) says which
guard did; ``Detection.extra`` names the clause pair that decided.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from .contradict_lexicon import Entry, Lexicon, load_lexicon

__all__ = ["ANTONYMS", "DETECTOR_VERSION", "Detection", "Signal", "detect"]

#: Bumped whenever the detectors change meaning (edge ids include it). Version 2 compares
#: claims (clauses, lexicon, quantities); edges written by version 1 are kept as they are.
DETECTOR_VERSION = 3

#: Words of a text the detectors look at: memories are short, and a long text's first words
#: name its subject.
MAX_WORDS = 120
#: Clauses compared per text (the first ones: a long text's opening states its claim).
MAX_CLAUSES = 8

# Ceilings of the design.
_CEILING = {"negation": 0.8, "antonym": 0.9, "preference_change": 0.8, "temporal_override": 0.6, "value_change": 0.7}
#: Share of the older clause (by weight) the newer clause must account for, unless the newer
#: clause is itself accounted for by the older one (the older text said more).
_MIN_COVERAGE_OLD = 0.75
_MIN_COVERAGE = 0.6
_MIN_COVERAGE_BOTH = 0.4
_MIN_COVERAGE_NEW = 0.75
#: Below this share of the older clause nothing is compared.
_MIN_COVERAGE_ANY = 0.25
#: Weight of a swap between two names the lexicon does not know.
_UNKNOWN = 0.75
_W_VERB = 0.3
_W_GENERIC = 0.5
_W_STATE = 0.6
_W_ATTRIBUTE = 0.6


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


def _chunk_tokens(chunk: str, out: list[tuple[str, str]]) -> None:
    """Classify one whitespace-free chunk (punctuation already peeled off)."""
    if chunk.isalpha() and not chunk.isupper():
        out.append((chunk, "w"))  # most words: nothing to take apart
        return
    low = chunk.lower()
    if not low:
        return
    if low.startswith(("http://", "https://", "www.")) or "@" in low[1:]:
        out.append((chunk, "c"))
    elif _DATE.match(low) or _LONG_DIGITS.match(low) or (low.startswith("#") and low[1:].isdigit()):
        out.append((chunk, "i"))
    elif low.startswith("#"):
        return  # a channel tag: where a note was posted, not what it says
    elif _CLOCK.match(low):
        out.append((chunk, "t"))
    elif (
        chunk.isupper()
        and chunk.isalpha()
        and len(chunk) >= 2
        and (len(chunk) >= 6 or not _single(low))
        and not _function(low)
    ):
        out.append((chunk, "c"))  # "PAY", "OOM": a name written in capitals
    elif _NUMBER.match(low) or _VERSION.match(low):
        out.append((chunk, "n"))
    elif m := _RANGE.match(low):
        out.extend([(m.group(1), "n"), ("to", "w"), (m.group(2) + m.group(3), "n")])
    elif m := _NUMBER_UNIT.match(chunk):
        out.append((m.group(1), "n"))
        out.append((m.group(2), "w"))
    elif (m := _RATE.match(low)) and not _single(low):
        _chunk_tokens(m.group(1), out)  # "req/min", "5k/s": a rate before two names
        out.append(("per", "w"))
        out.append((m.group(2), "w"))
    elif "/" in low and not _single(low) and all(_single(p) for p in low.split("/")):
        for k, part in enumerate(chunk.split("/")):
            if k:
                out.append(("and", "w"))
            _chunk_tokens(part, out)  # "Prometheus/Grafana": two names
    elif (
        "-" in low
        and "--" not in low
        and (
            all(p.isalpha() for p in low.split("-") if p)
            or (_NUMBER.match(low.split("-")[0]) and all(p.isalpha() for p in low.split("-")[1:] if p))
        )
    ):
        parts = chunk.split("-")
        if len(parts) == 2 and parts[0].lower() == "re" and len(parts[1]) > 3:
            parts = parts[1:]  # "re-enable" states what "enable" states
        for part in parts:
            _chunk_tokens(part, out)  # "read-only", "15-minute", "one-gibibyte"
    elif (m := _LETTERS_DIGITS.match(low)) and not _single(low) and _product(m.group(1)):
        out.append((chunk[: len(m.group(1))], "w"))
        out.append((m.group(2), "n"))
    elif _CODE_CHARS.search(low) and not _single(low):
        if re.search(r"[a-z]", low) and re.fullmatch(r"[a-z0-9]+", low) and len(low) <= 6:
            out.append((chunk, "w"))  # a short name such as "e2e", "s3", "k8s", "a100"
        elif re.fullmatch(r"[\w-]+", low) and "_" not in low and not re.search(r"\d", low):
            for part in chunk.split("-"):
                _chunk_tokens(part, out)
        else:
            out.append((chunk, "c"))
    else:
        out.append((chunk, "w"))


def _product(low: str) -> bool:
    """Whether the lexicon knows *low* as a product ("pg" in "pg16", "python" in "python3")."""
    lex = _LEX
    return lex is not None and any(len(p) == 1 and p[0] == low and e.categories for p, e in lex.phrases.get(low, ()))


def _function(low: str) -> bool:
    lex = _LEX
    return lex is not None and low in lex.function_words


def _single(low: str) -> bool:
    """Whether the lexicon has *low* as a whole word (so "next.js", "i/o" or "snake_case"
    are names, not code)."""
    lex = _LEX
    return lex is not None and any(len(p) == 1 and p[0] == low for p, _ in lex.phrases.get(low, ()))


def _tokens(text: str) -> list[_Tok]:
    lex = _lexicon()  # loaded before any chunk asks whether a word is in it
    t = text
    for pattern, repl in _ABBREVIATIONS:
        t = pattern.sub(repl, t)
    if "'" in t or "’" in t:
        t = t.replace("’", "'").replace("‘", "'")
        for pattern, repl in _CONTRACTIONS:
            t = pattern.sub(repl, t)
    t = _NON_WORD.sub(" ", t)
    raw: list[tuple[str, str]] = []
    for chunk in t.split():
        if chunk == "'s":
            raw.append(("'s", "p"))
            continue
        if chunk == _LABEL:
            raw.append((_LABEL, "p"))
            continue
        lead = 0
        while lead < len(chunk) and chunk[lead] in _LEADING:
            if chunk[lead] == "(":
                raw.append(("(", "p"))
            lead += 1
        end = len(chunk)
        tail: list[str] = []
        while end > lead and (chunk[end - 1] in _TRAILING or chunk[end - 1] in _BOUNDARY):
            if chunk[end - 1] in _BOUNDARY or chunk[end - 1] == ")":
                tail.append(chunk[end - 1])
            end -= 1
        core = chunk[lead:end]
        if core in ("=", "+", "%", "<", ">", "~", "$", "€", "£"):
            raw.append((core, "p" if core in "=+" else "w"))
        elif core:
            _chunk_tokens(core, raw)
        raw.extend((p, "p") for p in reversed(tail))
    out: list[_Tok] = []
    for orig, kind in raw:
        low = orig.lower()
        if kind == "w":
            out.append(_Tok(low, orig, kind, _stem(lex.forms.get(low, low))))
        else:
            out.append(_Tok(low, orig, kind, low))
    return out


def _split_entry(phrase: str) -> list[str]:
    """How the lexicon's entries are cut into words (the same way as the texts)."""
    raw: list[tuple[str, str]] = []
    for chunk in phrase.replace("'s", " 's").split():
        _chunk_tokens(chunk, raw)
    return [orig.lower() for orig, kind in raw if kind != "p"]


# -- lexicon ------------------------------------------------------------------------------------

_LEX: Lexicon | None = None
_LOADED: _Known | None = None
_LOADING = threading.Lock()


@dataclass(frozen=True)
class _Known:
    """Concepts and axes the detectors name, found in the lexicon once it is loaded."""

    limit: str
    interval: str
    minimum: str
    preference: frozenset[str]
    like_axis: int
    region_axis: int
    #: The role "time of day" (morning, afternoon…): part of a clock time where there is one.
    daypart: int
    #: Scope axes whose value after the verb is what the claim states ("hosted in us-east-1",
    #: "ships on Tuesdays"), not whom it is about.
    value_axes: frozenset[int]
    #: Scope axes that say what a claim is about (not when or for whom): a claim the newer
    #: text restricts to one of them ("… in staging") is not the older, general one.
    what_axes: frozenset[int]


def _lexicon() -> Lexicon:
    """The lexicon, loaded on first use (the daemon's start does not wait for it)."""
    if _LOADED is None:
        _load()
    assert _LEX is not None
    return _LEX


def _known() -> _Known:
    if _LOADED is None:
        _load()
    assert _LOADED is not None
    return _LOADED


def _load() -> None:
    global _LEX, _LOADED
    with _LOADING:
        if _LOADED is not None:
            return
        _LEX = Lexicon(version=0)  # while loading, `_single` finds no whole words
        lex = load_lexicon(_split_entry, _stem)
        _LEX = lex

        def concept(word: str) -> str:
            entry = lex.lookup((_stem(word),))
            return entry.concept if entry is not None else _stem(word)

        like = lex.lookup((_stem("dislike"),))
        assert like is not None and like.state is not None, "the lexicon needs a like/dislike axis"
        _LOADED = _Known(
            limit=concept("limit"),
            interval=concept("interval"),
            minimum=concept("minimum"),
            preference=frozenset(concept(w) for w in ("prefer", "want", "use", "like")),
            like_axis=like.state[0],
            region_axis=lex.scope_axes.index("region"),
            daypart=lex.category_names.index("time of day"),
            value_axes=frozenset(lex.scope_axes.index(a) for a in ("region", "day", "week part", "hours")),
            what_axes=frozenset(
                lex.scope_axes.index(a)
                for a in (
                    "environment",
                    "operating system",
                    "component",
                    "test kind",
                    "build type",
                    "language scope",
                    "http method",
                )
            ),
        )


class _Antonyms(Mapping[str, set[str]]):
    """The antonym table of the lexicon (read on first use)."""

    def __getitem__(self, word: str) -> set[str]:
        return _lexicon().antonyms[word]

    def __iter__(self) -> Iterator[str]:
        return iter(_lexicon().antonyms)

    def __len__(self) -> int:
        return len(_lexicon().antonyms)


#: Words of the antonym axes with their antonyms (both directions), from the lexicon.
ANTONYMS: Mapping[str, set[str]] = _Antonyms()

_COPULAS = _words(
    "is are was were be been being turned turn switched switch set stays stay remains remain left kept "
    "keep : now get gets got ship ships shipped"
)
_DETERMINERS = _words("the a an his her their my our its this that your every each all")
_NOT_DENIAL = {"only", "just", "necessarily", "sure", "exactly", "bad", "matter", "always", "quite", "merely", "simply"}
_USER_WORDS = {"i", "me", "my", "mine", "myself", "user", "users"}
_PERSON_PREV = {"by", "with", "ask", "ping", "tell", "between", "and"}
_PAST_MARKERS = re.compile(
    r"\b(?:used to|previously|formerly|back then|in the past|originally|before the \w+ (?:rewrite|migration|move|switch))\b",
    re.I,
)


# -- analysis -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Signal:
    kind: str  # negation | antonym | preference_change | temporal_override | value_change
    score: float
    evidence: str

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "score": round(self.score, 4), "evidence": self.evidence}


@dataclass(frozen=True)
class Detection:
    confidence: float
    signals: tuple[Signal, ...] = ()
    reason: str = ""  # why nothing fired, when nothing did; its first words are the stage
    overlap: float = 0.0  # share of the older claim found in the newer text (best clause pair)
    extra: dict[str, object] = field(default_factory=dict)

    def flagged(self, threshold: float) -> bool:
        return self.confidence >= threshold and bool(self.signals)

    @property
    def stage(self) -> str:
        """The guard or step that decided (``flagged`` when signals fired)."""
        if self.signals:
            return "flagged"
        return self.reason.split(":", 1)[0].split(" (", 1)[0] or "silent"


@dataclass(slots=True)
class _Term:
    key: str
    text: str
    pos: int
    weight: float
    neg: bool = False  # denied where it stands (the clause's negation, a negating verb, a rejection)
    rejected: bool = False  # inside "instead of …", "rather than …", "from …" after a verb of change
    targeted: bool = False  # the object (or, passive, the subject) of a negating verb
    pp: bool = False  # the first word after a preposition
    subject: bool = False  # before the clause's first verb, copula, state or negation
    in_pp: bool = False  # inside a prepositional or temporal phrase
    modifies: bool = False  # stands before the noun it qualifies ("Rust macros")
    when: bool = False  # in a phrase that dates the claim: weighs nothing
    owned: str = ""  # the owner's text, for a noun after a possessive ("the app's scripts")
    end: int = -1  # position of its last word
    label: bool = False  # in a label in front of the note (a commit's scope, a channel)
    capitalised: bool = False  # written with a capital inside the sentence
    head: str | None = None  # key of the content word right after it
    entry: Entry | None = None
    state: tuple[int, int] | None = None
    attributive: bool = False
    member: str | None = None
    categories: frozenset[int] = frozenset()
    names: frozenset[int] = frozenset()
    scope: tuple[int, int] | None = None
    person: bool = False
    code: bool = False
    ident: bool = False
    attribute: bool = False
    adjunct: bool = False  # inside a scope phrase ("for analytics workloads")
    prep: str = ""  # that phrase's preposition
    modifier: str | None = None  # key of the content word right before it


@dataclass(frozen=True, slots=True)
class _Qty:
    dim: str  # time, size, ratio, clock, count, num, …
    lo: float
    hi: float
    exact: bool  # a stated value (not a bound)
    bound: int  # -1 upper bound, 1 lower bound, 0 none
    text: str
    pos: int
    unit: str  # the counted noun, for counts
    version: tuple[int, ...] | None = None


@dataclass(slots=True)
class _Clause:
    text: str
    terms: list[_Term]
    negated: bool
    quantities: list[_Qty]
    temporal: list[str]
    preference: bool
    functional: bool
    persons: set[str]
    words: set[str] = field(default_factory=set)  # the clause's words as written (lower case)
    stated_scopes: set[int] = field(default_factory=set)  # scope axes named outside a label
    conditional: bool = False  # "once …", "if …", "when …": not a flat statement
    keys: set[str] = field(default_factory=set)
    members: dict[int, set[str]] = field(default_factory=dict)  # category → positive members
    rejected: dict[int, set[str]] = field(default_factory=dict)  # category → members given up
    denied: dict[int, set[str]] = field(default_factory=dict)  # category → members the clause denies
    dropped: set[str] = field(default_factory=set)  # members given up by a negating verb, not for another
    states: dict[int, list[_Term]] = field(default_factory=dict)
    scopes: dict[int, set[int]] = field(default_factory=dict)
    codes: set[str] = field(default_factory=set)
    idents: set[str] = field(default_factory=set)
    weight: float = 0.0


@dataclass(slots=True)
class _Text:
    clauses: list[_Clause]
    temporal: list[str]
    speaker: str | None
    historical: bool


_T = TypeVar("_T")

#: Texts whose analysis is kept: a memory is compared with ~10 neighbours, and a neighbour with
#: every new memory near it, so the same texts come back often (docs/contradictions.md, Cost).
_ANALYSED = 1024
_CACHED_CHARS = 2000


_CACHES: list[Callable[[], None]] = []


def _cached(fn: Callable[[str], _T]) -> Callable[[str], _T]:
    kept = functools.lru_cache(maxsize=_ANALYSED)(fn)
    _CACHES.append(kept.cache_clear)

    @functools.wraps(fn)
    def analyse(text: str) -> _T:
        return kept(text) if len(text) <= _CACHED_CHARS else fn(text)

    return analyse


def _clear_caches() -> None:
    """Forget every analysed text (tests use it to check that results do not depend on it)."""
    for clear in _CACHES:
        clear()
    _stem.cache_clear()


def _prefix(text: str) -> tuple[str, str | None]:
    """Drop what frames a note rather than states it (a commit type, "fyi", a channel tag),
    keeping a commit's scope, and find a chat line's speaker ("pablo: I'm writing…")."""
    speaker = None
    t = text.strip()
    m = _COMMIT.match(t)
    if m:
        # the commit's scope names the area it touches: kept, marked as a label
        scope = (m.group(1) or "").replace(",", " ").strip()
        t = f"{scope} {_LABEL} {t[m.end() :]}" if scope else t[m.end() :]
    for _ in range(2):
        t = _CHANNEL.sub("", _CHAT.sub("", t, count=1), count=1)
    m = _SPEAKER.match(t)
    if m:
        name = m.group(1)
        rest = t[m.end() :]
        if m.group(2) or name == "user" or _FIRST_PERSON.search(rest):
            lex = _lexicon()
            entry = lex.lookup((_stem(name),))
            if entry is None or name == "user" or not (entry.stop or entry.categories or entry.names):
                speaker = "user" if name in ("user", "users") else name
                channel = re.search(r"#([\w-]+)", m.group(2) or "")
                t = f"{channel.group(1)} {_LABEL} {rest}" if channel else rest
        elif _lexicon().lookup((_stem(name),)) is None and len(rest.split()) >= 2:
            t = rest  # "leo: flag sdk has zero local caching": who reports it, not what it is about
    return t, speaker


@_cached
def _analyse(text: str) -> _Text:
    """The analysis of one text (cached: callers must not change it)."""
    body, speaker = _prefix(text)
    toks = _tokens(body)
    words = 0
    cut = len(toks)
    for i, tok in enumerate(toks):
        if tok.kind != "p":
            words += 1
            if words > MAX_WORDS:
                cut = i
                break
    toks = toks[:cut]
    lowercase = not any(ch.isupper() for ch in body)
    clauses = [_clause(c, lowercase) for c in _split_clauses(toks)][:MAX_CLAUSES]
    clauses = [c for c in clauses if c.terms or c.quantities]
    temporal = [cue for c in clauses for cue in c.temporal]
    return _Text(clauses, temporal, speaker, bool(_PAST_MARKERS.search(body)))


def _split_clauses(toks: list[_Tok]) -> list[list[_Tok]]:
    lex = _lexicon()
    clauses: list[list[_Tok]] = []
    cur: list[_Tok] = []

    asides: list[list[_Tok]] = []  # parentheses, placed after the clause they interrupt
    outer: list[_Tok] | None = None  # the clause a parenthesis interrupts

    def close() -> None:
        nonlocal cur
        while cur and cur[-1].kind == "p" and cur[-1].low != "'s":
            cur.pop()
        if any(t.kind != "p" for t in cur):
            clauses.append(cur)
        if outer is None:
            clauses.extend(asides)
            asides.clear()
        cur = []

    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        if tok.kind == "p" and tok.low == "(":
            if outer is None:
                outer, cur = cur, []  # "(dupes fixed via an idempotency key)": an aside of its own
        elif tok.kind == "p" and tok.low == ")":
            if outer is not None:
                if any(t.kind != "p" for t in cur):
                    asides.append(cur)
                cur, outer = outer, None
        elif tok.kind == "p" and tok.low in ".;!?":
            close()
        elif tok.kind == "p" and tok.low == ":":
            # "key: value" stays one clause; a colon after a whole statement starts another
            words = sum(1 for t in cur if t.kind != "p")
            if words >= 3 and any(_predicative(t) for t in cur):
                close()
            else:
                cur.append(tok)
        elif tok.kind == "p" and tok.low == ",":
            nxt = toks[i + 1] if i + 1 < n else None
            opener = nxt is not None and nxt.kind == "w" and nxt.key in lex.clause_openers and len(cur) >= 2
            if opener or _new_statement(cur, toks, i + 1):
                close()
            else:
                cur.append(tok)
        else:
            brk = next(
                (
                    len(b)
                    for b in lex.break_starts.get(tok.key, ())
                    if len(b) == 1 or tuple(t.key for t in toks[i : i + len(b)]) == b
                ),
                0,
            )
            if not brk and tok.key == "and" and i + 1 < n and (_word(toks[i + 1]) or _NO_ENTRY).negation:
                brk = 1  # "… and no longer uses the Intel one": a second statement
            if brk and sum(1 for t in cur if t.kind != "p") >= 2:
                close()
            cur.append(tok)
        i += 1
    if outer is not None:  # a parenthesis left open: its words end the text
        aside, cur, outer = cur, outer, None
        if any(t.kind != "p" for t in aside):
            asides.append(aside)
    close()
    return clauses


#: Verbs that, a few words after a comma, show a new subject with its own predicate.
_FINITE_AUX = _words("is are was were has have had isn't aren't wasn't weren't hasn't haven't")
#: A clause opening with these is a place or purpose put first ("In the docs-site repo, …"); a
#: time ("since the fix, …", "as of May …") opens a statement and may end in one.
_FRONTED = _words("in on at for with during from under per by to of within across inside throughout")


def _new_statement(cur: list[_Tok], toks: list[_Tok], k: int) -> bool:
    """Whether the words after a comma are a statement of their own ("the app runs on Fly.io,
    Heroku dynos are scaled to 0"): a short subject and a finite verb, after a clause that
    already has its verb. A list ("Redis, Postgres and Kafka are used") has none before it."""
    words = [t for t in cur if t.kind != "p"]
    if len(words) < 3 or words[0].low in _FRONTED or not any(_verbish(t) for t in words):
        return False  # "In the docs-site repo, pnpm is used": a fronted phrase, not a clause
    for j in range(k + 1, min(k + 5, len(toks))):
        tok = toks[j]
        if tok.kind == "p" and tok.low != "'s":
            return False
        if tok.low in _FINITE_AUX:
            return not any(t.low in ("and", "or") for t in toks[k:j])
    return False


def _verbish(tok: _Tok) -> bool:
    if tok.kind != "w":
        return False
    if tok.low in _PREDICATE_WORDS or (len(tok.low) >= 5 and tok.low.endswith("ed")):
        return True
    entry = _word(tok)
    return entry is not None and (entry.verb or entry.negating_verb or entry.changing or entry.replacing)


def _predicative(tok: _Tok) -> bool:
    """Whether a word makes what precedes a colon a statement ("the app has no offline
    mode:") rather than a key ("editor of choice:")."""
    if tok.kind != "w":
        return False
    if tok.low in _PREDICATE_WORDS:
        return True
    entry = _word(tok)
    return entry is not None and (entry.negation or entry.negating_verb)


def _match(
    toks: list[_Tok], i: int, lowercase: bool, context: frozenset[int] = frozenset()
) -> tuple[Entry | None, int]:
    """The longest lexicon phrase starting at *i* (an entry and its length)."""
    lex = _lexicon()
    first = toks[i].key
    function = lex.function_words.get(toks[i].low) if toks[i].kind == "w" else None
    cands = lex.phrases2.get((first, toks[i + 1].key), []) if i + 1 < len(toks) else []
    single = lex.singles.get(first)
    for phrase, entry in [*cands, *single] if single else cands:
        n = len(phrase)
        if i + n > len(toks) or (n == 1 and function is not None and entry.state is None):
            continue
        span = toks[i : i + n]
        if n > 2 and tuple(t.key for t in span) != phrase:
            continue
        if n > 1 and any(t.kind == "p" for t in span):
            continue
        if entry.cased and not lowercase and not span[0].orig[:1].isupper() and not (entry.categories & context):
            # "black", "linear": an ordinary word unless capitalised or the clause names the role
            if entry.concept.startswith(("@", "%")) and not (entry.state or entry.names):
                continue
            return replace(entry, member=None, categories=frozenset(), scope=None, cased=False), n
        return entry, n
    return function, 1


_NO_ENTRY = Entry(concept="", text="")
_CASED_ONLY = re.compile(r"^[A-ZÀ-Ý][a-zà-ÿ]+$")
#: Prepositions that open a phrase of their own (a negating verb's object ends before one).
_PREPOSITIONS = _words(
    "in for on at inside within during across under throughout from to with by into onto via against "
    "about off through behind between"
)
#: State words that are verbs in their base form ("enable strict mode"): never attributive.
_STATE_VERBS = _words(
    "enable disable allow deny block include exclude hide show accept reject require forbid ban permit "
    "prohibit encrypt compress pin sign activate deactivate turn switch close keep make set mandate "
    "enforce opt"
)
_PRONOUNS = _words("we i they it you he she everyone nobody nothing")
_CONDITIONAL = {"if", "once", "when", "whenever", "unless", "until"}
#: Words that end a clause's subject: copulas, auxiliaries, modals, a terse note's colon.
_PREDICATE_WORDS = _words(
    "is are was were be been has have had do does did can will would should must may might shall : :: = gets get got"
)
_PASSIVE_AUX = {"was", "were", "been", "is", "are", "be", "being", "got", "gets", "get"}


def _clause(toks: list[_Tok], lowercase: bool) -> _Clause:
    lex = _lexicon()
    context: frozenset[int] = frozenset()
    if not lowercase and any(tk.key in lex.cased_keys and not tk.orig[:1].isupper() for tk in toks):
        names: set[int] = set()
        for k in range(len(toks)):
            e, _ = _match(toks, k, True)
            if e is not None:
                names |= e.names
        context = frozenset(names)
    matches = [_match(toks, k, lowercase, context) if toks[k].kind != "p" else (None, 1) for k in range(len(toks))]
    in_phrase = {p for k, (e, ln) in enumerate(matches) if e is not None and ln > 1 for p in range(k, k + ln)}
    quantities, used, ident_at = _quantities(toks, in_phrase)
    terms: list[_Term] = []
    temporal: list[str] = []
    negations = 0
    soft_negations = 0  # "any more": a negation only when nothing else negates the clause
    negating: list[tuple[int, bool, bool]] = []  # (position, object only, passive)
    negated_at: set[int] = set()  # where a negation or a negating verb stands
    verb_at: set[int] = set()  # where a verb of change stands ("moved", "switched")
    rejected_at: set[int] = set()  # quantities inside a rejected phrase
    owner = ""  # the word before a possessive "'s", for the noun after it
    after_label = False  # the next word follows a commit's label: its verb, in the imperative
    in_pp = False  # inside a prepositional or temporal phrase, until a comma
    when = False  # inside a phrase that dates the claim ("since the migration"), until a comma
    prep_word = ""  # the last scope preposition
    preference = functional = conditional = False
    persons: set[str] = set()
    reject = ""  # "span": until a comma ("instead of X"); "from": until "to" ("moved from X to Y")
    changed = False  # a verb of change seen ("switched", "moved")
    prep = False  # after a scope preposition, until the next content word
    pp = False  # after any preposition, until the next content word
    prev_kind = ""  # the previous token's role: c content, s stop, p punct, v verb, n number
    prev_content: _Term | None = None
    prev_low = ""
    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        if i in ident_at:
            term = _Term(
                key="#" + tok.low.lstrip("v"), text=tok.low, pos=i, weight=0.0 if when else 1.0, ident=True, when=when
            )
            terms.append(term)
            prev_kind, prev_low, prev_content = "c", tok.low, term
            i += 1
            continue
        if i in used:
            if reject:
                rejected_at.add(i)  # "every night instead of weekly": not a stated value
            prev_kind, prev_low = "n", tok.low
            prev_content = None
            i += 1
            continue
        if tok.kind == "p":
            if tok.low in (",", ":", _LABEL):
                reject = ""
                in_pp = False
                when = False
            if tok.low == _LABEL:
                for t in terms:
                    t.label = True  # "api ::" (a commit's scope): what the note is filed under
                    t.weight = min(t.weight, _W_GENERIC)
                after_label = True
            if tok.low == "'s" and terms and terms[-1].pos == i - 1 and terms[-1].person:
                nxt = toks[i + 1] if i + 1 < n else None
                role = _word(nxt) if nxt is not None and nxt.kind == "w" else None
                if nxt is not None and role is not None and role.person_role:
                    name = toks[terms[-1].pos].low
                    persons.discard(name)
                    persons.add(f"{name}'s {nxt.low}")  # "Tomás's manager": another person
            if tok.low == "'s" and terms and terms[-1].end == i - 1 and not terms[-1].person:
                owner = terms[-1].text
            prev_kind, prev_low = "p", tok.low
            prev_content = None
            i += 1
            continue
        entry, length = matches[i]
        text = " ".join(t.low for t in toks[i : i + length])
        nxt = toks[i + length] if i + length < n else None
        if tok.low in _CONDITIONAL and length == 1:
            conditional = True
        if (
            when
            and length == 1
            and (
                tok.low in _PRONOUNS
                or (tok.low in _DETERMINERS and prev_kind == "c")
                or (entry is not None and entry.verb)
            )
        ):
            when = False  # "as of last night's cutover the web app runs …": the claim starts here
        if entry is not None and entry.negation:
            follow = nxt.low if nxt is not None else ""
            if follow in _NOT_DENIAL or (follow in ("forget", "forgot") and tok.low in ("not", "never")):
                pass  # "not only", "don't forget": emphasis, not denial
            elif nxt is not None and (nxt.kind == "n" or (i + length) in used) and tok.low == "not":
                reject = "span"  # "5 minutes, not 10": a correction inside the text
            elif (tok.low == "not" and prev_low in (",", ":")) or tok.low == "without":
                reject = "span"
            else:
                negations += 1
            negated_at.add(i)
            if entry.temporal:
                temporal.append(text)
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += length
            continue
        if (
            entry is not None
            and (entry.negating_verb or entry.replacing)
            and not (tok.low.endswith("ing") and (prev_low in _PREPOSITIONS or prev_low in ("before", "after")))
        ):
            if text in ("any more", "anymore"):
                soft_negations += 1
            else:
                negating.append((i, entry.replacing and not entry.negating_verb, prev_low in _PASSIVE_AUX))
            negated_at.add(i)
            if entry.temporal or text in ("any more", "anymore") or entry.replacing:
                temporal.append(text)
            prev_kind, prev_low, prev_content = "v", tok.low, None
            i += length
            continue
        if entry is not None and entry.changing:
            changed = True
            verb_at.add(i)
        if tok.low in ("from", "off") and length == 1 and changed and not reject:
            reject = "from"
            prev_kind, prev_low, prev_content = "s", tok.low, None
            pp = True
            i += 1
            continue
        if reject == "from" and tok.low in ("to", "into", "for", "with", "onto"):
            reject = ""
        if entry is not None and entry.rejecting and not (entry.state or entry.categories):
            follow_num = nxt is not None and (nxt.kind == "n" or (i + length) in used)
            if text != "over" or (not follow_num and preference):
                reject = "span"
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += length
            continue
        if entry is not None and entry.time_phrase:
            when = True
        plural_noun = entry is not None and entry.concept.startswith("=") and tok.low.endswith("s") and length == 1
        if (
            entry is not None
            and entry.temporal
            and not (entry.state or entry.categories or entry.names or entry.scope or plural_noun)
        ):
            temporal.append(text)
            if not (entry.changing or entry.verb):
                in_pp = True  # "since the migration", "as of v3": when, not who
            prev_kind, prev_low, prev_content = "v", tok.low, None
            i += length
            continue
        if entry is not None and entry.temporal:
            temporal.append(text)
        if entry is not None and entry.functional:
            functional = True
        if tok.low in ("user", "users") and length == 1 and (prev_kind == "v" or pp) and terms:
            pass  # "authenticates users with SAML": the users are the object here, not the holder
        elif tok.low in _USER_WORDS and length == 1:
            persons.add("user")
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += 1
            continue
        if tok.key == "like" and length == 1 and prev_kind not in ("s", "v") and prev_low not in _USER_WORDS:
            # "IDs like ZD-1234": a preposition, not a preference
            prev_kind, prev_low, prev_content = "s", tok.low, None
            pp = True
            i += 1
            continue
        is_state = entry is not None and entry.state is not None
        if (
            is_state
            and length == 1
            and tok.low in ("before", "after")
            and (i + 1 in used or (nxt is not None and nxt.kind == "n"))
        ):
            is_state = False  # "after 90 minutes": a duration
        if is_state and tok.low in ("sync", "syncs", "async") and length == 1:
            is_state = prev_low in _COPULAS or nxt is None or nxt.kind == "p"  # "syncs with" is a verb
        if is_state and tok.low in ("on", "off") and length == 1:
            follow = nxt.low if nxt is not None else ""
            is_state = (
                (prev_low in _COPULAS or prev_kind in ("c", "p"))
                and follow not in _DETERMINERS
                and (
                    nxt is None
                    or nxt.kind == "p"
                    or follow in ("by", "in", "for", "at", "across", "everywhere", "now", "when")
                )
            )
        if (
            entry is not None
            and (entry.stop or entry.scope_preposition)
            and not is_state
            and not (entry.categories or entry.scope or entry.names)
        ):
            if entry.scope_preposition:
                prep = True
                prep_word = tok.low
            if tok.low in _PREPOSITIONS:
                pp = True
                in_pp = True
            prev_kind, prev_low, prev_content = "s", toks[i + length - 1].low, None
            i += length
            continue
        if not is_state and entry is not None and entry.state is not None and not (entry.categories or entry.scope):
            # "on" / "off" as a preposition: not content
            pp = in_pp = True
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += length
            continue
        # a content term
        term = _Term(key=tok.key, text=text, pos=i, weight=1.0, rejected=bool(reject), entry=entry, end=i + length - 1)
        term.capitalised = tok.orig[:1].isupper() and (i > 0 or lowercase) and not tok.orig.isupper()
        if entry is not None:
            term.key = entry.concept
            if is_state and entry.state is not None:
                term.state = entry.state
                term.key = f"~{entry.state[0]}"
                term.weight = _W_STATE
                term.attributive = (
                    length == 1
                    and nxt is not None
                    and nxt.kind in ("w", "c")
                    and (i + length) not in used
                    and not _is_function_word(nxt)
                    and prev_kind in ("", "s", "p")
                    and not tok.low.endswith("s")
                    and tok.low not in _STATE_VERBS
                )
            term.member = entry.member
            term.categories = entry.categories
            term.names = entry.names
            term.scope = entry.scope
            term.attribute = entry.attribute
            if (entry.verb and not (entry.categories or entry.names or entry.scope or is_state)) or (
                tok.low in lex.units and length == 1 and not (entry.categories or entry.scope)
            ):
                term.weight = _W_VERB
            elif entry.generic and not (entry.categories or entry.names or entry.scope):
                term.weight = _W_GENERIC
            elif entry.attribute:
                term.weight = _W_ATTRIBUTE
            if entry.concept in _known().preference:
                preference = True
            if entry.state is not None and entry.state[0] == _known().like_axis:
                preference = True
        elif tok.kind == "c":
            term.code = True
            term.key = "`" + tok.low
        elif tok.kind == "i":
            term.ident = True
            term.key = "#" + tok.low
        elif tok.kind == "w" and _looks_like_person(
            toks, i, prev_low, lowercase, matches[i + 1] if i + 1 < n else (None, 1)
        ):
            term.person = True
            persons.add(tok.low)
        if entry is None and length == 1 and tok.kind == "w" and not term.person:
            if after_label or _unknown_verb(toks, i, prev_low, prev_kind, terms):
                term.weight = _W_VERB  # "feat(auth): shorten sessions", "the service authenticates users"
            elif tok.low.endswith("ly") and len(tok.low) > 4:
                term.weight = _W_GENERIC  # an adverb the lexicon does not know: how, not what
        after_label = False
        if owner and (entry is None or not (entry.stop or entry.verb)):
            term.owned = owner  # "the app's build scripts": the app's, not the app
        owner = ""
        term.adjunct = prep
        term.prep = prep_word if prep else ""
        term.pp = pp
        term.in_pp = in_pp
        term.when = when
        if when:
            term.weight = 0.0
        prep = pp = False
        if (
            prev_kind == "c"
            and prev_content is not None
            and prev_content.weight >= _W_GENERIC
            and (prev_content.state is None or prev_content.attributive)
        ):
            term.modifier = prev_content.key + (f"|{prev_content.state[1]}" if prev_content.state else "")
            prev_content.head = term.key
            if entry is None and tok.kind == "w" and not term.person:
                prev_content.modifies = True  # "Rust macros": the product names a kind of thing
        terms.append(term)
        prev_kind = "v" if term.weight == _W_VERB else "c"
        prev_content = term if prev_kind == "c" else None
        prev_low = toks[i + length - 1].low
        i += length
    if negations == 0 and not negating and soft_negations:
        negations = 1
    pred_at = next(
        (
            k
            for k, tk in enumerate(toks)
            if tk.low in _PREDICATE_WORDS
            or any(t.pos == k and (t.weight == _W_VERB or (t.state is not None and not t.attributive)) for t in terms)
            or (k in negated_at and k > 0)
            or k in verb_at
        ),
        n,
    )
    for t in terms:
        t.subject = t.pos < pred_at and not t.in_pp
    negated = negations % 2 == 1
    commas = [k for k, tk in enumerate(toks) if tk.low == ","]
    for pos, object_only, passive in negating:
        stop_at = next((k for k in commas if k > pos), n)
        targets = [t for t in terms if pos < t.pos < stop_at]
        if object_only:
            cut = next((k for k, t in enumerate(targets) if t.pp and k > 0), len(targets))
            targets = targets[:cut]
        if not targets or passive:
            targets = [t for t in terms if t.pos < pos]
            if object_only and not passive:
                targets = []
        if not targets and not object_only:
            negated = not negated
        for t in targets:
            t.targeted = not t.targeted
    clause = _Clause(
        text=" ".join(t.low for t in toks),
        terms=terms,
        negated=negated,
        quantities=[q for q in quantities if q.pos not in rejected_at],
        temporal=temporal,
        preference=preference,
        functional=functional,
        persons=persons,
        conditional=conditional,
    )
    clause.words = {tk.low for tk in toks}
    for t in terms:
        t.neg = negated ^ t.targeted ^ t.rejected
        clause.keys.add(t.key)
        clause.weight += t.weight
        if t.member is not None:
            for c in t.categories:
                if not t.neg:
                    clause.members.setdefault(c, set()).add(t.member)
                elif t.rejected or t.targeted:
                    clause.rejected.setdefault(c, set()).add(t.member)  # given up: "moved off X"
                    if t.targeted and not t.rejected:
                        clause.dropped.add(t.member)  # by a negating verb: "stopped X"
                else:
                    clause.denied.setdefault(c, set()).add(t.member)  # "we don't use X"
        if t.state is not None:
            clause.states.setdefault(t.state[0], []).append(t)
        if t.scope is not None and not t.rejected and not t.when:
            clause.scopes.setdefault(t.scope[0], set()).add(t.scope[1])
            if not t.label:
                clause.stated_scopes.add(t.scope[0])
        if t.code:
            clause.codes.add(t.key)
        if t.ident and not t.when:
            clause.idents.add(t.key)
    return clause


def _word(tok: _Tok) -> Entry | None:
    """The lexicon's entry for one word (a function word as written, else by its stem)."""
    lex = _lexicon()
    return lex.function_words.get(tok.low) or lex.lookup((tok.key,))


_OBJECT_START = {
    "the",
    "a",
    "an",
    "all",
    "every",
    "each",
    "its",
    "their",
    "our",
    "my",
    "his",
    "her",
    "your",
    "any",
    "no",
}


def _unknown_verb(toks: list[_Tok], i: int, prev_low: str, prev_kind: str, terms: list[_Term]) -> bool:
    """Whether a word the lexicon does not know is a verb, from where it stands: a participle
    after a copula ("are mounted"), a verb in the third person right after its subject and
    before its object ("the service authenticates users", "Ravi indexes the archive")."""
    low = toks[i].low
    k = i - 1
    while k > 0 and toks[k].low in ("not", "never", "no", "longer", "always", "also", "now", "still", "only"):
        k -= 1  # "are not truncated", "is no longer cached"
    before = toks[k].low if k >= 0 else prev_low
    if low.endswith(("ed", "en")) and (prev_low in _PASSIVE_AUX or before in _PASSIVE_AUX):
        return True
    if low.endswith("ing") and prev_low in _PASSIVE_AUX | {"been"}:
        return True
    if not (low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3):
        return False
    if prev_kind != "c" or not terms or any(t.weight == _W_VERB or t.state is not None for t in terms):
        return False  # not right after a subject, or the clause already has its verb
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or nxt.kind == "p":
        return False
    return (
        nxt.low in _OBJECT_START
        or nxt.kind in ("n", "c")
        or (_word(nxt) or _NO_ENTRY).scope_preposition
        or (_word(nxt) is None and nxt.low not in _PREDICATE_WORDS)
    )


def _is_function_word(tok: _Tok) -> bool:
    entry = _word(tok)
    return entry is not None and (
        entry.stop or entry.scope_preposition or entry.verb or entry.negation or entry.temporal
    )


def _looks_like_person(
    toks: list[_Tok], i: int, prev_low: str, lowercase: bool, following: tuple[Entry | None, int]
) -> bool:
    """A capitalised name the lexicon does not know, in a person's place: before a verb or a
    possessive, or after "by" / "with" ("owned by Marco")."""
    tok = toks[i]
    if lowercase or not _CASED_ONLY.match(tok.orig) or len(tok.orig) < 2:
        return False
    if _word(tok) is not None:
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if prev_low in _PERSON_PREV:
        return True
    if nxt is None:
        return False
    if nxt.low == "'s":
        return True
    entry = _word(nxt)
    if following[0] is not None and following[1] > 1:
        entry = following[0]  # "Hotfix pull requests": a phrase, not a verb, follows
    if nxt.low in (
        "is",
        "was",
        "has",
        "does",
        "did",
        "will",
        "would",
        "can",
        "should",
        "must",
        "only",
        "always",
        "never",
        "also",
        "now",
        "still",
        "just",
        "usually",
    ):
        return True
    if (
        entry is not None
        and (
            entry.verb
            or entry.state is not None
            or entry.negating_verb
            or entry.concept in _known().preference
            or entry.functional
        )
        and not entry.stop
    ):
        return True
    # "Jonas reviews PRs", "Marta plans sprints": a verb in the third person after a name (not
    # a plural noun before its verb: "Audit logs are …")
    after = toks[i + 2].low if i + 2 < len(toks) else ""
    return (
        i == 0
        and nxt.kind == "w"
        and len(nxt.low) > 3
        and nxt.low.endswith("s")
        and not nxt.low.endswith("ss")
        and (entry is None or not entry.stop)
        and after not in _PREDICATE_WORDS
        and after not in ("need", "needs", "must", "never", "always", "now", "still")
    )


# -- quantities ---------------------------------------------------------------------------------


def _number_at(toks: list[_Tok], i: int) -> tuple[float, int, tuple[int, ...] | None] | None:
    """A number starting at *i*: (value, tokens used, version parts for "3.12")."""
    lex = _lexicon()
    tok = toks[i]
    if tok.kind == "n":
        low = tok.low.lstrip("v")
        version = tuple(int(p) for p in low.split(".")) if _VERSION.match(tok.low) else None
        try:
            value = float(low.replace(",", "")) if version is None or len(version) <= 2 else float(version[0])
        except ValueError:
            return None
        j = i + 1
        nxt = toks[j].low if j < len(toks) else ""
        if nxt in lex.multipliers and nxt not in ("k",):
            value *= lex.multipliers[nxt]
            j += 1
        if tok.low.startswith("v"):
            version = version or (int(value),)
        return value, j - i, version
    if tok.kind != "w":
        return None
    low = tok.low
    words = lex.number_words
    if low in ("a", "an") and i + 1 < len(toks):
        nxt = toks[i + 1].low
        if nxt in lex.fractions:
            return lex.fractions[nxt], 2, None
        if nxt in lex.multipliers:
            return lex.multipliers[nxt], 2, None
        if nxt in lex.units and lex.units[nxt][0] in ("time", "size") and nxt != "second":
            return 1.0, 1, None
        return None
    if (
        low in lex.fractions
        and low not in ("second", "quarter")
        and i + 1 < len(toks)
        and toks[i + 1].low in ("a", "an", "of")
    ):
        return lex.fractions[low], 1, None
    if low == "half" or (low == "quarter" and i + 1 < len(toks) and toks[i + 1].low in ("of", "hour")):
        return lex.fractions[low], 1, None
    if low not in words:
        return None
    if low == "once" and not (
        i + 1 < len(toks) and toks[i + 1].low in ("a", "an", "per", "every", "each", "daily", "weekly")
    ):
        return None  # "once they have sat": a conjunction
    total = 0.0
    current = 0.0
    j = i
    seen = False
    while j < len(toks):
        w = toks[j].low
        if w in words and toks[j].kind == "w":
            if seen and current % 10 == 0 and current >= 20 and words[w] < 10:
                current += words[w]
            elif seen and current and words[w] >= 10 and current < 10:
                break
            else:
                current += words[w]
            seen = True
        elif w in lex.multipliers and seen:
            current = max(current, 1.0) * lex.multipliers[w]
            if lex.multipliers[w] >= 1000:
                total += current
                current = 0.0
        elif w == "and" and seen and j + 1 < len(toks) and (toks[j + 1].low in words or toks[j + 1].low in ("a", "an")):
            if toks[j + 1].low in ("a", "an") and j + 2 < len(toks) and toks[j + 2].low in lex.fractions:
                current += lex.fractions[toks[j + 2].low]
                j += 3
                break
        else:
            break
        j += 1
    if not seen:
        return None
    value = total + current
    if (
        j < len(toks)
        and toks[j].low in lex.fractions
        and toks[j].kind == "w"
        and toks[j].low not in ("second", "quarter")
        and value < 10
    ):
        value = value * lex.fractions[toks[j].low]  # "four fifths"
        j += 1
    return value, j - i, None


_DURATION_BEFORE = {"ago", "earlier", "later"}
_CLOCK_PARTS = {"morning": 0, "am": 0, "afternoon": 12, "pm": 12, "evening": 12, "night": 12}


_YEAR = re.compile(r"^(?:19|20)\d\d$")


def _span(lo: float, hi: float, approx: bool, bound: int) -> tuple[float, float]:
    """The values a quantity allows: ±15% when approximate ("about an hour"), open below an
    upper bound ("under 5 minutes", *bound* −1) or above a lower one ("at least", +1)."""
    if approx:
        lo, hi = lo * 0.85, hi * 1.15
    if bound == -1:
        lo = 0.0
    elif bound == 1:
        hi = float("inf")
    return lo, hi


def _quantities(toks: list[_Tok], phrases: set[int]) -> tuple[list[_Qty], set[int], set[int]]:
    """The quantities of a clause, with their units normalised; the tokens they use; and the
    numbers that name rather than measure ("the v1 API", "the 2022 dataset")."""
    lex = _lexicon()
    out: list[_Qty] = []
    used: set[int] = set()
    idents: set[int] = set()
    n = len(toks)
    i = 0
    while i < n:
        tok = toks[i]
        if tok.kind == "n" and (tok.low.startswith("v") or _YEAR.match(tok.low)):
            nxt = toks[i + 1] if i + 1 < n else None
            if _YEAR.match(tok.low) or (nxt is not None and _is_noun(nxt) and _unit_at(toks, i + 1)[0] is None):
                idents.add(i)
                i += 1
                continue
        if tok.kind == "t":
            h, m = (int(x) for x in tok.low.split(":")[:2])
            j = i + 1
            if j < n and toks[j].low in ("am", "pm"):
                h = h % 12 + (12 if toks[j].low == "pm" else 0)
                j += 1
            out.append(_Qty("clock", h * 60 + m, h * 60 + m, True, 0, tok.low, i, ""))
            used.update(range(i, j))
            i = j
            continue
        for span in (3, 2):
            words = " ".join(tk.low for tk in toks[i : i + span])
            if len(words.split()) == span and words in lex.periods:
                v = lex.periods[words]  # "in real time"
                out.append(_Qty("period", v, v, True, 0, words, i, ""))
                used.update(range(i, i + span))
                i += span
                break
        else:
            span = 0
        if span:
            continue
        if tok.kind == "w" and tok.low in lex.periods and i not in phrases:
            v = lex.periods[tok.low]
            out.append(_Qty("period", v, v, True, 0, tok.low, i, ""))
            used.add(i)
            i += 1
            continue
        if tok.kind == "w" and tok.low in ("noon", "midday", "midnight"):
            v = 720.0 if tok.low != "midnight" else 0.0
            out.append(_Qty("clock", v, v, True, 0, tok.low, i, ""))
            used.add(i)
            i += 1
            continue
        if tok.kind == "w" and tok.low == "every" and i + 1 < n:
            # "every other week", "every night", "every two weeks"
            j = i + 1
            mult = 1.0
            if toks[j].low == "other":
                mult, j = 2.0, j + 1
            num = _number_at(toks, j) if j < n else None
            if num is not None:
                mult *= num[0]
                j += num[1]
            if j < n and (tu := _time_unit(toks[j])) is not None:
                v = mult * tu
                out.append(_Qty("period", v, v, True, 0, " ".join(t.low for t in toks[i : j + 1]), i, ""))
                used.update(range(i, j + 1))
                i = j + 1
                continue
            i += 1
            continue
        if tok.kind == "w" and tok.low in ("zero", "none") and _unit_at(toks, i + 1)[0] is None:
            i += 1
            continue  # "sends zero usage data": a denial, not a count
        if i in phrases:
            i += 1
            continue  # "single quotes", "one-line": a phrase of the lexicon, not a number
        # "one in ten"
        num = _number_at(toks, i)
        if num is None:
            i += 1
            continue
        value, length, version = num
        start = i
        j = i + length
        if j + 1 < n and toks[j].low == "in" and (nb := _number_at(toks, j + 1)) is not None and nb[0]:
            v = value / nb[0]
            out.append(_Qty("ratio", v, v, True, 0, " ".join(t.low for t in toks[i : j + 1 + nb[1]]), i, ""))
            used.update(range(i, j + 1 + nb[1]))
            i = j + 1 + nb[1]
            continue
        # a range: "forty to fifty minutes", "40-50"
        hi_value = value
        if j + 1 < n and toks[j].low in ("to", "or", "and") and toks[j].kind == "w":
            nb = _number_at(toks, j + 1)
            if nb is not None and nb[0] > value and not (toks[j].low == "and" and nb[0] < 1):
                hi_value = nb[0]
                j = j + 1 + nb[1]
        # skip "of a", "a", "an" before a unit: "a quarter of a megabyte", "half an hour"
        k = j
        while k < n and toks[k].low in ("of", "a", "an") and k - j < 2:
            k += 1
        dim, factor, unit_len = _unit_at(toks, k)
        if dim is None:
            k = j
            dim, factor, unit_len = _unit_at(toks, k)
        prev = toks[start - 1].low if start > 0 else ""
        prevkey = toks[start - 1].key if start > 0 else ""
        entry_prev = lex.lookup((prevkey,)) if prevkey else None
        if dim is None and entry_prev is not None and entry_prev.id_word:
            idents.update(range(start, j))
            i = j
            continue  # "issue 17": a name, not a value
        if dim == "time" and k + unit_len < n and toks[k + unit_len].low in _DURATION_BEFORE:
            used.update(range(start, k + unit_len + 1))
            i = k + unit_len + 1
            continue  # "two weeks ago": when, not how long
        bound = 0
        approx = False
        before = tuple(t.low for t in toks[max(0, start - 3) : start])
        for size in (3, 2, 1):
            if len(before) >= size:
                b = before[-size:]
                if b in lex.upper_bounds:
                    bound = -1
                elif b in lex.lower_bounds:
                    bound = 1
                elif b in lex.approximate:
                    approx = True
                if bound or approx:
                    used.update(range(start - size, start))
                    break
        if dim is not None:
            end = k + unit_len
            v, hv = value * factor, hi_value * factor
            unit = ""
            # a rate: "100 requests per minute", "500 calls a month"
            p = end
            if dim == "count" and p < n:
                unit = toks[k].key
            q = p
            while (
                q < min(n, p + 3)
                and toks[q].kind == "w"
                and dim == "count"
                and toks[q].low not in ("per", "a", "an", "every", "each")
                and _is_noun(toks[q])
            ):
                q += 1
            if (
                q + 1 < n
                and toks[q].low in ("per", "a", "an", "each", "every")
                and (tu := _time_unit(toks[q + 1])) is not None
                and dim in ("count", "num", "size", "money")
            ):
                v, hv = v / tu, hv / tu
                dim = "rate:" + dim
                end = q + 2
            if dim == "time" and tok.low in ("once", "twice", "thrice") and k > j:
                v = hv = factor / value  # "once a week": every week
                dim = "period"
            if dim == "clock_part":
                hour = value % 12 + factor
                v = hv = hour * 60
                dim = "clock"
            lo, hi = _span(v, hv, approx, bound)
            out.append(
                _Qty(dim, lo, hi, bound == 0, bound, " ".join(t.low for t in toks[start:end]), start, unit, version)
            )
            used.update(range(start, end))
            i = end
            continue
        if prev in ("at",) and j < n and toks[j].low in _CLOCK_PARTS:
            pass
        # a bare number: a count of the noun after it, or a value named by the words before it
        end = j
        unit = ""
        if j < n and toks[j].kind == "w" and _counted(toks[j]):
            unit = toks[j].key
            dim = "count"
            end = j + 1  # "3 replicas": the noun counted is part of the value
            q = j
            while (
                q < min(n, j + 3)
                and toks[q].kind == "w"
                and toks[q].low not in ("per", "a", "an", "each")
                and _is_noun(toks[q])
            ):
                q += 1
            if q + 1 < n and toks[q].low in ("per", "a", "an", "each") and (tu := _time_unit(toks[q + 1])) is not None:
                value, hi_value = value / tu, hi_value / tu
                dim = "rate:count"
                end = q + 2
        elif (
            j + 1 < n
            and tok.low in ("once", "twice", "thrice")
            and toks[j].low in ("a", "an", "per", "each", "every")
            and (tu := _time_unit(toks[j + 1])) is not None
        ):
            value = hi_value = tu / value  # "once an hour": every hour
            dim = "period"
            end = j + 2
        else:
            dim = "num"
        lo, hi = _span(value, hi_value, approx, bound)
        if prev in ("port",) or prevkey == "port":
            dim = "port"
        out.append(_Qty(dim, lo, hi, bound == 0, bound, " ".join(t.low for t in toks[start:end]), start, unit, version))
        used.update(range(start, end))
        i = end
    return out, used, idents


def _time_unit(tok: _Tok) -> float | None:
    lex = _lexicon()
    for w in (tok.low, tok.low.rstrip("s"), _stem(tok.low)):
        u = lex.units.get(w)
        if u is not None and u[0] == "time":
            return u[1]
    return None


def _unit_at(toks: list[_Tok], k: int) -> tuple[str | None, float, int]:
    """The unit at *k*: (dimension, factor, tokens) — "per cent", "mbit/s", "minutes", "%"."""
    lex = _lexicon()
    if k >= len(toks):
        return None, 1.0, 0
    tok = toks[k]
    if k + 1 < len(toks) and f"{tok.low} {toks[k + 1].low}" in lex.units:
        d, f = lex.units[f"{tok.low} {toks[k + 1].low}"]
        return d, f, 2
    for w in (tok.low, _stem(tok.low), tok.low.rstrip("s")):
        if w in lex.units and tok.kind in ("w", "c"):
            d, f = lex.units[w]
            return d, f, 1
    if tok.low in ("am", "pm"):
        return "clock_part", _CLOCK_PARTS[tok.low], 1
    if tok.low == "in" and k + 2 < len(toks) and toks[k + 1].low == "the" and toks[k + 2].low in _CLOCK_PARTS:
        return "clock_part", _CLOCK_PARTS[toks[k + 2].low], 3
    if tok.low in ("times", "time") and tok.kind == "w":
        return "count", 1.0, 1
    return None, 1.0, 0


def _counted(tok: _Tok) -> bool:
    """Whether the word after a number is what it counts ("3 replicas", "100 requests")."""
    entry = _word(tok)
    return entry is None or not (
        entry.stop or entry.negation or entry.temporal or entry.scope_preposition or entry.state
    )


def _is_noun(tok: _Tok) -> bool:
    if tok.kind != "w":
        return False
    entry = _word(tok)
    if entry is None:
        return not tok.low.endswith(("ly",))
    return not (entry.stop or entry.verb or entry.negation or entry.temporal or entry.scope_preposition or entry.state)


# -- comparison ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Outcome:
    signals: list[Signal]
    reason: str
    coverage: float


def _terms_text(terms: Iterable[_Term]) -> str:
    return "/".join(sorted({t.text for t in terms}))


def _differ(a: str, b: str) -> str:
    """The words that differ between two phrases: "dark mode" / "light mode" → "dark/light"."""
    wa, wb = a.split(), b.split()
    if len(wa) > 1 and len(wb) > 1:
        common = set(wa) & set(wb)
        ra = " ".join(w for w in wa if w not in common) or a
        rb = " ".join(w for w in wb if w not in common) or b
        return f"{ra}/{rb}"
    return f"{a}/{b}"


def _qty_consistent(a: _Qty, b: _Qty) -> bool:
    if a.version is not None or b.version is not None:
        va = a.version or (int(a.lo),)
        vb = b.version or (int(b.lo),)
        if a.exact and b.exact:
            n = min(len(va), len(vb))
            return va[:n] == vb[:n]
    if a.bound and a.bound == b.bound:
        ref_a = a.hi if a.bound == -1 else a.lo
        ref_b = b.hi if b.bound == -1 else b.lo
        return abs(ref_a - ref_b) <= 0.03 * max(abs(ref_a), abs(ref_b), 1e-9)
    if {a.dim, b.dim} <= {"count", "num"} and (a.bound == -1) != (b.bound == -1) and not (a.bound == 1 or b.bound == 1):
        ref_a = a.hi if a.bound == -1 else a.lo
        ref_b = b.hi if b.bound == -1 else b.lo
        return abs(ref_a - ref_b) <= 0.03 * max(abs(ref_a), abs(ref_b), 1e-9)  # a setting, not a range
    if a.exact and b.exact and {a.dim, b.dim} <= {"port", "num", "count"} and a.lo == a.hi and b.lo == b.hi:
        return a.lo == b.lo  # a port or a plain count is a name, not a measurement: 8080 is not 8000
    tol = 0.03 * max(abs(a.lo), abs(b.lo), abs(a.hi) if a.hi != float("inf") else 0, 1e-9)
    return a.lo <= b.hi + tol and b.lo <= a.hi + tol


def _dims_match(a: _Qty, b: _Qty) -> bool:
    if a.dim == b.dim:
        return a.dim != "count" or not a.unit or not b.unit or a.unit == b.unit
    pair = {a.dim, b.dim}
    return (pair <= {"num", "count", "port"} and "port" not in pair) or pair == {"num", "port"}


def _bounded(q: _Qty, c: _Clause) -> _Qty:
    """A value named a limit ("the body limit is 2 MB") is a bound, compared as one."""
    if q.bound or q.version is not None:
        return q
    ctx = _qty_context(q, c)
    if len(c.quantities) == 1:
        ctx = ctx | c.keys  # the clause's only value: what the clause calls it, it is
    if q.dim == "time" and _known().interval in ctx:
        q = replace(q, dim="period")  # "health check interval: 500 ms"
    if _known().limit in ctx:
        return replace(q, lo=0.0, exact=False, bound=-1)
    if _known().minimum in ctx:
        return replace(q, hi=float("inf"), exact=False, bound=1)
    return q


def _qty_context(q: _Qty, c: _Clause) -> set[str]:
    near = [t for t in c.terms if abs(t.pos - q.pos) <= 6 and t.weight > _W_VERB]
    return {t.key for t in near} | ({q.unit} if q.unit else set())


def _mark(terms: list[_Term], into: set[int], test: Callable[[_Term], bool]) -> None:
    into.update(i for i, t in enumerate(terms) if test(t))


def _member_subject(c: _Clause, member: str) -> bool:
    return all(t.subject for t in c.terms if t.member == member)


def _is_subject(c: _Clause, key: str) -> bool:
    return all(t.subject for t in c.terms if t.key == key)


def _polarity(c: _Clause) -> dict[str, bool]:
    """Each concept's polarity in a clause (True: denied); a concept both asserted and denied
    there is left out."""
    seen: dict[str, set[bool]] = {}
    for t in c.terms:
        if t.state is None and t.weight >= _W_VERB:
            seen.setdefault(t.key, set()).add(t.neg)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def _compare(o: _Clause, n: _Clause, old: _Text, new: _Text) -> _Outcome:
    """Compare one clause of the older text with one of the newer: the guards first, then the
    changes, then the signals."""
    lex = _lexicon()
    matched_o: set[int] = set()
    matched_n: set[int] = set()
    _mark(o.terms, matched_o, lambda t: t.key in n.keys or (t.member is not None and _mentions(n, t)))
    _mark(n.terms, matched_n, lambda t: t.key in o.keys or (t.member is not None and _mentions(o, t)))
    shared_weight = sum(o.terms[i].weight for i in matched_o)
    # a role's name matches another product in that role ("package manager: npm" / "pnpm")
    o_cats = {c for t in o.terms for c in t.categories if t.member is not None and not _in_members(t, n)}
    n_cats = {c for t in n.terms for c in t.categories if t.member is not None and not _in_members(t, o)}
    for i, t in enumerate(o.terms):
        if i not in matched_o and t.names & n_cats:
            matched_o.add(i)
            shared_weight += t.weight
    _mark(n.terms, matched_n, lambda t: bool(t.names & o_cats))

    moved: list[str] = []
    if o.idents and n.idents and not (o.idents & n.idents):
        versions = [t for c in (o, n) for t in c.terms if t.ident and t.key in c.idents]
        if not all(t.text[:1] == "v" and not t.subject for t in versions):
            return _Outcome([], f"identifier: {'/'.join(sorted(o.idents))} vs {'/'.join(sorted(n.idents))}", 0.0)
        # "calls the v2 API" / "talks to v3 only": the version used, the claim's value
        moved.append(f"{_terms_text(t for t in o.terms if t.ident)} → {_terms_text(t for t in n.terms if t.ident)}")
        _mark(o.terms, matched_o, lambda t: t.ident)
        _mark(n.terms, matched_n, lambda t: t.ident)
    value_axes = _known().value_axes
    for axis, values in o.scopes.items():
        other = n.scopes.get(axis)
        after_verb = axis in value_axes and not any(
            t.subject for c in (o, n) for t in c.terms if t.scope and t.scope[0] == axis
        )
        if other and not (values & other):
            if after_verb:
                # "hosted in us-east-1" / "reside in eu-central-1", "ships on Tuesdays" /
                # "on Thursdays": where or when, as the claim's value
                moved.append(f"{_scope_text(o, axis)} → {_scope_text(n, axis)}")
                continue
            return _Outcome([], f"scope: another {lex.scope_axes[axis]}", 0.0)
        if other and after_verb and _scope_text(o, axis) != _scope_text(n, axis) and axis == _known().region_axis:
            if all(t.code or "-" in t.text for c in (o, n) for t in c.terms if t.scope and t.scope[0] == axis):
                moved.append(f"{_scope_text(o, axis)} → {_scope_text(n, axis)}")  # two regions of one area
    old_scopes = {axis for c in old.clauses for axis in c.scopes}
    old_words = {w for c in old.clauses for w in c.words}
    for axis in n.stated_scopes:
        named = [t for t in n.terms if t.scope and t.scope[0] == axis and not t.label]
        if any(w in old_words for t in named for w in t.text.split()):
            continue  # "in Python" / "in my Python files": the older text names it too
        if axis not in old_scopes and axis in _known().what_axes:
            only_new = "/".join(sorted({t.text for t in n.terms if t.scope and t.scope[0] == axis}))
            return _Outcome([], f"scope: the newer text is about {only_new} only", 0.0)
    persons_o = _persons(o, old)
    persons_n = _persons(n, new)
    # a name the other text mentions, even where it is not recognised as a person, is shared
    owners_n = {p.split("'s ")[0] for p in persons_n if "'s " in p}
    owners_o = {p.split("'s ")[0] for p in persons_o if "'s " in p}
    person_swap = bool(
        persons_o
        and persons_n
        and not (persons_o & (persons_n | (n.words - owners_n)))
        and not (persons_n & (o.words - owners_o))
    )
    if person_swap and not (o.functional or n.functional):
        return _Outcome([], f"person: {'/'.join(sorted(persons_o))} vs {'/'.join(sorted(persons_n))}", 0.0)
    if not shared_weight:
        return _Outcome([], "no shared subject", 0.0)

    # states: the same antonym axis on both sides
    antonym_hits: list[str] = []
    hit_axes: set[int] = set()
    double_flips = 0
    state_negations = 0
    attributive_conflict = ""
    for axis, o_terms in o.states.items():
        n_terms = n.states.get(axis)
        if not n_terms:
            continue
        _mark(o.terms, matched_o, lambda t, a=axis: t.state is not None and t.state[0] == a)  # type: ignore[misc]
        _mark(n.terms, matched_n, lambda t, a=axis: t.state is not None and t.state[0] == a)  # type: ignore[misc]
        o_raw = {t.state[1] for t in o_terms if t.state is not None}
        n_raw = {t.state[1] for t in n_terms if t.state is not None}
        o_eff = {
            t.state[1] ^ int(t.neg and (o.preference or not t.attributive)) for t in o_terms if t.state is not None
        }
        n_eff = {
            t.state[1] ^ int(t.neg and (n.preference or not t.attributive)) for t in n_terms if t.state is not None
        }
        if len(o_eff) != 1 or len(n_eff) != 1 or o_eff == n_eff:
            if o_raw != n_raw:
                double_flips += 1  # "disabled" / "not enabled": the same claim
            continue
        if o_raw == n_raw:
            state_negations += 1  # the same state, denied on one side: a negation
            continue
        attributive = all(t.attributive for t in o_terms) and all(t.attributive for t in n_terms)
        subject = any(t.subject for t in o_terms) or any(t.subject for t in n_terms)
        if attributive and subject:
            attributive_conflict = _differ(o_terms[0].text, n_terms[0].text)
            continue
        antonym_hits.append(_differ(o_terms[0].text, n_terms[0].text))
        hit_axes.add(axis)

    # alternatives: another product or choice in the same role, or the old one given up
    alt_swaps: list[str] = []
    abandoned: list[str] = []
    changed_cats: set[int] = set()
    other_denied = False
    for cat, o_members in o.members.items():
        n_members = n.members.get(cat, set())
        n_denied = n.rejected.get(cat, set())
        o_denied = o.rejected.get(cat, set()) | o.denied.get(cat, set())
        # given up, where it is what the claim is about on one side at least ("the scheduler
        # drops …" does not drop the scheduler)
        gone = {m for m in o_members & n_denied if not (_member_subject(o, m) and _member_subject(n, m))}
        came = n_members - o_members - o_denied
        if gone:
            abandoned.append("/".join(sorted(gone)))
        if (o_members - n_members and came) or (gone and came):
            alt_swaps.append(f"{'/'.join(sorted(o_members - n_members))} → {'/'.join(sorted(came))}")
        if n_members & o_denied:
            abandoned.append("/".join(sorted(n_members & o_denied)))
        n_not = n_denied | n.denied.get(cat, set())
        if o_members - n_members - n_not and n_not - o_members and not came:
            other_denied = True  # "Redis for caching" / "Memcached not used": another object denied
        if alt_swaps or gone or n_members & o_denied:
            changed_cats.add(cat)
            _mark(o.terms, matched_o, lambda t, c=cat: c in t.categories)  # type: ignore[misc]
            _mark(n.terms, matched_n, lambda t, c=cat: c in t.categories)  # type: ignore[misc]
    alt_swaps = sorted(set(alt_swaps))
    abandoned = sorted(set(abandoned))

    # values: quantities of one dimension, code-like values, the holder of a single-holder role
    value_hits: list[str] = []
    equal_values = 0
    o_quantities = [_bounded(q, o) for q in o.quantities]
    n_quantities = [_bounded(q, n) for q in n.quantities]
    for qo in o_quantities:
        cands = [qn for qn in n_quantities if _dims_match(qo, qn)]
        if not cands:
            continue
        ctx_o = _qty_context(qo, o)
        best = max(cands, key=lambda qn: (len(ctx_o & _qty_context(qn, n)), qn.exact, -abs(qn.pos - qo.pos)))
        if _qty_consistent(qo, best) or any(qn.exact and _qty_consistent(qo, qn) for qn in cands):
            equal_values += 1
            continue
        overlap = ctx_o & _qty_context(best, n)
        single = len([q for q in o_quantities if _dims_match(q, best)]) == 1 and len(cands) == 1
        if overlap or single:
            value_hits.append(f"{qo.text} → {best.text}")
    if value_hits or equal_values:
        _mark(o.terms, matched_o, lambda t: t.attribute)
        _mark(n.terms, matched_n, lambda t: t.attribute)
        if any(q.dim == "clock" for q in o.quantities) and any(q.dim == "clock" for q in n.quantities):
            daypart = _known().daypart
            _mark(o.terms, matched_o, lambda t: daypart in t.categories)
            _mark(n.terms, matched_n, lambda t: daypart in t.categories)
    if moved:
        value_hits.extend(moved)
        _mark(o.terms, matched_o, lambda t: t.scope is not None and t.scope[0] in value_axes)
        _mark(n.terms, matched_n, lambda t: t.scope is not None and t.scope[0] in value_axes)
    code_o = o.codes - n.codes
    code_n = n.codes - o.codes
    code_swap = bool(code_o and code_n)
    if code_swap and any(
        t.code and t.subject and t.key in code_o for t in o.terms + n.terms if t.key in code_o | code_n
    ):
        return _Outcome(
            [],
            f"identifier: {'/'.join(sorted(c[1:] for c in code_o))} vs {'/'.join(sorted(c[1:] for c in code_n))}",
            0.0,
        )
    if code_swap:
        value_hits.append(f"{'/'.join(sorted(c[1:] for c in code_o))} → {'/'.join(sorted(c[1:] for c in code_n))}")
        _mark(o.terms, matched_o, lambda t: t.code)
        _mark(n.terms, matched_n, lambda t: t.code)
    if person_swap:
        names_o = "/".join(sorted(persons_o))
        names_n = "/".join(sorted(persons_n))
        value_hits.append(f"{names_o} → {names_n}")
        _mark(o.terms, matched_o, lambda t: t.person)
        _mark(n.terms, matched_n, lambda t: t.person)

    # the same head with other modifiers ("orders table" / "customers table"), or the same
    # word heading another thing ("Rust" / "Rust macros")
    n_by_key = {t.key: t for t in n.terms}
    for t in o.terms:
        u = n_by_key.get(t.key)
        if u is None:
            continue
        if t.head and u.head and t.head != u.head and t.head not in n.keys and u.head not in o.keys:
            if _noun_key(o, t.head) and _noun_key(n, u.head):
                return _Outcome([], f"modifier: {t.text} {_bare(t.head)} vs {u.text} {_bare(u.head)}", 0.0)
        if (
            t.modifier
            and u.modifier
            and t.modifier != u.modifier
            and t.state is None
            and u.state is None
            and not t.attribute
            and _nominal(o, t.modifier)
            and _nominal(n, u.modifier)
            and not _alternatives(t.modifier, u.modifier)
            and not (t.modifier.startswith("#") and u.modifier.startswith("#") and moved)
        ):
            if t.modifier.split("|")[0] not in n.keys and u.modifier.split("|")[0] not in o.keys:
                return _Outcome([], f"modifier: {_bare(t.modifier)} {t.text} vs {_bare(u.modifier)} {u.text}", 0.0)
    if attributive_conflict:
        return _Outcome([], f"modifier: {attributive_conflict}", 0.0)

    unknown_swap = ""
    if not (alt_swaps or abandoned):
        unknown_swap, pair = _unknown_swap(o, n, matched_o, matched_n)
        if pair:
            matched_o.add(pair[0])
            matched_n.add(pair[1])
    if new.speaker:
        _mark(o.terms, matched_o, lambda t: t.person and t.key == _stem(new.speaker or ""))
    if old.speaker:
        _mark(n.terms, matched_n, lambda t: t.person and t.key == _stem(old.speaker or ""))
    # what the two clauses share beyond a verb: a claim is about something
    if sum(o.terms[i].weight for i in matched_o if o.terms[i].weight > _W_VERB) < _W_GENERIC:
        return _Outcome([], "no shared subject: only a verb in common", 0.0)
    cov_o = sum(o.terms[i].weight for i in matched_o) / (o.weight or 1.0)
    cov_n = sum(n.terms[i].weight for i in matched_n) / (n.weight or 1.0)
    if not _covered(cov_o, cov_n):
        missing = _terms_text(t for i, t in enumerate(o.terms) if i not in matched_o and t.weight >= _W_GENERIC)
        return _Outcome([], f"coverage: {cov_o:.2f} of the older claim (not found: {missing})", cov_o)
    # another circumstance on both sides ("for transactional data" / "for analytics")
    adj_o = [t for i, t in enumerate(o.terms) if i not in matched_o and t.adjunct and t.weight >= _W_GENERIC]
    adj_n = [t for i, t in enumerate(n.terms) if i not in matched_n and t.adjunct and t.weight >= _W_GENERIC]
    if adj_o and adj_n:
        return _Outcome([], f"adjunct: {_terms_text(adj_o)} vs {_terms_text(adj_n)}", cov_o)

    # negation: shared concepts denied on one side only
    pol_o, pol_n = _polarity(o), _polarity(n)
    shared = [k for k in pol_o if k in pol_n]
    swapped = {t.key for c in (o, n) for t in c.terms if t.member and t.categories & changed_cats}
    flipped = [
        k for k in shared if pol_o[k] != pol_n[k] and not (_is_subject(o, k) and _is_subject(n, k)) and k not in swapped
    ]
    agreed = [k for k in shared if pol_o[k] and pol_n[k]]
    weights = {t.key: t.weight for t in o.terms}
    predicate = [k for k in shared if not (_is_subject(o, k) and _is_subject(n, k))]
    flip_share = sum(weights.get(k, 0) for k in flipped) / (sum(weights.get(k, 0) for k in predicate) or 1.0)
    negation = (
        ((bool(flipped) and flip_share >= 0.34) or bool(state_negations))
        and not agreed
        and not double_flips
        and not antonym_hits
    )
    if negation or antonym_hits or abandoned:
        if n.conditional and (negation or abandoned) and not antonym_hits:
            return _Outcome([], "conditional: the newer text states a condition", cov_o)
        strangers = [u for i, u in enumerate(n.terms) if u.subject and i not in matched_n and u.weight >= 1.0]
        if strangers:
            return _Outcome([], f"subject: the newer clause is about {_terms_text(strangers)}", cov_o)
        if not abandoned:
            obj_o = [u for i, u in enumerate(o.terms) if (_core(u) or _core_state(u, n)) and i not in matched_o]
            obj_n = [u for i, u in enumerate(n.terms) if _core(u) and i not in matched_n]
            if obj_o and obj_n:
                return _Outcome([], f"object: {_terms_text(obj_o)} vs {_terms_text(obj_n)}", cov_o)
    if alt_swaps and not (negation or antonym_hits or abandoned):
        obj_o = [u for i, u in enumerate(o.terms) if _core(u) and i not in matched_o]
        obj_n = [u for i, u in enumerate(n.terms) if _core(u) and i not in matched_n]
        if obj_o and obj_n:
            return _Outcome([], f"object: {_terms_text(obj_o)} vs {_terms_text(obj_n)}", cov_o)
    subj_o = [t for t in o.terms if t.subject and t.weight >= 1.0 and not t.label]
    subj_n = [u for i, u in enumerate(n.terms) if u.subject and u.weight >= 1.0 and not u.label and i not in matched_n]
    if subj_o and subj_n and not any(i in matched_o for i, t in enumerate(o.terms) if t in subj_o):
        return _Outcome([], f"subject: {_terms_text(subj_o)} vs {_terms_text(subj_n)}", cov_o)
    narrowed = _narrowed(o, n, matched_n, bool(negation or antonym_hits))
    if narrowed:
        return _Outcome([], f"modifier: the newer text narrows it to {narrowed}", cov_o)

    if value_hits and not (antonym_hits or negation or alt_swaps or abandoned) and cov_n < 0.5:
        return _Outcome([], f"coverage: {cov_n:.2f} of the newer clause", cov_o)
    if not (antonym_hits or negation or alt_swaps or abandoned or value_hits or unknown_swap):
        return _Outcome([], "no conflicting change", cov_o)
    if unknown_swap and (negation or antonym_hits):
        return _Outcome([], f"several changes: {unknown_swap} and {'negation' if negation else antonym_hits[0]}", cov_o)
    if other_denied and not (alt_swaps or abandoned):
        return _Outcome([], "several changes: another object denied", cov_o)
    attributive_only = bool(antonym_hits) and all(
        t.attributive and not t.subject
        for c in (o, n)
        for ts in c.states.values()
        for t in ts
        if t.state and t.state[0] in hit_axes
    )
    if alt_swaps and (negation or (antonym_hits and not attributive_only)) and not abandoned:
        return _Outcome(
            [], f"several changes: {'; '.join(alt_swaps)} and {'negation' if negation else antonym_hits[0]}", cov_o
        )
    if value_hits and not (negation or antonym_hits or alt_swaps or abandoned or unknown_swap):
        obj_o = [u for i, u in enumerate(o.terms) if _core(u) and i not in matched_o]
        obj_n = [u for i, u in enumerate(n.terms) if _core(u) and i not in matched_n]
        if obj_o and obj_n:
            return _Outcome([], f"object: {_terms_text(obj_o)} vs {_terms_text(obj_n)}", cov_o)
    if moved and (alt_swaps or abandoned or unknown_swap or antonym_hits):
        return _Outcome([], f"several changes: {moved[0]} and another choice or state", cov_o)
    if moved:
        # a place or a day is the claim's value only if nothing else differs ("asked about
        # Redis on Monday" / "asked about Postgres on Tuesday" are two questions)
        for weight in (_W_VERB, 1.0):
            rest_o = [t for i, t in enumerate(o.terms) if i not in matched_o and t.weight == weight]
            rest_n = [t for i, t in enumerate(n.terms) if i not in matched_n and t.weight == weight]
            if rest_o and rest_n:
                return _Outcome([], f"object: {_terms_text(rest_o)} vs {_terms_text(rest_n)}", cov_o)
    if value_hits and negation and not (alt_swaps or abandoned):
        return _Outcome([], f"several changes: {value_hits[0]} and a negation", cov_o)
    if code_swap and (negation or antonym_hits):
        return _Outcome([], "several changes: another value and another state", cov_o)

    strength = min(1.0, 0.4 + 0.4 * min(1.0, cov_o) + 0.2 * min(1.0, cov_n))
    signals: list[Signal] = []
    if antonym_hits:
        signals.append(Signal("antonym", _CEILING["antonym"] * strength, ", ".join(antonym_hits)))
    if negation and not (alt_swaps or abandoned):
        denied_new = any(pol_n[k] for k in flipped) or (not flipped and n.negated)
        signals.append(
            Signal("negation", _CEILING["negation"] * strength, "negated" if denied_new else "negation dropped")
        )
    if abandoned and not alt_swaps and all(set(a.split("/")) <= n.dropped for a in abandoned):
        # "stopped proxying gRPC": the old choice denied, no new one named
        signals.append(Signal("negation", _CEILING["negation"] * strength, f"{', '.join(abandoned)} dropped"))
    elif alt_swaps or abandoned:
        ev = ", ".join(alt_swaps) if alt_swaps else f"{', '.join(abandoned)} → another choice"
        signals.append(Signal("preference_change", _CEILING["preference_change"] * strength, ev))
    if unknown_swap:
        # a name the lexicon does not know: weaker evidence than two products of one role
        signals.append(Signal("preference_change", _CEILING["preference_change"] * strength * _UNKNOWN, unknown_swap))
    if value_hits:
        signals.append(Signal("value_change", _CEILING["value_change"] * strength, ", ".join(value_hits)))
    if new.temporal:
        signals.append(Signal("temporal_override", _CEILING["temporal_override"] * strength, f'"{new.temporal[0]}"'))
    return _Outcome(signals, "", cov_o)


def _narrowed(o: _Clause, n: _Clause, matched_n: set[int], denial: bool) -> str:
    """What the newer clause narrows a shared word to, if anything: a modifier the older
    clause lacks ("logs" / "audit logs", "the build" / "the docs build"), an owner's part
    ("the Android app" / "the Android app's build scripts"), a product that heads another
    noun ("Rust" / "Rust macros")."""
    o_by_key = {t.key: t for t in o.terms}
    narrowing = _narrowing(n)
    for k, u in enumerate(n.terms):
        t = o_by_key.get(u.key)
        if t is None:
            if u.owned and k not in matched_n and u.weight >= 1.0 and u.state is None:
                return f"{u.owned} 's {u.text}"
            continue
        if u.modifier and not t.modifier and u.modifier.split("|")[0] not in o.keys:
            plain = u.weight >= 1.0 and u.state is None and (denial or not u.categories)
            if plain and u.modifier in narrowing and _nominal(n, u.modifier):
                return f"{_bare(u.modifier)} {u.text}"
        if denial and u.member and u.modifies and not t.modifies and u.head and u.head not in o.keys:
            return f"{u.text} {_bare(u.head)}"
    for k, u in enumerate(n.terms):
        if k not in matched_n and u.prep == "for" and (u.categories or u.scope) and not u.when and u.key not in o.keys:
            return f'{u.text} ("for {u.text}" and the like)'
    return ""


def _scope_text(c: _Clause, axis: int) -> str:
    return "/".join(sorted({t.text for t in c.terms if t.scope and t.scope[0] == axis}))


def _persons(c: _Clause, text: _Text) -> set[str]:
    """The people a clause speaks of; in a chat line, "I" is its speaker."""
    if not text.speaker:
        return set(c.persons)
    return {text.speaker if p == "user" else p for p in c.persons} or {text.speaker}


def _core(t: _Term) -> bool:
    """A clause's object: a content word after its verb, outside any prepositional phrase."""
    return not t.subject and not t.in_pp and t.weight >= 1.0 and not t.person and t.state is None


def _unknown_swap(
    o: _Clause, n: _Clause, matched_o: set[int], matched_n: set[int]
) -> tuple[str, tuple[int, int] | None]:
    """One name on each side that the lexicon does not know, in the clause's value slot, with
    everything else of both clauses alike ("the wiki is Tettra" / "the wiki is Slite")."""
    rest_o = [i for i, t in enumerate(o.terms) if i not in matched_o and t.weight >= _W_GENERIC]
    rest_n = [i for i, t in enumerate(n.terms) if i not in matched_n and t.weight >= _W_GENERIC]
    if len(rest_o) != 1 or len(rest_n) != 1:
        return "", None
    a, b = o.terms[rest_o[0]], n.terms[rest_n[0]]
    if a.entry is not None and b.entry is not None:
        return "", None  # two words the lexicon knows, and not as alternatives of one role
    for t in (a, b):
        known = t.entry is not None and bool(t.categories) and not t.names
        if (
            (t.entry is not None and not known)
            or t.subject
            or t.person
            or t.ident
            or t.state is not None
            or t.modifies
            or t.neg
        ):
            return "", None
    if not (_name_like(a) and _name_like(b)):
        return "", None
    return f"{a.text} → {b.text}", (rest_o[0], rest_n[0])


def _name_like(t: _Term) -> bool:
    """A product's name: written with a capital or as code, or a word of no language the
    lexicon knows."""
    return t.code or t.capitalised or bool(t.categories)


def _core_state(t: _Term, other: _Clause) -> bool:
    """An older clause's state phrase that the newer clause does not speak of at all ("enable
    dark mode" / "disable telemetry"): the object of its verb, not a state of its subject."""
    return (
        t.state is not None
        and t.state[0] not in other.states
        and len(t.text.split()) > 1
        and not t.subject
        and not t.in_pp
    )


def _covered(cov_o: float, cov_n: float) -> bool:
    """Whether two clauses speak of the same thing: most of the older claim is found in the
    newer clause, or enough of it and the newer clause is mostly explained by the older."""
    return (
        cov_o >= _MIN_COVERAGE_OLD
        or (cov_o >= _MIN_COVERAGE and cov_n >= _MIN_COVERAGE_BOTH)
        or (cov_o >= _MIN_COVERAGE_ANY and cov_n >= _MIN_COVERAGE_NEW)
    )


def _mentions(c: _Clause, t: _Term) -> bool:
    """Whether clause *c* names the product *t* names ("API-key authentication" / "API keys")."""
    return any(
        t.member in c.members.get(cat, ()) or t.member in c.rejected.get(cat, ()) or t.member in c.denied.get(cat, ())
        for cat in t.categories
    )


def _in_members(t: _Term, c: _Clause) -> bool:
    return any(t.member in c.members.get(cat, ()) or t.member in c.rejected.get(cat, ()) for cat in t.categories)


def _nominal(c: _Clause, key: str) -> bool:
    """Whether the modifier *key* of clause *c* is a noun or adjective, not a verb form
    ("merging PRs", "applied after")."""
    return not any(t.key == key.split("|")[0] and t.text.endswith(("ing", "ed")) and t.state is None for t in c.terms)


def _noun_key(c: _Clause, key: str) -> bool:
    """Whether *key* stands in clause *c* as a noun of its own (not a verb, a state, a
    product or a quantity's name)."""
    return any(
        t.key == key
        and t.weight >= 1.0
        and t.state is None
        and not t.categories
        and not t.attribute
        and not t.person
        and not t.code
        for t in c.terms
    )


def _alternatives(a: str, b: str) -> bool:
    """Two modifiers that are products of one role ("NumPy-style" / "Google-style"): a
    change of choice, which the alternatives detector judges, not another subject."""
    ea = _lexicon().phrases_by_concept.get(a)
    eb = _lexicon().phrases_by_concept.get(b)
    return bool(ea and eb and ea & eb)


def _narrowing(c: _Clause) -> set[str]:
    """Keys of a clause's plain content words, the ones that can narrow a noun ("autouse
    fixtures"): not states, scopes, products, names or numbers."""
    return {
        t.key
        for t in c.terms
        if ((t.weight >= 1.0 and t.state is None) or t.attributive)
        and not t.categories
        and not t.names
        and not (t.ident or t.person or t.code)
    }


def _bare(key: str) -> str:
    return key.split("|")[0].lstrip("=@~`&#")


def detect(new: str, old: str) -> Detection:
    """Score how strongly *new* (the newer memory) contradicts *old*."""
    a, b = _analyse(old), _analyse(new)
    if not a.clauses or not b.clauses:
        return Detection(0.0, reason="no shared subject")
    if a.historical and not b.historical:
        return Detection(0.0, reason="historical: the older text describes the past")
    best: tuple[float, _Outcome, _Clause, _Clause] | None = None
    silent: tuple[_Outcome, _Clause, _Clause] | None = None
    for o in a.clauses:
        for n in b.clauses:
            out = _compare(o, n, a, b)
            if out.signals:
                conf = _combine(out.signals)
                if best is None or conf > best[0]:
                    best = (conf, out, o, n)
            elif (
                silent is None
                or out.coverage > silent[0].coverage
                or (not silent[0].coverage and _rank(out) > _rank(silent[0]))
            ):
                silent = (out, o, n)
    if best is not None:
        conf, out, o, n = best
        return Detection(
            conf, tuple(out.signals), overlap=round(out.coverage, 4), extra={"older": o.text, "newer": n.text}
        )
    assert silent is not None
    out, o, n = silent
    return Detection(0.0, reason=out.reason, overlap=round(out.coverage, 4), extra={"older": o.text, "newer": n.text})


def _rank(out: _Outcome) -> int:
    """Which silence to report when no clause pair aligned: a guard over "no shared subject"."""
    return 0 if out.reason == "no shared subject" else 1


def _combine(signals: tuple[Signal, ...] | list[Signal]) -> float:
    """Noisy-or of the signals' scores: independent evidence adds up, and stays below 1."""
    keep = 1.0
    for s in signals:
        keep *= 1.0 - s.score
    return round(1.0 - keep, 4)
