"""The circumstance a text opens with ("On main, force-pushes are blocked." / "For the iPad
layout, …"): a fronted phrase before the first comma says where or when the claim holds.
Two texts that open with different circumstances of one kind (one preposition) make claims
about two scopes, both of which can be true ("On feature branches, force-pushes are not
blocked."), whatever the rest says.
"""

from __future__ import annotations

import re

from .clauses import _terms_of
from .model import _cached
from .tokens import _prefix
from .words import _COMMIT

__all__ = ["other_circumstance"]

#: A fronted phrase: a preposition of place, part or occasion, a few words, then a comma.
#: Time cues ("since", "as of", "starting", "after") are left out: they report a change. So
#: are "from" and "to" (the splitter's `_FRONTED` has them), which name where a thing moved.
_OPENING = re.compile(r"^\s*(on|for|in|within|inside|across|at|during|under|with)\s+([^,;:]{1,50}?)\s*,\s*\S", re.I)


@_cached
def _circumstance(text: str) -> tuple[str, str, frozenset[str]] | None:
    """The preposition and phrase *text* opens with and the phrase's concepts, or None."""
    body, _ = _prefix(text)
    m = _OPENING.match(body)
    if m is None:
        return None
    keys = _keys(m.group(2))
    return (m.group(1).lower(), m.group(2), keys) if keys else None


def _keys(text: str) -> frozenset[str]:
    return frozenset(t.key for t in _terms_of(text))


def _commit_scope(text: str) -> str | None:
    m = _COMMIT.match(text)
    return m.group(1).strip().lower() if m and m.group(1) else None


def other_circumstance(new: str, old: str) -> str:
    """Why *new* and *old* speak of different circumstances ("circumstance: …"), or ""."""
    sa, sb = _commit_scope(old), _commit_scope(new)
    if sa and sb and sa != sb and sa not in new.lower() and sb not in old.lower():
        # two commits' scopes ("feat(v2): …" / "docs(v1): …"): changes to two parts
        return f"circumstance: commit scope {sa} vs {sb}"
    a, b = _circumstance(old), _circumstance(new)
    if a is None or b is None or a[0] != b[0]:
        # one side only, or another kind of phrase: a reordered sentence fronts its topic or
        # its tool as often as its scope ("For secret scanning, gitleaks…" / "In pre-commit, …")
        return ""
    only_a, only_b = a[2] - b[2], b[2] - a[2]
    if not only_a or not only_b:
        return ""  # the same circumstance, or one narrowing the other
    if only_a & _keys(new) or only_b & _keys(old):
        return ""  # what one side fronts, the other says elsewhere: the sentence is reordered
    return f"circumstance: {a[0]} {a[1]} vs {b[0]} {b[1]}"
