"""The bucket of a team store (``store.uri``), for omegad's own small objects beside the
tables: the conditional-write probe, the maintenance lease, the sweep's watermark and the
store's description. Through obstore, a binding of the Rust ``object_store`` crate that Lance
itself commits with, so one ``store.storage_options`` table (endpoint, region, credentials)
means the same to both, and credentials missing from it come from the usual environment
variables (AWS_*, GOOGLE_*, AZURE_*) as Lance reads them. Every call blocks (worker threads).
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import structlog

__all__ = [
    "Bucket",
    "BucketError",
    "Lease",
    "Stored",
    "bucket_uri",
    "redacted_options",
]

log = structlog.get_logger("omegad")

#: Where omegad's own objects live under the store's prefix.
PREFIX = "_omegad"

#: object_store's HTTP client settings (``ClientConfig``): in ``storage_options`` for Lance,
#: passed to obstore apart from the service's own keys.
_CLIENT_KEYS = {
    "allow_http",
    "allow_invalid_certificates",
    "connect_timeout",
    "default_content_type",
    "http1_only",
    "http2_only",
    "pool_idle_timeout",
    "pool_max_idle_per_host",
    "proxy_url",
    "proxy_ca_certificate",
    "proxy_excludes",
    "randomize_addresses",
    "timeout",
    "user_agent",
}
_BOOL_KEYS = {"allow_http", "allow_invalid_certificates", "http1_only", "http2_only", "randomize_addresses"}
#: Option keys whose values are never shown (`redacted_options`): anything naming a secret.
_SECRET_WORDS = ("secret", "key", "token", "password", "credential", "sas", "signature")


class BucketError(Exception):
    """The bucket cannot be used as a team store (unreachable, refused, or unsafe)."""


def bucket_uri(uri: str) -> str:
    """The object-store URL of a store URI: ``s3+ddb://b/p?ddbTableName=t`` is ``s3://b/p``."""
    parts = urlsplit(uri)
    scheme = "s3" if parts.scheme.lower() == "s3+ddb" else parts.scheme.lower()
    return f"{scheme}://{parts.netloc}{parts.path}".rstrip("/")


def redacted_options(options: Mapping[str, str]) -> dict[str, str]:
    """*options* fit for a log line or ``doctor``: the values of secret-looking keys hidden."""
    return {k: ("[hidden]" if any(w in k.lower() for w in _SECRET_WORDS) else v) for k, v in options.items()}


@dataclass(frozen=True)
class Stored:
    """An object as read: its bytes and its entity tag (what a conditional replace names)."""

    data: bytes
    etag: str


