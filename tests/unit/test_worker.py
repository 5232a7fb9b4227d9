from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator

import anyio
import pytest

from omegad.worker import Batcher, JobQueue, wait_until


class _Concurrency:
    """How many calls of a batch function ran at once, at most (`peak`)."""

    def __init__(self) -> None:
        self.active = self.peak = 0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        with self._lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            yield
        finally:
            with self._lock:
                self.active -= 1


def _gated_recorder() -> tuple[list[list[str]], threading.Event, Callable[[list[str]], list[str]]]:
    """A batch function that waits for *gate* (5 s at most), then records its call's items."""
    calls: list[list[str]] = []
    gate = threading.Event()

    def fn(items: list[str]) -> list[str]:
        gate.wait(5)
        calls.append(list(items))
        return items

    return calls, gate, fn


def test_batcher_groups_concurrent_submissions_and_bounds_threads() -> None:
    calls: list[list[int]] = []
    threads = _Concurrency()

    def fn(items: list[int]) -> list[int]:
        with threads.running():
            time.sleep(0.05)  # hold the thread so later submissions pile up
            calls.append(list(items))
        return [i * 10 for i in items]

    async def main() -> None:
        b: Batcher[int, int] = Batcher("t", fn, max_items=100, limiter=anyio.CapacityLimiter(1))
        results: dict[int, list[int]] = {}
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)

            async def submit(i: int) -> None:
                results[i] = await b.submit([i, i + 1000])

            async with anyio.create_task_group() as inner:
                for i in range(20):
                    inner.start_soon(submit, i)
            b.close()
        assert results == {i: [i * 10, (i + 1000) * 10] for i in range(20)}
        assert b.progress.finished == 20 and b.depth == 0

    anyio.run(main)
    assert threads.peak == 1  # one worker thread at a time
    assert len(calls) < 20  # grouped: far fewer runs than submissions
    assert sum(len(c) for c in calls) == 40


def test_batcher_respects_max_items() -> None:
    sizes: list[int] = []

    def fn(items: list[int]) -> list[int]:
        sizes.append(len(items))
        time.sleep(0.01)
        return items

    async def main() -> None:
        b: Batcher[int, int] = Batcher("t", fn, max_items=5, limiter=anyio.CapacityLimiter(1))
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            async with anyio.create_task_group() as inner:
                for i in range(30):
                    inner.start_soon(b.submit, [i])
            b.close()

    anyio.run(main)
    assert max(sizes) <= 5 and sum(sizes) == 30


def test_batcher_error_reaches_every_caller_of_that_batch() -> None:
    def fn(items: list[int]) -> list[int]:
        raise OSError("disk on fire")

    async def main() -> None:
        b: Batcher[int, int] = Batcher("t", fn, max_items=10, limiter=anyio.CapacityLimiter(1))
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            with pytest.raises(OSError, match="disk on fire"):
                await b.submit([1])
            b.close()
        with pytest.raises(RuntimeError, match="shut down"):
            await b.submit([2])

    anyio.run(main)


def test_batcher_queue_is_bounded() -> None:
    release = threading.Event()

    def fn(items: list[int]) -> list[int]:
        release.wait(5)
        return items

    async def main() -> None:
        b: Batcher[int, int] = Batcher("t", fn, max_items=1, limiter=anyio.CapacityLimiter(1), queue_size=2)
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            for i in range(6):
                tg.start_soon(b.submit, [i])
            await anyio.sleep(0.2)
            # one running, two queued; the rest wait to enter the queue (backpressure)
            assert b.room.value == 0 and b.depth == 6
            assert b.room.statistics().tasks_waiting == 3
            release.set()
            await wait_until(b.progress, 6, 10)
            b.close()

    anyio.run(main)


