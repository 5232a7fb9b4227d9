"""Loopback S3 for tests: moto's standalone server, and a proxy that makes it ignore conditional writes.

``MotoServer`` runs ``moto_server`` in a subprocess on 127.0.0.1, so Rust clients (LanceDB, obstore) talk real
HTTP to it instead of relying on in-process mocking, which only patches botocore. ``NoConditionalProxy`` sits in
front of it and strips ``If-None-Match`` / ``If-Match``, modelling S3-compatible stores that accept but ignore
conditional writes. Nothing here touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self
from urllib.parse import urlsplit

import boto3  # type: ignore[import-untyped]
from obstore.store import S3Store

ACCESS_KEY = "test"
SECRET_KEY = "test"
REGION = "us-east-1"


def free_port() -> int:
    """A port that was free a moment ago; the small race with other processes is acceptable in tests."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def s3_storage_options(endpoint: str) -> dict[str, str]:
    """LanceDB's ``storage_options`` for ``endpoint``. obstore takes the same keys but split: ``allow_http`` in
    ``client_options`` (``bool``), the rest in ``config`` (see ``MotoServer.obstore_store``)."""
    return {
        "endpoint": endpoint,
        "allow_http": "true",
        "aws_access_key_id": ACCESS_KEY,
        "aws_secret_access_key": SECRET_KEY,
        "region": REGION,
    }


def _moto_command() -> list[str]:
    script = Path(sys.executable).parent / "moto_server"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "moto.server"]


class ServerProcess:
    """A test server in a subprocess, its output in a log file of a temporary directory (never a pipe that can
    fill): ``log``, ``stop`` and the ``with`` statement, for `MotoServer` and `tests.azurite.AzuriteServer`."""

    START_TIMEOUT = 30.0
    STOP_TIMEOUT = 10.0
    LOG_NAME = "server.log"
    READY_PATH = "/"

    def __init__(self) -> None:
        self.port = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._tmpdir: Path | None = None
        self._log_file: IO[bytes] | None = None

    @property
    def log_path(self) -> Path:
        if self._tmpdir is None:
            raise RuntimeError(f"{type(self).__name__} not started")
        return self._tmpdir / self.LOG_NAME

    def log(self) -> str:
        """The server's output so far, for assertion messages."""
        try:
            return self.log_path.read_text(errors="replace")
        except (OSError, RuntimeError):
            return ""

    def _launch(self, what: str, command: Callable[[int], list[str]], **popen: Any) -> None:
        """Run ``command(port)`` on a free port until it answers an HTTP request on ``READY_PATH``.
        A port picked by free_port() can be taken before the server binds it; a few retries make
        that race harmless."""
        self._tmpdir = Path(tempfile.mkdtemp(prefix=f"{what}-"))
        self._log_file = log_file = self.log_path.open("wb")
        for _ in range(3):
            self.port = free_port()
            self._proc = subprocess.Popen(
                command(self.port),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                cwd=self._tmpdir,  # (whatever a server writes beside its memory stays in there)
                **popen,
            )
            if self._wait_ready():
                return
            if self._proc.poll() is None:
                break  # still running but never answered: retrying on another port will not help
            self._proc = None
        log = self.log()
        self.stop()
        raise RuntimeError(f"{what} did not start within {self.START_TIMEOUT}s:\n{log}")

    def _wait_ready(self) -> bool:
        assert self._proc is not None
        deadline = time.monotonic() + self.START_TIMEOUT
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                return False
            try:
                # (http.client rather than urllib: urllib would obey HTTP_PROXY, even for 127.0.0.1)
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                try:
                    conn.request("GET", self.READY_PATH)
                    conn.getresponse().read()
                finally:
                    conn.close()
                return True  # any HTTP answer, whatever its status, means the server is up
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        return False

    def _stop_proc(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(self.STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def stop(self) -> None:
        self._stop_proc()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def start(self) -> Self:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class MotoServer(ServerProcess):
    """``moto_server`` on 127.0.0.1 and a free port."""

    LOG_NAME = "moto_server.log"

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MotoServer:
        if self._proc is not None:
            raise RuntimeError("MotoServer already started")
        self._launch("moto_server", lambda port: [*_moto_command(), "-H", "127.0.0.1", "-p", str(port)])
        return self

    def _request(self, method: str, path: str, timeout: float = 10) -> tuple[int, bytes]:
        # http.client rather than urllib: urllib would obey HTTP_PROXY from the environment, even for 127.0.0.1.
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=b"" if method == "POST" else None)
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def s3_client(self) -> Any:
        """A boto3 S3 client for this server (untyped: boto3 ships no stubs here). Close it when done."""
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name=REGION,
        )

    def create_bucket(self, name: str) -> None:
        client = self.s3_client()
        try:
            client.create_bucket(Bucket=name)
        finally:
            client.close()

    def storage_options(self, endpoint: str | None = None) -> dict[str, str]:
        """Options for LanceDB/obstore; pass a proxy's endpoint to route the same credentials through it."""
        return s3_storage_options(endpoint or self.endpoint)

    def obstore_store(self, bucket: str, prefix: str | None = None, endpoint: str | None = None) -> S3Store:
        """An obstore S3Store on this server (or on ``endpoint``, e.g. a proxy in front of it).

        Not ``config=self.storage_options()``: obstore's S3 config rejects ``allow_http`` (it panics with "Expected
        config prefix to start with aws_"); that one belongs in ``client_options``.
        """
        return S3Store(
            bucket,
            prefix=prefix,
            config={
                "access_key_id": ACCESS_KEY,
                "secret_access_key": SECRET_KEY,
                "endpoint": endpoint or self.endpoint,
                "region": REGION,
            },
            client_options={"allow_http": True},
        )

    def reset(self) -> None:
        """Drop all buckets and objects (moto's ``POST /moto-api/reset``)."""
        status, body = self._request("POST", "/moto-api/reset")
        if status != 200:
            raise RuntimeError(f"moto reset answered {status}: {body!r}")


