"""Cutting a text into tokens (words, numbers, codes, clock times, punctuation) and dropping
what frames a note rather than states it (a commit type, a chat speaker)."""

from __future__ import annotations

import functools
import re

from .known import _function, _lexicon, _product, _single
from .words import (
    _ABBREVIATIONS,
    _BOUNDARY,
    _CACHES,
    _CHANNEL,
    _CHAT,
    _CLOCK,
    _CODE_CHARS,
    _COMMIT,
    _CONTRACTIONS,
    _DATE,
    _FIRST_PERSON,
    _LABEL,
    _LEADING,
    _LETTERS_DIGITS,
    _LONG_DIGITS,
    _NON_WORD,
    _NUMBER,
    _NUMBER_UNIT,
    _RANGE,
    _RATE,
    _SPEAKER,
    _TRAILING,
    _VERSION,
    _stem,
    _Tok,
    _words,
)


def _chunk_tokens(chunk: str, out: list[tuple[str, str]]) -> None:
    """Classify one whitespace-free chunk (punctuation already peeled off)."""
    if chunk.isalpha() and not chunk.isupper():
        out.append((chunk, "w"))  # most words: nothing to take apart
        return
    low = chunk.lower()
    if not low:
        return
    if low.startswith(("http://", "https://", "www.")) or "@" in low[1:]:
        out.append((chunk, "c"))
    elif _DATE.match(low) or _LONG_DIGITS.match(low) or (low.startswith("#") and low[1:].isdigit()):
        out.append((chunk, "i"))
    elif low.startswith("#"):
        if len(low) > 1:
            out.append((chunk, "c"))  # a channel named in the note ("alerts go to #ops-alerts"): a value
    elif _CLOCK.match(low):
        out.append((chunk, "t"))
    elif (
        chunk.isupper()
        and chunk.isalpha()
        and len(chunk) >= 2
        and (len(chunk) >= 6 or not _single(low))
        and not _function(low)
    ):
        out.append((chunk, "c"))  # "PAY", "OOM": a name written in capitals
    elif _NUMBER.match(low) or _VERSION.match(low):
        out.append((chunk, "n"))
    elif m := _RANGE.match(low):
        out.extend([(m.group(1), "n"), ("to", "w"), (m.group(2) + m.group(3), "n")])
    elif m := _NUMBER_UNIT.match(chunk):
        out.append((m.group(1), "n"))
        out.append((m.group(2), "w"))
    elif (m := _RATE.match(low)) and not _single(low):
        _chunk_tokens(m.group(1), out)  # "req/min", "5k/s": a rate before two names
        out.append(("per", "w"))
        out.append((m.group(2), "w"))
    elif "/" in low and not _single(low) and all(_single(p) for p in low.split("/")):
        for k, part in enumerate(chunk.split("/")):
            if k:
                out.append(("and", "w"))
            _chunk_tokens(part, out)  # "Prometheus/Grafana": two names
    elif (
        "-" in low
        and "--" not in low
        and (
            all(p.isalpha() for p in low.split("-") if p)
            or (_NUMBER.match(low.split("-")[0]) and all(p.isalpha() for p in low.split("-")[1:] if p))
        )
    ):
        parts = chunk.split("-")
        if len(parts) == 2 and parts[0].lower() == "re" and len(parts[1]) > 3:
            parts = parts[1:]  # "re-enable" states what "enable" states
        for part in parts:
            _chunk_tokens(part, out)  # "read-only", "15-minute", "one-gibibyte"
    elif (m := _LETTERS_DIGITS.match(low)) and not _single(low) and _product(m.group(1)):
        out.append((chunk[: len(m.group(1))], "w"))
        out.append((m.group(2), "n"))
    elif _CODE_CHARS.search(low) and not _single(low):
        if re.search(r"[a-z]", low) and re.fullmatch(r"[a-z0-9]+", low) and len(low) <= 6:
            out.append((chunk, "w"))  # a short name such as "e2e", "s3", "k8s", "a100"
        elif re.fullmatch(r"[\w-]+", low) and "_" not in low and not re.search(r"\d", low):
            for part in chunk.split("-"):
                _chunk_tokens(part, out)
        else:
            out.append((chunk, "c"))
    else:
        out.append((chunk, "w"))