def test_job_queue_order_coalescing_and_failures() -> None:
    seen: list[str] = []

    async def main() -> None:
        q = JobQueue("bg", size=3)
        errors: list[str] = []
        q.on_error = lambda name, exc: errors.append(str(exc))

        def job(tag: str, fail: bool = False):  # type: ignore[no-untyped-def]
            async def run() -> None:
                seen.append(tag)
                if fail:
                    raise ValueError(tag)

            return run

        assert q.submit_nowait(job("a"))
        assert q.submit_nowait(job("k1"), key="k")
        assert not q.submit_nowait(job("k2"), key="k")  # coalesced
        assert q.submit_nowait(job("boom", fail=True))
        assert not q.submit_nowait(job("overflow"))  # full: dropped, counted
        assert q.dropped == 1
        async with anyio.create_task_group() as tg:
            await tg.start(q.run)
            assert await wait_until(q.progress, q.progress.submitted, 5)
            q.close()
        assert errors == ["boom"] and q.failed == 1

    anyio.run(main)
    assert seen == ["a", "k1", "boom"]


def test_urgent_jobs_overtake_queued_bulk_jobs_without_starving_them() -> None:
    """A question's one text runs in the next call although a bulk load's chunks were queued
    first; a steady stream of urgent jobs still lets a passed-over job run after
    `BULK_PASSED_OVER` calls."""
    from omegad.worker import BULK_PASSED_OVER

    calls, gate, fn = _gated_recorder()

    async def main() -> None:
        b: Batcher[str, str] = Batcher("t", fn, max_items=2, limiter=anyio.CapacityLimiter(1))
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            tg.start_soon(b.submit, ["bulk0a", "bulk0b"])  # runs first, held at the gate
            await anyio.sleep(0.05)
            for i in range(1, 4):
                tg.start_soon(b.submit, [f"bulk{i}a", f"bulk{i}b"])
                await anyio.sleep(0.01)
            tg.start_soon(functools.partial(b.submit, ["q1a", "q1b"], urgent=True))
            await anyio.sleep(0.05)
            gate.set()
            await wait_until(b.progress, 5, 10)
            assert calls[0] == ["bulk0a", "bulk0b"]
            assert calls[1] == ["q1a", "q1b"], calls  # ahead of the three bulk chunks queued before it
            assert [c[0] for c in calls[2:]] == ["bulk1a", "bulk2a", "bulk3a"]  # then in order

            # a steady stream of urgent jobs: the queued bulk job waits at most BULK_PASSED_OVER calls
            calls.clear()
            gate.clear()
            tg.start_soon(functools.partial(b.submit, ["hold", "hold"], urgent=True))
            await anyio.sleep(0.05)
            tg.start_soon(b.submit, ["bulkXa", "bulkXb"])
            await anyio.sleep(0.01)
            for i in range(3 * BULK_PASSED_OVER):
                tg.start_soon(functools.partial(b.submit, [f"u{i}a", f"u{i}b"], urgent=True))
                await anyio.sleep(0.005)
            gate.set()
            await wait_until(b.progress, 5 + 2 + 3 * BULK_PASSED_OVER, 10)
            order = [c[0] for c in calls]
            assert order[0] == "hold"
            assert order.index("bulkXa") == 1 + BULK_PASSED_OVER, order
            b.close()

    anyio.run(main)