# RFC 9110 §7.6.1 connection-specific headers, plus ones this proxy recomputes (Content-Length) or must not
# forward (Expect: http.server already answered "100 Continue" to the client; http.client cannot handle it).
_HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "expect",
        "content-length",
    }
)
_DROPPED_CONDITIONALS = frozenset({"if-none-match", "if-match"})


class _ProxyServer(ThreadingHTTPServer):
    daemon_threads = True
    upstream_host = ""
    upstream_port = 0

    def __init__(self, address: tuple[str, int], upstream: str) -> None:
        parts = urlsplit(upstream)
        if parts.scheme != "http" or parts.hostname is None or parts.port is None:
            raise ValueError(f"upstream must look like http://host:port, got {upstream!r}")
        self.upstream_host = parts.hostname
        self.upstream_port = parts.port
        # (method, path, header) for every conditional header dropped, so tests can see the proxy mattered.
        self.dropped: list[tuple[str, str, str]] = []
        # Open client connections, so stop() can cut keep-alive connections that clients are holding idle.
        self.connections: set[socket.socket] = set()
        self.lock = threading.Lock()
        super().__init__(address, _ProxyHandler)

    def close_connections(self) -> None:
        with self.lock:
            conns = list(self.connections)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _ProxyHandler(BaseHTTPRequestHandler):
    # HTTP/1.1 keep-alive: object_store reuses connections, so every response must carry an exact length.
    protocol_version = "HTTP/1.1"
    server: _ProxyServer

    def setup(self) -> None:
        super().setup()
        with self.server.lock:
            self.server.connections.add(self.connection)

    def finish(self) -> None:
        with self.server.lock:
            self.server.connections.discard(self.connection)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _read_body(self) -> bytes | None:
        """The request body, de-chunked; None when the request announced no body at all."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._read_chunked()
        length = self.headers.get("Content-Length")
        if length is None:
            return None
        return self.rfile.read(int(length))

    def _read_chunked(self) -> bytes:
        chunks: list[bytes] = []
        while True:
            size_line = self.rfile.readline()
            if not size_line:
                raise ConnectionError("client closed mid-chunked body")
            size = int(size_line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                break
            chunks.append(self.rfile.read(size))
            self.rfile.readline()  # CRLF after the chunk data
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass  # trailers: nothing upstream needs them
        return b"".join(chunks)

    def _proxy(self) -> None:
        body = self._read_body()
        upstream = http.client.HTTPConnection(self.server.upstream_host, self.server.upstream_port, timeout=60)
        try:
            # Keep the client's Host header: it is part of the SigV4 signature.
            upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                lname = name.lower()
                if lname in _DROPPED_CONDITIONALS:
                    with self.server.lock:
                        self.server.dropped.append((self.command, self.path, name))
                    continue
                if lname in _HOP_BY_HOP:
                    continue
                upstream.putheader(name, value)
            if body is not None:
                upstream.putheader("Content-Length", str(len(body)))
            upstream.endheaders(body)
            resp = upstream.getresponse()
            data = resp.read()  # http.client knows HEAD/204/304 have no body
            status, reason, headers = resp.status, resp.reason, resp.getheaders()
        except (OSError, http.client.HTTPException) as e:
            msg = f"proxy: upstream error: {e}".encode()
            self.send_response(502)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(msg)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(msg)
            return
        finally:
            upstream.close()

        # send_response_only: upstream already supplies Date and Server, which send_response would duplicate.
        self.send_response_only(status, reason)
        upstream_length: str | None = None
        for name, value in headers:
            lname = name.lower()
            if lname == "content-length":
                upstream_length = value
            elif lname not in _HOP_BY_HOP:
                self.send_header(name, value)
        no_body_status = status < 200 or status in (204, 304)
        if self.command == "HEAD":
            # HEAD keeps upstream's length: it is the object's size, which clients read from it.
            if upstream_length is not None and not no_body_status:
                self.send_header("Content-Length", upstream_length)
        elif not no_body_status:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD" and not no_body_status:
            self.wfile.write(data)
        self.wfile.flush()

    do_GET = _proxy
    do_HEAD = _proxy
    do_PUT = _proxy
    do_POST = _proxy
    do_DELETE = _proxy
    do_PATCH = _proxy
    do_OPTIONS = _proxy


class NoConditionalProxy:
    """Reverse proxy to ``upstream`` that drops ``If-None-Match``/``If-Match``: a store that ignores conditional
    writes, so a second create-if-absent PUT of one key succeeds instead of answering 412."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.port = 0
        self.endpoint = ""
        self._server: _ProxyServer | None = None
        self._thread: threading.Thread | None = None
        self._dropped_at_stop: list[tuple[str, str, str]] = []

    def start(self) -> NoConditionalProxy:
        if self._server is not None:
            raise RuntimeError("NoConditionalProxy already started")
        # Port 0 lets the OS choose, with no race: the listening socket is the one that got the port.
        self._server = _ProxyServer(("127.0.0.1", 0), self.upstream)
        self.port = self._server.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, name="no-conditional-proxy", daemon=True
        )
        self._thread.start()
        return self

    @property
    def dropped(self) -> list[tuple[str, str, str]]:
        """(method, path, header name) of every ``If-None-Match``/``If-Match`` header dropped so far."""
        if self._server is None:
            return list(self._dropped_at_stop)
        with self._server.lock:
            return list(self._server.dropped)

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        self._dropped_at_stop = list(server.dropped)
        server.close_connections()
        server.server_close()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def __enter__(self) -> NoConditionalProxy:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
