"""Fuzz a real daemon over its socket with the strategies of tests/integration/test_fuzz.py,
many more cases: random params for every method (random method names too) and random frame
bodies. Counts the outcomes; fails on a malformed reply, an ``internal`` error, a daemon that
died, or a change to the memories stored before.

    python bench/fuzz.py [--cases 100000]
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "client"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from omegad_client.protocol import METHODS  # noqa: E402
from tests.helpers import Daemon  # noqa: E402
from tests.integration.test_fuzz import PARAMS, VALUES, Wire, _well_formed  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=100_000)
    args = ap.parse_args()
    d = Daemon(Path(tempfile.mkdtemp(prefix="omegad-fuzz-")), config="[server]\nframe_timeout_s = 2.0\n").start()
    outcomes: collections.Counter[str] = collections.Counter()
    try:
        with d.client() as c:
            texts = ["The deploy pipeline runs on merge", "Invoices are archived monthly", "Use ruff for linting"]
            ids = [c.store(t, namespace="fuzz-keep") for t in texts]
            c.flush()
            before = {i: c.get(i) for i in ids}
        wire = Wire(d.socket)
        methods = st.one_of(st.sampled_from([m for m in METHODS if m != "maintain"]), VALUES)
        started = time.perf_counter()

        @settings(max_examples=args.cases * 2 // 3, deadline=None, suppress_health_check=list(HealthCheck))
        @given(method=methods, params=PARAMS)
        def requests(method: Any, params: Any) -> None:
            rid, reply = wire.request(method, params)
            assert d.alive, d.log()[-3000:]
            _well_formed(reply, rid)
            outcomes["ok" if reply["ok"] else reply["error"]["code"]] += 1

        @settings(max_examples=args.cases - args.cases * 2 // 3, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=st.one_of(st.binary(max_size=200), VALUES.map(lambda v: __import__("msgpack").packb(v))))
        def bodies(body: bytes) -> None:
            reply = wire.body(body)
            assert d.alive, d.log()[-3000:]
            if reply is None:
                outcomes["closed"] += 1
            else:
                _well_formed(reply, None)
                outcomes["frame: " + ("ok" if reply["ok"] else reply["error"]["code"])] += 1

        requests()
        bodies()
        elapsed = time.perf_counter() - started
        with d.client() as c:
            assert {i: c.get(i) for i in before} == before, "memories stored before changed"
            c.ping()
    finally:
        code = d.stop()
        d.cleanup()
    total = sum(outcomes.values())
    print(f"{total} cases in {elapsed:.0f} s; daemon exit {code}; stored memories unchanged")
    for name, n in outcomes.most_common():
        print(f"  {name}: {n}")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
