"""Contradiction detectors: deterministic heuristics over a (newer, older) pair of memories.

No model, no randomness: the same two texts always give the same signals and confidence. The
detectors compare what the two texts *claim*, not their word sequences
(docs/contradictions.md has the design and its measurements):

1. **Read each text** into clauses (split at ``;``, sentence ends, dashes, a colon after a
   statement, a comma before a new predicate, and at "because / since / so / but / which…").
   Each clause becomes a set of *terms*: words and phrases looked up in the lexicon
   (`omegad/contradictions/lexicon.toml`), so synonyms share one concept, a state word knows its
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

from .clauses import _analyse
from .compare import _compare, _Outcome
from .framing import other_circumstance
from .model import _W_VERB, Detection, _Clause, _Text, noisy_or, stage_of
from .slots import slot_change

__all__ = ["AGREEING", "UNEXPLAINED", "detect"]


def detect(new: str, old: str) -> Detection:
    """Score how strongly *new* (the newer memory) contradicts *old*."""
    a, b = _analyse(old), _analyse(new)
    if not a.clauses or not b.clauses:
        return Detection(0.0, reason="no shared subject")
    if a.historical and not b.historical:
        return Detection(0.0, reason="historical: the older text describes the past")
    if scope := other_circumstance(new, old):
        return Detection(0.0, reason=scope)
    best: tuple[float, _Outcome, _Clause, _Clause] | None = None
    silent: tuple[_Outcome, _Clause, _Clause] | None = None
    for o in a.clauses:
        for n in b.clauses:
            out = _unless_denied_on_both_sides(_compare(o, n, a, b), o, n, a, b)
            if out.signals:
                conf = noisy_or(out.signals)
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
    reason = out.reason
    if stage_of(out.reason) not in _OTHER_THING and (slot := slot_change(new, old)):
        # "Package registry: Nexus." / "…: JFrog Artifactory.": one slot, two values
        return Detection(slot.score, (slot,), overlap=1.0, extra={"older": old, "newer": new})
    if reason == AGREEING and (cue := _unexplained(a, b)):
        # the claims align and agree, yet the newer text denies or reports a change the older
        # one does not: a reading the detectors cannot vouch for
        reason = f"{UNEXPLAINED}: the newer text says {cue}"
    return Detection(0.0, reason=reason, overlap=round(out.coverage, 4), extra={"older": o.text, "newer": n.text})


#: Guards that found the two texts to be about another person or identifier: no slot reading
#: overrides them.
_OTHER_THING = frozenset({"person", "identifier"})


#: The stage of two claims aligned and found agreeing (a repeat, a restatement, a refinement).
#: The pair classifier is not asked about those: it scores restatements of one claim high
#: (docs/contradictions.md, "The pair classifier").
AGREEING = "no conflicting change"
#: The stage of two claims that align and agree while the newer text denies or reports a
#: change of the older one's predicate elsewhere. Reported for misses; the pair classifier is
#: not asked about those either: on writers it had not seen, it was mostly wrong there
#: (docs/contradictions.md, "Fifth round").
UNEXPLAINED = "unexplained change"


def _unexplained(old: _Text, new: _Text) -> str:
    """What the newer text denies of the older claim's predicate (a word the older text asserts
    outside its subject), where the older text denies nothing: its cue."""
    if any(_denies(c) for c in old.clauses):
        return ""
    asserted = {t.key for c in old.clauses for t in c.terms if not t.subject and not t.label and t.weight >= _W_VERB}
    for c in new.clauses:
        if not _denies(c):
            continue
        says_no = any(t.entry is not None and t.entry.negative and t.state is not None for t in c.terms)
        denied = {t.key for t in c.terms if t.neg or says_no}
        if denied & asserted:
            return f'"{c.temporal[0]}"' if c.temporal else "no"
    return ""


def _unless_denied_on_both_sides(out: _Outcome, o: _Clause, n: _Clause, old: _Text, new: _Text) -> _Outcome:
    """*out* without its negation signal when the other text denies, in some clause, all that
    the denying clause denies ("passwords are hashed and never stored in plaintext" / "we don't
    store plaintext passwords"): the two texts deny one thing, so the denial is no change."""
    kept = []
    for s in out.signals:
        if s.kind == "negation" and s.evidence in ("negated", "negation dropped"):
            denier, other = (n, old) if s.evidence == "negated" else (o, new)
            denied = {t.key for t in denier.terms if t.neg and not t.subject and t.weight >= _W_VERB}
            elsewhere = {t.key for c in other.clauses for t in c.terms if t.neg}
            if denied and denied <= elsewhere:
                continue
        kept.append(s)
    if len(kept) == len(out.signals):
        return out
    if not [s for s in kept if s.kind != "temporal_override"]:
        return _Outcome([], f"{AGREEING}: both texts deny it", out.coverage)
    return _Outcome(kept, out.reason, out.coverage)


def _denies(c: _Clause) -> bool:
    """A clause that says no: a negation, a negating verb, a state such as "disabled" (a choice
    rejected for another, "without X" or "instead of X", is not a denial)."""
    return c.negated or any(
        (t.neg and t.targeted) or (t.entry is not None and t.entry.negative and t.state is not None) for t in c.terms
    )


def _rank(out: _Outcome) -> int:
    """Which silence to report when no clause pair aligned: a guard over "no shared subject"."""
    return 0 if out.reason == "no shared subject" else 1