def test_idle_batcher_runs_a_job_in_the_submitters_task_and_queues_the_rest_behind_it() -> None:
    """inline_when_idle: with nothing queued the job needs no `run` task at all (the first
    call below is answered before `run` starts); jobs submitted while it runs queue, batch
    together and run after it, one thread at a time."""
    calls: list[list[str]] = []
    gate = threading.Event()
    threads = _Concurrency()

    def fn(items: list[str]) -> list[str]:
        with threads.running():
            if items[0] == "first":
                gate.wait(5)
            calls.append(list(items))
        return [i.upper() for i in items]

    async def main() -> None:
        b: Batcher[str, str] = Batcher("t", fn, max_items=10, limiter=anyio.CapacityLimiter(1), inline_when_idle=True)
        with anyio.fail_after(5):
            assert await b.submit(["alone"]) == ["ALONE"]  # no run task yet: it ran inline
        assert b.progress.finished == 1 and b.depth == 0 and b.batches == 1
        results: dict[str, list[str]] = {}

        async def submit(name: str) -> None:
            results[name] = await b.submit([name])

        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            tg.start_soon(submit, "first")  # idle: inline, held at the gate
            await anyio.sleep(0.05)
            assert b.depth == 1
            for name in ("a", "b", "c"):
                tg.start_soon(submit, name)  # busy: queued
            await anyio.sleep(0.05)
            assert calls == [["alone"]]
            gate.set()
            await wait_until(b.progress, 5, 10)
            b.close()
        assert results == {"first": ["FIRST"], "a": ["A"], "b": ["B"], "c": ["C"]}
        assert calls[1] == ["first"] and calls[2] == ["a", "b", "c"]  # the queued three in one call

    anyio.run(main)
    assert threads.peak == 1


def test_inline_job_errors_reach_the_caller_and_a_closed_batcher_refuses() -> None:
    def fn(items: list[str]) -> list[str]:
        if items == ["bad"]:
            raise ValueError("boom")
        return items

    async def main() -> None:
        b: Batcher[str, str] = Batcher("t", fn, max_items=10, limiter=anyio.CapacityLimiter(1), inline_when_idle=True)
        with pytest.raises(ValueError, match="boom"):
            await b.submit(["bad"])
        assert b.depth == 0 and await b.submit(["good"]) == ["good"]
        b.close()
        with pytest.raises(RuntimeError, match="shut down"):
            await b.submit(["late"])

    anyio.run(main)


def test_an_urgent_call_holds_urgent_jobs_only() -> None:
    """A question's text runs in a call of its own kind: it waits for its own run, not for a
    run filled up with queued bulk texts; the bulk jobs then batch together."""
    calls, gate, fn = _gated_recorder()

    async def main() -> None:
        b: Batcher[str, str] = Batcher("t", fn, max_items=10, limiter=anyio.CapacityLimiter(1))
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            tg.start_soon(b.submit, ["running"])  # held at the gate
            await anyio.sleep(0.05)
            for i in range(3):
                tg.start_soon(b.submit, [f"bulk{i}a", f"bulk{i}b"])
                await anyio.sleep(0.01)
            tg.start_soon(functools.partial(b.submit, ["q1"], urgent=True))
            tg.start_soon(functools.partial(b.submit, ["q2"], urgent=True))
            await anyio.sleep(0.05)
            gate.set()
            await wait_until(b.progress, 6, 10)
            b.close()
        assert calls == [["running"], ["q1", "q2"], ["bulk0a", "bulk0b", "bulk1a", "bulk1b", "bulk2a", "bulk2b"]]

    anyio.run(main)


def test_a_job_becomes_urgent_once_it_is_wanted() -> None:
    """A background job submitted with *wanted* is picked like an urgent one once a client
    comes to wait for it (a delete of a memory whose embedding is queued)."""
    calls: list[list[str]] = []
    gate = threading.Event()
    wanted = False

    def fn(items: list[str]) -> list[str]:
        gate.wait(5)
        calls.append(list(items))
        return items

    async def main() -> None:
        nonlocal wanted
        b: Batcher[str, str] = Batcher("t", fn, max_items=2, limiter=anyio.CapacityLimiter(1))
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            tg.start_soon(b.submit, ["running"])  # held at the gate
            await anyio.sleep(0.05)
            tg.start_soon(b.submit, ["bulk0a", "bulk0b"])
            await anyio.sleep(0.01)
            tg.start_soon(functools.partial(b.submit, ["mine"], wanted=lambda: wanted))
            await anyio.sleep(0.01)
            tg.start_soon(b.submit, ["bulk1a", "bulk1b"])
            await anyio.sleep(0.05)
            wanted = True  # a client now waits for "mine"
            gate.set()
            await wait_until(b.progress, 4, 10)
            b.close()
        assert calls == [["running"], ["mine"], ["bulk0a", "bulk0b"], ["bulk1a", "bulk1b"]]

    anyio.run(main)


