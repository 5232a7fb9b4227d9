"""The pair classifier: a learned signal beside the deterministic detectors.

The detectors compare what two texts claim through a lexicon, and miss contradictions written
in words the lexicon does not relate (docs/contradictions.md). The pair classifier reads the
two texts together: a cross-encoder fine-tuned from all-MiniLM-L6-v2 on the labelled
development pairs (``bench/train_contradiction_classifier.py``), shipped in the package as an
8-bit ONNX model (``pairmodel/``), gives the probability that the newer text contradicts the
older one.

It adds one signal, ``classifier``, scoring ``weight × probability``, to the signals of the
detectors for that pair, and the same noisy-or decides against ``contradiction.threshold``:
with the calibrated weight alone it flags only very confident pairs, and a weaker detector
signal and a lower probability can flag together. The model is deterministic (same texts, same
probability, same CPU), runs only in the checker's worker thread on pairs past the similarity
gate, and when it cannot be loaded the detectors decide alone and ``stats`` says why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from omegad.contradictions.detect import AGREEING, UNEXPLAINED
from omegad.contradictions.model import Detection, Signal, noisy_or
from omegad.errors import error_text
from omegad.models.files import CrossEncoderFiles, read_cross_encoder_dir
from omegad.recall.crossencoder import CrossEncoder, sigmoid

__all__ = [
    "DIFFERENT_SUBJECT",
    "PACKAGED_MODEL",
    "Classifier",
    "ClassifierStats",
    "PairModel",
    "combine",
    "read_pair_model",
]

#: The model that ships with the daemon.
PACKAGED_MODEL = Path(__file__).resolve().parent / "pairmodel"
#: Pairs are truncated (longest text first) to the length the model was trained at.
MAX_TOKENS = 160
#: A failed load is tried again after this long (the files may be restored meanwhile).
RETRY_S = 60.0
#: The detectors' guards that found the two texts to be about different things (another
#: person, identifier or modifier of the same head) or the older one to describe the past:
#: the classifier judges whether two claims conflict, not whether they share a subject, and
#: most of its false flags on unseen writers' pairs were such pairs (docs/contradictions.md).
DIFFERENT_SUBJECT = frozenset({"person", "identifier", "modifier", "historical", "circumstance"})


def read_pair_model(directory: Path) -> CrossEncoderFiles:
    """The files of a pair model directory: ``model_int8.onnx``, ``tokenizer.json`` and
    ``manifest.json``. Raises `ModelMissing` naming what is wrong."""
    return read_cross_encoder_dir(
        directory, model_id=directory.name, candidates=("model_int8.onnx",), manifest_required=True
    )


class PairModel:
    """The classifier's ONNX session (blocking: call from a worker thread)."""

    def __init__(self, directory: Path = PACKAGED_MODEL, threads: int = 1) -> None:
        self.files = read_pair_model(directory)
        # one pair per run: the 8-bit model quantises its activations with one scale per run,
        # so a pair batched with others would not always get the same probability
        self.encoder = CrossEncoder(self.files, threads=threads, max_tokens=MAX_TOKENS, batch_size=1)

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """P(the newer text contradicts the older) for each (older, newer) pair."""
        logits, _ = self.encoder.score(pairs)
        return [sigmoid(float(x)) for x in logits]


def combine(detection: Detection, probability: float, weight: float, threshold: float) -> Detection:
    """*detection* with the classifier's signal added (the noisy-or of the detectors' signals
    and ``weight × probability``) when that flags the pair; else *detection* as it was, with
    the probability in ``extra`` (its reason still says what silenced the detectors)."""
    signals = (*detection.signals, Signal("classifier", weight * probability, f"pair model p={probability:.3f}"))
    confidence = noisy_or(signals)
    extra = {**detection.extra, "classifier": round(probability, 4)}
    if confidence < threshold:
        return Detection(detection.confidence, detection.signals, detection.reason, detection.overlap, extra)
    return Detection(confidence, signals, detection.reason, detection.overlap, extra)


class ClassifierStats(NamedTuple):
    """The pair model's figures (``stats`` → ``contradictions.classifier``)."""

    state: str  # off, not loaded, ready or failed
    model: str | None  # its id once loaded
    weight: float  # ``contradictions.classifier_weight``
    min_cosine: float  # pairs below this embedding cosine are not asked
    pairs: int  # pairs asked
    ms_per_pair: float | None
    flagged_alone: int  # pairs flagged that the detectors alone would not have flagged
    error: str | None  # why the last load failed
    loads: int  # times the model was loaded (again after `Classifier.release`)


