"""Contradiction detectors: deterministic heuristics over a (newer, older) pair of memories.

No model, no randomness: the same two texts always give the same signals and confidence.
The detectors share one analysis of the pair:

1. **Normalise** both texts (lower case, contractions expanded: "doesn't" → "does not"),
   split them into tokens and mark each token as a stop word, a negation cue, a temporal
   marker, a number/version, or content.
2. **Align** the content of the two texts (`difflib` on light stems). Aligned differences are
   *substitutions* (old words replaced by new ones in the same place), *insertions* (only the
   new text has them) and *deletions* (only the old one has them).
3. Classify each substitution: an **antonym** swap (dark → light), a **value** swap (15 → 16,
   30s → 60s), an **object** swap in a preference slot (after "uses", "prefers", "is", "to",
   "with"…: vim → neovim), or a **subject** swap (anything else: staging → production,
   unit → integration, Alice → Bob). A subject swap means the texts talk about different
   things: no detector fires. Scope words (environments, components, test kinds) that differ
   between the texts mean the same.
4. Detectors, each with a ceiling from the product design:
   negation ≤ 0.8 (one text negates what the other asserts), antonym ≤ 0.9,
   preference change ≤ 0.8 (object swap), temporal override ≤ 0.6 (the newer text says things
   changed — "now", "switched to", "no longer", "since the migration" — and something did
   change, or it names the older text's choice as abandoned: "moved from X to Y"),
   value change ≤ 0.7 (numbers differ for the same subject).
   Each score is the ceiling × how much of the two texts' content is shared (the subject).
5. **Combine**: ``confidence = 1 − Π(1 − score)`` over the signals that fired (a noisy-or:
   independent evidence adds up, one weak signal stays weak). A pair is a contradiction when
   the confidence reaches ``contradiction.threshold`` (0.4).

False negatives are preferred to false positives: any doubt about the subject silences the
pair.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = ["ANTONYMS", "DETECTOR_VERSION", "Detection", "Signal", "detect"]

#: Bumped whenever the detectors change meaning (edge ids include it).
DETECTOR_VERSION = 1

# -- lexicons -----------------------------------------------------------------------------------

_ANTONYM_PAIRS = [
    ("dark", "light"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("allow", "deny"),
    ("allowed", "denied"),
    ("allow", "block"),
    ("sync", "async"),
    ("synchronous", "asynchronous"),
    ("on", "off"),
    ("public", "private"),
    ("include", "exclude"),
    ("included", "excluded"),
    ("accept", "reject"),
    ("accepted", "rejected"),
    ("always", "never"),
    ("increase", "decrease"),
    ("true", "false"),
    ("yes", "no"),
    ("mutable", "immutable"),
    ("monolith", "microservices"),
    ("open", "closed"),
    ("visible", "hidden"),
    ("show", "hide"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("strict", "lenient"),
    ("strict", "loose"),
    ("tabs", "spaces"),
    ("uppercase", "lowercase"),
    ("online", "offline"),
    ("static", "dynamic"),
    ("blocking", "nonblocking"),
    ("manual", "automatic"),
    ("manually", "automatically"),
    ("lazy", "eager"),
    ("verbose", "quiet"),
    ("allowlist", "denylist"),
    ("whitelist", "blacklist"),
    ("ascending", "descending"),
    ("horizontal", "vertical"),
    ("add", "remove"),
    ("like", "dislike"),
    ("likes", "dislikes"),
    ("love", "hate"),
    ("loves", "hates"),
    ("encrypted", "unencrypted"),
    ("secure", "insecure"),
    ("before", "after"),
    ("minimum", "maximum"),
    ("inline", "external"),
    ("single", "multiple"),
    ("stateless", "stateful"),
    ("sequential", "parallel"),
    ("serial", "parallel"),
    ("pass", "fail"),
    ("passes", "fails"),
    ("succeed", "fail"),
    ("start", "stop"),
    ("keep", "drop"),
    ("opt-in", "opt-out"),
]

#: Bidirectional antonym dictionary (normalised words).
ANTONYMS: dict[str, set[str]] = {}
for _a, _b in _ANTONYM_PAIRS:
    ANTONYMS.setdefault(_a, set()).add(_b)
    ANTONYMS.setdefault(_b, set()).add(_a)

_NOT_DENIAL = {"only", "just", "matter", "necessarily", "sure", "bad", "exactly"}

_NEGATION = {"not", "no", "never", "without", "none", "neither", "nor", "cannot", "nothing", "nobody"}
#: Verbs that negate their object: "stopped using X", "avoid X", "dropped X".
_NEGATING_VERBS = {"stop", "stopped", "stops", "avoid", "avoids", "avoided", "drop", "dropped", "ban", "banned"}

_TEMPORAL_WORDS = {
    "now",
    "nowadays",
    "anymore",
    "switched",
    "switch",
    "switching",
    "migrated",
    "migrate",
    "migration",
    "moved",
    "replaced",
    "changed",
    "since",
    "instead",
    "currently",
    "henceforth",
    "longer",  # "no longer"
    "going",  # "going forward"
    "later",
    "recently",
    "today",
    "latest",
    "upgraded",
    "downgraded",
    "deprecated",
    "retired",
    "abandoned",
}

#: Words after which the next content word is the chosen object (a preference slot).
_SLOT_WORDS = {
    "use",
    "uses",
    "used",
    "using",
    "prefer",
    "prefers",
    "preferred",
    "is",
    "are",
    "was",
    "were",
    "be",
    "to",
    "in",
    "on",
    "by",
    "at",
    "of",
    "for",
    "with",
    "via",
    "from",
    "run",
    "runs",
    "running",
    "choose",
    "chose",
    "chosen",
    "pick",
    "picked",
    "default",
    "defaults",
    "set",
    "adopt",
    "adopted",
    "write",
    "writes",
    "written",
    "deploy",
    "deploys",
    "deployed",
    "host",
    "hosted",
    "store",
    "stores",
    "stored",
    "manage",
    "managed",
    "build",
    "builds",
    "built",
    "like",
    "likes",
    "love",
    "loves",
    "want",
    "wants",
    "go",
    "goes",
    "went",
    "=",
    ":",
}

#: Axes along which two statements may be about different scopes.
_SCOPE_AXES = [
    {
        "staging",
        "production",
        "prod",
        "dev",
        "development",
        "qa",
        "preview",
        "sandbox",
        "local",
        "ci",
        "test",
        "testing",
    },
    {"frontend", "backend", "client", "server", "web", "mobile", "ios", "android", "desktop", "cli", "worker"},
    {"unit", "integration", "e2e", "end-to-end", "smoke", "load", "acceptance"},
    {"linux", "macos", "windows", "mac"},
    {"internal", "external"},
    {"eu", "us", "uk", "apac", "emea", "latam", "europe", "asia", "americas"},
    {"release", "debug"},
    {"read", "write"},
    {"weekday", "weekend", "weekdays", "weekends", "morning", "evening", "night"},
    {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "yesterday", "today", "tomorrow"},
]

#: Spellings of the same scope.
_SCOPE_SYNONYMS = {
    "development": "dev",
    "prod": "production",
    "testing": "test",
    "mac": "macos",
    "weekdays": "weekday",
    "weekends": "weekend",
    "europe": "eu",
}

#: Words after which a number names something ("issue 17", "step 2"): different numbers are
#: different subjects, not a changed value.
_ID_WORDS = {
    "issue",
    "issues",
    "pr",
    "prs",
    "pull",
    "ticket",
    "tickets",
    "bug",
    "bugs",
    "line",
    "lines",
    "step",
    "steps",
    "task",
    "tasks",
    "item",
    "page",
    "chapter",
    "section",
    "sprint",
    "phase",
    "story",
    "epic",
    "incident",
    "case",
    "test",
    "run",
    "build",
    "job",
    "commit",
    "room",
    "floor",
    "q1",
    "q2",
    "q3",
    "q4",
    "#",
    "no",
    "number",
}

#: Units: "5 minutes" → "1 hour" is a value change, not a change of subject.
_UNITS = {
    "ms",
    "s",
    "sec",
    "secs",
    "second",
    "seconds",
    "min",
    "mins",
    "minute",
    "minutes",
    "h",
    "hr",
    "hrs",
    "hour",
    "hours",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "kb",
    "mb",
    "gb",
    "tb",
    "kib",
    "mib",
    "gib",
    "k",
    "m",
    "x",
    "percent",
    "%",
    "px",
    "em",
    "rem",
    "pt",
    "chars",
    "characters",
    "lines",
    "columns",
    "cores",
    "cpus",
    "gbs",
    "replicas",
    "workers",
    "threads",
    "retries",
    "times",
}

_STOP = {
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "of",
    "for",
    "to",
    "in",
    "on",
    "at",
    "by",
    "with",
    "via",
    "as",
    "from",
    "into",
    "onto",
    "over",
    "under",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "we",
    "our",
    "us",
    "i",
    "my",
    "me",
    "you",
    "your",
    "they",
    "their",
    "he",
    "she",
    "his",
    "her",
    "user",
    "users",
    "team",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "do",
    "does",
    "did",
    "has",
    "have",
    "had",
    "will",
    "would",
    "should",
    "can",
    "could",
    "may",
    "might",
    "must",
    "shall",
    "also",
    "just",
    "all",
    "every",
    "each",
    "any",
    "some",
    "so",
    "then",
    "than",
    "there",
    "here",
    "when",
    "which",
    "who",
    "what",
    "where",
    "why",
    "how",
    "very",
    "really",
    "still",
    "only",
    "please",
    "project",
    "repo",
    "=",
    ":",
}

_CONTRACTIONS = [
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'d\b"), " would"),
    (re.compile(r"'m\b"), " am"),
    (re.compile(r"'s\b"), ""),
]
_TOKEN = re.compile(
    r"\d{4}-\d{2}-\d{2}"  # a date: an identifier, not a value
    r"|#\d+"  # "#123": an identifier
    r"|v?\d+(?:\.\d+)*[a-z%]*"
    r"|[^\W\d][\w+#\-]*[\w+#]|[^\W\d_]|[=:%]"
)
_IDENT = re.compile(r"\d{4}-\d{2}-\d{2}$|#\d+$")
_NUMBER = re.compile(r"v?\d+(?:\.\d+)*[a-z%]*$")
#: A bare run of 7+ digits is an identifier (a ticket, a timestamp, an account), not a value.
_LONG_DIGITS = re.compile(r"\d{7,}$")


def _is_value(word: str, tokens: list[str]) -> bool:
    return bool(_NUMBER.match(word)) and not _LONG_DIGITS.match(word) and _previous_token(tokens, word) not in _ID_WORDS


_DOUBLE = re.compile(r"([bcdfgkmnprtvz])\1$")


@functools.lru_cache(maxsize=16384)  # (~2 MB full; 65,536 unique words took 9 MB)
def _stem(word: str) -> str:
    """A light stemmer, enough to match "uses" / "used" / "using", "prefers" / "preferred",
    "likes" / "like" (both sides of a pair go through it, so it only needs to be consistent)."""
    if _NUMBER.match(word) or len(word) <= 2:
        return word
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "shes", "ches", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    elif w.endswith("ing") and len(w) >= 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) >= 4 and not w.endswith("eed"):
        w = w[:-2]
    w = _DOUBLE.sub(r"\1", w)
    if w.endswith("e") and len(w) > 2:
        w = w[:-1]
    return w


_ANTONYM_STEMS: dict[str, set[str]] = {}
for _a, _b in _ANTONYM_PAIRS:
    _ANTONYM_STEMS.setdefault(_stem(_a), set()).add(_stem(_b))
    _ANTONYM_STEMS.setdefault(_stem(_b), set()).add(_stem(_a))

_ACRONYM = re.compile(r"\b[A-Z]{2,}\b")


def normalise(text: str) -> list[str]:
    t = text.replace("’", "'").replace("‘", "'")
    # All-caps words are names ("US", "EU", "ON"), never the stop words they spell in lower
    # case: mark them so they stay content.
    t = _ACRONYM.sub(lambda m: m.group(0).lower() + "_", t).lower()
    for pattern, repl in _CONTRACTIONS:
        t = pattern.sub(repl, t)
    t = t.replace("non-blocking", "nonblocking").replace("no-op", "noop")
    return _TOKEN.findall(t)


def _plain(token: str) -> str:
    return token[:-1] if token.endswith("_") and len(token) > 2 else token


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
    reason: str = ""  # why nothing fired, when nothing did
    overlap: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)

    def flagged(self, threshold: float) -> bool:
        return self.confidence >= threshold and bool(self.signals)


_T = TypeVar("_T")


@dataclass(frozen=True)
class _Side:
    tokens: list[str]
    content: list[str]  # content words (not stop words, negations, temporal markers)
    stems: list[str]
    negations: int
    temporal: set[str]
    scope: list[set[str]]


_STATE_VERBS = {"is", "are", "was", "turned", "switched", "set", "stays", "remains", "left", "kept", "now"}


#: Words of a text the detectors look at: memories are short; a long text's first words name
#: its subject, and the alignment's cost grows with the square of its length.
MAX_WORDS = 120


#: Texts whose analysis is kept: a memory is compared with ~10 neighbours, and a neighbour with
#: every new memory near it, so the same texts come back often. Only texts up to
#: `_CACHED_CHARS` are kept. An analysis is ~5 KB of Python objects for a 20-word memory (both
#: caches at 4,096 texts took 22 MB, which in the daemon grew the heap for the first few
#: thousand stores), while a pair costs 0.09 ms with neither text cached against 0.02 ms with
#: both (median over the contradiction set's pairs): 1,024 texts, the neighbours of the last
#: ~100 memories, hold ~5 MB.
_ANALYSED = 1024
_CACHED_CHARS = 2000


def _cached(fn: Callable[[str], _T]) -> Callable[[str], _T]:
    kept = functools.lru_cache(maxsize=_ANALYSED)(fn)

    @functools.wraps(fn)
    def analyse(text: str) -> _T:
        return kept(text) if len(text) <= _CACHED_CHARS else fn(text)

    return analyse


@_cached
def _side(text: str) -> _Side:
    """The analysis of one text (cached: callers must not change it)."""
    raw = normalise(text)[:MAX_WORDS]
    tokens = [_plain(t) for t in raw]
    content: list[str] = []
    negations = 0
    temporal: set[str] = set()
    for i, (tok, rtok) in enumerate(zip(tokens, raw, strict=True)):
        acronym = rtok != tok
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok in _NEGATION and (not acronym or tok in ("not", "never")):
            if tok == "no" and nxt in ("longer", "more"):
                temporal.add(f"no {nxt}")
            # "not only", "not just", "no matter", "never forget", and "5 minutes, not 10"
            # (a negated number is a correction inside the text) are not denials
            if not (nxt in _NOT_DENIAL or (nxt is not None and _NUMBER.match(nxt))):
                negations += 1
            continue
        if tok in ("forget", "forgot") and i > 0 and tokens[i - 1] in ("not", "never"):
            negations -= 1  # "don't forget", "never forget": an emphasis
        if tok in _NEGATING_VERBS:
            negations += 1
            temporal.add(tok)
            continue
        if tok in _TEMPORAL_WORDS:
            temporal.add(tok)
            continue
        # "on" / "off" as a state ("is ON", "turned off") are content, not prepositions
        state = tok in ("on", "off") and (acronym or nxt is None or (i > 0 and tokens[i - 1] in _STATE_VERBS))
        if tok in _STOP and not acronym and not state:
            continue
        content.append(_SCOPE_SYNONYMS.get(tok, tok))
    words = {_SCOPE_SYNONYMS.get(t, t) for t in tokens}
    scope = [{_SCOPE_SYNONYMS.get(w, w) for w in axis} & words for axis in _SCOPE_AXES]
    return _Side(tokens, content, [_stem(w) for w in content], negations, temporal, scope)


def _antonyms(a: str, b: str) -> bool:
    if b in ANTONYMS.get(a, ()):
        return True
    sa, sb = _stem(a), _stem(b)
    return sb in _ANTONYM_STEMS.get(sa, ())


def _scope_conflict(a: _Side, b: _Side) -> str | None:
    for sa, sb in zip(a.scope, b.scope, strict=True):
        if sa and sb and sa != sb:
            return f"different scope ({'/'.join(sorted(sa))} vs {'/'.join(sorted(sb))})"
    return None


def _contiguous(tokens: list[str], words: list[str], limit: int = 2) -> bool:
    """*words* (at most *limit*) stand next to each other in *tokens*: one name such as
    "github actions", not words scattered over the sentence."""
    if not words or len(words) > limit:
        return False
    try:
        start = tokens.index(words[0])
    except ValueError:
        return False
    return tokens[start : start + len(words)] == words


def _previous_token(tokens: list[str], word: str) -> str | None:
    try:
        i = tokens.index(word)
    except ValueError:
        return None
    return tokens[i - 1] if i > 0 else None


_W = r"[a-z0-9+#._\-/]+"
_ABANDON = [
    re.compile(
        r"\b(?:switched|switch|switching|moved|moving|migrated|migrating|changed|went|converted|ported|"
        rf"transitioned|upgraded|rewrote|rewritten)\s+(?:{_W}\s+){{0,3}}?from\s+((?:{_W}\s+){{0,2}}?{_W})\s+(?:to|for|into)\b"
    ),
    re.compile(rf"\breplaced\s+((?:{_W}\s+){{0,2}}?{_W})\s+with\b"),
    re.compile(rf"\binstead\s+of\s+((?:{_W}\s+){{0,1}}{_W})"),
    re.compile(
        r"\bno\s+longer\s+(?:use|uses|using|run|runs|running|prefer|prefers|like|likes|want|wants|need|needs)\s+"
        rf"(?:the\s+|a\s+|an\s+|any\s+)?({_W})"
    ),
    re.compile(rf"\bno\s+more\s+({_W})"),
    re.compile(rf"\b(?:stopped|stop)\s+(?:using|running)\s+(?:the\s+)?({_W})"),
    re.compile(rf"\b(?:dropped|ditched|abandoned|retired|removed)\s+(?:the\s+)?({_W})"),
    re.compile(rf"\bmoved\s+off\s+(?:of\s+)?({_W})"),
]


@_cached
def _abandoned(text: str) -> frozenset[str]:
    t = " ".join(_plain(w) for w in normalise(text))
    out: set[str] = set()
    for pattern in _ABANDON:
        for m in pattern.finditer(t):
            for word in re.split(r"[\s/]+", m.group(1)):
                if word and word not in _STOP:
                    out.add(_stem(word))
    return frozenset(out)


def detect(new: str, old: str) -> Detection:
    """Score how strongly *new* (the newer memory) contradicts *old*."""
    a, b = _side(old), _side(new)
    shared = set(a.stems) & set(b.stems)
    union = set(a.stems) | set(b.stems)
    smaller = min(len(set(a.stems)), len(set(b.stems))) or 1
    overlap = len(shared) / smaller
    if not shared:
        return Detection(0.0, reason="no shared subject", overlap=0.0)
    scope = _scope_conflict(a, b)
    if scope:
        return Detection(0.0, reason=scope, overlap=overlap)

    signals: list[Signal] = []
    subject_swaps: list[str] = []
    antonym_hits: list[str] = []
    value_hits: list[str] = []
    object_hits: list[str] = []
    matcher = difflib.SequenceMatcher(a=a.stems, b=b.stems, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace":
            continue
        old_words, new_words = a.content[i1:i2], b.content[j1:j2]
        rest_old, rest_new = list(old_words), list(new_words)
        for w in old_words:
            if w not in ANTONYMS and _stem(w) not in _ANTONYM_STEMS:
                continue  # (most words: no antonym at all)
            hit = next((v for v in rest_new if _antonyms(w, v)), None)
            if hit is not None:
                antonym_hits.append(f"{w}/{hit}")
                rest_old.remove(w)
                rest_new.remove(hit)
        nums_old = [w for w in rest_old if _is_value(w, a.tokens)]
        nums_new = [w for w in rest_new if _is_value(w, b.tokens)]
        if nums_old and nums_new:
            rest_old = [w for w in rest_old if w not in nums_old]
            rest_new = [w for w in rest_new if w not in nums_new]
            units_old = [w for w in rest_old if w in _UNITS]
            units_new = [w for w in rest_new if w in _UNITS]
            value_hits.append(f"{' '.join(nums_old + units_old)} → {' '.join(nums_new + units_new)}")
            rest_old = [w for w in rest_old if w not in _UNITS]
            rest_new = [w for w in rest_new if w not in _UNITS]
        if not rest_old and not rest_new:
            continue
        if rest_old and rest_new:
            if any(_IDENT.match(w) for w in rest_old + rest_new):
                subject_swaps.append(f"{' '.join(rest_old)} → {' '.join(rest_new)}")  # dates, #ids
                continue
            prev_old = _previous_token(a.tokens, rest_old[0])
            prev_new = _previous_token(b.tokens, rest_new[0])
            if (
                prev_old in _SLOT_WORDS
                and prev_new in _SLOT_WORDS
                and _contiguous(a.tokens, rest_old, 3)
                and _contiguous(b.tokens, rest_new, 3)
                and i1 > 0
            ):
                object_hits.append(f"{' '.join(rest_old)} → {' '.join(rest_new)}")
                continue
            subject_swaps.append(f"{' '.join(rest_old)} → {' '.join(rest_new)}")
        # a one-sided remainder inside a replace block is extra detail, not a conflict

    # Abandoned choice: "moved from X to Y" / "no longer X" where the old text states X (and
    # does not itself reject it). The sentence shapes differ too much to align: this rule
    # stands on its own (the scope check above still applies).
    abandoned = _abandoned(new) & set(a.stems) - _abandoned(old) if a.negations % 2 == 0 else set()
    if abandoned:
        strength = min(1.0, 0.4 + overlap / 2)
        evidence = ", ".join(sorted(abandoned))
        sigs = (
            Signal("temporal_override", 0.6 * strength, f"abandons {evidence}"),
            Signal("preference_change", 0.8 * strength, f"{evidence} → another choice"),
        )
        return Detection(_combine(sigs), sigs, overlap=overlap)
    if subject_swaps:
        return Detection(0.0, reason=f"different subject ({'; '.join(subject_swaps)})", overlap=overlap)

    # Scores scale with how much of the content the texts share (beyond the swapped words).
    swapped = {_stem(w) for hit in antonym_hits + value_hits + object_hits for w in re.split(r"[ /→]+", hit) if w}
    context = (len(shared) + len(swapped & union)) / max(len(union), 1)
    strength = min(1.0, 0.4 + context)

    if antonym_hits:
        signals.append(Signal("antonym", 0.9 * strength, ", ".join(antonym_hits)))
    if value_hits:
        signals.append(Signal("value_change", 0.7 * strength, ", ".join(value_hits)))
    if object_hits:
        signals.append(Signal("preference_change", 0.8 * strength, ", ".join(object_hits)))
    if object_hits and (antonym_hits or value_hits):
        # "writes Go with tabs" / "writes YAML with spaces": the swapped object is a scope
        return Detection(0.0, reason=f"several things differ ({'; '.join(object_hits)})", overlap=overlap)
    neg_differs = (a.negations % 2) != (b.negations % 2)
    if neg_differs and object_hits:
        # "uses Redis for caching" / "does not use Redis for sessions": the negation is
        # about another object
        return Detection(0.0, reason=f"negation about another object ({'; '.join(object_hits)})", overlap=overlap)
    if neg_differs and not antonym_hits and overlap >= 0.5:
        signals.append(Signal("negation", 0.8 * strength, "negated" if b.negations % 2 else "negation dropped"))
    changed = bool(antonym_hits or value_hits or object_hits or neg_differs)
    if b.temporal and changed:
        signals.append(Signal("temporal_override", 0.6 * strength, f'"{sorted(b.temporal)[0]}"'))
    if not signals:
        return Detection(0.0, reason="no conflicting change", overlap=overlap)
    return Detection(_combine(signals), tuple(signals), overlap=overlap)


def _combine(signals: tuple[Signal, ...] | list[Signal]) -> float:
    """Noisy-or of the signals' scores: independent evidence adds up, and stays below 1."""
    keep = 1.0
    for s in signals:
        keep *= 1.0 - s.score
    return round(1.0 - keep, 4)
