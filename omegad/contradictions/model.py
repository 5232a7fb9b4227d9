"""What the detectors produce (`Signal`, `Detection`) and read texts into (terms, quantities,
clauses), with the constants that weigh them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from .lexicon import Entry
from .words import _CACHES, _stem, _Tok

#: Bumped whenever the detectors change meaning (edge ids include it). Version 2 compares
#: claims (clauses, lexicon, quantities); version 4 reads negative words ("lacks", "excluded")
#: as denials; version 5 reads "label: value" notes as two values of one slot. Edges written
#: by an earlier version are kept as they are.
DETECTOR_VERSION = 6

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


# -- analysis -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Signal:
    kind: str  # negation | antonym | preference_change | temporal_override | value_change
    score: float
    evidence: str

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "score": round(self.score, 4), "evidence": self.evidence}


def noisy_or(signals: tuple[Signal, ...] | list[Signal]) -> float:
    """The confidence of *signals* together: the noisy-or of their scores (independent evidence
    adds up, and stays below 1)."""
    keep = 1.0
    for s in signals:
        keep *= 1.0 - s.score
    return round(1.0 - keep, 4)


def stage_of(reason: str) -> str:
    """The guard or step a silence's *reason* names: its first words."""
    return reason.split(":", 1)[0].split(" (", 1)[0] or "silent"


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
        return "flagged" if self.signals else stage_of(self.reason)


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
    tokens: list[_Tok] = field(default_factory=list)  # the clause's tokens (a pronoun's referent is read from them)


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
