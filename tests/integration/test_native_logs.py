"""What native code writes (Lance, ONNX Runtime, the maintenance process) comes out of the
daemon as JSON events like its own lines, at the daemon's level, without build paths; Python's
own stderr, a crash's traceback included, still reaches the original stderr
(docs/operations.md, "Native library logs")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from omegad.logs import NativeLine, clean_native_message, parse_native_line

from ..helpers import REPO, Daemon

QUIET = """
[maintenance]
interval_s = 3600
max_fragments = 1000
unindexed_rows = 100000
"""
BUILD_PATH = re.compile(r"/\S+\.(?:rs|cc|cpp|h):\d+")


def _events(output: str) -> list[dict[str, Any]]:
    """Every line of *output* as a JSON object (failing on the first that is not one)."""
    events = []
    for line in output.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            pytest.fail(f"not a JSON line: {line[:300]!r}\n--- output ---\n{output[-3000:]}")
        assert isinstance(event, dict), line
        events.append(event)
    return events


def _exercise(d: Daemon) -> None:
    """Stores in several commits, a maintenance pass (compaction in the maintenance process),
    a query; then a clean stop."""
    with d.client() as c:
        for i in range(6):
            c.store(f"release note {i}: the build pipeline now caches wheels", namespace="n")
            c.flush()
        assert c.maintain()["after"]["fragments"] == 1
        assert c.query("release note 3", namespace="n", limit=1)
    assert d.stop() == 0


def test_native_lines_are_json_events(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """At debug, Lance (in the daemon and in its maintenance process) and ONNX Runtime (loading
    the embedding model) log their INFO lines: each is a ``native_log`` event."""
    d: Daemon = daemon_factory(config=QUIET + '[logging]\nlevel = "debug"\n').start()
    _exercise(d)
    events = _events(d.log())
    native = [e for e in events if e["event"] == "native_log"]
    assert {"lance", "onnxruntime"} <= {e["source"] for e in native}
    # the compaction runs in the maintenance process: it inherits the level, and its stderr is the daemon's
    assert any(e["source"] == "lance" and e.get("target", "").startswith("lance::dataset::optimize") for e in native)
    for e in native:
        assert e["level"] in ("info", "warning", "error", "critical"), e  # their DEBUG is never turned on
        assert e["message"] and not BUILD_PATH.search(e["message"]), e
        assert e["stream"] in ("stdout", "stderr")
    assert "stopped" in [e["event"] for e in events]


def test_native_loggers_follow_the_daemon_level(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """At the default level, nothing below a warning is written by the native loggers, even with
    Lance's own variables asking for debug (the daemon's level decides; without the capture,
    their lines would be plain text)."""
    d: Daemon = daemon_factory(config=QUIET, env={"LANCEDB_LOG": "debug", "LANCE_LOG": "debug"}).start()
    _exercise(d)
    events = _events(d.log())
    assert not [e for e in events if e["event"] == "native_log" and e["level"] in ("debug", "info")]
    assert [e["event"] for e in events].count("request") >= 8


# -- the capture itself, in a process of its own ----------------------------------------------

CAPTURE = """
import ctypes, os, subprocess, sys
from omegad.logs import capture_native_logs, setup_logging

writer = setup_logging("json", "info")
native = capture_native_logs(writer, "info")
write = ctypes.CDLL(None).write  # as native code writes: to the descriptor, past Python

def raw(fd, data):
    assert write(fd, data, len(data)) == len(data)

raw(2, b"[2026-01-02T03:04:05Z WARN  lance::dataset::optimize] Compaction commit failed; leaving 2 rewritten "
       b"fragment(s) in place for GC: Retryable commit conflict for version 12, "
       b"/home/runner/work/lance/lance/rust/lance/src/io/commit.rs:812:17\\n")
raw(2, b"2026-01-02 03:04:05.123456789 [V:onnxruntime:Default, env.cc:368 ThreadMain] below the level\\n")
raw(2, b"[2026-01-02T03:04:05Z WARN  lance::io::exec] a plan over two lines:\\n  ProjectionExec: expr=[id@0 as id]\\n")
raw(1, b"\\x1b[33mwritten to stdout by native code\\x1b[0m\\n")
for i in range(20_000):  # more than the pipe holds: the reader keeps up, nobody blocks
    raw(2, b"2026-01-02 03:04:05.1 [V:onnxruntime:, graph.cc:1 Apply] flood %d\\n" % i)
