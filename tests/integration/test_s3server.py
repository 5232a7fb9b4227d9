"""The loopback S3 of ``tests/s3server.py`` itself: moto enforces conditional writes, the proxy ignores them,
and obstore and LanceDB both work against either."""

from __future__ import annotations

import http.client
import urllib.request
import uuid
from collections.abc import Iterator

import lancedb
import obstore
import pyarrow as pa
import pytest
from obstore.exceptions import AlreadyExistsError, PreconditionError
from obstore.store import S3Store, from_url

from ..s3server import MotoServer, NoConditionalProxy

BUCKET = "s3server-test"


@pytest.fixture(scope="module")
def proxy(moto: MotoServer) -> Iterator[NoConditionalProxy]:
    with NoConditionalProxy(moto.endpoint) as p:
        yield p


@pytest.fixture
def prefix() -> str:
    """A fresh key prefix per test, so tests sharing the module's bucket never see each other's objects."""
    return "t-" + uuid.uuid4().hex[:12]


@pytest.fixture
def direct(moto: MotoServer, prefix: str) -> S3Store:
    return moto.obstore_store(BUCKET, prefix)


@pytest.fixture
def proxied(moto: MotoServer, proxy: NoConditionalProxy, prefix: str) -> S3Store:
    return moto.obstore_store(BUCKET, prefix, endpoint=proxy.endpoint)


def test_storage_options_shape(moto: MotoServer, proxy: NoConditionalProxy) -> None:
    assert moto.endpoint.startswith("http://127.0.0.1:")
    assert moto.storage_options() == {
        "endpoint": moto.endpoint,
        "allow_http": "true",
        "aws_access_key_id": "test",
        "aws_secret_access_key": "test",
        "region": "us-east-1",
    }
    assert moto.storage_options(proxy.endpoint)["endpoint"] == proxy.endpoint


def test_storage_options_split_for_obstore(moto: MotoServer, prefix: str) -> None:
    """The LanceDB options serve obstore too once ``allow_http`` moves to ``client_options`` (as omegad's Bucket
    does); left in ``config`` it makes obstore panic rather than raise."""
    options = moto.storage_options()
    config = {k: v for k, v in options.items() if k != "allow_http"}
    url = f"s3://{BUCKET}/{prefix}"
    store = from_url(url, config=config, client_options={"allow_http": True})  # type: ignore[call-overload]
    obstore.put(store, "k", b"1")
    assert bytes(obstore.get(moto.obstore_store(BUCKET, prefix), "k").bytes()) == b"1"


def test_moto_refuses_second_create(direct: S3Store) -> None:
    obstore.put(direct, "k", b"1", mode="create")
    with pytest.raises(AlreadyExistsError):
        obstore.put(direct, "k", b"2", mode="create")
    assert bytes(obstore.get(direct, "k").bytes()) == b"1"


def test_moto_refuses_stale_etag(direct: S3Store) -> None:
    first = obstore.put(direct, "k", b"1")
    second = obstore.put(direct, "k", b"2")
    assert first["e_tag"] != second["e_tag"]
    with pytest.raises(PreconditionError):
        obstore.put(direct, "k", b"3", mode={"e_tag": first["e_tag"]})
    # The current tag still wins: the refusal above was the condition, not a broken If-Match.
    obstore.put(direct, "k", b"4", mode={"e_tag": second["e_tag"]})
    assert bytes(obstore.get(direct, "k").bytes()) == b"4"


def test_proxy_ignores_create_condition(proxied: S3Store, proxy: NoConditionalProxy) -> None:
    obstore.put(proxied, "k", b"1", mode="create")
    obstore.put(proxied, "k", b"2", mode="create")  # a store that ignores If-None-Match: last writer wins
    assert bytes(obstore.get(proxied, "k").bytes()) == b"2"
    assert any(path.endswith("/k") and header.lower() == "if-none-match" for _, path, header in proxy.dropped)


def test_proxy_ignores_etag_condition(proxied: S3Store) -> None:
    first = obstore.put(proxied, "k", b"1")
    obstore.put(proxied, "k", b"2")
    obstore.put(proxied, "k", b"3", mode={"e_tag": first["e_tag"]})
    assert bytes(obstore.get(proxied, "k").bytes()) == b"3"


