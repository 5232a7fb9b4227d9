"""Token budgets on ``query`` (``max_tokens``) through the real daemon: results in rank order
while their texts fit, counted with the embedding model's tokenizer; what did not fit is named."""

from __future__ import annotations

from typing import Any

import pytest

from omegad_client import InvalidParams

from ..helpers import Daemon

SHORT = "Backups run nightly at 02:00."
LONG = (
    "Backups: the nightly job snapshots every Postgres volume at 02:00 UTC, copies the snapshots "
    "to the eu-west-1 vault, keeps 35 daily and 12 monthly copies, and pages the on-call engineer "
    "when a copy is older than 26 hours; restores are rehearsed on the first Monday of the month."
)
MID = "Backup restores are rehearsed monthly by the on-call engineer."


def _tokens(text: str) -> int:
    from tokenizers import Tokenizer

    from omegad.config import load_config
    from omegad.models.files import resolve_embedding

    config = load_config()
    files = resolve_embedding(config.embedding_model_dir, config.model_cache_dir)
    tokenizer = Tokenizer.from_file(str(files.tokenizer))
    tokenizer.no_padding()  # (the shipped file pads and cuts at 128)
    tokenizer.no_truncation()
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def test_results_fit_the_budget_in_rank_order(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        ids = {t: c.store(t, namespace=ns) for t in (LONG, SHORT, MID)}
        everything = c.query("how do our backups work?", namespace=ns, limit=5)
        order = [r["id"] for r in everything]
        budget = _tokens(SHORT) + _tokens(MID) + 1  # the two short ones, not the long one
        reply: dict[str, Any] = c.query("how do our backups work?", namespace=ns, limit=5, max_tokens=budget)
    kept = [r["id"] for r in reply["results"]]
    assert set(kept) == {ids[SHORT], ids[MID]} and kept == [i for i in order if i in kept]  # rank order kept
    assert reply["budget"]["used"] == _tokens(SHORT) + _tokens(MID) <= budget
    assert reply["budget"]["left_out"] == [{"id": ids[LONG], "tokens": _tokens(LONG)}]
    assert _tokens(LONG) > 60  # longer than any cut would hide


def test_nothing_fits_and_bad_budgets(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        mid = c.store(LONG, namespace=ns)
        reply = c.query("backups", namespace=ns, max_tokens=5)
        assert reply["results"] == [] and reply["budget"]["left_out"][0]["id"] == mid
        for bad in (0, -3, 10**9, "800", 1.5, True):
            with pytest.raises(InvalidParams):
                c.call("query", {"text": "backups", "namespace": ns, "max_tokens": bad})
