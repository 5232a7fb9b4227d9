"""structlog set-up: one line per event on stdout, JSON unless stdout is a TTY.

The service manager (systemd, launchd) owns log files and rotation; the daemon never writes
its own. Log lines are handed to a bounded queue that one thread writes to stdout, so a slow,
full or broken stdout never blocks or breaks the event loop: when the queue is full, lines
are dropped and counted instead.

Native code (Lance, ONNX Runtime, the maintenance process the daemon starts) writes its own
plain-text lines to file descriptors 2 and 1, past Python; `capture_native_logs` turns each of
those lines into a ``native_log`` event (docs/operations.md, "Native library logs").
"""

from __future__ import annotations

import contextlib
import faulthandler
import fcntl
import logging
import math
import os
import queue
import re
import select
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import NamedTuple, TextIO

import structlog

__all__ = [
    "LogWriter",
    "NativeLine",
    "NativeLogs",
    "capture_native_logs",
    "clean_native_message",
    "parse_native_line",
    "setup_logging",
]

#: Lines waiting for stdout before new ones are dropped.
LOG_QUEUE_LINES = 10_000
#: What the native loggers are set to for each daemon level: Lance's (``env_logger``) filter and
#: ONNX Runtime's default severity (0 verbose, 1 info, 2 warning, 3 error). One step quieter
#: than the daemon: their INFO is per-call detail, their DEBUG the query engine's internals.
NATIVE_LEVELS: dict[str, tuple[str, int]] = {
    "debug": ("info", 1),
    "info": ("warn", 2),
    "warning": ("warn", 2),
    "error": ("error", 3),
}
#: The variables Lance's loggers read once, when their library is loaded: ``lancedb``'s copy
#: (the daemon) and ``pylance``'s (the maintenance and index-build processes).
LANCE_LOG_VARS = ("LANCEDB_LOG", "LANCE_LOG")
#: A native line longer than this is logged in pieces.
NATIVE_LINE_BYTES = 16_384
#: The pipes' capacity where the system lets it be raised (Linux): room for a burst of lines.
_PIPE_BYTES = 1 << 20


class LogWriter:
    """A file-like sink for structlog: ``write`` never blocks and never raises."""

    def __init__(self, stream: TextIO, max_lines: int = LOG_QUEUE_LINES) -> None:
        self._stream = stream
        self._stream_lock = threading.Lock()
        self._queue: queue.Queue[str | None] = queue.Queue(max_lines)
        self.dropped = 0
        self.failed = 0
        #: the native-log capture, ended first by `close` (its last lines go out with the rest)
        self.native: NativeLogs | None = None
        self._thread = threading.Thread(target=self._drain, name="omegad-log", daemon=True)
        self._thread.start()

    @property
    def stream(self) -> TextIO:
        return self._stream

    def write(self, text: str) -> int:
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            self.dropped += 1
        return len(text)

    def flush(self) -> None:
        pass  # the writer thread flushes after every line

    def retarget(self, stream: TextIO, timeout: float = 5.0) -> bool:
        """Write to *stream* from now on; False (and no change) if a write in progress does not
        end within *timeout*. Once this returns, nothing is written to the old stream."""
        if not self._stream_lock.acquire(timeout=timeout):
            return False
        try:
            with contextlib.suppress(OSError, ValueError):
                self._stream.flush()
            self._stream = stream
        finally:
            self._stream_lock.release()
        return True

    def _drain(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            with self._stream_lock:
                try:
                    self._stream.write(text)
                    self._stream.flush()
                except (OSError, ValueError):
                    self.failed += 1

    def close(self, timeout: float = 5.0) -> None:
        """Write out what is queued (within *timeout*) and stop the thread."""
        if self.native is not None:
            self.native.close()
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            return
        self._thread.join(timeout)


def setup_logging(fmt: str = "auto", level: str = "info") -> LogWriter:
    json_output = fmt == "json" or (fmt == "auto" and not sys.stdout.isatty())
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json_output else structlog.dev.ConsoleRenderer(colors=False)
    )
    writer = LogWriter(sys.stdout)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper(), logging.INFO)),
        logger_factory=structlog.WriteLoggerFactory(writer),  # type: ignore[arg-type]
        cache_logger_on_first_use=False,
    )
    return writer


# -- native lines -----------------------------------------------------------------------------


class NativeLine(NamedTuple):
    """One line a native library wrote, as `parse_native_line` reads it."""

    #: ``lance``, ``onnxruntime``, ``tokenizers`` or ``other``
    source: str
    #: the structlog level: ``debug``, ``info``, ``warning``, ``error`` or ``critical``
    level: str
    #: where it was logged from (a Rust module path, ONNX Runtime's file and function), if said
    target: str | None
    #: the text, without source paths of the machine the library was built on
    message: str


