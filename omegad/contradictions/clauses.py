"""Reading a text into clauses of terms: the term builder over the splitter's clauses
(`omegad.contradictions.splitting`)."""

from __future__ import annotations

from dataclasses import replace

from .known import (
    _COPULAS,
    _DETERMINERS,
    _NOT_DENIAL,
    _PAST_MARKERS,
    _USER_WORDS,
    _known,
    _lexicon,
    _word,
)
from .lexicon import Entry
from .model import _W_ATTRIBUTE, _W_GENERIC, _W_STATE, _W_VERB, MAX_CLAUSES, MAX_WORDS, _cached, _Clause, _Term, _Text
from .quantities import _quantities
from .roles import _NO_ENTRY, _PASSIVE_AUX, _PREDICATE_WORDS, _is_function_word, _looks_like_person, _unknown_verb
from .splitting import _resolve_pronoun, _split_clauses
from .tokens import _prefix, _tokens
from .words import _LABEL, _stem, _Tok, _words


@_cached
def _analyse(text: str) -> _Text:
    """The analysis of one text (cached: callers must not change it)."""
    body, speaker = _prefix(text)
    toks = _tokens(body)
    words = 0
    cut = len(toks)
    for i, tok in enumerate(toks):
        if tok.kind != "p":
            words += 1
            if words > MAX_WORDS:
                cut = i
                break
    toks = toks[:cut]
    lowercase = not any(ch.isupper() for ch in body)
    clauses: list[_Clause] = []
    for part in _split_clauses(toks)[:MAX_CLAUSES]:
        clause = _clause(_resolve_pronoun(part, clauses[-1]) if clauses else part, lowercase)
        clause.text = " ".join(t.low for t in part)  # as written, the pronoun kept
        clauses.append(clause)
    clauses = [c for c in clauses if c.terms or c.quantities]
    temporal = [cue for c in clauses for cue in c.temporal]
    return _Text(clauses, temporal, speaker, bool(_PAST_MARKERS.search(body)))


def _terms_of(text: str) -> list[_Term]:
    """Every term of every clause of *text* (a phrase read on its own: a slot's value, an
    opening circumstance)."""
    return [t for c in _analyse(text).clauses for t in c.terms]


def _match(
    toks: list[_Tok], i: int, lowercase: bool, context: frozenset[int] = frozenset()
) -> tuple[Entry | None, int]:
    """The longest lexicon phrase starting at *i* (an entry and its length)."""
    lex = _lexicon()
    first = toks[i].key
    function = lex.function_words.get(toks[i].low) if toks[i].kind == "w" else None
    cands = lex.phrases2.get((first, toks[i + 1].key), []) if i + 1 < len(toks) else []
    single = lex.singles.get(first)
    for phrase, entry in [*cands, *single] if single else cands:
        n = len(phrase)
        if i + n > len(toks) or (n == 1 and function is not None and entry.state is None):
            continue
        span = toks[i : i + n]
        if n > 2 and tuple(t.key for t in span) != phrase:
            continue
        if n > 1 and any(t.kind == "p" for t in span):
            continue
        if entry.cased and not lowercase and not span[0].orig[:1].isupper() and not (entry.categories & context):
            # "black", "linear": an ordinary word unless capitalised or the clause names the role
            if entry.concept.startswith(("@", "%")) and not (entry.state or entry.names):
                continue
            return replace(entry, member=None, categories=frozenset(), scope=None, cased=False), n
        return entry, n
    return function, 1


#: Prepositions that open a phrase of their own (a negating verb's object ends before one).
_PREPOSITIONS = _words(
    "in for on at inside within during across under throughout from to with by into onto via against "
    "about off through behind between"
)
#: State words that are verbs in their base form ("enable strict mode"): never attributive.
_STATE_VERBS = _words(
    "enable disable allow deny block include exclude hide show accept reject require forbid ban permit "
    "prohibit encrypt compress pin sign activate deactivate turn switch close keep make set mandate "
    "enforce opt"
)
#: Words after which a state word is a verb ("we don't support IE11"), not an adjective.
_VERB_BEFORE = _words("not never do does did can could will would should must may might shall to")
#: A state word right after a copula is the predicate ("is forbidden after past leaks"), not
#: an adjective before a noun.
_LINKING = _words("is are was were be been being become becomes became remain remains stay stays")
#: "is against X": a refusal of X, read as a negating verb.
_AGAINST = Entry(concept="against", text="against", negating_verb=True)
#: Participles after which "against X" keeps X out.
_GUARDED = _words("protected guarded secured shielded hardened locked")
#: Verbs of a passive or copular predicate later in the clause ("deleted items are left out").
_LATER_PREDICATE = _words("is are was were be been get gets got remain remains stay stays")


