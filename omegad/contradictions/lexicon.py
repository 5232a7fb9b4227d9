"""The contradiction detectors' lexicon: loads ``lexicon.toml`` into look-up tables.

The data file is the place to extend what the detectors know (synonyms, antonyms, products
that fill the same role, scopes, units, number words); docs/contradictions.md ("The lexicon")
describes each section. This module only indexes it: every entry is split and stemmed by the
same functions as the texts (passed in by `omegad.contradictions.known`), so an entry matches every
inflection of its words, and a phrase is found by its first word.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

__all__ = ["Entry", "Lexicon", "LexiconError", "load_lexicon"]

DATA_FILE = "lexicon.toml"
#: Longest phrase (in words) the lexicon may hold; the matcher looks no further ahead.
MAX_PHRASE = 6


class LexiconError(ValueError):
    """The lexicon file is malformed (an entry of the wrong type, an empty group)."""


@dataclass
class Entry:
    """What the lexicon knows about one word or phrase (several roles may apply)."""

    #: The concept the phrase stands for: a synonym group, a product, a pole's axis, or itself.
    concept: str
    text: str
    stop: bool = False
    generic: bool = False
    verb: bool = False
    attribute: bool = False
    negation: bool = False
    negating_verb: bool = False
    temporal: bool = False
    rejecting: bool = False
    time_phrase: bool = False
    replacing: bool = False
    changing: bool = False
    functional: bool = False
    person_role: bool = False
    id_word: bool = False
    scope_preposition: bool = False
    #: States an absence or refusal in its own word ("disabled", "excluded", "unsupported"):
    #: a claim made with it agrees with a denial of the opposite claim.
    negative: bool = False
    #: (axis, pole) of an antonym axis.
    state: tuple[int, int] | None = None
    #: Categories of alternatives this phrase is a member of, and which member.
    member: str | None = None
    categories: frozenset[int] = frozenset()
    #: Categories this phrase names ("package manager").
    names: frozenset[int] = frozenset()
    #: (axis, value) of a scope axis.
    scope: tuple[int, int] | None = None
    #: Only where the text capitalises it (a tool named by an ordinary word: "Go", "Linear").
    cased: bool = False


@dataclass
class Lexicon:
    version: int
    #: Phrases by their first stemmed word: (stemmed words, entry), longest first.
    phrases: dict[str, list[tuple[tuple[str, ...], Entry]]] = field(default_factory=dict)
    #: Phrases of two words or more by their first two stemmed words, longest first; single
    #: words by themselves (the same entries as `phrases`, indexed for the matcher).
    phrases2: dict[tuple[str, str], list[tuple[tuple[str, ...], Entry]]] = field(default_factory=dict)
    singles: dict[str, list[tuple[tuple[str, ...], Entry]]] = field(default_factory=dict)
    #: Clause breaks by their first word.
    break_starts: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    #: Function words (stop words, negations, scope prepositions), matched as written: a
    #: stem would let "same" meet "Sam".
    function_words: dict[str, Entry] = field(default_factory=dict)
    forms: dict[str, str] = field(default_factory=dict)
    antonym_axes: list[tuple[list[str], list[str]]] = field(default_factory=list)
    category_names: list[str] = field(default_factory=list)
    scope_axes: list[str] = field(default_factory=list)
    units: dict[str, tuple[str, float]] = field(default_factory=dict)
    number_words: dict[str, float] = field(default_factory=dict)
    multipliers: dict[str, float] = field(default_factory=dict)
    fractions: dict[str, float] = field(default_factory=dict)
    ordinals: dict[str, float] = field(default_factory=dict)
    periods: dict[str, float] = field(default_factory=dict)
    upper_bounds: set[tuple[str, ...]] = field(default_factory=set)
    lower_bounds: set[tuple[str, ...]] = field(default_factory=set)
    approximate: set[tuple[str, ...]] = field(default_factory=set)
    clause_openers: set[str] = field(default_factory=set)
    clause_breaks: set[tuple[str, ...]] = field(default_factory=set)
    #: Words of the antonym axes, each with its antonyms (the old module's public table).
    antonyms: dict[str, set[str]] = field(default_factory=dict)
    #: First words of the phrases that count only where capitalised ("^Go").
    cased_keys: set[str] = field(default_factory=set)
    #: Antonym axes with a pole that says no ("enabled" / "disabled"): presence or permission.
    negative_axes: set[int] = field(default_factory=set)
    #: Concept → the categories of alternatives its phrases belong to.
    phrases_by_concept: dict[str, set[int]] = field(default_factory=dict)

    def lookup(self, words: tuple[str, ...]) -> Entry | None:
        for phrase, entry in self.phrases.get(words[0], ()) if words else ():
            if phrase == words:
                return entry
        return None


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise LexiconError(f"{where}: expected a list of non-empty strings")
    return [v.strip() for v in value]


def _member_spellings(member: Any, where: str) -> list[str]:
    if isinstance(member, str):
        return [member]
    spellings = _strings(member, where)
    if not spellings:
        raise LexiconError(f"{where}: an empty member")
    return spellings


def load_lexicon(
    split: Callable[[str], list[str]],
    stem: Callable[[str], str],
    text: str | None = None,
) -> Lexicon:
    """Index the lexicon (the packaged file unless *text* is given). *split* cuts an entry
    into words as the texts are cut; *stem* reduces a word as the texts' words are reduced."""
    if text is None:
        text = resources.files(__package__ or "omegad.contradictions").joinpath(DATA_FILE).read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LexiconError(f"{DATA_FILE}: {exc}") from exc
    lex = Lexicon(version=int(data.get("version", 1)))
    index: dict[tuple[str, ...], Entry] = {}

    forms = data.get("forms", {})
    if not isinstance(forms, dict):
        raise LexiconError("forms: expected a table")
    lex.forms = {k.lower(): str(v).lower() for k, v in forms.items()}

    def key(phrase: str) -> tuple[str, ...]:
        words = tuple(stem(lex.forms.get(w, w)) for w in split(phrase.lower()))
        if not words or len(words) > MAX_PHRASE:
            raise LexiconError(f"entry {phrase!r}: {len(words)} words (1 to {MAX_PHRASE})")
        return words

    def entry(phrase: str) -> Entry:
        cased = phrase.startswith("^")
        bare = phrase[1:] if cased else phrase
        k = key(bare)
        found = index.get(k)
        if found is None:
            found = index[k] = Entry(concept=" ".join(k), text=bare.lower())
        found.cased = found.cased or cased
        return found

    words = data.get("words", {})
    flags = {
        "stop": "stop",
        "generic": "generic",
        "verbs": "verb",
        "attributes": "attribute",
        "negation": "negation",
        "negating_verbs": "negating_verb",
        "temporal": "temporal",
        "rejecting": "rejecting",
        "time_phrases": "time_phrase",
        "replacing": "replacing",
        "changing": "changing",
        "functional": "functional",
        "person_roles": "person_role",
        "id_words": "id_word",
        "scope_prepositions": "scope_preposition",
        "negative": "negative",
    }
    exact = {"stop", "negation", "scope_prepositions"}
    for section, attr in flags.items():
        for w in _strings(words.get(section, []), f"words.{section}"):
            if section in exact and " " not in w.strip():
                low = w.strip().lower()
                fw = lex.function_words.get(low)
                if fw is None:
                    fw = lex.function_words[low] = Entry(concept=low, text=low)
                setattr(fw, attr, True)
            else:
                setattr(entry(w), attr, True)
                fw = lex.function_words.get(w.strip().lower())
                if fw is not None:
                    setattr(fw, attr, True)  # "over" is a stop word and rejects its object
    lex.clause_openers = {stem(w) for w in _strings(words.get("clause_openers", []), "words.clause_openers")}
    lex.clause_breaks = {key(w) for w in _strings(words.get("clause_breaks", []), "words.clause_breaks")}

    for i, group in enumerate(data.get("synonyms", {}).get("groups", [])):
        members = _strings(group, f"synonyms.groups[{i}]")
        if len(members) < 2:
            raise LexiconError(f"synonyms.groups[{i}]: a group needs two members")
        concept = "=" + " ".join(key(members[0]))
        entries = [entry(m) for m in members]
        verb = entries[0].verb  # a group named by a verb weighs as a verb
        functional = any(e.functional for e in entries)  # "led by" is as single-holder as "lead"
        attribute = any(e.attribute for e in entries)  # "time out" names a quantity as "timeout" does
        for e in entries:
            e.concept = concept
            e.verb = e.verb or verb
            e.functional = e.functional or functional
            e.attribute = e.attribute or attribute

    for i, axis in enumerate(data.get("antonyms", {}).get("axes", [])):
        if not (isinstance(axis, list) and len(axis) == 2):
            raise LexiconError(f"antonyms.axes[{i}]: expected two poles")
        poles = (_strings(axis[0], f"antonyms.axes[{i}][0]"), _strings(axis[1], f"antonyms.axes[{i}][1]"))
        lex.antonym_axes.append(poles)
        for pole, members in enumerate(poles):
            for m in members:
                e = entry(m)
                e.state = (i, pole)
                e.concept = f"~{i}"
        for a in poles[0]:
            for b in poles[1]:
                lex.antonyms.setdefault(a.lstrip("^"), set()).add(b.lstrip("^"))
                lex.antonyms.setdefault(b.lstrip("^"), set()).add(a.lstrip("^"))

    for i, cat in enumerate(data.get("alternatives", [])):
        where = f"alternatives[{i}]"
        if not isinstance(cat, dict) or "members" not in cat:
            raise LexiconError(f"{where}: expected kind and members")
        kinds = _strings(cat.get("kind", []), f"{where}.kind")
        lex.category_names.append(kinds[0] if kinds else f"category {i}")
        for k in kinds:
            e = entry(k)
            e.names = e.names | {i}
        members = cat["members"]
        if not isinstance(members, list) or len(members) < 2:
            raise LexiconError(f"{where}: a category needs two members")
        for j, member in enumerate(members):
            spellings = _member_spellings(member, f"{where}.members[{j}]")
            name = spellings[0].lstrip("^").lower()
            for s in spellings:
                e = entry(s)
                e.categories = e.categories | {i}
                if e.member is None:
                    e.member = name
                    if e.state is None and not e.concept.startswith("="):
                        e.concept = "@" + name

    for i, axis in enumerate(data.get("scopes", [])):
        where = f"scopes[{i}]"
        if not isinstance(axis, dict) or "members" not in axis:
            raise LexiconError(f"{where}: expected axis and members")
        lex.scope_axes.append(str(axis.get("axis", f"axis {i}")))
        for j, member in enumerate(axis["members"]):
            for s in _member_spellings(member, f"{where}.members[{j}]"):
                e = entry(s)
                e.scope = (i, j)
                if not (e.concept.startswith(("=", "~", "@"))):
                    e.concept = f"%{i}:{j}"  # the spellings of one scope are one concept

    for dim, table in data.get("units", {}).items():
        for unit, factor in table.items():
            lex.units[unit.lower()] = (dim, float(factor))
    numbers = data.get("numbers", {})
    lex.number_words = {k: float(v) for k, v in numbers.get("words", {}).items()}
    lex.multipliers = {k: float(v) for k, v in numbers.get("multipliers", {}).items()}
    lex.fractions = {k: float(v) for k, v in numbers.get("fractions", {}).items()}
    lex.ordinals = {k: float(v) for k, v in numbers.get("ordinals", {}).items()}
    lex.periods = {k: float(v) for k, v in numbers.get("periods", {}).items()}
    lex.upper_bounds = {tuple(split(w)) for w in _strings(numbers.get("upper_bounds", []), "numbers.upper_bounds")}
    lex.lower_bounds = {tuple(split(w)) for w in _strings(numbers.get("lower_bounds", []), "numbers.lower_bounds")}
    lex.approximate = {tuple(split(w)) for w in _strings(numbers.get("approximate", []), "numbers.approximate")}

    by_first: dict[str, list[tuple[tuple[str, ...], Entry]]] = {}
    for words_of, e in index.items():
        by_first.setdefault(words_of[0], []).append((words_of, e))
    for items in by_first.values():
        items.sort(key=lambda item: -len(item[0]))
    lex.phrases = by_first
    for words_of, e in sorted(index.items(), key=lambda item: -len(item[0])):
        if len(words_of) == 1:
            lex.singles.setdefault(words_of[0], []).append((words_of, e))
        else:
            lex.phrases2.setdefault((words_of[0], words_of[1]), []).append((words_of, e))
    for brk in sorted(lex.clause_breaks, key=len, reverse=True):
        lex.break_starts.setdefault(brk[0], []).append(brk)
    lex.cased_keys = {words_of[0] for words_of, e in index.items() if e.cased}
    lex.negative_axes = {e.state[0] for e in index.values() if e.negative and e.state is not None}
    for e in index.values():
        if e.categories:
            lex.phrases_by_concept.setdefault(e.concept, set()).update(e.categories)
    return lex


def iter_entries(lex: Lexicon) -> Iterable[Entry]:
    """Every entry once (for tests and documentation)."""
    for items in lex.phrases.values():
        for _, e in items:
            yield e
