"""Loopback Azure Blob Storage for tests: Microsoft's Azurite emulator (the ``azurite`` npm package) on
127.0.0.1, with an account whose key is made up at start, so no well-known key is needed or committed.

Azurite is installed once per machine with npm into ``$XDG_CACHE_HOME/omegad/test/azurite-<version>`` (the
npm registry, like PyPI, is reachable wherever the tests run); without ``npm`` the tests that need it skip and
say why. Nothing here touches the network beyond 127.0.0.1 and that one install.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import os
import shutil
import subprocess
import tempfile
from email.utils import formatdate
from pathlib import Path

from .s3server import ServerProcess

VERSION = "3.37.0"
ACCOUNT = "omegadtest"
#: Azure's REST version used for the one call made here (creating a container).
API_VERSION = "2021-08-06"


class AzuriteMissing(RuntimeError):
    """Azurite is not installed and cannot be (no npm on this machine)."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "omegad" / "test" / f"azurite-{VERSION}"


def azurite_blob() -> Path:
    """The ``azurite-blob`` launcher, installed on first use (about half a minute, once)."""
    where = cache_dir()
    launcher = where / "node_modules" / ".bin" / "azurite-blob"
    if launcher.exists():
        return launcher
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise AzuriteMissing("Azure tests need Node.js and npm to install the Azurite emulator")
    where.mkdir(parents=True, exist_ok=True)
    # (into a fresh directory, then renamed: two test runs installing at once never see half a tree)
    staging = Path(tempfile.mkdtemp(prefix="azurite-", dir=where.parent))
    try:
        subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(staging), f"azurite@{VERSION}"],
            check=True,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=600,
        )
        shutil.rmtree(where, ignore_errors=True)
        staging.rename(where)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return launcher


class AzuriteServer(ServerProcess):
    """Azurite's blob service on 127.0.0.1 and a free port, in memory, for one made-up account."""

    LOG_NAME = "azurite.log"
    READY_PATH = f"/{ACCOUNT}?comp=list"  # (an unsigned request is refused: an answer all the same)

    def __init__(self) -> None:
        super().__init__()
        self.key = base64.b64encode(os.urandom(64)).decode()

    @property
    def endpoint(self) -> str:
        """The account's blob endpoint (path style, as for any emulator or private endpoint)."""
        return f"http://127.0.0.1:{self.port}/{ACCOUNT}"

    def start(self) -> AzuriteServer:
        launcher = str(azurite_blob())
        self._launch(
            "azurite",
            lambda port: [
                *(launcher, "--blobHost", "127.0.0.1", "--blobPort", str(port)),
                *("--inMemoryPersistence", "--skipApiVersionCheck"),
            ],
            env={**os.environ, "AZURITE_ACCOUNTS": f"{ACCOUNT}:{self.key}"},
        )
        return self

    def create_container(self, name: str) -> None:
        """Create *name* with a request signed by the account's Shared Key (Azure's REST scheme)."""
        path = f"/{ACCOUNT}/{name}"
        headers = {"x-ms-date": formatdate(usegmt=True), "x-ms-version": API_VERSION}
        canonical_headers = "".join(f"{k}:{v}\n" for k, v in sorted(headers.items()))
        # verb, then eleven standard headers left empty, then the x-ms- headers and the resource
        to_sign = f"PUT\n{chr(10) * 11}{canonical_headers}/{ACCOUNT}{path}\nrestype:container"
        mac = hmac.new(base64.b64decode(self.key), to_sign.encode(), hashlib.sha256).digest()
        headers["Authorization"] = f"SharedKey {ACCOUNT}:{base64.b64encode(mac).decode()}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("PUT", f"{path}?restype=container", headers=headers)
            resp = conn.getresponse()
            body = resp.read()
        finally:
            conn.close()
        if resp.status != 201:
            raise RuntimeError(f"creating container {name} answered {resp.status}: {body[:300]!r}")

    def storage_options(self, key: str | None = None) -> dict[str, str]:
        """``store.storage_options`` for this account (Lance's and obstore's Azure keys)."""
        return {
            "azure_storage_account_name": ACCOUNT,
            "azure_storage_account_key": key or self.key,
            "endpoint": self.endpoint,
            "allow_http": "true",
        }