class Bucket:
    """omegad's objects under ``<store uri>/_omegad/``, with counts of the requests made."""

    def __init__(self, uri: str, options: Mapping[str, str]) -> None:
        from obstore.store import from_url

        self.uri = bucket_uri(uri)
        # (the DynamoDB commit table's settings are Lance's alone)
        config = {
            k: v for k, v in options.items() if k.lower() not in _CLIENT_KEYS and not k.lower().startswith("dynamodb")
        }
        client: dict[str, Any] = {}
        for k, v in options.items():
            if k.lower() in _CLIENT_KEYS:
                client[k.lower()] = str(v).lower() in ("1", "true", "yes") if k.lower() in _BOOL_KEYS else v
        try:
            self._store = from_url(self.uri, config=config or None, client_options=client or None)  # type: ignore[arg-type]
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # (an unknown key, a malformed URL; some panic in Rust)
            raise BucketError(f"store.uri {self.uri} with store.storage_options: {_short(exc)}") from None
        self.requests: Counter[str] = Counter()
        self._lock = threading.Lock()

    def _count(self, what: str) -> None:
        with self._lock:
            self.requests[what] += 1

    @staticmethod
    def _key(name: str) -> str:
        return f"{PREFIX}/{name}"

    def get(self, name: str) -> Stored | None:
        """The object *name*, or None when there is none."""
        import obstore
        from obstore.exceptions import NotFoundError

        self._count("get")
        try:
            got = obstore.get(self._store, self._key(name))
            data = bytes(got.bytes())
        except (NotFoundError, FileNotFoundError):
            return None
        return Stored(data, str(got.meta["e_tag"]))

    def create(self, name: str, data: bytes) -> str | None:
        """Write *name* if it does not exist (``If-None-Match: *``): its entity tag, or None
        when it exists already."""
        import obstore
        from obstore.exceptions import AlreadyExistsError, PreconditionError

        self._count("put")
        try:
            return str(obstore.put(self._store, self._key(name), data, mode="create")["e_tag"])
        except (AlreadyExistsError, PreconditionError, FileExistsError):
            return None

    def replace(self, name: str, data: bytes, etag: str) -> str | None:
        """Write *name* if it is still the version *etag* (``If-Match``): the new entity tag,
        or None when another writer changed or removed it since."""
        import obstore
        from obstore.exceptions import NotFoundError, PreconditionError

        self._count("put")
        try:
            return str(obstore.put(self._store, self._key(name), data, mode={"e_tag": etag})["e_tag"])
        except (PreconditionError, NotFoundError, FileNotFoundError):
            return None

    @contextlib.contextmanager
    def exclusive(self, name: str, *, stale_s: float = 60.0, wait_s: float = 120.0) -> Iterator[None]:
        """Hold the lock object *name* while the block runs: created if absent, so one host
        at a time holds it; taken over (``If-Match``) when its holder has held it *stale_s*
        (by the holder's clock: a host that died holding it). Raises `BucketError` after
        *wait_s* of waiting."""
        key = f"locks/{name}"
        deadline = time.monotonic() + wait_s
        while True:
            body = json.dumps({"at": time.time(), "by": uuid.uuid4().hex}).encode()
            if self.create(key, body) is not None:
                break
            held = self.get(key)
            if held is not None:
                try:
                    age = time.time() - float(json.loads(held.data)["at"])
                except (ValueError, KeyError, TypeError):
                    age = math.inf
                if age > stale_s and self.replace(key, body, held.etag) is not None:
                    break
            if time.monotonic() > deadline:
                raise BucketError(f"{self.uri}: {PREFIX}/{key} was held for more than {wait_s:g} s")
            time.sleep(0.1)
        try:
            yield
        finally:
            self.discard(key)

    def put(self, name: str, data: bytes) -> str:
        """Write *name*, whatever is there: its entity tag."""
        import obstore

        self._count("put")
        return str(obstore.put(self._store, self._key(name), data)["e_tag"])

    def _listed(self, path: str) -> Iterator[Any]:
        """The objects under *path* (relative to the store's URI), each an obstore ``ObjectMeta``:
        one LIST request per 1,000."""
        import obstore

        for page in obstore.list(self._store, path.rstrip("/") + "/"):
            self._count("list")
            yield from page

    def tags(self, folder: str) -> dict[str, str]:
        """The objects under omegad's *folder* (a `Bucket` name ending at a folder): name →
        entity tag."""
        start = f"{PREFIX}/{folder.rstrip('/')}/"
        return {str(meta["path"]).split(start, 1)[-1]: str(meta["e_tag"]) for meta in self._listed(start)}

    def delete(self, name: str) -> None:
        import obstore

        self._count("delete")
        obstore.delete(self._store, self._key(name))

    def discard(self, name: str) -> None:
        """Delete *name* if it is there (S3 answers a DELETE of nothing with success, Azure
        with not found)."""
        from obstore.exceptions import NotFoundError

        try:
            self.delete(name)
        except (NotFoundError, FileNotFoundError):
            pass

    def count(self, path: str, suffix: str = "") -> int:
        """How many objects under *path* (relative to the store's URI, not to omegad's own
        objects) end with *suffix*."""
        return sum(1 for meta in self._listed(path) if str(meta["path"]).endswith(suffix))

    def probe(self) -> dict[str, Any]:
        """Check that the bucket refuses a second create-if-absent write of one key, which
        Lance's commits and the lease rely on; raises `BucketError` when it does not (a server
        that ignores ``If-None-Match`` silently loses concurrent commits)."""
        name = f"probe/{uuid.uuid4().hex}"
        t0 = time.perf_counter()
        try:
            if self.create(name, b"first") is None:
                raise BucketError(f"{self.uri}: the probe object {name} existed before it was written")
            second = self.create(name, b"second")
            self.delete(name)
        except BucketError:
            raise
        except Exception as exc:
            raise BucketError(f"{self.uri} cannot be reached or written: {_short(exc)}") from None
        if second is not None:
            raise BucketError(
                f"{self.uri} does not honour conditional writes: a second create-if-absent PUT "
                "of one key succeeded, so concurrent commits would be lost. Use a server that "
                "honours If-None-Match (AWS S3, GCS, Azure, MinIO, SeaweedFS), or an s3+ddb:// "
                "store with a DynamoDB commit table (docs/team.md)"
            )
        return {"conditional_writes": True, "ms": round((time.perf_counter() - t0) * 1000, 1)}


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300] or type(exc).__name__


