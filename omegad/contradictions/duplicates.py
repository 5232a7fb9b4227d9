"""Duplicates: when a new memory is the same as one already stored (docs/duplicates.md).

- **Exact**: the same text after normalisation (case, whitespace, punctuation; `normalise`).
  A store of an exact duplicate creates nothing: the existing memory is returned and refreshed.
- **Near**: embedding cosine at or above ``dedup.link_cosine``, the same distinguishing tokens
  (numbers, versions, identifiers: `markers`), and no contradiction between the two. The new
  memory is stored and linked to the older one by a ``duplicates`` edge; queries show the
  newest of a linked group.

Pure functions: the checker and the store path call them, and so does
``bench/eval_duplicates.py``, so the figures are those of the daemon's decisions.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata

__all__ = ["is_near_duplicate", "markers", "normalise", "substitutes", "text_key"]

#: Token similarity from which two texts share a template (`substitutes`), and the character
#: similarity from which two words are spellings of one.
TEMPLATE_RATIO = 0.6
SWAP_ANY_WORD = True
VARIANT_RATIO = 0.75


#: Words that name one of a set of environments, platforms or days: a swap is another fact.
def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


SLOT_WORDS = _word_set(
    """staging production prod dev development test testing qa preview canary sandbox local
    ios android web desktop mobile windows linux macos frontend backend server client
    monday tuesday wednesday thursday friday saturday sunday weekdays weekends
    january february march april may june july august september october november december
    primary replica leader follower read write"""
)
#: Words a rewording swaps freely: they carry no fact of their own.
FUNCTION_WORDS = _word_set(
    """a an the this that these those it its is are was were be been being am do does did has have
    had will would shall should can could may might must to of in on at by for from with without
    into onto over under about as than then so and or but if when while because since via per
    i me my mine we us our ours you your yours he him his she her they them their user users
    team prefer prefers preferred like likes want wants use uses used using always never please
    just only also all any every each some no not now currently here there"""
)

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_DIGIT_GROUPS = re.compile(r"(?<=\d)[,_](?=\d{3}\b)")  # "3,000" is "3000"
# numbers (a unit glued to one, "120s", is the number: "120 seconds" says the same)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# identifiers: words joined by _ . / : @ (names of files, paths, hosts, settings)
_IDENT = re.compile(r"[^\W\d_][\w-]*(?:[_./:@]+[\w-]+)+|\w+(?:[_./:@]+[^\W\d_][\w-]*)+", re.UNICODE)


def normalise(text: str) -> str:
    """The text's words, lower-cased and compatibility-folded, joined by single spaces:
    what an exact duplicate shares (punctuation, case and spacing aside)."""
    folded = _DIGIT_GROUPS.sub("", unicodedata.normalize("NFKC", text).casefold())
    return " ".join(_WORD.findall(folded))


def text_key(text: str) -> bytes:
    """A short digest of `normalise` (what the writer remembers of recent stores)."""
    return hashlib.blake2b(normalise(text).encode(), digest_size=16).digest()


def markers(text: str) -> frozenset[str]:
    """Numbers, versions, paths and identifiers in *text*, normalised: two memories that
    differ in one of them say different things, however close their wording."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    out = {n.replace(",", "") for n in _NUMBER.findall(folded)}
    # (short ones are abbreviations: "e.g", "i.e")
    out.update(t for t in (m.strip(".:/@_-") for m in _IDENT.findall(folded)) if len(t) >= 4)
    return frozenset(out)


def substitutes(new: str, old: str) -> bool:
    """The two texts are one template with a word in it swapped for another ("the orders-api
    pool" / "the billing-api pool", "export the report" / "import the report"): sibling facts,
    however close their embeddings. A slot is a word or two; a paraphrase rewrites more than
    that (its texts share less than `TEMPLATE_RATIO` of their words in order), and a typo fix,
    a spelling variant, an abbreviation or a function word is no swap."""
    a, b = normalise(old).split(), normalise(new).split()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < TEMPLATE_RATIO:
        return False
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace":
            continue
        gone = [w for w in a[i1:i2] if w not in FUNCTION_WORDS]
        came = [w for w in b[j1:j2] if w not in FUNCTION_WORDS]
        if gone and came and len(gone) <= 2 and len(came) <= 2 and not _variants(" ".join(gone), " ".join(came)):
            return True
    return False


def _variants(x: str, y: str) -> bool:
    """Spellings of one word: a typo, British/American, an abbreviation or a plural. Two slot
    words are two slots, however alike ("tuesday" / "thursday")."""
    if x in SLOT_WORDS and y in SLOT_WORDS:
        return False
    short, long = sorted((x.replace(" ", ""), y.replace(" ", "")), key=len)
    if len(short) >= 3 and long.startswith(short):
        return True
    if len(short) <= 4 and short[0] == long[0] and _in_order(short, long):
        return True  # an abbreviation: "db" / "database", "jwt" / "json web tokens"
    return difflib.SequenceMatcher(None, x, y, autojunk=False).ratio() >= VARIANT_RATIO


def _in_order(short: str, long: str) -> bool:
    rest = iter(long)
    return all(ch in rest for ch in short)


def is_near_duplicate(new: str, old: str, cosine: float, threshold: float, contradiction: bool) -> bool:
    """The pair is a near duplicate: close enough, naming the same things, no word of one
    swapped for another, not in conflict."""
    return cosine >= threshold and not contradiction and markers(new) == markers(old) and not substitutes(new, old)