class Classifier:
    """The checker's handle on the pair model: loaded on first use in the worker thread,
    counted, and skipped (the detectors decide alone) while it is off or cannot be loaded.
    Used from one worker thread at a time."""

    def __init__(
        self,
        mode: str,
        directory: Path | None,
        weight: float,
        threads: int,
        min_cosine: float = 0.0,
        idle_s: float = 0.0,
    ) -> None:
        self.mode = mode  # "auto" (the model when it loads) or "off"
        self.directory = directory or PACKAGED_MODEL
        self.weight = weight
        self.min_cosine = min_cosine
        self.threads = threads
        self.idle_s = idle_s  # unloaded after this long unused (0: kept)
        self.model: PairModel | None = None
        self.loads = 0
        self._used_at = 0.0
        self.error: str | None = None
        self._failed_at: float | None = None
        self.pairs = 0
        self.model_ms = 0.0
        self.flagged_alone = 0  # pairs flagged that the detectors alone would not have flagged

    @property
    def state(self) -> str:
        if self.mode == "off":
            return "off"
        if self.model is not None:
            return "ready"
        return "failed" if self.error else "not loaded"

    def _ensure(self) -> PairModel | None:
        if self.mode == "off" or self.model is not None:
            return self.model
        if self._failed_at is not None and time.monotonic() - self._failed_at < RETRY_S:
            return None
        try:
            self.model = PairModel(self.directory, self.threads)
        except Exception as exc:  # a damaged or missing file: the detectors still work
            self.error, self._failed_at = error_text(exc), time.monotonic()
            return None
        self.error = self._failed_at = None
        self.loads += 1
        return self.model

    def release_due_in(self) -> float:
        """Seconds until the loaded model has been unused for ``idle_s`` (infinite when it is
        not loaded or is kept)."""
        if self.model is None or self.idle_s <= 0:
            return math.inf
        return max(0.0, self._used_at + self.idle_s - time.monotonic())

    def release(self) -> bool:
        """Unload the model once unused for ``idle_s``: it is asked only about pairs past the
        checks, in bursts after writes, so a quiet daemon need not hold it; loading it again
        is cheap beside that wait (docs/contradictions.md). Not while `apply` runs (same
        thread rule). Returns whether it was unloaded."""
        if self.release_due_in() > 0:
            return False
        self.model = None
        return True

    def apply(
        self,
        pairs: Sequence[tuple[str, str]],
        detections: list[Detection],
        cosines: Sequence[float],
        threshold: float,
        asked: Sequence[bool] | None = None,
    ) -> list[Detection]:
        """The detections of (older, newer) *pairs*, each combined with the classifier's
        signal (`combine`) where the model may speak (`may_speak`) and *asked* (default: all)
        allows. As they are when the model is off or unavailable. Blocking."""
        todo = [
            i
            for i, d in enumerate(detections)
            if (asked is None or asked[i]) and self.may_speak(d, cosines[i], threshold)
        ]
        model = self._ensure() if todo else None
        if model is None:
            return detections
        self._used_at = time.monotonic()
        t0 = time.perf_counter()
        try:
            probs = model.probabilities([pairs[i] for i in todo])
        except Exception as exc:  # one bad run must not stop the checks: detectors decide
            self.error = error_text(exc)
            return detections
        self.model_ms += (time.perf_counter() - t0) * 1000
        self.pairs += len(todo)
        out = list(detections)
        for i, p in zip(todo, probs, strict=True):
            out[i] = combine(detections[i], p, self.weight, threshold)
            self.flagged_alone += out[i].flagged(threshold)
        return out

    def may_speak(self, detection: Detection, cosine: float, threshold: float) -> bool:
        """Whether the model is asked about a pair: the detectors do not flag it already (the
        model cannot unflag a pair), the texts are about one thing (embedding cosine at least
        ``min_cosine``), no guard of `DIFFERENT_SUBJECT` fired, and the detectors did not find
        the two claims to agree (`AGREEING`, `UNEXPLAINED`)."""
        if detection.flagged(threshold) or cosine < self.min_cosine:
            return False
        return detection.stage not in DIFFERENT_SUBJECT and detection.stage not in (AGREEING, UNEXPLAINED)

    def stats(self) -> ClassifierStats:
        return ClassifierStats(
            state=self.state,
            model=self.model.files.model_id if self.model else None,
            weight=self.weight,
            min_cosine=self.min_cosine,
            pairs=self.pairs,
            ms_per_pair=round(self.model_ms / self.pairs, 3) if self.pairs else None,
            flagged_alone=self.flagged_alone,
            error=self.error,
            loads=self.loads,
        )
