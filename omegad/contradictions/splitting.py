"""The clause splitter: where one statement of a text ends and the next begins (``;``,
sentence ends, dashes, a comma before a new predicate, "because / since / so / but…"), and
the pronoun that carries a subject into the next clause."""

from __future__ import annotations

from .known import (
    _lexicon,
    _word,
)
from .model import _Clause
from .roles import _NO_ENTRY, _PREDICATE_WORDS
from .words import _Tok, _words

#: Pronouns that, opening a clause, stand for the previous clause's subject.
_ANAPHORS = _words("it they he she")


def _resolve_pronoun(toks: list[_Tok], prev: _Clause) -> list[_Tok]:
    """A clause opening with "it", "they", "he" or "she" speaks of the previous clause's subject
    ("the export no longer runs; it was switched off"): the pronoun is replaced by its words.
    So does one that opens with "and" or "but" and goes on with its verb ("passwords are hashed
    and never stored in plaintext"): the subject is put after the conjunction."""
    first = next((k for k, t in enumerate(toks) if t.kind != "p"), None)
    if first is None:
        return toks
    elided = toks[first].low in _COORDINATORS and _opens_with_verb(toks[first + 1 :])
    if toks[first].low not in _ANAPHORS and not elided:
        return toks
    subject = [t for t in prev.terms if t.subject and not t.label and not t.when]
    if not subject or len(subject) > 3:
        return toks
    words = [w for t in subject for w in prev.tokens[t.pos : t.end + 1 if t.end >= t.pos else t.pos + 1]]
    if elided:
        return [*toks[: first + 1], *words, *toks[first + 1 :]]
    return [*toks[:first], *words, *toks[first + 1 :]]


#: Conjunctions after which a clause may leave out the subject it shares with the previous one.
_COORDINATORS = _words("and but yet")
#: Words that may stand between such a conjunction and its verb ("and never stored").
_BEFORE_VERB = _words("never not also still then no longer always only is are was were")


def _opens_with_verb(toks: list[_Tok]) -> bool:
    """Whether *toks* (after a conjunction) begin with a verb, adverbs of negation or time aside."""
    for t in toks:
        if t.kind == "p" or t.low in _BEFORE_VERB:
            continue
        return _verbish(t)
    return False


def _split_clauses(toks: list[_Tok]) -> list[list[_Tok]]:
    lex = _lexicon()
    clauses: list[list[_Tok]] = []
    cur: list[_Tok] = []

    asides: list[list[_Tok]] = []  # parentheses, placed after the clause they interrupt
    outer: list[_Tok] | None = None  # the clause a parenthesis interrupts

    def close() -> None:
        nonlocal cur
        while cur and cur[-1].kind == "p" and cur[-1].low != "'s":
            cur.pop()
        if any(t.kind != "p" for t in cur):
            clauses.append(cur)
        if outer is None:
            clauses.extend(asides)
            asides.clear()
        cur = []

    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        if tok.kind == "p" and tok.low == "(":
            if outer is None:
                outer, cur = cur, []  # "(dupes fixed via an idempotency key)": an aside of its own
        elif tok.kind == "p" and tok.low == ")":
            if outer is not None:
                if any(t.kind != "p" for t in cur):
                    asides.append(cur)
                cur, outer = outer, None
        elif tok.kind == "p" and tok.low in ".;!?":
            close()
        elif tok.kind == "p" and tok.low == ":":
            # "key: value" stays one clause; a colon after a whole statement starts another
            words = sum(1 for t in cur if t.kind != "p")
            if words >= 3 and any(_predicative(t) for t in cur):
                close()
            else:
                cur.append(tok)
        elif tok.kind == "p" and tok.low == ",":
            nxt = toks[i + 1] if i + 1 < n else None
            opener = nxt is not None and nxt.kind == "w" and nxt.key in lex.clause_openers and len(cur) >= 2
            if opener or _new_statement(cur, toks, i + 1):
                close()
            else:
                cur.append(tok)
        else:
            brk = next(
                (
                    len(b)
                    for b in lex.break_starts.get(tok.key, ())
                    if len(b) == 1 or tuple(t.key for t in toks[i : i + len(b)]) == b
                ),
                0,
            )
            if not brk and tok.key == "and" and i + 1 < n and (_word(toks[i + 1]) or _NO_ENTRY).negation:
                brk = 1  # "… and no longer uses the Intel one": a second statement
            if brk and sum(1 for t in cur if t.kind != "p") >= 2:
                close()
            cur.append(tok)
        i += 1
    if outer is not None:  # a parenthesis left open: its words end the text
        aside, cur, outer = cur, outer, None
        if any(t.kind != "p" for t in aside):
            asides.append(aside)
    close()
    return clauses


#: Verbs that, a few words after a comma, show a new subject with its own predicate.
_FINITE_AUX = _words("is are was were has have had")  # "isn't" arrives as "is not"
#: A clause opening with these is a place or purpose put first ("In the docs-site repo, …"); a
#: time ("since the fix, …", "as of May …") opens a statement and may end in one.
_FRONTED = _words("in on at for with during from under per by to of within across inside throughout")


def _new_statement(cur: list[_Tok], toks: list[_Tok], k: int) -> bool:
    """Whether the words after a comma are a statement of their own ("the app runs on Fly.io,
    Heroku dynos are scaled to 0"): a short subject and a finite verb, after a clause that
    already has its verb. A list ("Redis, Postgres and Kafka are used") has none before it."""
    words = [t for t in cur if t.kind != "p"]
    if len(words) < 3 or words[0].low in _FRONTED or not any(_verbish(t) for t in words):
        return False  # "In the docs-site repo, pnpm is used": a fronted phrase, not a clause
    for j in range(k + 1, min(k + 5, len(toks))):
        tok = toks[j]
        if tok.kind == "p" and tok.low != "'s":
            return False
        if tok.low in _FINITE_AUX:
            return not any(t.low in ("and", "or") for t in toks[k:j])
    return False


def _verbish(tok: _Tok) -> bool:
    if tok.kind != "w":
        return False
    if tok.low in _PREDICATE_WORDS or (len(tok.low) >= 5 and tok.low.endswith("ed")):
        return True
    entry = _word(tok)
    return entry is not None and (entry.verb or entry.negating_verb or entry.changing or entry.replacing)


def _predicative(tok: _Tok) -> bool:
    """Whether a word makes what precedes a colon a statement ("the app has no offline
    mode:") rather than a key ("editor of choice:")."""
    if tok.kind != "w":
        return False
    if tok.low in _PREDICATE_WORDS:
        return True
    entry = _word(tok)
    return entry is not None and (entry.negation or entry.negating_verb)