def _modifier_use(toks: list[_Tok], i: int, length: int, prev_low: str, prev_kind: str) -> bool:
    """Whether a negating verb stands as a noun or an adjective before a noun ("the archive
    bucket", "deleted items are left out", "batch deletes"), not as the verb of its clause."""
    if length != 1:
        return False
    if i + 1 >= len(toks) or toks[i + 1].kind == "p":
        # a plural ending the clause after the noun it belongs to ("doesn't support batch deletes")
        return prev_kind == "c" and toks[i].low.endswith("s") and not toks[i].low.endswith("ss")
    nxt = toks[i + 1]
    if nxt.kind not in ("w", "c") or _is_function_word(nxt) or (_word(nxt) or _NO_ENTRY).negating_verb:
        return False
    if prev_low in _DETERMINERS and prev_low not in ("that", "this"):
        return True
    return (
        prev_kind in ("", "p")
        and toks[i].low.endswith("ed")
        and any(t.low in _LATER_PREDICATE for t in toks[i + 2 : i + 6])
    )


#: Verbs of preference that name the choice given up after "to" or "than".
_PREFER = frozenset(_stem(w) for w in ("prefer", "favor", "favour", "rather"))


def _rejects_other(toks: list[_Tok], i: int, terms: list[_Term], preferred_at: int) -> bool:
    """Whether "to" or "than" after a verb of preference and its object names the choice given
    up ("prefers tabs to spaces", "would rather rebase than merge")."""
    low = toks[i].low
    if preferred_at < 0 or low not in ("to", "than") or not any(t.pos > preferred_at for t in terms):
        return False
    if low == "than":
        return True
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    entry = _word(nxt) if nxt is not None and nxt.kind == "w" else None
    return nxt is not None and nxt.kind != "p" and not (entry is not None and (entry.verb or entry.stop))


_PRONOUNS = _words("we i they it you he she everyone nobody nothing")
_CONDITIONAL = {"if", "once", "when", "whenever", "unless", "until"}


