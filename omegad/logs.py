"""structlog set-up: one line per event on stdout, JSON unless stdout is a TTY.

The service manager (systemd, launchd) owns log files and rotation; the daemon never writes
its own. Log lines are handed to a bounded queue that one thread writes to stdout, so a slow,
full or broken stdout never blocks or breaks the event loop: when the queue is full, lines
are dropped and counted instead.
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
from typing import TextIO

import structlog

__all__ = ["LogWriter", "setup_logging"]

#: Lines waiting for stdout before new ones are dropped.
LOG_QUEUE_LINES = 10_000


class LogWriter:
    """A file-like sink for structlog: ``write`` never blocks and never raises."""

    def __init__(self, stream: TextIO, max_lines: int = LOG_QUEUE_LINES) -> None:
        self._stream = stream
        self._queue: queue.Queue[str | None] = queue.Queue(max_lines)
        self.dropped = 0
        self.failed = 0
        self._thread = threading.Thread(target=self._drain, name="omegad-log", daemon=True)
        self._thread.start()

    def write(self, text: str) -> int:
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            self.dropped += 1
        return len(text)

    def flush(self) -> None:
        pass  # the writer thread flushes after every line

    def _drain(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                self._stream.write(text)
                self._stream.flush()
            except (OSError, ValueError):
                self.failed += 1

    def close(self, timeout: float = 5.0) -> None:
        """Write out what is queued (within *timeout*) and stop the thread."""
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
