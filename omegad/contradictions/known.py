"""The loaded lexicon and the concepts and word sets the detectors name (loaded on first
use, once, under a lock)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .lexicon import Entry, Lexicon, load_lexicon
from .words import _stem, _Tok, _words

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
    #: The concept of "prefer" itself ("prefers X to Y", "would rather X than Y").
    prefer: str
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
        from .tokens import _split_entry  # tokens reads the lexicon this loads

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
            preference=frozenset(concept(w) for w in ("prefer", "want", "use", "like", "decide")),
            prefer=concept("prefer"),
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
#: ("is used to compile" is the passive of "use", not a past habit)
_PAST_MARKERS = re.compile(
    r"\b(?:(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )(?<!\bwas )(?<!\bwere )(?<!\bget )(?<!\bgets )used to|previously|formerly|back then|in the past|originally|before the \w+ (?:rewrite|migration|move|switch))\b",
    re.I,
)


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


def _word(tok: _Tok) -> Entry | None:
    """The lexicon's entry for one word (a function word as written, else by its stem)."""
    lex = _lexicon()
    return lex.function_words.get(tok.low) or lex.lookup((tok.key,))