def _clause(toks: list[_Tok], lowercase: bool) -> _Clause:
    lex = _lexicon()
    context: frozenset[int] = frozenset()
    if not lowercase and any(tk.key in lex.cased_keys and not tk.orig[:1].isupper() for tk in toks):
        names: set[int] = set()
        for k in range(len(toks)):
            e, _ = _match(toks, k, True)
            if e is not None:
                names |= e.names
        context = frozenset(names)
    matches = [_match(toks, k, lowercase, context) if toks[k].kind != "p" else (None, 1) for k in range(len(toks))]
    in_phrase = {p for k, (e, ln) in enumerate(matches) if e is not None and ln > 1 for p in range(k, k + ln)}
    quantities, used, ident_at = _quantities(toks, in_phrase)
    terms: list[_Term] = []
    temporal: list[str] = []
    negations = 0
    soft_negations = 0  # "any more": a negation only when nothing else negates the clause
    negating: list[tuple[int, bool, bool]] = []  # (position, object only, passive)
    negated_at: set[int] = set()  # where a negation or a negating verb stands
    verb_at: set[int] = set()  # where a verb of change stands ("moved", "switched")
    rejected_at: set[int] = set()  # quantities inside a rejected phrase
    owner = ""  # the word before a possessive "'s", for the noun after it
    label_at = -2  # where a label ends: the word right after it is a commit's verb, in the imperative
    in_pp = False  # inside a prepositional or temporal phrase, until a comma
    when = False  # inside a phrase that dates the claim ("since the migration"), until a comma
    prep_word = ""  # the last scope preposition
    preference = functional = conditional = False
    preferred_at = -1  # where a verb of preference stands ("prefers", "would rather")
    persons: set[str] = set()
    reject = ""  # "span": until a comma ("instead of X"); "from": until "to" ("moved from X to Y")
    changed = False  # a verb of change seen ("switched", "moved")
    prep = False  # after a scope preposition, until the next content word
    pp = False  # after any preposition, until the next content word
    prev_kind = ""  # the previous token's role: c content, s stop, p punct, v verb, n number
    prev_content: _Term | None = None
    prev_low = ""
    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        if i in ident_at:
            term = _Term(
                key="#" + tok.low.lstrip("v"), text=tok.low, pos=i, weight=0.0 if when else 1.0, ident=True, when=when
            )
            terms.append(term)
            prev_kind, prev_low, prev_content = "c", tok.low, term
            i += 1
            continue
        if i in used:
            if reject:
                rejected_at.add(i)  # "every night instead of weekly": not a stated value
            prev_kind, prev_low = "n", tok.low
            prev_content = None
            i += 1
            continue
        if tok.kind == "p":
            if tok.low in (",", ":", _LABEL):
                reject = ""
                in_pp = False
                when = False
            if tok.low == _LABEL:
                for t in terms:
                    t.label = True  # "api ::" (a commit's scope): what the note is filed under
                    t.weight = min(t.weight, _W_GENERIC)
                label_at = i
            if tok.low == "'s" and terms and terms[-1].pos == i - 1 and terms[-1].person:
                nxt = toks[i + 1] if i + 1 < n else None
                role = _word(nxt) if nxt is not None and nxt.kind == "w" else None
                if nxt is not None and role is not None and role.person_role:
                    name = toks[terms[-1].pos].low
                    persons.discard(name)
                    persons.add(f"{name}'s {nxt.low}")  # "Tomás's manager": another person
            if tok.low == "'s" and terms and terms[-1].end == i - 1 and not terms[-1].person:
                owner = terms[-1].text
            prev_kind, prev_low = "p", tok.low
            prev_content = None
            i += 1
            continue
        entry, length = matches[i]
        text = " ".join(t.low for t in toks[i : i + length])
        nxt = toks[i + length] if i + length < n else None
        if length == 1 and (tok.low in _CONDITIONAL or (tok.low == "while" and not terms)):
            conditional = True  # "if …", "once …", a clause opening with "while …": a circumstance
        if (
            when
            and length == 1
            and (
                tok.low in _PRONOUNS
                or (tok.low in _DETERMINERS and prev_kind == "c")
                or (entry is not None and entry.verb)
            )
        ):
            when = False  # "as of last night's cutover the web app runs …": the claim starts here
        if (
            in_pp
            and not when
            and length == 1
            and prev_kind == "c"
            and (tok.low in _PRONOUNS or (tok.low in _DETERMINERS and tok.low not in ("that", "this")))
            and terms
            and terms[0].in_pp
        ):
            in_pp = False  # "for notebooks the user prefers marimo": a fronted phrase ends here
        if entry is not None and entry.negation:
            follow = nxt.low if nxt is not None else ""
            if follow in _NOT_DENIAL or (follow in ("forget", "forgot") and tok.low in ("not", "never")):
                pass  # "not only", "don't forget": emphasis, not denial
            elif nxt is not None and (nxt.kind == "n" or (i + length) in used) and tok.low == "not":
                reject = "span"  # "5 minutes, not 10": a correction inside the text
            elif (tok.low == "not" and prev_low in (",", ":")) or tok.low == "without":
                reject = "span"
            else:
                negations += 1
            negated_at.add(i)
            if entry.temporal:
                temporal.append(text)
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += length
            continue
        if tok.low == "against" and (prev_low in _COPULAS or prev_low in _GUARDED) and nxt is not None:
            entry = _AGAINST  # "Priya is against X", "protected against force pushes": no X
        if (
            entry is not None
            and (entry.negating_verb or entry.replacing)
            and not (tok.low.endswith("ing") and (prev_low in _PREPOSITIONS or prev_low in ("before", "after")))
            and not _modifier_use(toks, i, length, prev_low, prev_kind)
            and prev_low not in _CONDITIONAL  # "defaults to us-east when omitted": a condition
        ):
            if text in ("any more", "anymore"):
                soft_negations += 1
            else:
                negating.append((i, entry.replacing and not entry.negating_verb, prev_low in _PASSIVE_AUX))
            negated_at.add(i)
            if entry.temporal or text in ("any more", "anymore") or entry.replacing:
                temporal.append(text)
            prev_kind, prev_low, prev_content = "v", tok.low, None
            i += length
            continue
        if entry is not None and entry.changing:
            changed = True
            verb_at.add(i)
        if tok.low in ("from", "off") and length == 1 and changed and not reject:
            reject = "from"
            prev_kind, prev_low, prev_content = "s", tok.low, None
            pp = True
            i += 1
            continue
        if reject == "from" and tok.low in ("to", "into", "for", "with", "onto"):
            reject = ""
        if entry is not None and entry.rejecting and not (entry.state or entry.categories):
            follow_num = nxt is not None and (nxt.kind == "n" or (i + length) in used)
            if text != "over" or (not follow_num and preference):
                reject = "span"
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += length
            continue
        if entry is not None and entry.time_phrase:
            when = True
        plural_noun = entry is not None and entry.concept.startswith("=") and tok.low.endswith("s") and length == 1
        if (
            entry is not None
            and entry.temporal
            and not (entry.state or entry.categories or entry.names or entry.scope or plural_noun)
        ):
            temporal.append(text)
            if not (entry.changing or entry.verb):
                in_pp = True  # "since the migration", "as of v3": when, not who
            prev_kind, prev_low, prev_content = "v", tok.low, None
            i += length
            continue
        if entry is not None and entry.temporal:
            temporal.append(text)
        if entry is not None and entry.functional:
            functional = True
        if tok.low in ("user", "users") and length == 1 and (prev_kind == "v" or pp) and terms:
            pass  # "authenticates users with SAML": the users are the object here, not the holder
        elif tok.low in _USER_WORDS and length == 1:
            persons.add("user")
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += 1
            continue
        if tok.key == "like" and length == 1 and prev_kind not in ("s", "v") and prev_low not in _USER_WORDS:
            # "IDs like ZD-1234": a preposition, not a preference
            prev_kind, prev_low, prev_content = "s", tok.low, None
            pp = True
            i += 1
            continue
        is_state = entry is not None and entry.state is not None
        if (
            is_state
            and length == 1
            and tok.low in ("before", "after")
            and (i + 1 in used or (nxt is not None and nxt.kind == "n"))
        ):
            is_state = False  # "after 90 minutes": a duration
        if is_state and length == 1 and tok.low in ("long", "wide", "high", "tall", "deep") and i - 1 in used:
            is_state = False  # "15 working days long": the measure of a value, not a state
        if is_state and tok.low in ("sync", "syncs", "async") and length == 1:
            is_state = prev_low in _COPULAS or nxt is None or nxt.kind == "p"  # "syncs with" is a verb
        if is_state and tok.low in ("on", "off") and length == 1:
            follow = nxt.low if nxt is not None else ""
            if follow == "by" and i + 2 < n and (i + 2 in used or toks[i + 2].kind == "n"):
                follow = "of"  # "off by one day": a miss, not a switch
            is_state = (
                (prev_low in _COPULAS or prev_kind in ("c", "p"))
                and follow not in _DETERMINERS
                and (
                    nxt is None
                    or nxt.kind == "p"
                    or follow in ("by", "in", "for", "at", "across", "everywhere", "now", "when")
                )
            )
        if length == 1 and not reject and _rejects_other(toks, i, terms, preferred_at):
            reject = "span"  # "prefers tabs to spaces", "would rather rebase than merge"
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += 1
            continue
        if (
            entry is not None
            and (entry.stop or entry.scope_preposition)
            and not is_state
            and not (entry.categories or entry.scope or entry.names)
        ):
            if entry.scope_preposition:
                prep = True
                prep_word = tok.low
            if tok.low in _PREPOSITIONS:
                pp = True
                in_pp = True
            prev_kind, prev_low, prev_content = "s", toks[i + length - 1].low, None
            i += length
            continue
        if not is_state and entry is not None and entry.state is not None and not (entry.categories or entry.scope):
            # "on" / "off" as a preposition: not content
            pp = in_pp = True
            prev_kind, prev_low, prev_content = "s", tok.low, None
            i += length
            continue
        # a content term
        term = _Term(key=tok.key, text=text, pos=i, weight=1.0, rejected=bool(reject), entry=entry, end=i + length - 1)
        term.capitalised = tok.orig[:1].isupper() and (i > 0 or lowercase) and not tok.orig.isupper()
        if entry is not None:
            term.key = entry.concept
            if is_state and entry.state is not None:
                term.state = entry.state
                term.key = f"~{entry.state[0]}"
                term.weight = _W_STATE
                term.attributive = (
                    length == 1
                    and nxt is not None
                    and nxt.kind in ("w", "c")
                    and (i + length) not in used
                    and not _is_function_word(nxt)
                    and prev_kind in ("", "s", "p")
                    and not tok.low.endswith("s")
                    and tok.low not in _STATE_VERBS
                    and prev_low not in _VERB_BEFORE
                    and prev_low not in _LINKING
                )
            term.member = entry.member
            term.categories = entry.categories
            term.names = entry.names
            term.scope = entry.scope
            term.attribute = entry.attribute
            if (entry.verb and not (entry.categories or entry.names or entry.scope or is_state)) or (
                tok.low in lex.units and length == 1 and not (entry.categories or entry.scope)
            ):
                term.weight = _W_VERB
            elif entry.generic and not (entry.categories or entry.names or entry.scope):
                term.weight = _W_GENERIC
            elif entry.attribute:
                term.weight = _W_ATTRIBUTE
            if entry.concept in _known().preference:
                preference = True
                if entry.concept == _known().prefer and toks[i + length - 1].key in _PREFER:
                    preferred_at = i
            if entry.state is not None and entry.state[0] == _known().like_axis:
                preference = True
        elif tok.kind == "c":
            term.code = True
            term.key = "`" + tok.low
        elif tok.kind == "i":
            term.ident = True
            term.key = "#" + tok.low
        elif tok.kind == "w" and _looks_like_person(
            toks, i, prev_low, lowercase, matches[i + 1] if i + 1 < n else (None, 1)
        ):
            term.person = True
            persons.add(tok.low)
        if entry is None and length == 1 and tok.kind == "w" and not term.person:
            if i == label_at + 1 or _unknown_verb(toks, i, prev_low, prev_kind, terms):
                term.weight = _W_VERB  # "feat(auth): shorten sessions", "the service authenticates users"
            elif tok.low.endswith("ly") and len(tok.low) > 4:
                term.weight = _W_GENERIC  # an adverb the lexicon does not know: how, not what
        if owner and (entry is None or not (entry.stop or entry.verb)):
            term.owned = owner  # "the app's build scripts": the app's, not the app
        owner = ""
        term.adjunct = prep
        term.prep = prep_word if prep else ""
        term.pp = pp
        term.in_pp = in_pp
        term.when = when
        if when:
            term.weight = 0.0
        prep = pp = False
        if (
            prev_kind == "c"
            and prev_content is not None
            and prev_content.weight >= _W_GENERIC
            and (prev_content.state is None or prev_content.attributive)
        ):
            term.modifier = prev_content.key + (f"|{prev_content.state[1]}" if prev_content.state else "")
            prev_content.head = term.key
            if entry is None and tok.kind == "w" and not term.person:
                prev_content.modifies = True  # "Rust macros": the product names a kind of thing
        terms.append(term)
        prev_kind = "v" if term.weight == _W_VERB else "c"
        prev_content = term if prev_kind == "c" else None
        prev_low = toks[i + length - 1].low
        i += length
    if negations == 0 and not negating and soft_negations:
        negations = 1
    pred_at = next(
        (
            k
            for k, tk in enumerate(toks)
            if tk.low in _PREDICATE_WORDS
            or any(t.pos == k and (t.weight == _W_VERB or (t.state is not None and not t.attributive)) for t in terms)
            or (k in negated_at and k > 0)
            or k in verb_at
        ),
        n,
    )
    for t in terms:
        t.subject = t.pos < pred_at and not t.in_pp
    negated = negations % 2 == 1
    commas = [k for k, tk in enumerate(toks) if tk.low == ","]
    for pos, object_only, passive in negating:
        stop_at = next((k for k in commas if k > pos), n)
        targets = [t for t in terms if pos < t.pos < stop_at]
        if object_only:
            cut = next((k for k, t in enumerate(targets) if t.pp and k > 0), len(targets))
            targets = targets[:cut]
        if not targets or passive:
            targets = [t for t in terms if t.pos < pos]
            if object_only and not passive:
                targets = []
        if not targets and not object_only:
            negated = not negated
        for t in targets:
            t.targeted = not t.targeted
    clause = _Clause(
        text=" ".join(t.low for t in toks),
        terms=terms,
        negated=negated,
        quantities=[q for q in quantities if q.pos not in rejected_at],
        temporal=temporal,
        preference=preference,
        functional=functional,
        persons=persons,
        conditional=conditional,
    )
    clause.words = {tk.low for tk in toks}
    clause.tokens = toks
    for t in terms:
        t.neg = negated ^ t.targeted ^ t.rejected
        clause.keys.add(t.key)
        clause.weight += t.weight
        if t.member is not None:
            for c in t.categories:
                if not t.neg:
                    clause.members.setdefault(c, set()).add(t.member)
                elif t.rejected or t.targeted:
                    clause.rejected.setdefault(c, set()).add(t.member)  # given up: "moved off X"
                    if t.targeted and not t.rejected:
                        clause.dropped.add(t.member)  # by a negating verb: "stopped X"
                else:
                    clause.denied.setdefault(c, set()).add(t.member)  # "we don't use X"
        if t.state is not None:
            clause.states.setdefault(t.state[0], []).append(t)
        if t.scope is not None and not t.rejected and not t.when:
            clause.scopes.setdefault(t.scope[0], set()).add(t.scope[1])
            if not t.label:
                clause.stated_scopes.add(t.scope[0])
        if t.code:
            clause.codes.add(t.key)
        if t.ident and not t.when:
            clause.idents.add(t.key)
    return clause
