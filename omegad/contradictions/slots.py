"""Notes written as a label and its value ("Package registry: Nexus.", "Kotlin warnings as
errors: yes"): two such notes with one label and values that share nothing state two values of
one slot. The clause reading finds no predicate in them to compare, and names it does not know
(a product, a mode) give it no role to swap, so the label is the subject and the value the claim.
"""

from __future__ import annotations

import re

from .clauses import _terms_of
from .model import _CEILING, _W_VERB, Signal, _cached, _Term
from .words import _COMMIT, _stem, _words

__all__ = ["slot_change"]

#: "label: value": a label of a few words (no sentence before the colon), then the value.
_SLOT = re.compile(r"^\s*([^:\n.;!?]{2,60}?)\s*:\s*(\S[^\n]*?)\s*[.!]?\s*$")
_WORD = re.compile(r"[^\W_][\w.+#'-]*")
#: A time phrase closing a label dates the value, it does not name another slot ("Image
#: registry since the outage: …").
_DATED = re.compile(r"\s+(?:since|as of|starting|beginning|from|after)\b.*$", re.I)
#: A label says what the slot is; more words than this are a sentence.
MAX_LABEL_WORDS = 5
#: A value longer than this is a statement of its own (the clause reading judges it).
MAX_VALUE_WORDS = 8
#: Values that answer a yes-or-no slot ("Kotlin warnings as errors: yes").
_YES = _words("yes true on enabled y")
_NO = _words("no false off disabled n none")
#: Words of a label that name nothing ("the cache", "our CI").
_FILLER = _words("the a an our my your their its this that of for in on to")


@_cached
def _slot(text: str) -> tuple[frozenset[str], str] | None:
    """The label (its stemmed words) and the value of a "label: value" note, or None."""
    if _COMMIT.match(text):  # "feat(api): …" is a commit's type and scope, not a slot
        return None
    m = _SLOT.match(text)
    if m is None or "\n" in text:
        return None
    label, value = _DATED.sub("", m.group(1)), m.group(2)
    words = _WORD.findall(label.lower())
    if not 2 <= len(words) <= MAX_LABEL_WORDS or len(_WORD.findall(value)) > MAX_VALUE_WORDS:
        return None  # one word before a colon is as often a speaker ("Dana: …") as a label
    if any(ch.isdigit() for ch in value):
        return None  # quantities and versions: the value detector compares those with their units
    return frozenset(_stem(w) for w in words if w not in _FILLER), value


def _claims(terms: list[_Term]) -> set[tuple[str, int]]:
    """A value's concepts; a state with the pole it takes ("not disabled" is enabled)."""
    return {(t.key, -1 if t.state is None else t.state[1] ^ t.neg) for t in terms}


def slot_change(new: str, old: str) -> Signal | None:
    """A value change when *new* and *old* are "label: value" notes with one label and values
    that share no concept; None otherwise. Where both values have states, they count only as
    opposite poles of one axis ("green" / "red"): states on different axes ("disallowed" /
    "blocked") may say the same thing in other words."""
    a, b = _slot(old), _slot(new)
    if a is None or b is None or not a[0] or a[0] != b[0]:
        return None
    va, vb = a[1].lower().rstrip("."), b[1].lower().rstrip(".")
    if {va, vb} & _YES and {va, vb} & _NO:
        return Signal("value_change", _CEILING["value_change"], f"{a[1]} → {b[1]}")
    ta, tb = _terms_of(a[1]), _terms_of(b[1])
    if not ta or not tb:
        return None
    if any(t.state is None and (t.weight == _W_VERB or t.text.endswith(("ed", "ing"))) for t in (*ta[1:], *tb[1:])):
        return None  # "stale ones reviewed monthly": a statement about the slot, not a value of it
    if _claims(ta) & _claims(tb):
        return None  # a value kept, refined or restated ("Redis" / "Redis, 2 replicas")
    sa = {t.state for t in ta if t.state is not None}
    sb = {t.state for t in tb if t.state is not None}
    if sa and sb:
        axes = {s[0] for s in sa} & {s[0] for s in sb}
        if not axes or any(s in sb for s in sa):
            return None
    return Signal("value_change", _CEILING["value_change"], f"{a[1]} → {b[1]}")
