"""Fixtures of the team-mode tests: a loopback S3 (moto) per test module, with the bucket the
module names in its ``BUCKET``, and a fresh prefix of it per test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from omegad.storage.bucket import Bucket

from ..s3server import MotoServer


@pytest.fixture(scope="module")
def moto(request: pytest.FixtureRequest) -> Iterator[MotoServer]:
    with MotoServer() as server:
        server.create_bucket(request.module.BUCKET)
        yield server


@pytest.fixture
def bucket(moto: MotoServer, request: pytest.FixtureRequest) -> Bucket:
    """omegad's objects under a fresh prefix of the module's bucket."""
    return Bucket(f"s3://{request.module.BUCKET}/{uuid.uuid4().hex[:8]}", moto.storage_options())
