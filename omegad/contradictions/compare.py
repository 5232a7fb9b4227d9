"""Comparing one clause of the older text with one of the newer: the guards, the changes and
the signals."""

from __future__ import annotations

from dataclasses import dataclass

from .known import _known, _lexicon
from .matching import (
    _DENIALS,
    _alternatives,
    _bare,
    _bounded,
    _core,
    _core_coverage,
    _core_state,
    _covered,
    _denies_shared,
    _differ,
    _dims_match,
    _in_members,
    _is_subject,
    _lexical_negation,
    _mark,
    _member_subject,
    _mentions,
    _narrowed,
    _nominal,
    _noun_key,
    _persons,
    _polarity,
    _presence,
    _qty_consistent,
    _qty_context,
    _scope_text,
    _terms_text,
    _text_coverage,
    _unknown_swap,
)
from .model import (
    _CEILING,
    _UNKNOWN,
    _W_GENERIC,
    _W_VERB,
    Signal,
    _Clause,
    _Qty,
    _Text,
)
from .words import _stem


def _values(a: str | None, b: str | None) -> bool:
    """Two code-like values (ports, paths, hosts)."""
    return bool(a and b and a.startswith("`") and b.startswith("`"))


# -- comparison ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Outcome:
    signals: list[Signal]
    reason: str
    coverage: float


def _holders(c: _Clause, other: _Clause) -> set[str]:
    """In a claim of a single holder whose other side names a person, a capitalised name the
    lexicon does not know is a person ("Release captain for 4.x: Beatriz")."""
    if not (c.functional and other.functional and other.persons):
        return set()
    return {
        t.key
        for t in c.terms
        if t.capitalised and t.entry is None and not (t.subject or t.code or t.ident) and t.key not in other.keys
    }


def _counts_apart(qo: _Qty, o: _Clause, qn: _Qty, n: _Clause) -> bool:
    """A count of one thing against a number that other words name ("runs 5 brokers" /
    "replication factor 3"): two settings, not one changed."""
    for a, ca, b, cb in ((qo, o, qn, n), (qn, n, qo, o)):
        if a.dim == "count" and a.unit and b.dim == "num" and a.unit not in cb.keys:
            if any(t.pos == b.pos - 1 and t.weight >= 1.0 and t.key not in ca.keys for t in cb.terms):
                return True
    return False


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
    persons_o = _persons(o, old) | _holders(o, n)
    persons_n = _persons(n, new) | _holders(n, o)
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
    denied_states = 0
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
            elif all(t.neg for t in o_terms + n_terms):
                denied_states += 1  # "no dark mode" / "lacks a dark mode": denied on both sides
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
        if (overlap or single) and not _counts_apart(qo, o, best, n):
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
        if _values(t.head, u.head):
            continue  # "binds :50051 by default" / ":50052": two values in one slot, not two things
        if t.head and u.head and t.head != u.head and t.head not in n.keys and u.head not in o.keys:
            if _noun_key(o, t.head) and _noun_key(n, u.head):
                return _Outcome([], f"modifier: {t.text} {_bare(t.head)} vs {u.text} {_bare(u.head)}", 0.0)
        if (
            t.modifier
            and u.modifier
            and t.modifier != u.modifier
            and not _values(t.modifier, u.modifier)
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
    # the predicate of presence ("is on", "is excluded") of a claim the other clause denies
    lex_o, lex_n = _lexical_negation(o, n), _lexical_negation(n, o)
    if lex_n or _denies_shared(n, o, matched_n):
        _mark(o.terms, matched_o, lambda t: _presence(t, n))
    if lex_o or _denies_shared(o, n, matched_o):
        _mark(n.terms, matched_n, lambda t: _presence(t, o))
    # what the two clauses share beyond a verb: a claim is about something
    if sum(o.terms[i].weight for i in matched_o if o.terms[i].weight > _W_VERB) < _W_GENERIC:
        return _Outcome([], "no shared subject: only a verb in common", 0.0)
    cov_o = sum(o.terms[i].weight for i in matched_o) / (o.weight or 1.0)
    cov_n = sum(n.terms[i].weight for i in matched_n) / (n.weight or 1.0)
    typed = bool(antonym_hits or alt_swaps or abandoned or value_hits)  # a change of a known kind
    # "there is no encryption step" against a claim that denies nothing
    flat_denial = n.negated and not n.conditional and not (o.words & _DENIALS)
    if not _covered(cov_o, cov_n) and not (
        (typed and _covered(_core_coverage(o, n, matched_o, matched_n), cov_n))
        or ((typed or flat_denial) and _covered(_text_coverage(o, n, new, matched_o, matched_n), cov_n))
    ):
        missing = _terms_text(t for i, t in enumerate(o.terms) if i not in matched_o and t.weight >= _W_GENERIC)
        return _Outcome([], f"coverage: {cov_o:.2f} of the older claim (not found: {missing})", cov_o)
    # another circumstance on both sides ("for transactional data" / "for analytics")
    adj_o = [t for i, t in enumerate(o.terms) if i not in matched_o and t.adjunct and t.weight >= _W_GENERIC]
    adj_n = [t for i, t in enumerate(n.terms) if i not in matched_n and t.adjunct and t.weight >= _W_GENERIC]
    if adj_o and adj_n:
        return _Outcome([], f"adjunct: {_terms_text(adj_o)} vs {_terms_text(adj_n)}", cov_o)

    # negation: shared concepts denied on one side only; a clause that says no in a state word
    # the other does not use ("excluded", "off") denies its other words
    pol_o, pol_n = _polarity(o, lex_o), _polarity(n, lex_n)
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
        and not denied_states
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
    if value_hits and antonym_hits and not (alt_swaps or abandoned):
        return _Outcome([], f"several changes: {value_hits[0]} and {antonym_hits[0]}", cov_o)
    if code_swap and (negation or antonym_hits):
        return _Outcome([], "several changes: another value and another state", cov_o)

    strength = min(1.0, 0.4 + 0.4 * min(1.0, cov_o) + 0.2 * min(1.0, cov_n))
    signals: list[Signal] = []
    if antonym_hits:
        signals.append(Signal("antonym", _CEILING["antonym"] * strength, ", ".join(antonym_hits)))
    if negation and not (alt_swaps or abandoned):
        denied_new = (
            any(pol_n[k] for k in flipped)
            if flipped
            else n.negated or any(t.neg for ts in n.states.values() for t in ts)
        )
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
