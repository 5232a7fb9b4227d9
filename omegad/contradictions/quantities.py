"""Quantities with their units normalised: durations, sizes, ratios, rates, times of day,
counts, versions and ports, with bounds as ranges."""

from __future__ import annotations

import re

from .known import _lexicon, _word
from .model import _Qty
from .words import _VERSION, _stem, _Tok

# -- quantities ---------------------------------------------------------------------------------


def _number_at(toks: list[_Tok], i: int) -> tuple[float, int, tuple[int, ...] | None] | None:
    """A number starting at *i*: (value, tokens used, version parts for "3.12")."""
    lex = _lexicon()
    tok = toks[i]
    if tok.kind == "n":
        low = tok.low.lstrip("v")
        version = tuple(int(p) for p in low.split(".")) if _VERSION.match(tok.low) else None
        try:
            value = float(low.replace(",", "")) if version is None or len(version) <= 2 else float(version[0])
        except ValueError:
            return None
        j = i + 1
        nxt = toks[j].low if j < len(toks) else ""
        if nxt in lex.multipliers and nxt not in ("k",):
            value *= lex.multipliers[nxt]
            j += 1
        if tok.low.startswith("v"):
            version = version or (int(value),)
        return value, j - i, version
    if tok.kind != "w":
        return None
    low = tok.low
    words = lex.number_words
    if low in ("a", "an") and i + 1 < len(toks):
        nxt = toks[i + 1].low
        if nxt in lex.fractions:
            return lex.fractions[nxt], 2, None
        if nxt in lex.multipliers:
            return lex.multipliers[nxt], 2, None
        if nxt in lex.units and lex.units[nxt][0] in ("time", "size") and nxt != "second":
            return 1.0, 1, None
        after = toks[i + 2].low if i + 2 < len(toks) else ""
        if nxt in ("full", "whole", "entire") and after in lex.units and lex.units[after][0] == "time":
            return 1.0, 2, None  # "a full year"
        return None
    if (
        low in lex.fractions
        and low not in ("second", "quarter")
        and i + 1 < len(toks)
        and toks[i + 1].low in ("a", "an", "of")
    ):
        return lex.fractions[low], 1, None
    if low == "half" or (low == "quarter" and i + 1 < len(toks) and toks[i + 1].low in ("of", "hour")):
        return lex.fractions[low], 1, None
    if low not in words:
        return None
    if low == "once" and not (
        i + 1 < len(toks) and toks[i + 1].low in ("a", "an", "per", "every", "each", "daily", "weekly")
    ):
        return None  # "once they have sat": a conjunction
    total = 0.0
    current = 0.0
    j = i
    seen = False
    while j < len(toks):
        w = toks[j].low
        if w in words and toks[j].kind == "w":
            if seen and current % 10 == 0 and current >= 20 and words[w] < 10:
                current += words[w]
            elif seen and current and words[w] >= 10 and current < 10:
                break
            else:
                current += words[w]
            seen = True
        elif w in lex.multipliers and seen:
            current = max(current, 1.0) * lex.multipliers[w]
            if lex.multipliers[w] >= 1000:
                total += current
                current = 0.0
        elif w == "and" and seen and j + 1 < len(toks) and (toks[j + 1].low in words or toks[j + 1].low in ("a", "an")):
            if toks[j + 1].low in ("a", "an") and j + 2 < len(toks) and toks[j + 2].low in lex.fractions:
                current += lex.fractions[toks[j + 2].low]
                j += 3
                break
        else:
            break
        j += 1
    if not seen:
        return None
    value = total + current
    if (
        j < len(toks)
        and toks[j].low in lex.fractions
        and toks[j].kind == "w"
        and toks[j].low not in ("second", "quarter")
        and value < 10
    ):
        value = value * lex.fractions[toks[j].low]  # "four fifths"
        j += 1
    return value, j - i, None


_DURATION_BEFORE = {"ago", "earlier", "later"}
_CLOCK_PARTS = {"morning": 0, "am": 0, "afternoon": 12, "pm": 12, "evening": 12, "night": 12}


