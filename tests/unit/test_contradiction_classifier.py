"""The contradiction pair classifier: the packaged model as the daemon runs it, how its signal
joins the detectors', and where it may not speak."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from omegad.config import ConfigError, load_config
from omegad.contradictions.classifier import (
    AGREEING,
    DIFFERENT_SUBJECT,
    PACKAGED_MODEL,
    Classifier,
    PairModel,
    combine,
    read_pair_model,
)
from omegad.contradictions.detect import detect
from omegad.contradictions.model import Detection, Signal
from omegad.models.files import ModelMissing

#: Written for these tests (not taken from the evaluation sets): (older, newer).
CLEAR = ("The nightly backup job writes its archives to the cold storage bucket.",
         "The nightly backup job no longer writes anything to the cold storage bucket.")  # fmt: skip
COMPATIBLE = ("The nightly backup job writes its archives to the cold storage bucket.",
              "The nightly backup job writes its archives to the cold storage bucket with zstd compression.")  # fmt: skip


@pytest.fixture(scope="module")
def model() -> PairModel:
    return PairModel(PACKAGED_MODEL, threads=1)


def test_the_manifest_names_the_files_it_ships_with() -> None:
    manifest = json.loads((PACKAGED_MODEL / "manifest.json").read_text())
    for name, digest in manifest["sha256"].items():
        assert hashlib.sha256((PACKAGED_MODEL / name).read_bytes()).hexdigest() == digest, name
    assert manifest["input_order"] == "older text, newer text"


def test_probabilities_are_deterministic_and_do_not_depend_on_the_batch(model: PairModel) -> None:
    pairs = [CLEAR, COMPATIBLE, ("a", "b"), (CLEAR[0], "word " * 400)]
    together = model.probabilities(pairs)
    alone = [model.probabilities([p])[0] for p in pairs]
    assert together == pytest.approx(alone, abs=1e-5)
    assert model.probabilities(pairs) == together
    assert all(0.0 <= p <= 1.0 for p in together)


def test_the_model_separates_a_denial_from_an_unrelated_text(model: PairModel) -> None:
    # (a repeat scores high too: the model is never asked about one, see the next test)
    clear, unrelated = model.probabilities([CLEAR, (CLEAR[0], "Lunch is served at noon in the cafeteria.")])
    assert clear > 0.5 > unrelated


def test_restatements_and_refinements_are_not_asked(model: PairModel) -> None:
    """Where the detectors aligned both claims and found them agreeing, the model is not asked
    (it scores restatements of one claim high: docs/contradictions.md)."""
    pairs = [COMPATIBLE, (CLEAR[0], CLEAR[0]), ("Tests run with pytest in CI", "CI runs the test suite with pytest")]
    detections = [detect(new, old) for old, new in pairs]
    assert {d.stage for d in detections} == {AGREEING}
    c = Classifier("auto", None, 0.42, threads=1, min_cosine=0.6)
    out = c.apply(pairs, detections, [0.95] * 3, 0.4)
    assert not any(d.flagged(0.4) for d in out) and c.pairs == 0


def test_combine_adds_a_signal_only_when_it_flags() -> None:
    silent = Detection(0.0, reason="coverage: 0.40 of the older claim")
    strong = combine(silent, 0.99, 0.42, 0.4)
    assert strong.flagged(0.4) and strong.confidence == pytest.approx(0.42 * 0.99, abs=1e-4)
    (signal,) = strong.signals
    assert signal.kind == "classifier" and signal.evidence == "pair model p=0.990"
    weak = combine(silent, 0.9, 0.42, 0.4)
    assert not weak.flagged(0.4) and weak.signals == () and weak.stage == "coverage"
    assert weak.extra["classifier"] == 0.9
    # a detector signal below the threshold and the classifier's together (noisy-or)
    partial = Detection(0.3, (Signal("temporal_override", 0.3, "now"),))
    both = combine(partial, 0.5, 0.42, 0.4)
    assert both.flagged(0.4) and both.confidence == pytest.approx(1 - 0.7 * (1 - 0.21), abs=1e-4)
    assert [s.kind for s in both.signals] == ["temporal_override", "classifier"]


def test_the_model_runs_only_where_it_may_speak() -> None:
    c = Classifier("auto", None, 0.42, threads=1, min_cosine=0.6)
    flagged = detect("The user switched to light mode in every editor", "The user prefers dark mode in every editor")
    assert flagged.flagged(0.4)
    other = Detection(0.0, reason="person: another person")
    assert other.stage in DIFFERENT_SUBJECT
    silent = Detection(0.0, reason="coverage: 0.40 of the older claim")
    pairs = [CLEAR, CLEAR, CLEAR, CLEAR]
    out = c.apply(pairs, [flagged, other, silent, silent], [0.9, 0.9, 0.5, 0.9], 0.4)
    assert c.pairs == 1  # only the last: flagged, another person, below the cosine floor
    assert out[:3] == [flagged, other, silent]
    assert out[3].extra["classifier"] > 0.5
    assert c.stats().state == "ready"
    # a pair the checker does not ask about (beyond a memory's nearest neighbours) is left alone
    assert c.apply([CLEAR], [silent], [0.9], 0.4, asked=[False]) == [silent] and c.pairs == 1


def test_off_and_unloadable_models_leave_the_detectors_alone(tmp_path: Path) -> None:
    silent = Detection(0.0, reason="coverage")
    off = Classifier("off", None, 0.42, threads=1)
    assert off.apply([CLEAR], [silent], [1.0], 0.4) == [silent] and off.state == "off"
    broken = tmp_path / "broken"
    shutil.copytree(PACKAGED_MODEL, broken)
    (broken / "model_int8.onnx").write_bytes(b"not a model")
    c = Classifier("auto", broken, 0.42, threads=1)
    assert c.apply([CLEAR], [silent], [1.0], 0.4) == [silent]
    assert c.state == "failed" and "model_int8.onnx" in (c.error or "")
    # a failed load is not retried on every check
    (broken / "model_int8.onnx").write_bytes((PACKAGED_MODEL / "model_int8.onnx").read_bytes())
    assert c.apply([CLEAR], [silent], [1.0], 0.4) == [silent] and c.state == "failed"


def test_a_model_directory_is_checked(tmp_path: Path) -> None:
    with pytest.raises(ModelMissing, match="manifest"):
        read_pair_model(tmp_path)
    (tmp_path / "manifest.json").write_text("[]")
    (tmp_path / "model_int8.onnx").write_bytes(b"")
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelMissing, match="not an object"):
        read_pair_model(tmp_path)
    (tmp_path / "manifest.json").write_text('{"model_id": "m"}')
    assert read_pair_model(tmp_path).model_id == "m"


def test_the_weight_and_cosine_floor_are_shares(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    for key in ("classifier_weight", "classifier_min_cosine"):
        path.write_text(f"[contradiction]\n{key} = 1.5\n")
        with pytest.raises(ConfigError, match="from 0 to 1"):
            load_config(path, env={})
    path.write_text('[contradiction]\nclassifier = "sometimes"\n')
    with pytest.raises(ConfigError):
        load_config(path, env={})
