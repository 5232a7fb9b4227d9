"""The pair classifier in the real daemon: a contradiction in words the detectors do not relate
is flagged through the packaged model, and not without it; a broken model leaves the
detectors working."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from omegad.contradictions.classifier import PACKAGED_MODEL

from ..helpers import Daemon

# Written for this test (not from the evaluation sets): the detectors do not flag it (checked
# below), the classifier does.
OLDER = "The invoice PDF is rendered on the server."
NEWER = "Invoice PDFs are generated in the browser now; the server only sends JSON."
DARK = "The user prefers dark mode in every editor"
LIGHT = "The user switched to light mode in every editor"


def _store_pair(d: Daemon, ns: str) -> tuple[str, str]:
    with d.client() as c:
        old = c.store(OLDER, namespace=ns, created_at="2026-01-01T00:00:00Z")
        new = c.store(NEWER, namespace=ns, created_at="2026-03-01T00:00:00Z")
        c.flush()
    return old, new


def test_the_classifier_flags_what_the_detectors_miss(shared_daemon: Daemon, ns: str) -> None:
    from omegad.contradictions.detect import detect

    assert not detect(NEWER, OLDER).flagged(0.4)
    old, new = _store_pair(shared_daemon, ns)
    with shared_daemon.client() as c:
        (edge,) = c.contradictions(namespace=ns)
        assert (edge["source"], edge["target"]) == (new, old)
        (signal,) = edge["signals"]
        assert signal["kind"] == "classifier" and signal["evidence"].startswith("pair model p=")
        assert 0.4 <= edge["confidence"] <= 0.42
        stats = c.stats()["contradictions"]["classifier"]
        assert stats["state"] == "ready" and stats["pairs"] >= 1 and stats["flagged_alone"] >= 1


def test_without_the_classifier_the_pair_is_not_flagged(tmp_path: Path) -> None:
    d = Daemon(tmp_path, env={"OMEGAD_CONTRADICTION_CLASSIFIER": "off"}).start()
    try:
        _store_pair(d, "off")
        with d.client() as c:
            assert c.contradictions(namespace="off") == []
            assert c.stats()["contradictions"]["classifier"]["state"] == "off"
            assert c.stats()["contradictions"]["pairs"] >= 1  # compared, by the detectors alone
    finally:
        assert d.stop() == 0, d.log()
        d.cleanup()


def test_a_broken_model_leaves_the_detectors_working(tmp_path: Path) -> None:
    broken = tmp_path / "pairmodel"
    shutil.copytree(PACKAGED_MODEL, broken)
    (broken / "model_int8.onnx").write_bytes(b"\x00" * 64)
    d = Daemon(tmp_path, config=f'[contradiction]\nclassifier_dir = "{broken}"\n').start()
    try:
        with d.client() as c:
            c.store(DARK, namespace="b")
            c.store(LIGHT, namespace="b")
            c.store(OLDER, namespace="b")
            c.store(NEWER, namespace="b")
            c.flush()
            edges = c.contradictions(namespace="b")
            assert [e["new"]["text"] for e in edges] == [LIGHT]
            stats = c.stats()["contradictions"]["classifier"]
            assert stats["state"] == "failed" and "model_int8.onnx" in stats["error"]
    finally:
        assert d.stop() == 0, d.log()
        d.cleanup()


def test_an_unused_model_is_unloaded_and_loaded_again_when_a_pair_needs_it(tmp_path: Path) -> None:
    d = Daemon(tmp_path, config="[contradiction]\nclassifier_idle_s = 0.3\n").start()
    try:
        _store_pair(d, "first")
        with d.client() as c:
            assert len(c.contradictions(namespace="first")) == 1
            deadline = time.monotonic() + 30
            while (stats := c.stats()["contradictions"]["classifier"])["state"] != "not loaded":
                assert time.monotonic() < deadline, f"the unused model stayed loaded: {stats}"
                time.sleep(0.1)
            assert stats["loads"] == 1 and stats["error"] is None
        _store_pair(d, "second")
        with d.client() as c:
            (edge,) = c.contradictions(namespace="second")
            assert edge["signals"][0]["kind"] == "classifier"
            assert c.stats()["contradictions"]["classifier"]["loads"] == 2
    finally:
        assert d.stop() == 0, d.log()
        d.cleanup()