_YEAR = re.compile(r"^(?:19|20)\d\d$")


def _span(lo: float, hi: float, approx: bool, bound: int) -> tuple[float, float]:
    """The values a quantity allows: ±15% when approximate ("about an hour"), open below an
    upper bound ("under 5 minutes", *bound* −1) or above a lower one ("at least", +1)."""
    if approx:
        lo, hi = lo * 0.85, hi * 1.15
    if bound == -1:
        lo = 0.0
    elif bound == 1:
        hi = float("inf")
    return lo, hi


def _quantities(toks: list[_Tok], phrases: set[int]) -> tuple[list[_Qty], set[int], set[int]]:
    """The quantities of a clause, with their units normalised; the tokens they use; and the
    numbers that name rather than measure ("the v1 API", "the 2022 dataset")."""
    lex = _lexicon()
    out: list[_Qty] = []
    used: set[int] = set()
    idents: set[int] = set()
    n = len(toks)
    i = 0
    while i < n:
        tok = toks[i]
        if tok.kind == "n" and (tok.low.startswith("v") or _YEAR.match(tok.low)):
            nxt = toks[i + 1] if i + 1 < n else None
            if _YEAR.match(tok.low) or (nxt is not None and _is_noun(nxt) and _unit_at(toks, i + 1)[0] is None):
                idents.add(i)
                i += 1
                continue
        if tok.kind == "t":
            h, m = (int(x) for x in tok.low.split(":")[:2])
            j = i + 1
            if j < n and toks[j].low in ("am", "pm"):
                h = h % 12 + (12 if toks[j].low == "pm" else 0)
                j += 1
            out.append(_Qty("clock", h * 60 + m, h * 60 + m, True, 0, tok.low, i, ""))
            used.update(range(i, j))
            i = j
            continue
        for span in (3, 2):
            words = " ".join(tk.low for tk in toks[i : i + span])
            if len(words.split()) == span and words in lex.periods:
                v = lex.periods[words]  # "in real time"
                out.append(_Qty("period", v, v, True, 0, words, i, ""))
                used.update(range(i, i + span))
                i += span
                break
        else:
            span = 0
        if span:
            continue
        if tok.kind == "w" and tok.low in lex.periods and i not in phrases:
            v = lex.periods[tok.low]
            out.append(_Qty("period", v, v, True, 0, tok.low, i, ""))
            used.add(i)
            i += 1
            continue
        if tok.kind == "w" and tok.low in ("noon", "midday", "midnight"):
            v = 720.0 if tok.low != "midnight" else 0.0
            out.append(_Qty("clock", v, v, True, 0, tok.low, i, ""))
            used.add(i)
            i += 1
            continue
        if tok.kind == "w" and tok.low == "every" and i + 1 < n:
            # "every other week", "every night", "every two weeks"
            j = i + 1
            mult = 1.0
            if toks[j].low == "other":
                mult, j = 2.0, j + 1
            num = _number_at(toks, j) if j < n else None
            if num is not None:
                mult *= num[0]
                j += num[1]
            if j < n and (tu := _time_unit(toks[j])) is not None:
                v = mult * tu
                out.append(_Qty("period", v, v, True, 0, " ".join(t.low for t in toks[i : j + 1]), i, ""))
                used.update(range(i, j + 1))
                i = j + 1
                continue
            i += 1
            continue
        if tok.kind == "w" and tok.low in ("zero", "none") and _unit_at(toks, i + 1)[0] is None:
            i += 1
            continue  # "sends zero usage data": a denial, not a count
        if i in phrases:
            i += 1
            continue  # "single quotes", "one-line": a phrase of the lexicon, not a number
        # "one in ten"
        num = _number_at(toks, i)
        if num is None:
            i += 1
            continue
        value, length, version = num
        start = i
        j = i + length
        if j + 1 < n and toks[j].low == "in" and (nb := _number_at(toks, j + 1)) is not None and nb[0]:
            v = value / nb[0]
            out.append(_Qty("ratio", v, v, True, 0, " ".join(t.low for t in toks[i : j + 1 + nb[1]]), i, ""))
            used.update(range(i, j + 1 + nb[1]))
            i = j + 1 + nb[1]
            continue
        # a range: "forty to fifty minutes", "40-50"
        hi_value = value
        if j + 1 < n and toks[j].low in ("to", "or", "and") and toks[j].kind == "w":
            nb = _number_at(toks, j + 1)
            if nb is not None and nb[0] > value and not (toks[j].low == "and" and nb[0] < 1):
                hi_value = nb[0]
                j = j + 1 + nb[1]
        # skip "of a", "a", "an" before a unit: "a quarter of a megabyte", "half an hour"
        k = j
        while k < n and toks[k].low in ("of", "a", "an") and k - j < 2:
            k += 1
        dim, factor, unit_len = _unit_at(toks, k)
        if dim is None:
            k = j
            dim, factor, unit_len = _unit_at(toks, k)
        prev = toks[start - 1].low if start > 0 else ""
        prevkey = toks[start - 1].key if start > 0 else ""
        entry_prev = lex.lookup((prevkey,)) if prevkey else None
        if dim is None and entry_prev is not None and entry_prev.id_word:
            idents.update(range(start, j))
            i = j
            continue  # "issue 17": a name, not a value
        if dim == "time" and k + unit_len < n and toks[k + unit_len].low in _DURATION_BEFORE:
            used.update(range(start, k + unit_len + 1))
            i = k + unit_len + 1
            continue  # "two weeks ago": when, not how long
        bound = 0
        approx = False
        before = tuple(t.low for t in toks[max(0, start - 3) : start])
        for size in (3, 2, 1):
            if len(before) >= size:
                b = before[-size:]
                if b in lex.upper_bounds:
                    bound = -1
                elif b in lex.lower_bounds:
                    bound = 1
                elif b in lex.approximate:
                    approx = True
                if bound or approx:
                    used.update(range(start - size, start))
                    break
        if dim is not None:
            end = k + unit_len
            v, hv = value * factor, hi_value * factor
            unit = ""
            # a rate: "100 requests per minute", "500 calls a month"
            p = end
            if dim == "count" and p < n:
                unit = toks[k].key
            q = p
            while (
                q < min(n, p + 3)
                and toks[q].kind == "w"
                and dim == "count"
                and toks[q].low not in ("per", "a", "an", "every", "each")
                and _is_noun(toks[q])
            ):
                q += 1
            if (
                q + 1 < n
                and toks[q].low in ("per", "a", "an", "each", "every")
                and (tu := _time_unit(toks[q + 1])) is not None
                and dim in ("count", "num", "size", "money")
            ):
                v, hv = v / tu, hv / tu
                dim = "rate:" + dim
                end = q + 2
            if dim == "time" and tok.low in ("once", "twice", "thrice") and k > j:
                v = hv = factor / value  # "once a week": every week
                dim = "period"
            if dim in ("time", "size") and v == hv:
                extra, end = _compound(toks, end, dim, factor)
                v = hv = v + extra  # "a minute and a half", "an hour and 15 minutes"
            if dim == "clock_part":
                hour = value % 12 + factor
                v = hv = hour * 60
                dim = "clock"
            lo, hi = _span(v, hv, approx, bound)
            out.append(
                _Qty(dim, lo, hi, bound == 0, bound, " ".join(t.low for t in toks[start:end]), start, unit, version)
            )
            used.update(range(start, end))
            i = end
            continue
        if prev in ("at",) and j < n and toks[j].low in _CLOCK_PARTS:
            pass
        # a bare number: a count of the noun after it, or a value named by the words before it
        end = j
        unit = ""
        if j < n and toks[j].kind == "w" and _counted(toks[j]):
            unit = toks[j].key
            dim = "count"
            end = j + 1  # "3 replicas": the noun counted is part of the value
            q = j + 1  # (the counted noun may also be a verb: "300 calls a minute")
            while (
                q < min(n, j + 3)
                and toks[q].kind == "w"
                and toks[q].low not in ("per", "a", "an", "each")
                and _is_noun(toks[q])
            ):
                q += 1
            if q + 1 < n and toks[q].low in ("per", "a", "an", "each") and (tu := _time_unit(toks[q + 1])) is not None:
                value, hi_value = value / tu, hi_value / tu
                dim = "rate:count"
                end = q + 2
        elif (
            j + 1 < n
            and tok.low in ("once", "twice", "thrice")
            and toks[j].low in ("a", "an", "per", "each", "every")
            and (tu := _time_unit(toks[j + 1])) is not None
        ):
            value = hi_value = tu / value  # "once an hour": every hour
            dim = "period"
            end = j + 2
        else:
            dim = "num"
        lo, hi = _span(value, hi_value, approx, bound)
        if prev in ("port",) or prevkey == "port":
            dim = "port"
        out.append(_Qty(dim, lo, hi, bound == 0, bound, " ".join(t.low for t in toks[start:end]), start, unit, version))
        used.update(range(start, end))
        i = end
    return out, used, idents


