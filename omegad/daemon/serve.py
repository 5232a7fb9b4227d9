"""``omegad serve``: logging set-up, the anyio event loop, start-up errors, the demo."""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

import anyio

from omegad.app import heap
from omegad.app.service import Service
from omegad.config import Config
from omegad.daemon.lifecycle import run_server
from omegad.errors import StartupError
from omegad.logs import capture_native_logs, setup_logging
from omegad_client import Client

__all__ = ["serve"]

DEMO_MEMORIES: list[dict[str, Any]] = [
    {
        "id": "demo-1",
        "type": "decision",
        "tags": ["auth"],
        "text": "Access tokens are JWTs that expire after 15 minutes; refresh tokens live in an httpOnly cookie.",
    },
    {
        "id": "demo-2",
        "type": "preference",
        "tags": ["style"],
        "text": "The user prefers tabs over spaces in Go files and wants gofmt run before every commit.",
    },
    {
        "id": "demo-3",
        "type": "error",
        "tags": ["db"],
        "text": "psql FATAL: too many connections for role app — the worker pool never closed connections; fixed by capping the pool at 10.",
    },
    {
        "id": "demo-4",
        "type": "lesson",
        "tags": ["ci"],
        "text": "CI flakes on the integration suite came from tests sharing one port; give every test its own temporary socket.",
    },
    {
        "id": "demo-5",
        "type": "todo",
        "tags": ["ops"],
        "text": "Move the nightly cron jobs from crontab to systemd timers.",
    },
]

DEMO_QUERIES = ["how long do login sessions last?", "database connection limit error", "code formatting preferences"]


def run_demo(config: Config) -> None:
    """Store and query a few memories through the real client, printing what happens."""
    out = sys.stdout
    with Client(config.socket_path) as client:
        hello = client.hello()
        out.write(
            f"\n=== omegad demo: connected to {config.socket_path} "
            f"(protocol {hello['protocol']}, model {hello['embedding']['model']}) ===\n"
        )
        reranker = hello["reranker"]
        deadline = time.monotonic() + 15
        while reranker["state"] == "loading" and time.monotonic() < deadline:
            time.sleep(0.1)  # the demo waits a moment for the model; queries themselves never do
            reranker = client.hello()["reranker"]
        if reranker["state"] == "ready":
            out.write(f"reranker: {reranker['model']} ({reranker['quantization']})\n")
        else:
            out.write(
                f"reranker: {reranker['state']} (results keep the heuristic order"
                + (f"; for cross-encoder reranking run `{reranker['fix']}`" if reranker.get("fix") else "")
                + ")\n"
            )
        ids = client.store_batch([{**m, "namespace": "demo"} for m in DEMO_MEMORIES])
        out.write(f"stored {len(ids)} memories in namespace 'demo'\n")
        for q in DEMO_QUERIES:
            out.write(f'\nquery: "{q}"\n')
            for i, r in enumerate(client.query(q, namespace="demo", limit=2), 1):
                out.write(f"  {i}. [{r['type']}] {r['text']} ({r['score']:.3f})\n")
        out.write(
            "\nThe daemon keeps running; in another shell try:\n"
            f"  omegad query 'token expiry' --namespace demo --explain --socket {config.socket_path}\n"
            "Stop it with Ctrl-C.\n\n"
        )
        out.flush()


def serve(config: Config, *, demo: bool = False, exit_after_demo: bool = False) -> int:
    heap.limit_arenas()
    log_writer = setup_logging(config.log_format, config.log_level)
    # Lance's and ONNX Runtime's own lines as events too (before either is loaded: the levels
    # are read then); `log_writer.close` gives the descriptors back
    capture_native_logs(log_writer, config.log_level)

    async def on_ready(service: Service) -> None:
        if demo or exit_after_demo:
            await anyio.to_thread.run_sync(run_demo, config)
            if exit_after_demo:
                os.kill(os.getpid(), signal.SIGTERM)

    try:
        return anyio.run(lambda: run_server(config, on_ready=on_ready), backend="asyncio")
    except StartupError as exc:
        print(f"omegad: cannot start: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        log_writer.close()
