"""The pending set of stores acknowledged at the log: what readers wait for, and its bound."""

from __future__ import annotations

import anyio
import numpy as np
import pytest

from omegad.app.pending import RECENT_IDS, Pending, row_bytes
from omegad.app.writer import RecentTexts
from omegad.contradictions.duplicates import text_key
from omegad.errors import Unavailable
from omegad.storage.rows import Row


def _row(mid: str, namespace: str = "a", text: str | None = None) -> Row:
    return Row(
        id=mid,
        text=text or f"memory {mid}",
        type="fact",
        tags=[],
        namespace=namespace,
        metadata={},
        created_at=1,
        updated_at=1,
        version=1,
        vector=np.zeros(384, dtype=np.float32),
    )


def test_a_read_waits_for_what_was_pending_when_it_began_not_for_later_stores() -> None:
    async def main() -> None:
        p = Pending(100, 1 << 30, wait_s=5)
        p.add(_row("m1"), dedup=True)
        p.add(_row("other", "b"), dedup=True)
        done = anyio.Event()

        async def read() -> None:
            await p.wait_namespace("a")
            done.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            await anyio.sleep(0.05)
            p.add(_row("m2"), dedup=True)  # a store after the read began
            p.discard(["other"])  # another namespace committed: still waiting
            await anyio.sleep(0.05)
            assert not done.is_set()
            p.discard(["m1"])  # m2 still pending: the read goes on anyway
            with anyio.fail_after(1):
                await done.wait()
        assert p.holds("m2") and not p.holds("m1")
        assert p.in_namespace("a") and not p.in_namespace("b")
        await p.wait_namespace("b")  # nothing pending there: at once

    anyio.run(main)


def test_room_is_bounded_in_rows_and_bytes_and_a_full_set_refuses_with_busy() -> None:
    async def main() -> None:
        p = Pending(2, 1 << 30, wait_s=0.05)
        await p.room(5, 10)  # a batch larger than the bound fits an empty set
        for k in range(5):
            p.add(_row(f"m{k}"), dedup=False)
        with pytest.raises(Unavailable) as err:
            await p.room(1, 10)
        assert err.value.data["reason"] == "busy" and err.value.data["pending"] == 5
        assert p.figures()["refused"] == 1

        async def free_soon() -> None:
            await anyio.sleep(0.02)
            p.discard([f"m{k}" for k in range(5)])

        p.wait_s = 5
        async with anyio.create_task_group() as tg:
            tg.start_soon(free_soon)
            await p.room(1, 10)  # waits for the commit, then fits
        big = Pending(100, 2 * row_bytes(_row("x")), wait_s=0)
        big.add(_row("x"), dedup=False)
        big.add(_row("y"), dedup=False)
        with pytest.raises(Unavailable):
            await big.room(1, row_bytes(_row("z")))
        assert big.bytes == 2 * row_bytes(_row("x"))
        big.discard(["x", "y", "unknown"])
        assert big.bytes == 0 and len(big) == 0

    anyio.run(main)


def test_same_text_and_recently_committed_ids() -> None:
    p = Pending(100, 1 << 30, wait_s=1)
    p.add(_row("m1", text="Deploys go out on Tuesdays"), dedup=True)
    assert p.same_text(_row("q", text="  deploys GO out on tuesdays. ")) == "m1"
    assert p.same_text(_row("q", "other-ns", text="Deploys go out on Tuesdays")) is None
    mark = p.left
    p.discard(["m1"])
    assert p.same_text(_row("q", text="Deploys go out on Tuesdays")) is None
    # an id checked against the store before its commit is still known as taken
    assert p.left_since("m1", mark) and not p.left_since("never", mark)
    assert not p.left_since("m1", p.left)
    p.left += RECENT_IDS  # more commits since the mark than remembered: unknown, so taken
    assert p.left_since("never", mark)


def test_a_read_that_waits_too_long_gets_a_typed_error() -> None:
    async def main() -> None:
        p = Pending(100, 1 << 30, wait_s=0.05)
        p.add(_row("stuck"), dedup=False)
        with pytest.raises(Unavailable) as err:
            await p.wait_ids(["stuck"])
        assert err.value.data["reason"] == "pending"
        assert not await p.settle(0.01)
        p.discard(["stuck"])
        assert await p.settle(0.01)

    anyio.run(main)


def test_rows_a_client_waits_for_are_wanted_until_the_wait_ends() -> None:
    """`wanted` says whether a client waits for one of the rows (by id, or by namespace for
    a read of it): their background embedding then goes ahead of the rest."""

    async def main() -> None:
        p = Pending(100, 1 << 30, wait_s=5)
        m1, m2, other = _row("m1"), _row("m2"), _row("o1", "b")
        for r in (m1, m2, other):
            p.add(r, dedup=True)
        assert not p.wanted([m1]) and not p.wanted([other])
        async with anyio.create_task_group() as tg:
            tg.start_soon(p.wait_ids, ["m1"])
            tg.start_soon(p.wait_ids, ["m1"])  # two clients wait for one memory
            await anyio.sleep(0.02)
            assert p.wanted([m1]) and p.wanted([m2, m1]) and not p.wanted([m2]) and not p.wanted([other])
            tg.start_soon(p.wait_namespace, "b")
            await anyio.sleep(0.02)
            assert p.wanted([other])
            p.discard(["m1", "o1"])
        assert not p.wanted([m1]) and not p.wanted([m2]) and not p.wanted([other])
        async with anyio.create_task_group() as tg:
            tg.start_soon(p.wait_namespace, None)  # a read of everything wants every row
            await anyio.sleep(0.02)
            assert p.wanted([m2])
            p.discard(["m2"])
        assert not p.wanted([m2])

    anyio.run(main)


def test_settle_gives_up_once_writes_are_failing() -> None:
    """`stats` and `maintain` wait for what is pending unless writes are failing (a full disk:
    the rows wait in the log and cannot commit for now): then they answer at once."""

    async def main() -> None:
        p = Pending(100, 1 << 30, wait_s=30)
        p.add(_row("stuck"), dedup=True)
        failing = False
        with anyio.fail_after(5):
            async with anyio.create_task_group() as tg:

                async def fail_soon() -> None:
                    nonlocal failing
                    await anyio.sleep(0.2)
                    failing = True

                tg.start_soon(fail_soon)
                assert await p.settle(30, give_up=lambda: failing) is False
            assert p.holds("stuck")
            p.discard(["stuck"])
            assert await p.settle(30, give_up=lambda: True) is True  # nothing left to wait for

    anyio.run(main)


def test_recent_texts_say_when_a_text_added_after_a_mark_may_be_forgotten() -> None:
    """A store's twin check looks at `RecentTexts` after waiting for room in the pending set;
    if more stores committed meanwhile than it remembers, the check must not trust it."""
    texts = RecentTexts(size=3)
    texts.add(_row("a", text="first"))
    mark = texts.added
    for i in range(3):  # ("first" is forgotten: it was added before the mark)
        texts.add(_row(f"b{i}", text=f"later {i}"))
    assert texts.get("a", text_key("first")) is None
    assert texts.get("a", text_key("later 0")) == "b0" and not texts.lost_since(mark)
    texts.add(_row("c", text="later 3"))
    assert texts.get("a", text_key("later 0")) is None and texts.lost_since(mark)
