"""Stores into namespaces the neighbour cache does not hold (``store.cache_rows = 0`` here, as
for a namespace too big for it): `TextKeys` proves a text new without a search, so the store
is acknowledged at the log at once; and every text the store holds — committed, updated,
found by the start-up scan after a restart — still makes an exact duplicate merge."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from omegad.app import admin, memories
from omegad.app.service import Service
from omegad.errors import ServiceError
from omegad.requests import FlushParams, StoreParams, UpdateParams
from omegad.storage.rows import Row
from omegad_client import Client

from ..helpers import Daemon
from .test_ack_at_log import run_gated

CONFIG = "[store]\ncache_rows = 0\n"


def ready(c: Client, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        keys: dict[str, Any] = c.stats()["store"]["text_keys"]
        if keys["ready"]:
            return keys
        time.sleep(0.05)
    raise AssertionError("the text keys were never built")


def answered(c: Client) -> int:
    return int(c.stats()["store"]["text_keys"]["answered"])


def texts_of(c: Client, namespace: str) -> list[str]:
    return sorted(m["text"] for m in c.list(namespace=namespace, limit=100)["memories"])


def test_new_texts_skip_the_search_and_duplicates_still_merge(tmp_path: Path) -> None:
    d = Daemon(tmp_path, config=CONFIG).start()
    try:
        with d.client() as c:
            ready(c)
            assert c.stats()["store"]["cache"]["namespaces"] == 0
            ttl = c.store_result("The cache TTL is five minutes", namespace="big")
            assert ttl["created"] is True
            assert answered(c) == 1, "a new text in an uncached namespace was searched for"
            # an exact duplicate, before and after the first one's commit: never proven new
            again = c.store_result("the cache ttl is FIVE minutes!", namespace="big")
            assert again["duplicate_of"] == ttl["id"]
            c.flush()
            again = c.store_result("The cache TTL is five minutes.", namespace="big")
            assert again["duplicate_of"] == ttl["id"]
            assert answered(c) == 1
            # another namespace holds no such text
            assert c.store_result("The cache TTL is five minutes", namespace="other")["created"] is True
            assert answered(c) == 2
            # an updated text is known at once (updates leave the writer's recent texts)
            deploys = c.store("Deploys run at noon", namespace="big")
            c.update(deploys, text="Deploys run at midnight")
            assert c.store_result("deploys run at MIDNIGHT", namespace="big")["duplicate_of"] == deploys
            # a deleted memory's text is still among the digests: the store is searched, and
            # finds no live twin
            assert c.delete(ttl["id"])
            back = c.store_result("The cache TTL is five minutes", namespace="big")
            assert back["created"] is True and back["id"] != ttl["id"]
            c.flush()
            assert texts_of(c, "big") == ["Deploys run at midnight", "The cache TTL is five minutes"]
        assert d.stop() == 0
        # after a restart the digests come from the scan of the table
        d.start()
        with d.client() as c:
            keys = ready(c)
            assert keys["digests"] == 3 and keys["answered"] == 0  # (the live rows: two in "big", one in "other")
            assert c.store_result("The cache TTL is five minutes!", namespace="big")["duplicate_of"] == back["id"]
            assert c.store_result("Deploys run at midnight", namespace="big")["duplicate_of"] == deploys
            assert c.store_result("Backups are kept for 30 days", namespace="big")["created"] is True
            assert answered(c) == 1
            c.flush()
            assert texts_of(c, "big") == [
                "Backups are kept for 30 days",
                "Deploys run at midnight",
                "The cache TTL is five minutes",
            ]
    finally:
        d.cleanup()


def test_a_text_whose_commit_failed_still_merges(tmp_path: Path) -> None:
    """The digests are taken before each commit: an update whose commit wrote the new text
    and then failed (a later step of the same write) still makes a store of that text merge,
    where a digest taken after a successful commit only would have let it through as new."""

    async def body(svc: Service, gate: threading.Event) -> None:
        gate.set()  # (no commit is held here)
        while not svc.text_keys.ready:
            await anyio.sleep(0.02)
        first = await memories.store_one(svc, StoreParams(text="Deploys run at noon", namespace="big"))
        await admin.flush(svc, FlushParams())
        replace = svc.store.replace

        def written_then_failed(row: Row) -> None:
            replace(row)
            raise OSError("the disk went away after the commit")

        svc.store.replace = written_then_failed  # type: ignore[method-assign]
        with pytest.raises(ServiceError):
            await memories.update(svc, UpdateParams(id=first["id"], text="Deploys run at midnight"))
        svc.store.replace = replace  # type: ignore[method-assign]
        assert svc.store.get_many([first["id"]])[first["id"]].text == "Deploys run at midnight"
        again = await memories.store_one(svc, StoreParams(text="deploys run at MIDNIGHT", namespace="big"))
        assert again.get("duplicate_of") == first["id"]
        assert svc.text_keys.figures()["answered"] == 1  # (the first store only)

    run_gated(tmp_path, body, cache_rows=0)
