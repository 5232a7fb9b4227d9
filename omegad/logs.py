"""structlog set-up: one line per event on stdout, JSON unless stdout is a TTY.

The service manager (systemd, launchd) owns log files and rotation; the daemon never writes
its own."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog

__all__ = ["setup_logging"]


class _SafeStdout:
    """stdout for log lines: a closed or broken stdout loses log lines, never the daemon."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost = 0

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            self.lost += 1
            return 0

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass


def setup_logging(fmt: str = "auto", level: str = "info") -> None:
    json_output = fmt == "json" or (fmt == "auto" and not sys.stdout.isatty())
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json_output else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper(), logging.INFO)),
        logger_factory=structlog.PrintLoggerFactory(_SafeStdout(sys.stdout)),  # type: ignore[arg-type]
        cache_logger_on_first_use=False,
    )