_LEVEL_WORDS = {
    "TRACE": "debug",
    "DEBUG": "debug",
    "INFO": "info",
    "WARN": "warning",
    "WARNING": "warning",
    "ERROR": "error",
    "FATAL": "critical",
    "CRITICAL": "critical",
}
# ONNX Runtime's severity letters: verbose, info, warning, error, fatal
_ORT_SEVERITIES = {"V": "debug", "I": "info", "W": "warning", "E": "error", "F": "critical"}
_LEVEL_NUMBERS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}
# env_logger's default format (Lance, LanceDB, tokenizers): "[2026-01-02T03:04:05Z WARN  lance::dataset] text"
_ENV_LOGGER = re.compile(
    r"\[(?:[^\s\]]+\s+)?(?P<level>TRACE|DEBUG|INFO|WARN|ERROR)(?:\s+(?P<target>[^\s\]]+))?\s*\]\s?(?P<message>.*)",
    re.DOTALL,
)
# ONNX Runtime's: "2026-01-02 03:04:05.123456789 [W:onnxruntime:Default, graph.cc:123 Resolve] text"
_ORT = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[(?P<severity>[VIWEF]):onnxruntime:[^,\]]*,\s*(?P<where>[^\]]*)\]\s?(?P<message>.*)",
    re.DOTALL,
)
_PANIC = re.compile(r"thread '[^']*' panicked at ")
_LEADING_LEVEL = re.compile(r"\[?(?P<level>TRACE|DEBUG|INFO|WARNING|WARN|ERROR|FATAL|CRITICAL)\b")
# A source location: a build path (absolute or relative) to a Rust or C/C++ file, line, column.
# It starts a word, so a long word without one is scanned once.
_LOCATION = re.compile(
    r"(?P<sep>,[ \t]*)?(?<![^\s,;'\"(\[<=])(?P<dir>[^\s,;'\"()\[\]<>=]*/)?"
    r"(?P<file>[\w.+-]+\.(?:rs|cc|cpp|cxx|c|h|hpp)):(?P<line>\d+)(?::\d+)?"
)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _shorten_location(m: re.Match[str]) -> str:
    if m["dir"] is None:
        return m[0]  # a bare file name says nothing of the build machine
    if m["sep"]:
        return ""  # the trail of locations Lance appends to its errors
    return f"{m['file']}:{m['line']}"


def clean_native_message(text: str) -> str:
    """*text* (a native library's message or error) without the source paths of the machine
    the library was built on: Lance's trail of ``, /…/src/x.rs:L:C`` locations is dropped,
    any other location is cut to its file name and line (``gather.cc:123``)."""
    if "/" not in text:
        return text.strip()
    return _LOCATION.sub(_shorten_location, text).strip()


def parse_native_line(text: str, previous: NativeLine | None = None) -> NativeLine:
    """Which library wrote *text* (one line, without its newline), at what level (its own
    level word or severity letter), and its message (`clean_native_message`). A line without a
    header of its own continues *previous* (the line written with it, if any: the rest of a
    multi-line record) or is ``other``: an ``error`` if a Rust panic, else a ``warning``."""
    m = _ENV_LOGGER.match(text)
    if m:
        target = m["target"]
        crate = (target or "").split("::", 1)[0]
        # DataFusion is Lance's query engine, loaded here only through Lance
        if crate.startswith(("lance", "datafusion")):
            source = "lance"
        elif crate == "tokenizers":
            source = "tokenizers"
        else:
            source = "other"
        return NativeLine(source, _LEVEL_WORDS[m["level"]], target, clean_native_message(m["message"]))
    m = _ORT.match(text)
    if m:
        where = clean_native_message(m["where"]) or None
        return NativeLine("onnxruntime", _ORT_SEVERITIES[m["severity"]], where, clean_native_message(m["message"]))
    if _PANIC.match(text):
        return NativeLine("other", "error", None, clean_native_message(text))
    m = _LEADING_LEVEL.match(text)
    if m:
        return NativeLine("other", _LEVEL_WORDS[m["level"]], None, clean_native_message(text))
    if previous is not None:
        return previous._replace(message=clean_native_message(text))
    return NativeLine("other", "warning", None, clean_native_message(text))


@dataclass
class _Pipe:
    """One captured descriptor: its original (``saved``), the pipe's read end, the Python
    stream that now writes to the original, and the start of a line not yet ended."""

    fd: int
    name: str
    saved: int
    read_fd: int
    stream: TextIO
    replaced: TextIO | None = None  # the sys.stdout / sys.stderr it stands in for
    writer_stream: TextIO | None = None  # the log writer's stream it stands in for
    buf: bytearray = field(default_factory=bytearray)