def _compound(toks: list[_Tok], end: int, dim: str, factor: float) -> tuple[float, int]:
    """What "and a half" or "and 15 seconds" after a measured value adds to it (in the base
    unit), and where the value then ends."""
    lex = _lexicon()
    n = len(toks)
    if end + 2 >= n or toks[end].low != "and":
        return 0.0, end
    if toks[end + 1].low in ("a", "an") and toks[end + 2].low in lex.fractions:
        return factor * lex.fractions[toks[end + 2].low], end + 3
    num = _number_at(toks, end + 1)
    if num is None or num[2] is not None:
        return 0.0, end
    k = end + 1 + num[1]
    sub_dim, sub_factor, sub_len = _unit_at(toks, k)
    if sub_dim != dim or sub_factor >= factor:
        return 0.0, end
    return num[0] * sub_factor, k + sub_len


def _time_unit(tok: _Tok) -> float | None:
    lex = _lexicon()
    for w in (tok.low, tok.low.rstrip("s"), _stem(tok.low)):
        u = lex.units.get(w)
        if u is not None and u[0] == "time":
            return u[1]
    return None


def _unit_at(toks: list[_Tok], k: int) -> tuple[str | None, float, int]:
    """The unit at *k*: (dimension, factor, tokens) — "per cent", "mbit/s", "minutes", "%"."""
    lex = _lexicon()
    if k >= len(toks):
        return None, 1.0, 0
    tok = toks[k]
    if tok.low in ("working", "business") and k + 1 < len(toks) and toks[k + 1].low in ("day", "days"):
        return "time", 86400.0 * 7 / 5, 2  # five working days make a week
    if k + 1 < len(toks) and f"{tok.low} {toks[k + 1].low}" in lex.units:
        d, f = lex.units[f"{tok.low} {toks[k + 1].low}"]
        return d, f, 2
    for w in (tok.low, _stem(tok.low), tok.low.rstrip("s")):
        if w in lex.units and tok.kind in ("w", "c"):
            d, f = lex.units[w]
            return d, f, 1
    if tok.low in ("am", "pm"):
        return "clock_part", _CLOCK_PARTS[tok.low], 1
    if tok.low == "in" and k + 2 < len(toks) and toks[k + 1].low == "the" and toks[k + 2].low in _CLOCK_PARTS:
        return "clock_part", _CLOCK_PARTS[toks[k + 2].low], 3
    if tok.low in ("times", "time") and tok.kind == "w":
        return "count", 1.0, 1
    return None, 1.0, 0


def _counted(tok: _Tok) -> bool:
    """Whether the word after a number is what it counts ("3 replicas", "100 requests")."""
    entry = _word(tok)
    return entry is None or not (
        entry.stop or entry.negation or entry.temporal or entry.scope_preposition or entry.state
    )


def _is_noun(tok: _Tok) -> bool:
    if tok.kind != "w":
        return False
    entry = _word(tok)
    if entry is None:
        return not tok.low.endswith(("ly",))
    return not (entry.stop or entry.verb or entry.negation or entry.temporal or entry.scope_preposition or entry.state)
