"""`omegad.cli.upsert.as_stored`: a record as the daemon stores it after redaction."""

from __future__ import annotations

from omegad.cli.upsert import as_stored


def test_spans_are_replaced_in_the_text_and_at_metadata_paths() -> None:
    metadata = {"source": {"headers": ["Accept: json", "X-Key: SECRET9"]}, "n": 1}
    text, meta = as_stored(
        "a SECRET1 and SECRET2 b",
        metadata,
        [
            {"field": "text", "kind": "k", "start": 2, "end": 9},
            {"field": "text", "kind": "k", "start": 14, "end": 21},
            {"field": "metadata.source.headers[1]", "kind": "password", "start": 7, "end": 14},
        ],
    )
    assert text == "a [redacted:k] and [redacted:k] b"
    assert meta == {"source": {"headers": ["Accept: json", "X-Key: [redacted:password]"]}, "n": 1}
    assert metadata["source"]["headers"][1] == "X-Key: SECRET9"  # the caller's copy is untouched
    assert as_stored("plain", None, []) == ("plain", None)
