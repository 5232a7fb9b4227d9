"""Bounded work queues owned by the server's task group.

`Batcher` collects items that callers submit concurrently and runs everything that arrived
while the previous run was busy as one call in a worker thread (group commit for the writer,
batched inference for the embedder). `JobQueue` runs background jobs one at a time, in order.
Both are bounded: a full queue makes submitters wait (backpressure), never grows memory.
Both count submitted and finished work so `flush` can wait for "everything queued before now".
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

import anyio
from anyio.abc import TaskStatus
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from omegad.errors import error_text

__all__ = ["BULK_PASSED_OVER", "Batcher", "JobQueue", "Progress"]

#: Calls in a row that urgent jobs may take while other jobs wait (`Batcher`): a question
#: overtakes at most a few runs of a bulk load, and the load still moves under a steady
#: stream of questions.
BULK_PASSED_OVER = 4

T = TypeVar("T")
R = TypeVar("R")


class Progress:
    """Submitted/finished counters with a waiter for "finished ≥ n" (single FIFO consumer)."""

    def __init__(self) -> None:
        self.submitted = 0
        self.finished = 0
        self._changed = anyio.Event()

    def add(self, n: int = 1) -> int:
        self.submitted += n
        return self.submitted

    def done(self, n: int = 1) -> None:
        self.finished += n
        self._changed.set()
        self._changed = anyio.Event()

    @property
    def pending(self) -> int:
        return self.submitted - self.finished

    async def wait_for(self, target: int) -> None:
        while self.finished < target:
            await self._changed.wait()


class _Job(Generic[T, R]):
    __slots__ = ("abandoned", "done", "error", "items", "ran", "results", "urgent", "wanted")

    def __init__(self, items: Sequence[T], urgent: bool = False, wanted: Callable[[], bool] | None = None) -> None:
        self.items = items
        self.urgent = urgent
        self.wanted = wanted
        self.abandoned = False
        self.done = anyio.Event()
        self.results: list[R] | None = None
        self.error: BaseException | None = None
        self.ran: tuple[float, float] | None = None  # its call's start and end in the thread


class Batcher(Generic[T, R]):
    """Run ``fn(items) -> results`` (same length, same order) in a worker thread, batching
    whatever callers submit while the previous call runs. Jobs are never split: a call holds
    whole jobs, adding queued ones while the total is under *max_items* (the last one may cross
    it; one job larger than that runs alone, so callers chunk big inputs to keep latency fair).

    Jobs submitted ``urgent`` (a question's one text) go into the next call ahead of queued
    others (a bulk load's chunks), in a call of urgent jobs only (a question then waits for
    its own text, not for a run of 16), and the others wait; after `BULK_PASSED_OVER` calls that passed
    them over, the oldest queued job goes first again, so a stream of urgent jobs never
    starves the rest. Without urgent jobs the order is first in, first out (the writer's
    `Progress` counts rely on it: the writer never submits urgent jobs). A job submitted with
    *wanted* becomes urgent once that returns True when the next call is picked (a client has
    come to wait for it).

    With *inline_when_idle*, a job submitted while nothing is queued or running runs in the
    submitter's own task, straight to the worker thread: a question's embedding then starts
    before the work its query starts beside it (docs/architecture.md, "A query's first
    milliseconds"). Jobs submitted meanwhile queue and batch as usual, behind it.

    With *pace*, each call first waits the seconds it returns (`omegad.app.turns.Turns.pace`:
    a team host leaving the bucket to other hosts' commits between its own).

    With *urgent_beside*, an urgent job submitted while only other jobs' calls run does not
    wait for them: it runs at once in a call of its own, in another thread, beside them (one
    such call at a time; *fn* must allow two calls at once). A question then shares the CPU
    with a background run instead of queueing behind it (docs/architecture.md, "Under load")."""

    def __init__(
        self,
        name: str,
        fn: Callable[[list[T]], list[R]],
        *,
        max_items: int,
        limiter: anyio.CapacityLimiter,
        queue_size: int = 1024,
        after: Callable[[list[T], list[R]], Awaitable[None]] | None = None,
        shield_wait: bool = True,
        inline_when_idle: bool = False,
        urgent_beside: bool = False,
        pace: Callable[[], float] | None = None,
    ) -> None:
        self.name = name
        self._pace = pace
        self._beside = urgent_beside
        self._beside_limiter = anyio.CapacityLimiter(1)
        self._urgent_running = 0  # calls holding an urgent job, running now
        self.ran_beside = 0  # urgent calls run beside another call
        self._inline = inline_when_idle
        self._shield_wait = shield_wait
        self._fn = fn
        self._max = max_items
        self._limiter = limiter
        self._after = after
        send, receive = anyio.create_memory_object_stream[_Job[T, R]](queue_size)
        self._send: MemoryObjectSendStream[_Job[T, R]] = send
        self._receive: MemoryObjectReceiveStream[_Job[T, R]] = receive
        self.progress = Progress()
        self.batches = 0
        self.items = 0
        self.last_done = 0.0  # time.monotonic() when the last batch finished
        # queued jobs, in the stream or taken off it and held for a later call, are at most
        # *queue_size*: submitters wait for room here (backpressure)
        self.room = anyio.Semaphore(queue_size)
        self._passed_over = 0  # calls in a row that left a queued job that is not urgent
        self.closed = False

    @property
    def depth(self) -> int:
        return self.progress.pending

    async def submit(
        self,
        items: Sequence[T],
        urgent: bool = False,
        wanted: Callable[[], bool] | None = None,
        timing: dict[str, float] | None = None,
    ) -> list[R]:
        """Queue *items* (*urgent*: ahead of queued jobs that are not); returns their results
        once the batch holding them has run.

        Queuing is shielded from cancellation, so the submitted/finished counters always
        match what is really queued. With ``shield_wait`` (the writer) a cancelled caller
        still waits for its batch: a write is never left half-acknowledged. Without it (the
        embedder) a cancelled caller leaves at once and its job is skipped if not yet run.

        *timing*, if given, receives where the job's time went, in ms: ``wait_ms`` until its
        call began in the thread (the queue, the limiter, the thread's start), ``run_ms`` in
        the call, ``resume_ms`` from its end until this task ran again.
        """
        job: _Job[T, R] = _Job(items, urgent, wanted)
        submitted = time.perf_counter()
        await self._submit(job)
        if timing is not None and job.ran is not None:
            began, ended = job.ran
            timing["wait_ms"] = round((began - submitted) * 1000, 3)
            timing["run_ms"] = round((ended - began) * 1000, 3)
            timing["resume_ms"] = round((time.perf_counter() - ended) * 1000, 3)
        if job.error is not None:
            raise job.error
        assert job.results is not None
        return job.results

    async def _submit(self, job: _Job[T, R]) -> None:
        if self._inline and not self.progress.pending and not self.closed and job.items:
            # idle: run it as one call from this task; it counts as queued until it returns,
            # so later submitters queue behind it, and the limiter keeps calls one at a time
            self.progress.add()
            await self._run_batch([job])
        elif self._beside and job.urgent and not self._urgent_running and not self.closed and job.items:
            # only other jobs' calls run: this one runs now, beside them, in a thread of its own
            self.progress.add()
            self.ran_beside += 1
            await self._run_batch([job], self._beside_limiter)
        else:
            await self._queue_and_wait(job)

    async def _queue_and_wait(self, job: _Job[T, R]) -> None:
        with anyio.CancelScope(shield=True):
            self.progress.add()
            # a place among the queued jobs, given back when the job is picked to run
            await self.room.acquire()
            try:
                await self._send.send(job)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                self.room.release()
                self.progress.done()
                raise RuntimeError(f"{self.name} is shut down") from None
        if self._shield_wait:
            with anyio.CancelScope(shield=True):
                await job.done.wait()
        else:
            try:
                await job.done.wait()
            except BaseException:
                job.abandoned = True
                raise

    def close(self) -> None:
        """Stop accepting work; `run` returns once the queue is drained."""
        self.closed = True
        self._send.close()

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        # jobs taken off the stream but not run yet (they keep their `room`)
        held: deque[_Job[T, R]] = deque()
        async with self._receive:
            try:
                while True:
                    if not held:
                        try:
                            held.append(await self._receive.receive())
                        except anyio.EndOfStream:
                            return
                    wait = self._pace() if self._pace is not None else 0.0
                    if wait > 0:  # (what is submitted meanwhile joins this call)
                        await anyio.sleep(wait)
                    while True:
                        try:
                            held.append(self._receive.receive_nowait())
                        except (anyio.WouldBlock, anyio.EndOfStream):
                            break
                    await self._run_batch(self._pick(held))
            finally:
                self._abandon(held)

    def _abandon(self, held: deque[_Job[T, R]]) -> None:
        """The calls stopped (cancelled at shutdown): every job still queued is answered with
        an error, so that no submitter waits, shielded, for a call that will never run."""
        self.closed = True
        left = list(held)
        held.clear()
        while True:
            try:
                left.append(self._receive.receive_nowait())
            except (anyio.WouldBlock, anyio.EndOfStream, anyio.ClosedResourceError):
                break
        for job in left:
            job.error = RuntimeError(f"{self.name} is shut down")
            job.done.set()
        if left:
            self.progress.done(len(left))

    def _pick(self, held: deque[_Job[T, R]]) -> list[_Job[T, R]]:
        """Take the next call's jobs out of *held*: urgent ones first (unless the others were
        passed over `BULK_PASSED_OVER` times), then the others in order, whole jobs while the
        total is under ``max_items`` (the last one may cross it)."""
        first_in_first_out = self._passed_over >= BULK_PASSED_OVER
        urgent = {id(j) for j in held if j.urgent or (j.wanted is not None and j.wanted())}
        ordered = list(held) if first_in_first_out else sorted(held, key=lambda j: id(j) not in urgent)
        jobs: list[_Job[T, R]] = []
        count = 0
        urgent_call = not first_in_first_out and id(ordered[0]) in urgent
        for job in ordered:
            if count >= self._max or (urgent_call and id(job) not in urgent):
                break
            jobs.append(job)
            count += len(job.items)
        for _ in jobs:
            self.room.release()
        taken = {id(j) for j in jobs}
        left = [j for j in held if id(j) not in taken]
        held.clear()
        held.extend(left)
        overtook = (
            not first_in_first_out and any(id(j) in urgent for j in jobs) and any(id(j) not in urgent for j in left)
        )
        self._passed_over = self._passed_over + 1 if overtook else 0
        return jobs

    async def _run_batch(self, all_jobs: list[_Job[T, R]], limiter: anyio.CapacityLimiter | None = None) -> None:
        jobs = [job for job in all_jobs if not job.abandoned]
        flat: list[T] = [item for job in jobs for item in job.items]
        urgent = any(job.urgent for job in jobs)
        self._urgent_running += urgent
        try:
            if not flat:
                return

            def call(items: list[T]) -> list[R]:
                began = time.perf_counter()
                try:
                    return self._fn(items)
                finally:
                    ran = (began, time.perf_counter())
                    for job in jobs:
                        job.ran = ran

            with anyio.CancelScope(shield=True):
                results = await anyio.to_thread.run_sync(call, flat, limiter=limiter or self._limiter)
            if len(results) != len(flat):
                raise RuntimeError(f"{self.name}: {len(results)} results for {len(flat)} items")
        except Exception as exc:
            for job in jobs:
                job.error = exc
        else:
            start = 0
            for job in jobs:
                job.results = results[start : start + len(job.items)]
                start += len(job.items)
            if self._after is not None:
                await self._after(flat, results)
        finally:
            self._urgent_running -= urgent
            if flat:
                self.batches += 1
                self.items += len(flat)
                self.last_done = time.monotonic()
            for job in all_jobs:
                job.done.set()
            self.progress.done(len(all_jobs))


class JobQueue:
    """Background jobs (async callables) run one at a time in submission order.

    `submit_nowait` never blocks: a full queue drops the job and counts it in `dropped`
    (callers use it for work that is re-derived later, e.g. index upkeep). Jobs with a *key*
    are coalesced: while one with that key is queued, another is not added.
    """

    def __init__(self, name: str, size: int = 10_000) -> None:
        self.name = name
        send, receive = anyio.create_memory_object_stream[tuple[str | None, Callable[[], Awaitable[Any]]]](size)
        self._send = send
        self._receive = receive
        self.progress = Progress()
        self.dropped = 0
        self.failed = 0
        self.last_error: str | None = None
        self._queued_keys: set[str] = set()
        self.on_error: Callable[[str, BaseException], None] | None = None

    @property
    def depth(self) -> int:
        return self.progress.pending

    def submit_nowait(self, job: Callable[[], Awaitable[Any]], key: str | None = None) -> bool:
        if key is not None and key in self._queued_keys:
            return False
        try:
            self._send.send_nowait((key, job))
        except (anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self.dropped += 1
            return False
        if key is not None:
            self._queued_keys.add(key)
        self.progress.add()
        return True

    def close(self) -> None:
        self._send.close()

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        async with self._receive:
            async for key, job in self._receive:
                if key is not None:
                    self._queued_keys.discard(key)
                try:
                    await job()
                except Exception as exc:
                    self.failed += 1
                    self.last_error = error_text(exc)
                    if self.on_error is not None:
                        self.on_error(self.name, exc)
                finally:
                    self.progress.done()


async def wait_until(progress: Progress, target: int, timeout: float | None) -> bool:
    """Wait until *progress* has finished *target* items; False on timeout."""
    with anyio.move_on_after(math.inf if timeout is None else timeout):
        await progress.wait_for(target)
        return True
    return False