def _fileno(stream: object) -> int | None:
    try:
        fileno = stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    return fileno if isinstance(fileno, int) else None


class NativeLogs:
    """What native code writes to file descriptors 2 and 1, as ``native_log`` events.

    Each descriptor becomes the write end of a pipe that one thread reads; every line is
    logged through structlog (`parse_native_line`: source, level, target, message), so the
    level filter applies. Python's own ``sys.stdout`` and ``sys.stderr``, faulthandler and
    the log writer keep writing to the original destinations through copies of the
    descriptors: a traceback of a dying process is never left in a pipe nobody reads. Child
    processes inherit the pipes, so their lines are captured too.

    The reader never raises; if it fails, the descriptors are given back, so a native write
    never blocks on a pipe nobody reads. `close` gives everything back and logs a last line
    left without its newline.
    """

    def __init__(self, writer: LogWriter, fds: tuple[int, ...] = (2, 1)) -> None:
        self._writer = writer
        self._log = structlog.get_logger("omegad")
        self._lock = threading.Lock()
        self._pipes: list[_Pipe] = []
        self._deadline: float | None = None
        self._closed = False
        #: lines logged, and lines that could not be
        self.lines = 0
        self.failed = 0
        try:
            self._wake_r, self._wake_w = os.pipe()
        except OSError as exc:
            self._log.warning("native_logs_uncaptured", error=str(exc))
            self._wake_r = self._wake_w = -1
            fds = ()
        for fd in fds:
            try:
                pipe = self._redirect(fd)
            except OSError as exc:  # (out of descriptors): that one stays as it is
                self._log.warning("native_logs_uncaptured", fd=fd, error=str(exc))
                continue
            if pipe is not None:
                self._pipes.append(pipe)
        self._thread: threading.Thread | None = None
        if self._pipes:
            self._thread = threading.Thread(target=self._read, name="omegad-native-log", daemon=True)
            self._thread.start()

    def _redirect(self, fd: int) -> _Pipe | None:
        try:
            saved = os.dup(fd)
        except OSError:
            return None  # not open: nothing writes there
        try:
            read_fd, write_fd = os.pipe()
        except OSError:
            os.close(saved)
            raise
        grow = getattr(fcntl, "F_SETPIPE_SZ", None)  # (Linux only)
        if grow is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(read_fd, grow, _PIPE_BYTES)
        current = sys.stdout if fd == 1 else sys.stderr if fd == 2 else None
        encoding = getattr(current, "encoding", None) or "utf-8"
        errors = getattr(current, "errors", None) or "backslashreplace"
        try:
            stream = os.fdopen(os.dup(saved), "w", buffering=1, encoding=encoding, errors=errors)
        except OSError:
            for each in (saved, read_fd, write_fd):
                os.close(each)
            raise
        pipe = _Pipe(fd, {1: "stdout", 2: "stderr"}.get(fd, f"fd{fd}"), saved, read_fd, stream)
        # the log writer first: once it writes to the copy, none of its lines can enter the pipe
        if _fileno(self._writer.stream) == fd:
            writer_stream = self._writer.stream
            if not self._writer.retarget(stream):  # (stdout blocked: this one stays as it is)
                stream.close()
                for each in (saved, read_fd, write_fd):
                    os.close(each)
                return None
            pipe.writer_stream = writer_stream
        if current is not None and _fileno(current) == fd:
            with contextlib.suppress(OSError, ValueError):
                current.flush()
            pipe.replaced = current
            if fd == 1:
                sys.stdout = stream
            else:
                sys.stderr = stream
                if faulthandler.is_enabled():
                    faulthandler.enable(file=stream, all_threads=True)
        os.dup2(write_fd, fd)  # (inheritable: child processes write into the pipe too)
        os.close(write_fd)
        return pipe

    def _restore_fds(self) -> None:
        """Give the descriptors back (under the lock; the pipes' ends held by children stay)."""
        for pipe in self._pipes:
            if pipe.saved >= 0:
                with contextlib.suppress(OSError):
                    os.dup2(pipe.saved, pipe.fd)
                os.close(pipe.saved)
                pipe.saved = -1

    def close(self, timeout: float = 1.0) -> None:
        """Give the descriptors back, log what is left in the pipes (waiting at most *timeout*
        for child processes that still hold them), and put Python's streams back."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._restore_fds()
        self._deadline = time.monotonic() + timeout
        if self._thread is not None:
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"x")
            self._thread.join(timeout + 1.0)
        for pipe in self._pipes:
            if pipe.replaced is not None:
                if pipe.fd == 1 and sys.stdout is pipe.stream:
                    sys.stdout = pipe.replaced
                elif pipe.fd == 2 and sys.stderr is pipe.stream:
                    sys.stderr = pipe.replaced
                    if faulthandler.is_enabled():
                        faulthandler.enable(file=pipe.replaced, all_threads=True)
            if pipe.writer_stream is not None and self._writer.stream is pipe.stream:
                self._writer.retarget(pipe.writer_stream)
            if self._writer.stream is not pipe.stream:
                with contextlib.suppress(OSError, ValueError):
                    pipe.stream.close()
        if self._wake_w >= 0:
            with contextlib.suppress(OSError):
                os.close(self._wake_w)

    def _read(self) -> None:
        try:
            self._pump()
        except Exception as exc:  # never raise; and no native write may wait on a pipe nobody reads
            with self._lock:
                self._restore_fds()
            with contextlib.suppress(Exception):
                self._log.error("native_logs_uncaptured", error=repr(exc))
        finally:
            for pipe in self._pipes:
                with contextlib.suppress(Exception):
                    self._flush(pipe)
                with contextlib.suppress(OSError):
                    os.close(pipe.read_fd)
            with contextlib.suppress(OSError):
                os.close(self._wake_r)

    def _pump(self) -> None:
        poller = select.poll()
        pipes = {p.read_fd: p for p in self._pipes}
        for read_fd in (*pipes, self._wake_r):
            poller.register(read_fd, select.POLLIN)
        while pipes:
            deadline = self._deadline
            wait_ms: int | None = None
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return  # children still hold the pipes: what they write later is not logged
                wait_ms = math.ceil(left * 1000)
            for read_fd, _ in poller.poll(wait_ms):
                chunk = os.read(read_fd, 1 << 16)
                if read_fd == self._wake_r:
                    if not chunk:
                        poller.unregister(read_fd)
                    continue  # (woken by close: the deadline is set)
                pipe = pipes[read_fd]
                if not chunk:  # every writer is gone
                    poller.unregister(read_fd)
                    del pipes[read_fd]
                    self._flush(pipe)
                    continue
                self._feed(pipe, chunk)

    def _feed(self, pipe: _Pipe, chunk: bytes) -> None:
        buf = pipe.buf
        buf += chunk
        start = 0
        # a record is written at once: lines that arrive together may continue one another
        previous: NativeLine | None = None
        while (end := buf.find(b"\n", start)) >= 0:
            previous = self._emit(pipe, bytes(buf[start:end]), previous)
            start = end + 1
        del buf[:start]
        while len(buf) > NATIVE_LINE_BYTES:
            previous = self._emit(pipe, bytes(buf[:NATIVE_LINE_BYTES]), previous)
            del buf[:NATIVE_LINE_BYTES]

    def _flush(self, pipe: _Pipe) -> None:
        if pipe.buf:
            self._emit(pipe, bytes(pipe.buf))
            pipe.buf.clear()

    def _emit(self, pipe: _Pipe, raw: bytes, previous: NativeLine | None = None) -> NativeLine | None:
        try:
            text = _ANSI.sub("", raw.decode("utf-8", "replace")).rstrip()
            if not text.strip():
                return previous
            line = parse_native_line(text, previous)
            fields = {"source": line.source, "message": line.message, "stream": pipe.name}
            if line.target is not None:
                fields["target"] = line.target
            self._log.log(_LEVEL_NUMBERS[line.level], "native_log", **fields)
            self.lines += 1
            return line
        except Exception:
            self.failed += 1
            return None


def _set_native_levels(level: str) -> None:
    lance, ort_severity = NATIVE_LEVELS.get(level, NATIVE_LEVELS["info"])
    # read when the library is loaded: set before the store opens (and before the maintenance
    # and index-build processes start, which inherit them)
    for var in LANCE_LOG_VARS:
        os.environ[var] = lance
    try:
        import onnxruntime

        onnxruntime.set_default_logger_severity(ort_severity)
    except Exception:  # not installed, or refused: its warnings are captured all the same
        pass


def capture_native_logs(writer: LogWriter, level: str = "info") -> NativeLogs:
    """Capture native lines (`NativeLogs`) until *writer* is closed, and set the native
    loggers to *level* (`NATIVE_LEVELS`), so lines below it are not even written. Call it
    before Lance is loaded."""
    native = NativeLogs(writer)
    writer.native = native
    _set_native_levels(level)
    return native