class Lease:
    """The maintenance lease: one object naming its holder, taken by the first host to create
    it and renewed with ``If-Match`` every *ttl_s* / 3. Whether another's lease has lapsed is
    judged by this host's own monotonic clock — the object unchanged (same entity tag) for
    *ttl_s* — so clock skew between hosts cannot make two leaders; the lapsed object is then
    replaced with ``If-Match`` on that tag, which only one contender can win. A host that does
    not hold it looks every *ttl_s* / 6 (one GET), so it takes over within 7/6 of the TTL."""

    NAME = "leases/maintenance"

    def __init__(self, bucket: Bucket, holder: str, ttl_s: float) -> None:
        self.bucket, self.holder, self.ttl_s = bucket, holder, ttl_s
        self._etag: str | None = None  # ours, while we hold it
        self._renewed = 0.0  # (monotonic) when we last wrote it
        self._looked = -math.inf  # (monotonic) when we last read it, not holding it
        self._seen: tuple[str, float] | None = None  # another's tag and when we first saw it
        self.leader: str | None = None  # the holder as last read
        self.acquired = 0  # times this host took the lease
        self.lost = 0  # times it found the lease taken from it

    @property
    def held(self) -> bool:
        return self._etag is not None

    def _body(self) -> bytes:
        return json.dumps({"holder": self.holder, "renewed_at": time.time(), "ttl_s": self.ttl_s}).encode()

    def tick(self) -> bool:
        """Take, renew or watch the lease, making a request only when one is due (call it
        often); whether this host holds it now. Errors reaching the bucket propagate: the
        caller then stops maintaining until a tick succeeds (`held` is reset)."""
        try:
            return self._tick()
        except BaseException:
            self._etag = None
            raise

    def _tick(self) -> bool:
        now = time.monotonic()
        if self._etag is not None:
            if now - self._renewed < self.ttl_s / 3:
                return True
            renewed = self.bucket.replace(self.NAME, self._body(), self._etag)
            if renewed is not None:
                self._etag, self._renewed = renewed, now
                return True
            self._etag = None  # taken over: we were too slow to renew
            self.lost += 1
            log.warning("lease_lost", holder=self.holder)
        elif now - self._looked < self.ttl_s / 6:
            return False
        self._looked = now
        current = self.bucket.get(self.NAME)
        if current is None:
            created = self.bucket.create(self.NAME, self._body())
            return self._won(created, now) if created is not None else False
        self.leader = _holder_of(current.data)
        if self._seen is None or self._seen[0] != current.etag:
            self._seen = (current.etag, now)
            return False
        if now - self._seen[1] < self.ttl_s:
            return False
        taken = self.bucket.replace(self.NAME, self._body(), current.etag)  # lapsed: take it over
        return self._won(taken, now) if taken is not None else False

    def _won(self, etag: str, now: float) -> bool:
        self._etag, self._renewed, self._seen, self.leader = etag, now, None, self.holder
        self.acquired += 1
        log.info("lease_acquired", holder=self.holder)
        return True

    def release(self) -> None:
        """Give the lease up (a clean stop), so that another host need not wait out the TTL."""
        if self._etag is None:
            return
        current = self.bucket.get(self.NAME)
        if current is not None and current.etag == self._etag:
            self.bucket.delete(self.NAME)
        self._etag = None

    def describe(self) -> dict[str, Any]:
        return {
            "holder": self.leader,
            "held_here": self.held,
            "ttl_s": self.ttl_s,
            "acquired": self.acquired,
            "lost": self.lost,
        }


def _holder_of(data: bytes) -> str | None:
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    holder = doc.get("holder") if isinstance(doc, dict) else None
    return holder if isinstance(holder, str) else None
