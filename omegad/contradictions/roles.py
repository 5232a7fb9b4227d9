"""Guesses of the part a word plays where the lexicon does not say: a verb it does not know,
a function word, a person's name."""

from __future__ import annotations

import re

from .known import _PERSON_PREV, _known, _word
from .lexicon import Entry
from .model import _W_VERB, _Term
from .words import _Tok, _words

_NO_ENTRY = Entry(concept="", text="")
_CASED_ONLY = re.compile(r"^[A-ZÀ-Ý][a-zà-ÿ]+$")
#: Words that end a clause's subject: copulas, auxiliaries, modals, a terse note's colon.
_PREDICATE_WORDS = _words(
    "is are was were be been has have had do does did can will would should must may might shall : :: = gets get got"
)
_PASSIVE_AUX = {"was", "were", "been", "is", "are", "be", "being", "got", "gets", "get"}

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
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if prev_low in ("what", "who", "which", "that") and nxt is not None and nxt.low in _OBJECT_START:
        return True  # "Redoc is what renders our API reference"
    if prev_kind != "c" or not terms or any(t.weight == _W_VERB or t.state is not None for t in terms):
        return False  # not right after a subject, or the clause already has its verb
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
