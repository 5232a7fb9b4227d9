from __future__ import annotations

import re
import struct
from pathlib import Path

import msgpack
import pytest

import omegad_client
from omegad_client import protocol
from omegad_client._errors import InvalidParams, OmegadError, ProtocolError, error_from_reply

REPO = Path(__file__).resolve().parents[2]


def test_protocol_doc_states_the_code_version() -> None:
    doc = (REPO / "docs" / "protocol.md").read_text()
    match = re.search(r"\*\*Protocol version: (\d+)\*\*", doc)
    assert match, "docs/protocol.md must state '**Protocol version: N**'"
    assert int(match.group(1)) == protocol.PROTOCOL_VERSION


def test_protocol_doc_lists_every_method_and_error_code() -> None:
    doc = (REPO / "docs" / "protocol.md").read_text()
    for method in protocol.METHODS:
        assert f"| `{method}` |" in doc, method
    for code in protocol.ERROR_CODES:
        assert f"| `{code}` |" in doc, code


def test_public_surface_is_pinned() -> None:
    assert sorted(omegad_client.__all__) == sorted(
        [
            "DEFAULT_TIMEOUT",
            "PROTOCOL_VERSION",
            "AsyncClient",
            "BadRequest",
            "Cancelled",
            "Client",
            "ClientClosed",
            "ClientState",
            "ConnectionLost",
            "DaemonNotRunning",
            "Forbidden",
            "InternalError",
            "InvalidParams",
            "NotFound",
            "OmegadError",
            "ProtocolError",
            "Timeout",
            "TooLarge",
            "Unavailable",
            "UnknownMethod",
            "default_socket_path",
        ]
    )
    for name in omegad_client.__all__:
        assert getattr(omegad_client, name) is not None


def test_frame_round_trip() -> None:
    msg = protocol.request(7, "store", {"text": "héllo", "tags": ["a"], "metadata": {"n": 1.5}})
    frame = protocol.encode_frame(msg)
    (n,) = struct.unpack(">I", frame[:4])
    assert n == len(frame) - 4
    assert protocol.decode_body(frame[4:]) == msg


def test_encode_refuses_oversized_and_unencodable() -> None:
    with pytest.raises(protocol.FrameError, match="exceeds"):
        protocol.encode_frame({"text": "x" * 100}, max_frame=50)
    with pytest.raises(protocol.FrameError):
        protocol.encode_frame({"x": object()})


@pytest.mark.parametrize(
    "body",
    [
        b"\xc1",  # never used
        b"\x81\xa1a\xa3\xff\xfe\xfd",  # invalid utf-8 str
        b"\xd4\x05\x00",  # ext type 5
        b"\xd6\xff\x00\x00\x00\x01",  # msgpack timestamp (ext -1)
        b"\x81\x01\x02",  # int map key
        b"\x91" * 100_000 + b"\xc0",  # nesting beyond the limit
        b"\xc0\xc0",  # trailing data
        b"\xda\xff\xff",  # truncated str
        b"",
    ],
)
def test_decode_rejects_malformed(body: bytes) -> None:
    with pytest.raises(protocol.FrameError):
        protocol.decode_body(body)


def test_decode_keeps_bin_as_bytes_for_the_validator_to_reject() -> None:
    assert protocol.decode_body(msgpack.packb({"text": b"raw"}, use_bin_type=True)) == {"text": b"raw"}


def test_default_socket_path_resolution(tmp_path: Path) -> None:
    assert protocol.default_socket_path({"OMEGAD_SOCKET": "/x/y.sock", "XDG_RUNTIME_DIR": "/run/user/1"}) == Path(
        "/x/y.sock"
    )
    assert protocol.default_socket_path({"XDG_RUNTIME_DIR": "/run/user/1"}) == Path("/run/user/1/omegad/omegad.sock")
    assert protocol.default_socket_path({"XDG_STATE_HOME": "/s", "HOME": "/h"}) == Path("/s/omegad/omegad.sock")
    assert protocol.default_socket_path({"HOME": "/h"}) == Path("/h/.local/state/omegad/omegad.sock")


def test_error_reply_requires_known_code() -> None:
    assert protocol.error_reply(1, "not_found", "gone")["error"] == {"code": "not_found", "message": "gone"}
    with pytest.raises(ValueError):
        protocol.error_reply(1, "oops", "x")


def test_error_mapping_covers_every_code() -> None:
    for code in protocol.ERROR_CODES:
        exc = error_from_reply({"code": code, "message": "m", "data": {"k": 1}})
        assert isinstance(exc, OmegadError) and exc.code == code and exc.data == {"k": 1}
    assert isinstance(error_from_reply({"code": "invalid_params", "message": "m"}), InvalidParams)
    future = error_from_reply({"code": "from_the_future", "message": "m"})
    assert type(future) is OmegadError and future.code == "from_the_future"
    assert isinstance(error_from_reply("garbage"), ProtocolError)
    assert isinstance(error_from_reply({"code": 1}), ProtocolError)
