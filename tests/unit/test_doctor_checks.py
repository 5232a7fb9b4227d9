"""`omegad doctor`'s daemon lines come from whatever ``hello`` and ``stats`` say: in degraded
modes fields are null or missing (a deleted data directory has no size), and every line must
still print, never a "check failed"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from omegad.cli.doctor import daemon_checks

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def maps(**fields: Any) -> st.SearchStrategy[Any]:
    """A map with any subset of *fields*, or any other value in its place."""
    return st.fixed_dictionaries({}, optional=fields) | values


problem = maps(code=values, message=values, detail=values, fix=values, since=values)
hellos = maps(daemon_version=values, status=values, problems=st.lists(problem, max_size=3) | values)
statses = maps(
    uptime_s=values,
    memories=values,
    store=maps(fragments=values, unindexed_rows=values, versions=values, disk_bytes=values),
    maintenance=maps(due=values),
    models=maps(reranker=maps(state=st.just("failed") | values, last_error=values)),
)


@given(hellos, statses)
def test_daemon_lines_survive_every_reply(hello: Any, stats: Any) -> None:
    checks = daemon_checks(Path("/run/omegad.sock"), hello, stats)
    assert checks[0].name == "daemon" and checks[0].level in ("ok", "error")
    assert any(c.name == "store" for c in checks)
    for c in checks:
        assert c.line()
        json.dumps(c.as_dict())


def test_a_deleted_data_directory_reads_as_unknown_sizes() -> None:
    problem = {"code": "data_dir_missing", "message": "gone", "fix": "restore it", "detail": "deleted"}
    stats = {"uptime_s": 3.2, "memories": 61, "store": {"disk_bytes": None, "fragments": None}}
    checks = {c.name: c for c in daemon_checks(Path("/s"), {"problems": [problem]}, stats)}
    assert checks["daemon"].level == "error" and "data_dir_missing" in checks["daemon"].detail
    assert checks["daemon data_dir_missing"].fix == "restore it"
    assert checks["store"].detail == "61 memories, ? fragments, ? unindexed rows, ? versions, ? MB"
