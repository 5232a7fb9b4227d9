"""A local stand-in for the Hugging Face hub: ``resolve`` URLs at the pinned revision, HEAD
answering with the content hash (``X-Linked-Etag`` on a redirect for LFS files, ``ETag`` = git
blob id for small files), redirects to a CDN path, Range requests, an optional delay."""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar, TypeVar

from omegad.models.fetch import RERANKER_HUB_REPO, RERANKER_HUB_REVISION

REPO = RERANKER_HUB_REPO
OLD_REPO = "cross-encoder/ms-marco-MiniLM-L-6-v2"  # the hub redirects the old name (relative 307)


def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class Hub(http.server.BaseHTTPRequestHandler):
    files: ClassVar[dict[str, bytes]] = {}  # path under /REPO/resolve/REV/ -> bytes
    lfs: ClassVar[set[str]] = set()
    lie: ClassVar[dict[str, str]] = {}  # path -> wrong hash to publish
    requests: ClassVar[list[tuple[str, str]]] = []
    publish_hashes: ClassVar[bool] = True
    delay: ClassVar[float] = 0.0  # seconds a file body takes to arrive

    def _lookup(self) -> tuple[str, bytes | None]:
        prefix = f"/{REPO}/resolve/{RERANKER_HUB_REVISION}/"
        if self.path.startswith("/cdn/"):
            name = self.path[5:]
            return name, self.files.get(name)
        if not self.path.startswith(prefix):
            return "", None
        name = self.path[len(prefix) :]
        return name, self.files.get(name)

    def _renamed(self) -> bool:
        if not self.path.startswith(f"/{OLD_REPO}/"):
            return False
        self.send_response(307)
        self.send_header("Location", f"/{REPO}/" + self.path[len(OLD_REPO) + 2 :])
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

    def do_HEAD(self) -> None:
        self.requests.append(("HEAD", self.path))
        if self._renamed():
            return
        name, data = self._lookup()
        if data is None:
            self.send_error(404)
            return
        if name in self.lfs:
            self.send_response(302)
            self.send_header("Location", f"/cdn/{name}")
            if self.publish_hashes:
                self.send_header("X-Linked-Etag", f'"{self.lie.get(name, hashlib.sha256(data).hexdigest())}"')
        else:
            self.send_response(200)
            if self.publish_hashes:
                self.send_header("ETag", f'"{self.lie.get(name, blob_id(data))}"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        self.requests.append(("GET", self.path))
        if self._renamed():
            return
        name, data = self._lookup()
        if data is None:
            self.send_error(404)
            return
        if name in self.lfs and not self.path.startswith("/cdn/"):
            self.send_response(302)
            self.send_header("Location", f"/cdn/{name}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
            self.send_response(206)
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.delay:  # a slow link: the body in 20 pieces spread over `delay` seconds
            step = max(1, len(body) // 20)
            for i in range(0, len(body), step):
                time.sleep(self.delay / 20)
                self.wfile.write(body[i : i + step])
                self.wfile.flush()
        else:
            self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


H = TypeVar("H", bound=type[http.server.BaseHTTPRequestHandler])


@contextmanager
def serve(handler: H) -> Iterator[H]:
    """Serve *handler* on a free loopback port; its ``endpoint`` attribute is the base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    handler.endpoint = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    try:
        yield handler
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def start_hub() -> Iterator[type[Hub]]:
    """A fresh hub (class-level state is per server)."""
    fresh = {"files": {}, "lfs": set(), "lie": {}, "requests": [], "delay": 0.0, "publish_hashes": True}
    with serve(type("H", (Hub,), fresh)) as handler:
        yield handler
