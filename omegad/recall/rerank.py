"""The cross-encoder rerank stage.

After heuristic scoring, the query pipeline hands its top ``reranker.top_k`` (20) candidates
to `Reranker.rerank`. Each (query, memory text) pair is encoded together as
``[CLS] query [SEP] passage [SEP]`` (segment ids 0 then 1), truncated longest-first to
``reranker.max_tokens`` word pieces, and scored by one ONNX Runtime CPU session of
cross-encoder/ms-marco-MiniLM-L-6-v2 (one logit per pair). The logit is normalised on an
absolute scale, ``norm = sigmoid(logit)``, never min-max within the batch, and boosts the
heuristic score multiplicatively::

    score = heuristic_score × (1 + w × norm)        (w = reranker.weight, 0.3)

so the reranker refines the order without overriding type, recency and feedback signals.

Speed:

* pairs are sorted by token length and batched without fixed padding (each ONNX run pads to
  its longest pair);
* concurrent queries share ONNX runs: a `Batcher` collects the pairs of every query that
  arrives while the previous run is busy;
* an LRU cache keyed by (query text, memory id, memory version) makes a repeated query cost
  no model time.

Availability: the model is loaded in the background (never inside a query). After
``reranker.idle_s`` unused it leaves memory, and the next batch loads it again from the same
files in its worker thread (`Reranker.release`): a quiet daemon holds no reranker weights. Until it is
ready, or when it is off, missing, failed or too slow, queries keep the heuristic order and
say why in ``explain``; ``hello`` and ``stats`` report the state. After
``reranker.max_failures`` failed loads a circuit breaker blocks new attempts for
``reranker.cooldown_s`` seconds. An inference error falls back for that query, is logged once
per distinct cause and counted.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import structlog

from omegad.config import Config
from omegad.errors import error_text
from omegad.models.files import (
    FETCH_RERANKER_COMMAND,
    FUSED_DIR,
    RERANKER_DIR_NAME,
    RERANKER_MODEL_ID,
    CrossEncoderFiles,
    ModelMissing,
    read_reranker_dir,
)
from omegad.recall.crossencoder import CrossEncoder, sigmoid
from omegad.recall.pipeline import Candidate
from omegad.timeutil import iso
from omegad.worker import Batcher

__all__ = [
    "Breaker",
    "Reranker",
    "boost",
    "reranker_dir",
]

log = structlog.get_logger("omegad")

#: Failed loads are retried on demand (a query while not ready), at most this often.
RETRY_SPACING_S = 5.0


def boost(score: float, logit: float, weight: float) -> tuple[float, float]:
    """Return (new score, norm) for a heuristic *score* and a cross-encoder *logit*."""
    norm = sigmoid(logit)
    return score * (1.0 + weight * norm), norm


# -- model files --------------------------------------------------------------------------------


def reranker_dir(config: Config) -> Path:
    """Where the daemon looks: ``reranker.model_dir`` if set, else the user cache."""
    return config.reranker_model_dir or config.model_cache_dir / RERANKER_DIR_NAME


async def _run_detached(fn: Callable[[], Any], name: str) -> Any:
    """Run *fn* in its own daemon thread and await its result. Unlike a worker thread, a
    long download does not hold up the process when the daemon stops: it is dropped, and
    resumes from its ``.partial`` files next time."""
    done = anyio.Event()
    box: dict[str, Any] = {}
    token = anyio.lowlevel.current_token()

    def target() -> None:
        try:
            box["result"] = fn()
        except BaseException as exc:
            box["error"] = exc
        finally:
            try:
                anyio.from_thread.run_sync(done.set, token=token)
            except Exception:
                pass  # the event loop is gone (daemon stopping)

    threading.Thread(target=target, name=name, daemon=True).start()
    await done.wait()
    if "error" in box:
        raise box["error"]
    return box["result"]


# -- circuit breaker ----------------------------------------------------------------------------


class Breaker:
    """After *max_failures* failed loads, no attempt for *cooldown_s* seconds. After the
    cooldown one attempt is allowed; if it fails too, the breaker opens again at once."""

    def __init__(self, max_failures: int, cooldown_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.cooldown_s = cooldown_s
        self.clock = clock
        self.failures = 0
        self.open_until: float | None = None
        self.last_error: str | None = None

    def allow(self) -> bool:
        return self.open_until is None or self.clock() >= self.open_until

    @property
    def is_open(self) -> bool:
        return not self.allow()

    def failure(self, error: str) -> None:
        self.failures += 1
        self.last_error = error
        if self.failures >= self.max_failures:
            self.open_until = self.clock() + self.cooldown_s

    def success(self) -> None:
        self.failures = 0
        self.open_until = None
        self.last_error = None


# -- the stage ----------------------------------------------------------------------------------

CacheKey = tuple[str, str, int, int]  # (query text, memory id, memory version, hash of its text)
Item = tuple[CacheKey | None, str, str]  # (cache key or None: not cached, query, memory text)
Scored = tuple[float | None, int, int, str | None]  # (logit or None, tokens, model generation, error)


class ScoreCache:
    """LRU of scores keyed by (query text, memory id, memory version, hash of the text): the
    text hash guards against an id deleted and stored again with other text."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[CacheKey, Scored] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: CacheKey) -> Scored | None:
        value = self._data.get(key)
        if value is None:
            self.misses += 1
            return None
        self._data.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key: CacheKey, value: Scored) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)

    def clear(self) -> None:
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