def test_proxy_get_head_list_delete(proxied: S3Store, direct: S3Store) -> None:
    big = bytes(range(256)) * 4096  # 1 MiB: more than one socket buffer each way
    obstore.put(proxied, "big", big)
    obstore.put(proxied, "empty", b"")
    obstore.put(proxied, "dir/nested", b"n")

    assert bytes(obstore.get(proxied, "big").bytes()) == big
    assert bytes(obstore.get(proxied, "empty").bytes()) == b""
    assert bytes(obstore.get_range(proxied, "big", start=10, end=20)) == big[10:20]
    assert obstore.head(proxied, "big")["size"] == len(big)  # HEAD keeps the object's Content-Length
    assert obstore.head(proxied, "empty")["size"] == 0
    # What the proxy wrote is what moto holds.
    assert bytes(obstore.get(direct, "big").bytes()) == big

    listed = {meta["path"]: meta["size"] for meta in obstore.list(proxied).collect()}
    assert listed == {"big": len(big), "empty": 0, "dir/nested": 1}
    top = obstore.list_with_delimiter(proxied)
    assert top["common_prefixes"] == ["dir"]

    obstore.delete(proxied, ["big", "empty"])
    obstore.delete(proxied, "dir/nested")
    assert obstore.list(proxied).collect() == []
    # obstore raises the builtin FileNotFoundError; its own NotFoundError is deprecated in its favour.
    with pytest.raises(FileNotFoundError):
        obstore.get(proxied, "big")
    with pytest.raises(FileNotFoundError):
        obstore.head(proxied, "big")


def test_proxy_raw_http_keepalive_and_chunked(proxy: NoConditionalProxy, prefix: str) -> None:
    """Below obstore: one kept-alive connection, a chunked PUT, HEAD and a 204 DELETE each answer cleanly."""
    conn = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    key = f"/{BUCKET}/{prefix}/raw"
    try:
        # moto_server accepts unsigned requests, but refuses anonymous reads of private objects (403): public-read.
        public = {"x-amz-acl": "public-read"}
        conn.request("PUT", key, body=iter([b"hello ", b"chunked ", b"world"]), headers=public, encode_chunked=True)
        resp = conn.getresponse()
        assert resp.status == 200, resp.read()
        resp.read()
        sock = conn.sock

        conn.request("HEAD", key)
        resp = conn.getresponse()
        assert resp.status == 200
        assert resp.getheader("Content-Length") == str(len(b"hello chunked world"))
        assert resp.read() == b""

        conn.request("GET", key, headers={"If-None-Match": "*"})  # dropped, so no 304
        resp = conn.getresponse()
        assert resp.status == 200
        assert resp.read() == b"hello chunked world"

        conn.request("PUT", key, body=b"", headers={**public, "If-Match": '"not-the-etag"'})
        resp = conn.getresponse()
        assert resp.status == 200, resp.read()
        resp.read()

        conn.request("HEAD", key)
        resp = conn.getresponse()
        assert resp.getheader("Content-Length") == "0"
        assert resp.read() == b""

        conn.request("DELETE", key)
        resp = conn.getresponse()
        assert resp.status == 204
        assert resp.read() == b""

        conn.request("GET", key)
        resp = conn.getresponse()
        assert resp.status == 404
        assert b"NoSuchKey" in resp.read()
        assert conn.sock is sock  # every response was delimited, so one connection served them all
    finally:
        conn.close()


@pytest.mark.parametrize("via_proxy", [False, True], ids=["direct", "proxy"])
def test_lancedb_roundtrip(moto: MotoServer, proxy: NoConditionalProxy, prefix: str, via_proxy: bool) -> None:
    endpoint = proxy.endpoint if via_proxy else moto.endpoint
    before = len(proxy.dropped)
    db = lancedb.connect(f"s3://{BUCKET}/{prefix}", storage_options=moto.storage_options(endpoint))
    table = db.create_table("t", data=pa.table({"id": [1, 2], "v": ["a", "b"]}))
    table.add(pa.table({"id": [3], "v": ["c"]}))
    assert table.count_rows() == 3

    reopened = lancedb.connect(f"s3://{BUCKET}/{prefix}", storage_options=moto.storage_options(endpoint))
    assert reopened.open_table("t").count_rows() == 3
    assert sorted(reopened.open_table("t").to_arrow()["id"].to_pylist()) == [1, 2, 3]
    if via_proxy:
        # Lance commits manifests with If-None-Match: the proxy really stood between it and moto.
        assert any(".manifest" in path for _, path, _ in proxy.dropped[before:])


def test_reset_drops_buckets(moto: MotoServer) -> None:
    store = moto.obstore_store(BUCKET, "reset-probe")
    obstore.put(store, "k", b"1")
    moto.reset()
    client = moto.s3_client()
    try:
        assert client.list_buckets()["Buckets"] == []
    finally:
        client.close()
        moto.create_bucket(BUCKET)  # the module's other tests share this bucket
    with pytest.raises(FileNotFoundError):
        obstore.get(store, "k")


def test_moto_answers_plain_get(moto: MotoServer) -> None:
    with urllib.request.urlopen(moto.endpoint + "/", timeout=10) as resp:
        assert resp.status == 200