subprocess.run([sys.executable, "-c", "import os; os.write(2, b'[2026-01-02T03:04:05Z ERROR lance::io] from a child\\\\n')"])
sys.stderr.write("python's own stderr\\n")
import lancedb, pyarrow as pa

lancedb.connect(sys.argv[1]).create_table("t", pa.table({"a": [1]}), mode="overwrite")  # Lance warns: a new dataset
raw(2, b"a last line without its newline")
writer.close()
raw(2, b"native, after close\\n")
sys.stderr.write(f"python after close: {native.failed} failed, {writer.dropped} dropped\\n")
"""


def _run(script: str, *args: str, python_args: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *python_args, "-c", textwrap.dedent(script), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def test_the_capture_logs_every_native_line_and_leaves_python_stderr_alone(tmp_path: Path) -> None:
    proc = _run(CAPTURE, str(tmp_path / "db"))
    assert proc.returncode == 0, proc.stderr
    events = _events(proc.stdout)
    assert all(e["event"] == "native_log" for e in events)
    by_message = {e["message"]: e for e in events}
    compaction = by_message[
        "Compaction commit failed; leaving 2 rewritten fragment(s) in place for GC: Retryable commit conflict for version 12"
    ]
    assert (compaction["level"], compaction["source"], compaction["target"], compaction["stream"]) == (
        "warning",
        "lance",
        "lance::dataset::optimize",
        "stderr",
    )
    assert by_message["written to stdout by native code"]["stream"] == "stdout"
    continued = by_message["ProjectionExec: expr=[id@0 as id]"]  # written with the line before it
    assert (continued["source"], continued["level"], continued["target"]) == ("lance", "warning", "lance::io::exec")
    assert by_message["from a child"]["level"] == "error"
    real = [e for e in events if e["message"].startswith("No existing dataset at")]  # the real library's line
    assert real and real[0]["source"] == "lance" and real[0]["level"] == "warning"
    assert by_message["a last line without its newline"]["source"] == "other"
    assert not [e for e in events if e["level"] == "debug" or "flood" in e["message"]]  # below the level
    # Python's stderr and what is written after close go to the original stderr, as they were
    assert "python's own stderr\n" in proc.stderr and "native, after close\n" in proc.stderr
    assert "python after close: 0 failed, 0 dropped" in proc.stderr, proc.stderr
    assert "Compaction commit failed" not in proc.stderr and "flood" not in proc.stderr


CRASH = """
import ctypes, faulthandler, sys
from omegad.logs import capture_native_logs, setup_logging

capture_native_logs(setup_logging("json", "info"), "info")
if sys.argv[1] == "raise":
    raise RuntimeError("the daemon dies")