class Reranker:
    """The rerank stage: state machine, background loader, shared batcher, cache, counters.

    States: ``disabled`` (turned off), ``missing`` (no model files: the fix is
    `FETCH_RERANKER_COMMAND`), ``downloading`` (``reranker.auto_download``), ``loading``,
    ``ready``, ``failed`` (last error; with ``until`` while the breaker is open).

    The loader makes one attempt at start-up; later attempts happen only when a query asks
    for the reranker while it is not ready (`request`), at most every `RETRY_SPACING_S`
    seconds and never while the breaker is open. A load counts as a success for the
    breaker only once the model has scored a batch, so a model that loads but cannot run
    still opens the breaker instead of being reloaded forever.
    """

    def __init__(
        self,
        config: Config,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        fetch: Callable[[], Path] | None = None,
    ) -> None:
        self.config = config
        self.clock = clock
        self.wall = wall
        self.directory = reranker_dir(config)
        self._fetch = fetch
        self.breaker = Breaker(config.reranker_max_failures, config.reranker_cooldown_s, clock)
        self.encoder: CrossEncoder | None = None
        self._files: CrossEncoderFiles | None = None  # the last load's, to load again after `release`
        self._about: dict[str, Any] = {}  # what `describe` says of the loaded model
        self.generation = 0  # bumped on every load: scores of an older model are not cached
        self._cache_generation = 0  # the generation whose scores the cache holds
        self.releases = 0
        self.reloads = 0
        self._used_at = clock()
        self._reload_error: str | None = None  # set by a failed load again, in the worker thread
        self._released_runs = 0  # ONNX runs of encoders released since
        self._preloading = False
        self.state = "disabled" if not config.reranker_enabled else "loading"
        self.detail = (
            "starting" if config.reranker_enabled else "turned off (OMEGAD_CROSS_ENCODER=0 or reranker.enabled = false)"
        )
        self.cache = ScoreCache(config.reranker_cache_size)
        self.limiter = anyio.CapacityLimiter(1)
        self.batcher: Batcher[Item, Scored] = Batcher(
            "reranker",
            self._score_sync,
            max_items=config.reranker_batch_size * 8,
            limiter=self.limiter,
            shield_wait=False,
            after=self._cache_results,
        )
        self.attempts = 0
        self.last_attempt: float | None = None
        self.attempting = False
        self._requested = True  # the start-up attempt
        self.loaded_at: float | None = None
        self.load_ms: float | None = None
        self.queries = 0
        self.pairs = 0
        self.scored = 0
        self.tokens = 0
        self.model_ms = 0.0
        self.errors = 0
        self.timeouts = 0
        self.last_inference_error: str | None = None
        self.failed_batches = 0  # batches in a row in which no pair could be scored
        self._logged: set[str] = set()
        self._wake = anyio.Event()
        self.fix = FETCH_RERANKER_COMMAND

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Usable: in memory, or released after ``idle_s`` and loaded again by the next batch."""
        return self.state == "ready" and (self.encoder is not None or self._files is not None)

    @property
    def resident(self) -> bool:
        return self.encoder is not None

    def release_due_in(self) -> float:
        """Seconds until the loaded model has been unused for ``reranker.idle_s`` (infinite
        when it is not in memory or is kept for good)."""
        if self.encoder is None or self.config.reranker_idle_s <= 0:
            return math.inf
        return max(0.0, self._used_at + self.config.reranker_idle_s - self.clock())

    async def release(self) -> bool:
        """Drop the model from memory once unused for ``reranker.idle_s`` (in a worker thread
        under the batcher's limiter, so never during a run); `_score_sync` loads it again.
        Returns whether it was dropped."""
        if self.release_due_in() > 0:
            return False

        def drop() -> bool:
            if self.release_due_in() > 0 or self.encoder is None:
                return False
            self._released_runs += self.encoder.runs
            self.encoder = None
            self.releases += 1
            return True

        return await anyio.to_thread.run_sync(drop, limiter=self.limiter)

    async def run(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Run the batcher and the background loader until `close` (the loader is cancelled
        with the enclosing task group)."""
        async with anyio.create_task_group() as tg:
            await tg.start(self.batcher.run)
            if self.config.reranker_enabled:
                tg.start_soon(self._loader)
            task_status.started()

    def close(self) -> None:
        self.batcher.close()

    def request(self) -> None:
        """A query wanted the reranker while it is not ready: ask for a background attempt
        (made when one is due). Never waits."""
        if not self.config.reranker_enabled or self.ready:
            return
        self._requested = True
        if self._attempt_due():
            self._wake.set()

    def _attempt_due(self) -> bool:
        if not self.config.reranker_enabled or self.ready or self.attempting or not self._requested:
            return False
        if not self.breaker.allow():
            return False
        return self.last_attempt is None or self.clock() - self.last_attempt >= RETRY_SPACING_S

    async def _loader(self) -> None:
        while True:
            if self._attempt_due():
                try:
                    await self.attempt()
                except Exception as exc:  # never let the loader die: the daemon must keep serving
                    self._set_failed(f"load attempt failed: {error_text(exc)}")
            self._wake = anyio.Event()
            if self._attempt_due():  # a request arrived during the attempt
                continue
            await self._wake.wait()

    async def attempt(self) -> None:
        """One load attempt (and a download first when configured and the files are absent)."""
        self.attempting = True
        self._requested = False
        self.attempts += 1
        self.last_attempt = self.clock()
        try:
            try:
                files = await anyio.to_thread.run_sync(read_reranker_dir, self.directory)
            except ModelMissing as exc:
                if not (self.config.reranker_auto_download and self._fetch is not None):
                    self._set_missing(str(exc))
                    return
                fetched = await self._download()
                if fetched is None:
                    return
                files = fetched
            self.state, self.detail = "loading", f"loading {files.onnx}"
            started = time.perf_counter()
            try:
                encoder = await anyio.to_thread.run_sync(self._load, files, abandon_on_cancel=True)
            except Exception as exc:
                self._set_failed(f"load failed: {error_text(exc)}")
                return
            self._loaded(encoder)
            self._sync_cache()
            self.failed_batches = 0
            self.load_ms = round((time.perf_counter() - started) * 1000, 1)
            self.loaded_at = self.wall()
            self.state, self.detail = "ready", ""
            log.info(
                "reranker_ready",
                model=encoder.files.model_id,
                file=str(encoder.files.onnx),
                quantization=encoder.files.quantization,
                threads=self.config.reranker_threads,
                load_ms=self.load_ms,
            )
        finally:
            self.attempting = False

    async def preload(self) -> None:
        """Load a released model now (a query is on its way to it), so that the load runs
        beside the question's embedding rather than after it. A failure is left to the
        query's own batch, which tries once more and reports it."""
        if self._preloading or not self.ready or self.encoder is not None:
            return
        self._preloading = True
        try:
            await anyio.to_thread.run_sync(self._resident_encoder, limiter=self.limiter)
        finally:
            self._preloading = False

    def _resident_encoder(self) -> CrossEncoder | None:
        """The model, loaded again from the same files if it was released after
        ``reranker.idle_s`` (worker thread, under the batcher's limiter). A failure is kept in
        `_reload_error`, which `_cache_results` turns into a failed stage after the batch."""
        if self.encoder is None and self.ready:
            try:
                self._reload()
                self._reload_error = None
            except Exception as exc:
                self._reload_error = error_text(exc)
        return self.encoder

    def _loaded(self, encoder: CrossEncoder) -> None:
        """Take *encoder* as the model (any thread: one assignment each, read on the loop)."""
        self._files = encoder.files
        self._about = {
            "model": encoder.files.model_id,
            "file": str(encoder.files.onnx),
            "quantization": encoder.files.quantization,
            "graph": encoder.graph,
            "threads": encoder.threads,
            "max_tokens": encoder.max_tokens,
        }
        self._used_at = self.clock()
        self.encoder = encoder
        self.generation += 1

    def _sync_cache(self) -> None:
        """Drop cached scores of an earlier load (on the loop: the cache is the loop's)."""
        if self._cache_generation != self.generation:
            self.cache.clear()
            self._cache_generation = self.generation

    def _load(self, files: CrossEncoderFiles) -> CrossEncoder:
        """Load the preferred ONNX file; if an int8 file is unusable, fall back to fp32."""

        def make(f: CrossEncoderFiles) -> CrossEncoder:
            return CrossEncoder(
                f,
                threads=self.config.reranker_threads,
                max_tokens=self.config.reranker_max_tokens,
                batch_size=self.config.reranker_batch_size,
                spinning=self.config.reranker_spinning,
                fused_dir=self.config.model_cache_dir / FUSED_DIR if self.config.reranker_fused else None,
            )

        try:
            return make(files)
        except ModelMissing as exc:
            fp32 = files.directory / "model.onnx"
            if files.onnx == fp32 or not fp32.is_file():
                raise
            log.warning("reranker_int8_unusable", file=str(files.onnx), error=str(exc), fallback=str(fp32))
            return make(CrossEncoderFiles(files.directory, fp32, files.tokenizer, files.model_id, "none (fp32)"))

    async def _download(self) -> CrossEncoderFiles | None:
        assert self._fetch is not None
        self.state, self.detail = "downloading", f"downloading {RERANKER_MODEL_ID} into {self.directory}"
        log.info("reranker_download_started", directory=str(self.directory))
        try:
            directory = await _run_detached(self._fetch, "omegad-reranker-download")
            return await anyio.to_thread.run_sync(read_reranker_dir, directory)
        except Exception as exc:
            self._set_failed(f"download failed: {error_text(exc)}")
            return None

    def _set_missing(self, reason: str) -> None:
        changed = self.state != "missing"
        self.state = "missing"
        if self.config.reranker_model_dir is not None:
            self.fix = (
                f"put model.onnx and tokenizer.json in {self.directory} (reranker.model_dir), "
                f"or unset it and run `{FETCH_RERANKER_COMMAND}`"
            )
        else:
            self.fix = FETCH_RERANKER_COMMAND
        self.detail = f"no reranker model ({reason}); fix: {self.fix}"
        if changed:
            log.warning("reranker_missing", directory=str(self.directory), fix=self.fix)

    def _set_failed(self, error: str) -> None:
        self.breaker.failure(error)
        self.encoder = None
        self._files = None
        self.state = "failed"
        self.detail = error
        log.error("reranker_failed", error=error, failures=self.breaker.failures, retry_after=self._until())

    def _until(self) -> str | None:
        """Wall-clock time when the breaker lets the next attempt through (None: not open)."""
        if self.breaker.open_until is None or not self.breaker.is_open:
            return None
        left = self.breaker.open_until - self.clock()
        return iso(int((self.wall() + left) * 1e6))

    def describe(self) -> dict[str, Any]:
        """The state as ``hello`` and ``stats`` report it."""
        out: dict[str, Any] = {"state": self.state}
        if self.ready:
            out.update(
                self._about,
                weight=self.config.reranker_weight,
                top_k=self.config.reranker_top_k,
                # False: released after reranker.idle_s unused; the next query loads it again
                resident=self.resident,
            )
            return out
        out["detail"] = self.detail
        if self.state == "missing":
            out["fix"] = self.fix
            out["directory"] = str(self.directory)
        elif self.state == "failed":
            out["last_error"] = self.breaker.last_error
            out["failures"] = self.breaker.failures
            out["until"] = self._until()
        return out

    def counters(self) -> dict[str, Any]:
        return {
            "queries": self.queries,
            "pairs": self.pairs,
            "scored": self.scored,
            "tokens": self.tokens,
            "model_ms": round(self.model_ms, 1),
            "batches": self.batcher.batches,
            "onnx_runs": self._released_runs + (self.encoder.runs if self.encoder is not None else 0),
            "cache": {"entries": len(self.cache), "hits": self.cache.hits, "misses": self.cache.misses},
            "errors": self.errors,
            "timeouts": self.timeouts,
            "last_inference_error": self.last_inference_error,
            "load_attempts": self.attempts,
            "load_ms": self.load_ms,
            "releases": self.releases,
            "reloads": self.reloads,
        }

    # -- scoring --------------------------------------------------------------------------------

    def _score_sync(self, items: list[Item]) -> list[Scored]:
        """Score a batch (worker thread). When the batch fails, each pair is retried alone,
        so one bad pair fails only the queries that hold it."""
        encoder = self._resident_encoder()
        generation = self.generation
        if encoder is None:
            return [(None, 0, generation, self._reload_error or "the reranker model was unloaded")] * len(items)
        started = time.perf_counter()
        pairs = [(q, p) for _, q, p in items]
        try:
            logits, tokens = encoder.score(pairs)
            out: list[Scored] = [(float(x), n, generation, None) for x, n in zip(logits.tolist(), tokens, strict=True)]
        except Exception:
            out = []
            for pair in pairs:
                try:
                    one, n = encoder.score([pair])
                    out.append((float(one[0]), n[0], generation, None))
                except Exception as exc:
                    out.append((None, 0, generation, error_text(exc)))
        self.model_ms += (time.perf_counter() - started) * 1000
        self._used_at = self.clock()
        return out

    def _reload(self) -> None:
        """Load the released model again (worker thread, under the batcher's limiter)."""
        assert self._files is not None
        started = time.perf_counter()
        self._loaded(self._load(self._files))
        self.reloads += 1
        self.load_ms = round((time.perf_counter() - started) * 1000, 1)

    async def _cache_results(self, items: list[Item], results: list[Scored]) -> None:
        """After every batch, on the event loop: cache what the current model scored, also
        for queries that stopped waiting (a retry then costs nothing); track whole-batch
        failures (a model that cannot score anything is dropped)."""
        if self._reload_error is not None:  # the files went or changed while it was released
            error, self._reload_error = self._reload_error, None
            self._set_failed(f"loading the released model again failed: {error}")
            return
        self._sync_cache()
        good = 0
        for (key, _, _), (logit, n, generation, _) in zip(items, results, strict=True):
            if logit is not None:
                good += 1
                if generation == self.generation and key is not None:
                    self.cache.put(key, (logit, n, generation, None))
        if good:
            self.failed_batches = 0
            if self.breaker.failures:
                self.breaker.success()  # this model really runs
        elif results and results[0][2] == self.generation and self.encoder is not None:
            self.failed_batches += 1
            if self.failed_batches >= self.config.reranker_max_failures:
                self._set_failed(
                    f"{self.failed_batches} batches in a row failed; last: {results[0][3] or 'unknown error'}"
                )

    async def rerank(self, query: str, candidates: Sequence[Candidate]) -> dict[str, Any]:
        """Re-score *candidates* in place (``rerank``, ``rerank_logit`` and ``score``); the
        caller re-sorts. On any failure nothing is changed and the trace says why."""
        self.queries += 1
        weight = self.config.reranker_weight
        keys = [(query, c.row.id, c.row.version, hash(c.row.text)) for c in candidates]
        self._sync_cache()
        scored: list[Scored | None] = [self.cache.get(k) for k in keys]
        todo = [i for i, s in enumerate(scored) if s is None]
        started = time.perf_counter()
        if todo:
            items = [(keys[i], query, candidates[i].row.text) for i in todo]
            try:
                with anyio.fail_after(self.config.reranker_timeout_s):
                    fresh = await self.batcher.submit(items)
            except TimeoutError:
                self.timeouts += 1
                return {"skipped": f"timeout: no scores within {self.config.reranker_timeout_s} s"}
            except RuntimeError as exc:  # the batcher is shut down: the daemon is stopping
                return {"skipped": f"unavailable: {exc}"}
            errors = [r[3] for r in fresh if r[0] is None]
            if errors:
                return {"skipped": f"inference error: {self._inference_error(errors[0] or 'unknown error')}"}
            for i, value in zip(todo, fresh, strict=True):
                scored[i] = value
        tokens = 0
        for i, c in enumerate(candidates):
            got = scored[i]
            assert got is not None and got[0] is not None
            logit, n = got[0], got[1]
            if i in todo:
                tokens += n
            c.rerank_logit = logit
            c.score, c.rerank = boost(c.score, logit, weight)
        self.pairs += len(candidates)
        self.scored += len(todo)
        self.tokens += tokens
        return {
            "pairs": len(candidates),
            "scored": len(todo),
            "cached": len(candidates) - len(todo),
            "tokens": tokens,
            "model_wait_ms": round((time.perf_counter() - started) * 1000, 3),
            "weight": weight,
        }

    async def scores(self, pairs: list[tuple[str, str]]) -> list[float] | None:
        """Sigmoid cross-encoder scores of (text, text) pairs, or None when the model is not
        ready or fails (callers fall back to another signal). Uncached; shares model calls."""
        if not self.ready or not pairs:
            return None
        items: list[Item] = [(None, a, b) for a, b in pairs]
        try:
            with anyio.fail_after(self.config.reranker_timeout_s):
                fresh = await self.batcher.submit(items)
        except Exception:
            return None
        if any(r[0] is None for r in fresh):
            return None
        return [sigmoid(r[0]) for r in fresh if r[0] is not None]

    def _inference_error(self, message: str) -> str:
        """Count a query that fell back because of an inference error; log each distinct
        cause once."""
        self.errors += 1
        self.last_inference_error = message
        if message not in self._logged and len(self._logged) < 100:
            self._logged.add(message)
            log.error("rerank_inference_failed", error=message, note="falling back to the heuristic order")
        return message