def test_an_urgent_job_runs_beside_a_running_background_call() -> None:
    """With *urgent_beside*, a question does not wait for the background call that is running:
    it runs at once in another thread (one such call at a time: a second question queues)."""
    calls: list[list[str]] = []
    gate = threading.Event()
    q1_running = threading.Event()
    concurrency = _Concurrency()

    def fn(items: list[str]) -> list[str]:
        with concurrency.running():
            if items == ["q1"]:
                q1_running.set()
                gate.wait(5)  # (held, so that q2 finds an urgent call running)
            elif items[0].startswith("bg"):
                gate.wait(5)
            calls.append(list(items))
        return items

    async def main() -> None:
        b: Batcher[str, str] = Batcher(
            "t", fn, max_items=10, limiter=anyio.CapacityLimiter(1), inline_when_idle=True, urgent_beside=True
        )
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            tg.start_soon(b.submit, ["bg0"])  # idle: inline, held at the gate
            await anyio.sleep(0.05)
            tg.start_soon(functools.partial(b.submit, ["q1"], urgent=True))
            await anyio.to_thread.run_sync(q1_running.wait, 5)
            assert b.ran_beside == 1 and concurrency.peak == 2
            tg.start_soon(functools.partial(b.submit, ["q2"], urgent=True))
            await anyio.sleep(0.05)
            assert b.ran_beside == 1 and calls == []  # q2 queued: an urgent call was running
            gate.set()
            await wait_until(b.progress, 3, 10)
            b.close()
        assert sorted(map(tuple, calls)) == [("bg0",), ("q1",), ("q2",)]

    anyio.run(main)


def test_jobs_still_queued_when_the_calls_stop_are_answered_with_an_error() -> None:
    """At shutdown the batcher's task is cancelled: a job queued behind the running call must
    not leave its submitter waiting (shielded, as the writer's are) for a call that never runs."""
    calls, gate, fn = _gated_recorder()
    errors: list[str] = []

    async def main() -> None:
        b: Batcher[str, str] = Batcher("t", fn, max_items=1, limiter=anyio.CapacityLimiter(1))

        async def submit(x: str) -> None:
            try:
                await b.submit([x])
            except RuntimeError as exc:
                errors.append(str(exc))

        async with anyio.create_task_group() as outer, anyio.create_task_group() as tg:
            await tg.start(b.run)
            outer.start_soon(submit, "a")  # running, held at the gate
            await anyio.sleep(0.05)
            outer.start_soon(submit, "b")  # queued behind it
            await anyio.sleep(0.05)
            tg.cancel_scope.cancel()
            gate.set()

    anyio.run(main)
    assert calls == [["a"]] and errors == ["t is shut down"]


def test_a_paced_batcher_waits_before_each_call_and_what_comes_meanwhile_joins_it() -> None:
    """`Batcher(pace=...)`: the wait comes before the call picks its jobs, so jobs submitted
    during it run in that call (a team host's commits between other hosts' turns)."""
    calls: list[list[int]] = []
    waits = iter([0.0, 0.3])  # the first call at once, the second after 0.3 s, then none

    def pace() -> float:
        return next(waits, 0.0)

    def fn(items: list[int]) -> list[int]:
        calls.append(list(items))
        return items

    async def main() -> None:
        b: Batcher[int, int] = Batcher("t", fn, max_items=100, limiter=anyio.CapacityLimiter(1), pace=pace)
        async with anyio.create_task_group() as tg:
            await tg.start(b.run)
            assert await b.submit([0]) == [0]
            async with anyio.create_task_group() as inner:
                inner.start_soon(b.submit, [1])
                await anyio.sleep(0.1)  # (the second call is waiting its turn)
                inner.start_soon(b.submit, [2])
                inner.start_soon(b.submit, [3])
            b.close()

    anyio.run(main)
    assert calls == [[0], [1, 2, 3]]
