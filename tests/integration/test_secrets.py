"""Secrets in writes, through a real daemon (docs/secrets.md): redacted before anything stores
them by default, refused under ``reject``, kept under ``allow``. The secrets are made up at
run time (`bench/secret_samples.py`), never written down."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from omegad_client import Client, InvalidParams

from ..helpers import Daemon, bench_module, raw_socket, recv_frame, send_frame


def _samples():  # type: ignore[no-untyped-def]
    return bench_module("secret_samples")


def _token(kind: str, seed: int = 1) -> str:
    make, _ = _samples().SECRETS[kind]
    return str(make(random.Random(seed)))


def test_secrets_are_redacted_on_every_write_path(shared_daemon: Daemon, ns: str) -> None:
    key, pat = _token("aws_access_key"), _token("github_token")
    text = f"Deploys to staging use the access key {key} until the IAM role lands."
    with shared_daemon.client() as c:
        seen = c.stats()["secrets"]
        reply = c.call("store", {"text": text, "namespace": ns, "metadata": {"ci": {"token": pat}}})
        counted = c.stats()["secrets"]  # one text and one metadata string screened, two found
        assert (counted["texts"] - seen["texts"], counted["found"] - seen["found"]) == (2, 2)
        assert counted["kinds"]["aws_access_key"] - seen["kinds"].get("aws_access_key", 0) == 1
        assert key not in json.dumps(counted) and counted["on_detect"] == "redact"
        start = text.index(key)
        assert reply["redacted"] == [
            {"field": "text", "kind": "aws_access_key", "start": start, "end": start + len(key)},
            {"field": "metadata.ci.token", "kind": "github_token", "start": 0, "end": len(pat)},
        ]
        got = c.get(reply["id"])
        assert got["text"] == text.replace(key, "[redacted:aws_access_key]")
        assert got["metadata"] == {"ci": {"token": "[redacted:github_token]"}}

        batch = c.call(
            "store_batch",
            {"items": [{"text": "no secret here", "namespace": ns}, {"text": f"pat {pat}", "namespace": ns}]},
        )
        assert batch["redacted"][0] == [] and batch["redacted"][1][0]["kind"] == "github_token"

        updated = c.call("update", {"id": reply["id"], "text": f"now the key is {key}"})
        assert (
            updated["text"] == "now the key is [redacted:aws_access_key]" and updated["redacted"][0]["field"] == "text"
        )

        tagged = c.call("store", {"text": "CI token rotated", "namespace": ns, "tags": ["ci", pat]})
        assert tagged["redacted"] == [{"field": "tags[1]", "kind": "github_token", "start": 0, "end": len(pat)}]
        assert c.get(tagged["id"])["tags"] == ["ci", "[redacted:github_token]"]

        plain = c.call("store", {"text": "Staging deploys need one approval", "namespace": ns})
        assert "redacted" not in plain

        dump = json.dumps(list(c.export_records(namespace=ns)))
        assert key not in dump and pat not in dump

        # an imported record holding a secret: redacted, and its vector (made from the secret's
        # text) replaced by one from the redacted text
        record = next(r for r in c.export_records(namespace=ns) if r.get("record") == "memory")
        record = {**record, "id": f"{record['id']}-copy", "text": f"restored with {key}"}
        imported = c.import_records([record])
        assert imported["reembedded"] == 1 and imported["redacted"][0]["kind"] == "aws_access_key"
        assert c.get(record["id"])["text"] == "restored with [redacted:aws_access_key]"


@pytest.mark.parametrize("policy", ["reject", "allow"])
def test_reject_refuses_and_allow_keeps(tmp_path: Path, policy: str) -> None:
    key = _token("stripe_key")
    d = Daemon(tmp_path, config=f'[secrets]\non_detect = "{policy}"\n').start()
    try:
        with d.client() as c:
            text = f"Billing talks to Stripe with {key}"
            if policy == "reject":
                with pytest.raises(InvalidParams) as err:
                    c.store(text, namespace="s")
                assert "stripe_key" in str(err.value) and key not in str(err.value)
                assert err.value.data["secrets"][0]["kind"] == "stripe_key"
                with pytest.raises(InvalidParams):
                    c.store_batch([{"text": "fine", "namespace": "s"}, {"text": text, "namespace": "s"}])
                assert c.list(namespace="s")["memories"] == []  # nothing of the batch stored
            else:
                mid = c.store(text, namespace="s")
                assert c.get(mid)["text"] == text
    finally:
        assert d.stop() == 0, d.log()
    if policy == "reject":
        assert key not in d.log()


def _beside_a_slow_batch(daemon: Daemon, ns: str, call: Callable[[Client], Any]) -> list[str]:
    """Send a batch of 99 of the slowest texts to screen (refused at its last item, so its
    reply follows its parse at once), then *call* from another client while it is parsed:
    which of the two was answered first."""
    slow = "pw " * 5000  # (the slowest input of bench/eval_secrets.py to scan)
    items = [{"text": slow, "namespace": ns}] * 99 + [{"text": "", "namespace": ns}]
    order: list[str] = []

    def batch() -> None:
        with daemon.client() as a, pytest.raises(InvalidParams, match=r"items\[99\]"):
            a.call("store_batch", {"items": items})
        order.append("batch")

    worker = threading.Thread(target=batch)
    worker.start()
    time.sleep(0.3)  # (the batch's frame is read by now; its parse takes seconds)
    with daemon.client() as b:
        call(b)
        order.append("other")
    worker.join()
    return order


def test_a_batch_slow_to_screen_does_not_hold_other_clients(shared_daemon: Daemon, ns: str) -> None:
    """Texts are screened while their request is parsed; a big request is parsed in a worker
    thread, so one client's batch of slow-to-scan texts leaves the daemon answering others:
    with the parse on the event loop, the ping would only be read after it."""
    assert _beside_a_slow_batch(shared_daemon, ns, lambda c: c.ping()) == ["other", "batch"]


def test_an_import_sized_parse_leaves_a_lane_to_other_writers(shared_daemon: Daemon, ns: str) -> None:
    """Requests over `PARSE_BULK_BYTES` are parsed in a lane of their own: while one client's
    big batch is screened (seconds), another's store of a few KB, also parsed in a thread, is
    answered first. With one lane for both it would wait for the whole batch."""
    note = "a note of a few KB: " + "lorem ipsum " * 300  # (> PARSE_INLINE_BYTES)
    assert _beside_a_slow_batch(shared_daemon, ns, lambda c: c.store(note, namespace=ns)) == ["other", "batch"]
    with shared_daemon.client() as c:
        assert c.stats()["namespaces"][ns]["total"] == 1


def test_a_cancelled_parse_stops_screening(shared_daemon: Daemon, ns: str) -> None:
    """A `cancel` stops a big request's parse between texts: it is answered `cancelled`, the
    rest of its texts are never screened (`stats.secrets.texts`), and nothing is stored."""
    slow = "pw " * 5000
    items = [{"text": f"{slow} {i}", "namespace": ns} for i in range(100)]
    with shared_daemon.client() as c:
        before = c.stats()["secrets"]["texts"]
    s = raw_socket(shared_daemon.socket, timeout=60)
    send_frame(s, {"v": 1, "id": 1, "method": "store_batch", "params": {"items": items}})
    time.sleep(0.3)  # (its parse takes seconds: ~40 ms a text)
    send_frame(s, {"v": 1, "id": 2, "method": "cancel", "params": {"request_id": 1}})
    replies = {}
    while len(replies) < 2:
        r = recv_frame(s)
        replies[r["id"]] = r
    assert replies[2]["ok"] is True
    assert replies[1]["ok"] is False and replies[1]["error"]["code"] == "cancelled"
    send_frame(s, {"v": 1, "id": 3, "method": "ping"})
    assert recv_frame(s)["ok"] is True
    s.close()
    with shared_daemon.client() as c:
        figures = c.stats()
        screened = figures["secrets"]["texts"] - before
        assert figures["namespaces"].get(ns, {"total": 0})["total"] == 0
    assert 0 <= screened < 100