ctypes.string_at(0)  # a segmentation fault
"""


@pytest.mark.parametrize(
    ("how", "shows"),
    [("raise", ("Traceback", "RuntimeError: the daemon dies")), ("segv", ("Fatal Python error: Segmentation fault",))],
)
def test_a_crash_still_shows_on_the_original_stderr(how: str, shows: tuple[str, ...]) -> None:
    proc = _run(CRASH, how, python_args=("-X", "faulthandler"))
    assert proc.returncode != 0
    assert all(s in proc.stderr for s in shows), proc.stderr
    assert not proc.stdout


# -- reading the lines ---------------------------------------------------------------------------

LANCE_TRAIL = (
    ", /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-table-13.0.0/src/io/commit.rs:653:26"
    ", /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-13.0.0/src/dataset/builder.rs:913:29"
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "[2026-12-03T09:37:14Z WARN  lance::dataset::write::insert] No existing dataset at /data/lance/memories.lance,"
            " it will be created",
            NativeLine(
                "lance",
                "warning",
                "lance::dataset::write::insert",
                "No existing dataset at /data/lance/memories.lance, it will be created",
            ),
        ),
        (
            "[2026-12-03T09:37:14Z DEBUG lance_namespace_impls::dir] Manifest namespace does not exist yet: Dataset at"
            " path data/__manifest was not found: Not found: data/__manifest/_versions" + LANCE_TRAIL,
            NativeLine(
                "lance",
                "debug",
                "lance_namespace_impls::dir",
                "Manifest namespace does not exist yet: Dataset at path data/__manifest was not found: Not found:"
                " data/__manifest/_versions",
            ),
        ),
        (
            "[2026-12-03T09:37:14Z ERROR lancedb::table] commit failed, rust/lancedb/src/table.rs:2210:9",
            NativeLine("lance", "error", "lancedb::table", "commit failed"),
        ),
        (
            "[2026-12-03T09:37:14Z TRACE datafusion::execution::session_state] Registered UDF 'nullif'",
            NativeLine("lance", "debug", "datafusion::execution::session_state", "Registered UDF 'nullif'"),
        ),
        (
            "[2026-12-03T09:37:14Z INFO  tokenizers::tokenizer] truncation enabled",
            NativeLine("tokenizers", "info", "tokenizers::tokenizer", "truncation enabled"),
        ),
        (
            "2026-12-03 09:39:47.464439344 [W:onnxruntime:, session_state.cc:1280 VerifyEachNodeIsAssignedToAnEp]"
            " Some nodes were not assigned to the preferred execution providers",
            NativeLine(
                "onnxruntime",
                "warning",
                "session_state.cc:1280 VerifyEachNodeIsAssignedToAnEp",
                "Some nodes were not assigned to the preferred execution providers",
            ),
        ),
        (
            "2026-12-03 09:39:46.748280557 [V:onnxruntime:Default, env.cc:368 ThreadMain] pthread_setaffinity_np done",
            NativeLine("onnxruntime", "debug", "env.cc:368 ThreadMain", "pthread_setaffinity_np done"),
        ),
        (
            "2026-12-03 09:39:46.748280557 [E:onnxruntime:embedder, sequential_executor.cc:572 ExecuteKernel]"
            " Non-zero status code returned while running Gather node. Status Message:"
            " /onnxruntime_src/onnxruntime/core/providers/cpu/tensor/gather.cc:154 indices element out of data bounds",
            NativeLine(
                "onnxruntime",
                "error",
                "sequential_executor.cc:572 ExecuteKernel",
                "Non-zero status code returned while running Gather node. Status Message: gather.cc:154 indices"
                " element out of data bounds",
            ),
        ),
        (
            "2026-12-03 09:39:46.748280557 [F:onnxruntime:, env.cc:1 Init] out of memory",
            NativeLine("onnxruntime", "critical", "env.cc:1 Init", "out of memory"),
        ),
        (
            "thread '<unnamed>' panicked at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
            "lance-index-13.0.0/src/vector/hnsw.rs:312:9:",
            NativeLine("other", "error", None, "thread '<unnamed>' panicked at hnsw.rs:312:"),
        ),
        (
            "Traceback (most recent call last):",
            NativeLine("other", "warning", None, "Traceback (most recent call last):"),
        ),
        ("WARNING: something odd", NativeLine("other", "warning", None, "WARNING: something odd")),
        ("ERROR:root:no space left", NativeLine("other", "error", None, "ERROR:root:no space left")),
    ],
)
def test_native_lines_are_read_with_their_source_and_level(line: str, expected: NativeLine) -> None:
    assert parse_native_line(line) == expected


def test_a_line_without_a_header_continues_the_one_written_with_it() -> None:
    first = parse_native_line("[2026-12-03T09:37:14Z ERROR lance::dataset] Execution error: plan:")
    assert parse_native_line("  FilterExec: id@0 = 7", first) == NativeLine(
        "lance", "error", "lance::dataset", "FilterExec: id@0 = 7"
    )
    assert parse_native_line("  FilterExec: id@0 = 7") == NativeLine("other", "warning", None, "FilterExec: id@0 = 7")
    # a line with a header of its own is its own record
    assert parse_native_line("WARNING: unrelated", first).source == "other"


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        (
            "LanceError(IO): Retryable commit conflict for version 12: This Compaction transaction was preempted by"
            " concurrent transaction Append at version 12. Please retry." + LANCE_TRAIL,
            "LanceError(IO): Retryable commit conflict for version 12: This Compaction transaction was preempted by"
            " concurrent transaction Append at version 12. Please retry.",
        ),
        (
            "Not found: /var/lib/omegad/lance/memories.lance/_versions/3.manifest,"
            " /home/runner/work/lance/lance/rust/lance-io/src/local.rs:120:31",
            "Not found: /var/lib/omegad/lance/memories.lance/_versions/3.manifest",
        ),
        ("failed at /onnxruntime_src/onnxruntime/core/graph/graph.cc:1406 Resolve", "failed at graph.cc:1406 Resolve"),
        ("no location, just a path: /usr/share/x.rs", "no location, just a path: /usr/share/x.rs"),
        ("at notes.c:12 the user wrote", "at notes.c:12 the user wrote"),  # a bare name: nothing to strip
        ("x" * 50_000 + " /a/b.rs:1:2", "x" * 50_000 + " b.rs:1"),
    ],
)
def test_build_paths_are_stripped_from_native_messages(text: str, clean: str) -> None:
    assert clean_native_message(text) == clean
