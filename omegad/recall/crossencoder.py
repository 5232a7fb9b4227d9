"""A BERT cross-encoder on ONNX Runtime: two texts read together, one logit per pair.

Shared by the rerank stage (query, memory) and the contradiction pair classifier (older
memory, newer memory). Each pair is encoded as ``[CLS] a [SEP] b [SEP]`` (segment ids 0 then
1), truncated longest-first, sorted by length and batched without fixed padding.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from omegad.errors import error_text
from omegad.models.compiled import fused_session
from omegad.models.files import CrossEncoderFiles, ModelMissing
from omegad.recall.embed import inference_runs, load_tokenizer, session_loader

__all__ = ["CrossEncoder", "sigmoid"]


def sigmoid(x: float) -> float:
    """Numerically stable logistic function: an absolute [0, 1] scale for a logit."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


#: `logit_agreement` a fused model must reach: its logits within 1e-4 of the original's, the
#: tolerance of the parity tests against torch.
LOGIT_AGREEMENT = 1 - 1e-4


def logit_agreement(original: Any, candidate: Any) -> float:
    """1 - the largest difference between the two sessions' logits on probe pairs (random word
    pieces as ``[CLS] a [SEP] b [SEP]``, single pairs and a padded batch)."""
    rng = np.random.default_rng(20261204)
    names = {i.name for i in original.get_inputs()}
    worst = 0.0
    for pairs in ([(3, 5)], [(8, 60)], [(30, 200)], [(2, 4), (9, 40), (20, 90), (5, 150)]):
        width = max(a + b for a, b in pairs) + 3
        ids = np.zeros((len(pairs), width), dtype=np.int64)
        mask, types = np.zeros_like(ids), np.zeros_like(ids)
        for row, (a, b) in enumerate(pairs):
            ids[row, : a + b + 3] = [101, *rng.integers(1000, 29000, a), 102, *rng.integers(1000, 29000, b), 102]
            mask[row, : a + b + 3] = 1
            types[row, a + 2 : a + b + 3] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feeds = {k: v for k, v in feeds.items() if k in names}
        diff = np.abs(original.run(None, feeds)[0] - candidate.run(None, feeds)[0]).max()
        worst = max(worst, float(diff))
    return 1.0 - worst


class CrossEncoder:
    """One ONNX Runtime session and one tokenizer scoring pairs of texts (a query and a passage,
    an older and a newer memory). Blocking:
    call from a worker thread. Raises `ModelMissing` when the files cannot be used."""

    def __init__(
        self,
        files: CrossEncoderFiles,
        *,
        threads: int = 2,
        max_tokens: int = 256,
        batch_size: int = 8,
        spinning: bool = False,
        fused_dir: Path | None = None,
    ) -> None:
        """*fused_dir*: where the fused form of a float model is cached (`omegad.models.compiled`;
        a quantized file is run as it is); None runs the file as shipped."""
        self.files = files
        self.threads = threads
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.session, self.graph = fused_session(
            files.onnx,
            session_loader(files.onnx, threads, spinning),
            logit_agreement,
            LOGIT_AGREEMENT,
            fused_dir,
        )
        inputs = {i.name for i in self.session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= inputs:
            raise ModelMissing(f"{files.onnx} does not look like a BERT cross-encoder (inputs: {sorted(inputs)})")
        self._token_types = "token_type_ids" in inputs
        self._output = self.session.get_outputs()[0].name
        self.tokenizer = load_tokenizer(files.tokenizer, max_tokens)
        self._lock = threading.Lock()
        self.runs = 0
        try:
            # a short pair and one at the full max_tokens: a model whose position table is
            # shorter than max_tokens fails here, not on every long memory later
            probe = self.score([("probe query", "probe passage"), ("a", "word " * max_tokens)])[0]
        except Exception as exc:
            raise ModelMissing(f"{files.onnx} failed a probe run: {error_text(exc)}") from None
        if probe.shape != (2,) or not np.isfinite(probe).all():
            raise ModelMissing(f"{files.onnx} gave {probe!r} for a probe pair, expected one finite logit per pair")

    def feeds(self, encodings: Sequence[Any]) -> dict[str, npt.NDArray[np.int64]]:
        """Pad *encodings* to their longest one: the ONNX inputs for one run."""
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n] = e.ids
            mask[row, :n] = 1
            types[row, :n] = e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask}
        if self._token_types:
            feeds["token_type_ids"] = types
        return feeds

    def run(self, feeds: dict[str, npt.NDArray[np.int64]]) -> npt.NDArray[np.float32]:
        out = np.asarray(self.session.run([self._output], feeds)[0], dtype=np.float32)
        self.runs += 1
        n = len(feeds["input_ids"])
        if out.shape not in ((n,), (n, 1)):
            raise ValueError(f"expected one logit per pair, got output of shape {out.shape}")
        if not np.isfinite(out).all():
            raise ValueError("the model produced a non-finite logit")
        return out.reshape(n)

    def score(self, pairs: Sequence[tuple[str, str]]) -> tuple[npt.NDArray[np.float32], list[int]]:
        """Logits and token counts for *pairs* (same order). Pairs are sorted by length and
        run in batches of at most ``batch_size`` (fewer when long: `inference_runs`), each padded
        to its own longest pair."""
        if not pairs:
            return np.zeros(0, dtype=np.float32), []
        # A word piece covers at least one character, and these texts can be 16k characters
        # long: clipping them first keeps tokenization cost bounded without changing the
        # truncated result (8 characters per token is far above any real average).
        clip = self.max_tokens * 8
        with self._lock:
            encodings = self.tokenizer.encode_batch([(q[:clip], p[:clip]) for q, p in pairs])
            lengths = [len(e.ids) for e in encodings]
            order = sorted(range(len(pairs)), key=lengths.__getitem__)
            logits = np.zeros(len(pairs), dtype=np.float32)
            for chunk in inference_runs(order, lengths, self.batch_size):
                logits[chunk] = self.run(self.feeds([encodings[i] for i in chunk]))
        return logits, lengths