def _tokens(text: str) -> list[_Tok]:
    _lexicon()  # loaded before any chunk asks whether a word is in it
    t = text
    for pattern, repl in _ABBREVIATIONS:
        t = pattern.sub(repl, t)
    if "'" in t or "’" in t:
        t = t.replace("’", "'").replace("‘", "'")
        for pattern, repl in _CONTRACTIONS:
            t = pattern.sub(repl, t)
    t = _NON_WORD.sub(" ", t)
    raw: list[tuple[str, str]] = []
    for chunk in t.split():
        if chunk == "'s":
            raw.append(("'s", "p"))
            continue
        if chunk == _LABEL:
            raw.append((_LABEL, "p"))
            continue
        lead = 0
        while lead < len(chunk) and chunk[lead] in _LEADING:
            if chunk[lead] == "(":
                raw.append(("(", "p"))
            lead += 1
        end = len(chunk)
        tail: list[str] = []
        while end > lead and (chunk[end - 1] in _TRAILING or chunk[end - 1] in _BOUNDARY):
            if chunk[end - 1] in _BOUNDARY or chunk[end - 1] == ")":
                tail.append(chunk[end - 1])
            end -= 1
        core = chunk[lead:end]
        if core in ("=", "+", "%", "<", ">", "~", "$", "€", "£"):
            raw.append((core, "p" if core in "=+" else "w"))
        elif core:
            _chunk_tokens(core, raw)
        raw.extend((p, "p") for p in reversed(tail))
    out: list[_Tok] = []
    for orig, kind in raw:
        low = orig.lower()
        if kind == "w":
            out.append(_Tok(low, orig, kind, _lemma(low)))
        else:
            out.append(_Tok(low, orig, kind, low))
    return out


#: Suffixes that make a noun of a verb ("compaction", "deployment", "persistence"): a word
#: the lexicon does not know is matched by its verb.
_NOUN_SUFFIXES = ("ment", "anc", "enc", "ion")  # as the stemmer leaves them ("persistenc")


@functools.lru_cache(maxsize=16384)
def _lemma(low: str) -> str:
    """The key a word is matched on: its stem, or for a noun the lexicon does not know, the
    stem of the verb it is made from ("compaction" / "compacted", "persistence" / "persist")."""
    lex = _lexicon()
    key = _stem(lex.forms.get(low, low))
    if key in lex.phrases or low in lex.function_words:
        return key
    for suffix in _NOUN_SUFFIXES:
        if key.endswith(suffix) and len(key) - len(suffix) >= 5:
            base = key[: -len(suffix)]
            entry = lex.lookup((base,))
            if entry is not None and (entry.negating_verb or entry.temporal or entry.replacing):
                return key  # "deletion", "migration": the noun does not deny or date as its verb does
            return base
    return key


_CACHES.append(_lemma.cache_clear)


def _prefix(text: str) -> tuple[str, str | None]:
    """Drop what frames a note rather than states it (a commit type, "fyi", a channel tag),
    keeping a commit's scope, and find a chat line's speaker ("pablo: I'm writing…")."""
    speaker = None
    t = text.strip()
    m = commit = _COMMIT.match(t)
    if m:
        # the commit's scope names the area it touches: kept, marked as a label
        scope = (m.group(1) or "").replace(",", " ").strip()
        t = f"{scope} {_LABEL} {t[m.end() :]}" if scope else t[m.end() :]
    for _ in range(2):
        t = _CHANNEL.sub("", _CHAT.sub("", t, count=1), count=1)
    m = _SPEAKER.match(t)
    if not m and not commit and (k := _KEY.match(t)) and _statement(k.group(2)):
        return f"{k.group(1)} {_LABEL} {k.group(2)}", None  # "Decision: the gateway does not batch calls"
    if m:
        name = m.group(1)
        rest = t[m.end() :]
        if m.group(2) or name == "user" or _FIRST_PERSON.search(rest):
            lex = _lexicon()
            entry = lex.lookup((_stem(name),))
            if entry is None or name == "user" or not (entry.stop or entry.categories or entry.names):
                speaker = "user" if name in ("user", "users") else name
                channel = re.search(r"#([\w-]+)", m.group(2) or "")
                t = f"{channel.group(1)} {_LABEL} {rest}" if channel else rest
        elif _lexicon().lookup((_stem(name),)) is None and len(rest.split()) >= 2:
            t = rest  # "leo: flag sdk has zero local caching": who reports it, not what it is about
    return t, speaker


#: "Lesson: …", "pr review: …": one or two words and a colon before a statement of its own.
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?)\s*:\s+(\S.*)$")
_STATEMENT_WORDS = _words(
    "is are was were has have does do did not no never can will should must isn't aren't doesn't don't "
    "won't can't wasn't weren't"
)


def _statement(text: str) -> bool:
    """Whether the words after a key's colon are a statement ("the DAGs are not idempotent"),
    not the key's value ("zsh", "Aurora cluster with 2 readers")."""
    words = [w.strip(",.;!?").lower().replace("’", "'") for w in text.split()]
    return (
        len(words) >= 4
        and words[0] not in _STATEMENT_WORDS  # "prod db: not autoscaled": the key is the subject
        and words[0] not in ("now", "only", "still", "always", "also")
        and any(w in _STATEMENT_WORDS for w in words)
    )


def _split_entry(phrase: str) -> list[str]:
    """How the lexicon's entries are cut into words (the same way as the texts)."""
    raw: list[tuple[str, str]] = []
    for chunk in phrase.replace("'s", " 's").split():
        _chunk_tokens(chunk, raw)
    return [orig.lower() for orig, kind in raw if kind != "p"]
