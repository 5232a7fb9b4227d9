"""How the parts of two clauses relate: quantities that agree or conflict, the polarity of
concepts, terms marked as matched, and the questions the guards ask of a term or a clause."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from .known import _known, _lexicon
from .model import (
    _MIN_COVERAGE,
    _MIN_COVERAGE_ANY,
    _MIN_COVERAGE_BOTH,
    _MIN_COVERAGE_NEW,
    _MIN_COVERAGE_OLD,
    _W_GENERIC,
    _W_VERB,
    _Clause,
    _Qty,
    _Term,
    _Text,
)


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
    settings = {a.dim, b.dim} <= {"count", "num"} or (a.dim == b.dim and a.dim.startswith("rate:"))
    if settings and (a.bound == -1) != (b.bound == -1) and not (a.bound == 1 or b.bound == 1):
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


def _polarity(c: _Clause, flip: bool = False) -> dict[str, bool]:
    """Each concept's polarity in a clause (True: denied), every one reversed when *flip* (the
    clause says no in a word of its own); a concept both asserted and denied there is left out."""
    seen: dict[str, set[bool]] = {}
    for t in c.terms:
        if t.state is None and t.weight >= _W_VERB:
            seen.setdefault(t.key, set()).add(t.neg != flip)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def _lexical_negation(c: _Clause, other: _Clause) -> bool:
    """Whether clause *c* states an absence or refusal in a word of its own ("test files are
    excluded", "telemetry is off", "IE11 is unsupported") on an axis *other* does not speak of:
    then it denies the rest of its claim as "not" would."""
    flips = sum(
        1
        for t in c.terms
        if t.state is not None
        and t.entry is not None
        and t.entry.negative
        and not t.attributive
        and not t.rejected
        and t.state[0] not in other.states
    )
    return flips % 2 == 1


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
    if not ((_name_like(a) or _chosen(o, a)) and (_name_like(b) or _chosen(n, b))):
        return "", None
    return f"{a.text} → {b.text}", (rest_o[0], rest_n[0])


def _chosen(c: _Clause, t: _Term) -> bool:
    """A word the lexicon does not know that ends a clause of preference as its value ("the
    preferred diff pager is delta", "for notebooks the user prefers marimo")."""
    return c.preference and t.entry is None and not t.in_pp and t is c.terms[-1]


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


def _core_coverage(o: _Clause, n: _Clause, matched_o: set[int], matched_n: set[int]) -> float:
    """The share of the older claim found, its circumstances aside ("prefers tabs *for
    indentation*", "*fridays* only"), where the newer clause names nothing of its own."""
    if any(
        i not in matched_n and (t.weight >= 1.0 or (t.in_pp and t.weight >= _W_GENERIC)) for i, t in enumerate(n.terms)
    ):
        return 0.0  # the newer clause speaks of something else as well
    value_axes = _known().value_axes
    aside = sum(
        t.weight
        for i, t in enumerate(o.terms)
        if i not in matched_o
        and ((t.in_pp and not t.subject) or (t.scope is not None and t.scope[0] in value_axes))  # "fridays only"
    )
    rest = o.weight - aside
    return sum(o.terms[i].weight for i in matched_o) / rest if rest > 0 else 0.0


_DENIALS = frozenset({"not", "no", "never", "none", "nothing", "nobody", "without", "cannot"})


def _text_coverage(o: _Clause, n: _Clause, new: _Text, matched_o: set[int], matched_n: set[int]) -> float:
    """The share of the older claim found in the newer text where an elaboration spreads it over
    clauses ("Archives leave the backup host as plain tarballs; there is no encryption step"):
    the newer clause must name no subject of its own, and find some of the claim itself."""
    if (
        len(new.clauses) < 2
        or not matched_o
        or any(t.subject and t.weight >= 1.0 and i not in matched_n for i, t in enumerate(n.terms))
    ):
        return 0.0
    elsewhere = {k for c in new.clauses if c is not n for k in c.keys}
    found = sum(t.weight for i, t in enumerate(o.terms) if i in matched_o or t.key in elsewhere)
    return found / (o.weight or 1.0)


def _presence(t: _Term, other: _Clause) -> bool:
    """A predicate state that says a thing is there or allowed ("on", "available") or not
    ("excluded"), on an axis the other clause does not use."""
    if t.state is None or t.state[0] in other.states or t.in_pp or t.attributive or t.entry is None:
        return False
    return t.entry.negative or (t.state[1] == 0 and t.state[0] in _lexicon().negative_axes)


def _denies_shared(c: _Clause, other: _Clause, matched: set[int]) -> bool:
    """Whether clause *c* denies a concept it shares with *other*."""
    keys = other.keys
    return any(t.neg and i in matched and t.key in keys for i, t in enumerate(c.terms))
