"""The contradiction detectors' lexicon: the packaged data file loads, its groups are indexed
the way texts are read, and a malformed file fails loudly."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from omegad.contradictions import known, tokens
from omegad.contradictions.lexicon import MAX_PHRASE, LexiconError, iter_entries, load_lexicon
from omegad.contradictions.words import _stem


def _lex(text: str | None = None):  # type: ignore[no-untyped-def]
    return load_lexicon(tokens._split_entry, _stem, text)


def _entry(words: str):  # type: ignore[no-untyped-def]
    lex = known._lexicon()
    key = tuple(_stem(lex.forms.get(w, w)) for w in tokens._split_entry(words))
    return lex.lookup(key)


def test_the_packaged_lexicon_loads_and_is_large() -> None:
    data = tomllib.loads(resources.files("omegad.contradictions").joinpath("lexicon.toml").read_text(encoding="utf-8"))
    assert len(data["synonyms"]["groups"]) >= 150
    assert len(data["antonyms"]["axes"]) >= 50
    assert len(data["alternatives"]) >= 100
    assert len(data["scopes"]) >= 10
    lex = known._lexicon()
    assert lex.version == data["version"]
    assert sum(1 for _ in iter_entries(lex)) > 2000


def test_inflections_find_the_entry_of_their_base_form() -> None:
    # entries are stemmed as texts are: "enables", "enabled" and "enabling" meet "enable"
    base = _entry("enable")
    assert base is not None and base.state is not None
    for form in ("enables", "enabled", "enabling"):
        assert _entry(form) is base
    # an irregular form is mapped by [forms]
    assert _entry("kept") is _entry("keep")


def test_synonyms_share_one_concept() -> None:
    assert _entry("keep").concept == _entry("store").concept == _entry("persist").concept  # type: ignore[union-attr]
    assert _entry("repository").concept == _entry("repo").concept  # type: ignore[union-attr]


def test_antonym_poles_are_one_axis_two_poles() -> None:
    on, off = _entry("enabled"), _entry("switched off")
    assert on is not None and off is not None and on.state is not None and off.state is not None
    assert on.state[0] == off.state[0] and on.state[1] != off.state[1]
    sync, async_ = _entry("synchronous"), _entry("asynchronously")
    assert sync is not None and async_ is not None and sync.state and async_.state
    assert sync.state[0] == async_.state[0] and sync.state[1] != async_.state[1]


def test_alternatives_know_their_role_and_its_name() -> None:
    npm, pnpm, kind = _entry("npm"), _entry("pnpm"), _entry("package manager")
    assert npm is not None and pnpm is not None and kind is not None
    assert npm.categories & pnpm.categories and npm.member != pnpm.member
    assert kind.names & npm.categories
    # spellings of one member are one member
    assert _entry("k8s").member == _entry("kubernetes").member  # type: ignore[union-attr]


def test_scopes_and_their_spellings() -> None:
    prod, staging = _entry("prod"), _entry("staging")
    assert prod is not None and staging is not None and prod.scope and staging.scope
    assert prod.scope[0] == staging.scope[0] and prod.scope[1] != staging.scope[1]
    assert _entry("production").concept == prod.concept  # type: ignore[union-attr]


def test_function_words_match_as_written() -> None:
    """A stop word is not found through a stem: "same" must not swallow the name "Sam"."""
    lex = known._lexicon()
    assert "same" in lex.function_words
    assert "sam" not in lex.function_words
    assert lex.lookup(("sam",)) is None


def test_capitalised_only_entries() -> None:
    go = _entry("go")
    assert go is not None and go.cased  # the language, written "Go"


def test_units_and_numbers() -> None:
    lex = known._lexicon()
    assert lex.units["hour"] == ("time", 3600.0)
    assert lex.units["gib"][0] == "size" and lex.units["mb"][1] * 1024 == lex.units["gb"][1]
    assert lex.number_words["twelve"] == 12 and lex.multipliers["thousand"] == 1000
    assert lex.periods["weekly"] == 7 * 86400


def test_no_phrase_is_longer_than_the_matcher_looks() -> None:
    lex = known._lexicon()
    assert all(len(p) <= MAX_PHRASE for items in lex.phrases.values() for p, _ in items)


@pytest.mark.parametrize(
    "text",
    [
        'version = 1\n[synonyms]\ngroups = [["alone"]]',  # a group of one
        'version = 1\n[antonyms]\naxes = [[["on"]]]',  # one pole
        'version = 1\n[[alternatives]]\nkind = ["x"]\nmembers = ["only"]',  # one member
        'version = 1\n[words]\nstop = ["a", 3]',  # not a string
        "version = 1\n[words\n",  # not TOML
    ],
)
def test_a_malformed_lexicon_is_refused(text: str) -> None:
    with pytest.raises(LexiconError):
        _lex(text)


def test_a_small_lexicon_is_enough_to_run() -> None:
    lex = _lex(
        "version = 7\n"
        '[words]\nstop = ["the", "is"]\n'
        '[synonyms]\ngroups = [["store", "keep"]]\n'
        '[antonyms]\naxes = [[["enabled"], ["disabled"]]]\n'
        '[[alternatives]]\nkind = ["shell"]\nmembers = ["bash", ["zsh", "z shell"]]\n'
        '[[scopes]]\naxis = "environment"\nmembers = [["prod", "production"], ["staging"]]\n'
    )
    assert lex.version == 7
    keep, store = lex.lookup((_stem("keep"),)), lex.lookup((_stem("store"),))
    assert keep is not None and store is not None and keep.concept == store.concept
    assert lex.antonyms["enabled"] == {"disabled"}
    z = lex.lookup(("z", "shell"))
    assert z is not None and z.member == "zsh"
    assert lex.scope_axes == ["environment"]
