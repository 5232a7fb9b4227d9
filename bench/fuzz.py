"""Fuzz a real daemon over its socket with the strategies of tests/integration/test_fuzz.py,
many more cases: random params for every method (random method names too), near-valid params
for every method (valid params with a field dropped, added, swapped for a random or a boundary
value, or left valid) and random frame bodies. Counts the outcomes, per method for the
near-valid cases; fails on a malformed reply, an ``internal`` error, a daemon that died, or a
change to the memories stored before.

    python bench/fuzz.py [--cases 100000] [--mode all|random|near|frames] [--seed N]

``all`` splits the cases into thirds: random params, near-valid params, frame bodies. A failed
check is counted (``FAILED``) and fuzzing goes on; the distinct failures are printed at the end,
each with the first request that showed it (a dead daemon stops the run).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "client"))

import msgpack  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.helpers import Daemon  # noqa: E402
from tests.integration.test_fuzz import (  # noqa: E402
    ENVELOPE_CODES,
    METHODS,
    PARAMS,
    VALUES,
    Case,
    NearValidRunner,
    Wire,
    _well_formed,
    check_kept,
    near_valid,
    seed_memories,
)

MODES = ("all", "random", "near", "frames")


def _split(cases: int, mode: str) -> dict[str, int]:
    if mode != "all":
        return {mode: cases}
    third = cases // 3
    return {"random": cases - 2 * third, "near": third, "frames": third}


def _table(counts: collections.Counter[tuple[str, str]]) -> list[str]:
    """Near-valid outcomes: one row per method, one column per outcome."""
    codes = sorted({code for _, code in counts}, key=lambda c: (c != "ok", c))
    methods = [m for m in METHODS if any(counts[m, c] for c in codes)]
    head = ["method", "cases", "reached", *codes]
    rows = []
    for m in [*methods, "total"]:
        row = {c: sum(counts[x, c] for x in methods) if m == "total" else counts[m, c] for c in codes}
        total = sum(row.values())
        reached = total - sum(row.get(c, 0) for c in ENVELOPE_CODES)
        rows.append([m, str(total), f"{reached} ({100 * reached / max(total, 1):.0f}%)", *(str(row[c]) for c in codes)])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [fmt.format(*head), *(fmt.format(*r) for r in rows)]


def _log_problems(log: str) -> dict[tuple[str, str], tuple[int, str]]:
    """Warnings and errors in the daemon's JSON log, and lines that are not JSON: (level, event)
    -> (count, first line)."""
    found: dict[tuple[str, str], tuple[int, str]] = {}
    for line in log.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:  # e.g. a library writing to stderr
            entry = {"level": "other", "event": "line not from the daemon's JSON log"}
        if not isinstance(entry, dict) or entry.get("level") not in ("warning", "error", "critical", "other"):
            continue
        key = (str(entry["level"]), str(entry.get("event")))
        count, first = found.get(key, (0, line))
        found[key] = (count + 1, first)
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--mode", choices=MODES, default="all")
    ap.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: random)")
    args = ap.parse_args()
    split = _split(args.cases, args.mode)
    d = Daemon(Path(tempfile.mkdtemp(prefix="omegad-fuzz-")), config="[server]\nframe_timeout_s = 2.0\n").start()
    outcomes: collections.Counter[str] = collections.Counter()
    elapsed: dict[str, float] = {}
    #: Distinct failed checks: their message without request ids -> (count, first full message).
    failures: dict[str, tuple[int, str]] = {}

    def failed(exc: AssertionError, where: str) -> None:
        if not d.alive:
            raise exc
        text = f"{where}: {exc}"
        key = re.sub(r"'id': \d+", "'id': N", text.splitlines()[0])[:300]
        count, first = failures.get(key, (0, text))
        failures[key] = (count + 1, first)

    def run(name: str, test: Callable[[], None]) -> None:
        if args.seed is not None:
            test = seed(args.seed)(test)
        started = time.perf_counter()
        test()
        elapsed[name] = time.perf_counter() - started

    def config(cases: int) -> settings:
        return settings(
            max_examples=max(cases, 1), deadline=None, suppress_health_check=list(HealthCheck), database=None
        )

    try:
        with d.client() as c:
            before = seed_memories(c)
        wire = Wire(d.socket)
        near = NearValidRunner(d, wire)
        methods = st.one_of(st.sampled_from([m for m in METHODS if m != "maintain"]), VALUES)

        @config(split.get("random", 0))
        @given(method=methods, params=PARAMS)
        def requests(method: Any, params: Any) -> None:
            rid, reply = wire.request(method, params)
            assert d.alive, d.log()[-3000:]
            try:
                _well_formed(reply, rid)
            except AssertionError as exc:
                failed(exc, f"random: request {rid} {method!r} {params!r}"[:2000])
                outcomes["random: FAILED"] += 1
                return
            near.note(method, params, reply)  # an export it opened can be finished by the near-valid cases
            outcomes["random: " + ("ok" if reply["ok"] else reply["error"]["code"])] += 1

        @config(split.get("frames", 0))
        @given(body=st.one_of(st.binary(max_size=200), VALUES.map(lambda v: msgpack.packb(v))))
        def bodies(body: bytes) -> None:
            reply = wire.body(body)
            assert d.alive, d.log()[-3000:]
            if reply is None:
                outcomes["frame: closed"] += 1
                return
            try:
                _well_formed(reply, None)
            except AssertionError as exc:
                failed(exc, f"frame: {body!r}"[:2000])
                outcomes["frame: FAILED"] += 1
                return
            outcomes["frame: " + ("ok" if reply["ok"] else reply["error"]["code"])] += 1

        if split.get("random"):
            run("random", requests)
        if split.get("near"):
            per_method = max(1, split["near"] // len(METHODS))
            started = time.perf_counter()
            for method in METHODS:

                @config(per_method)
                @given(case=near_valid(method))
                def near_cases(case: Case) -> None:
                    try:
                        outcomes["near: " + near.run(case)] += 1
                    except AssertionError as exc:
                        failed(exc, "near")
                        outcomes["near: FAILED"] += 1
                        near.counts[case.method, "FAILED"] += 1

                run("near " + method, near_cases)
            elapsed["near"] = time.perf_counter() - started
        if split.get("frames"):
            run("frames", bodies)
        with d.client() as c:
            try:
                check_kept(c, before)
            except AssertionError as exc:
                failed(exc, "the memories stored before changed")
            c.ping()
    finally:
        code = d.stop()
        log = d.log()
        d.cleanup()
    total = sum(outcomes.values())
    spent = sum(v for k, v in elapsed.items() if not k.startswith("near "))
    kept = "changed" if any(k.startswith("the memories") for k in failures) else "unchanged"
    print(f"{total} cases in {spent:.0f} s; daemon exit {code}; stored memories {kept}")
    for name, prefix in (("random", "random: "), ("near", "near: "), ("frames", "frame: ")):
        if name in elapsed:
            n = sum(v for k, v in outcomes.items() if k.startswith(prefix))
            print(f"  {name}: {n} cases in {elapsed[name]:.0f} s")
    for name, n in sorted(outcomes.items()):
        print(f"  {name}: {n}")
    if near.counts:
        print("near-valid params, per method:")
        for line in _table(near.counts):
            print("  " + line)
    logged = _log_problems(log)
    if logged:
        print("warnings and errors the daemon logged:")
        for (level, event), (n, first) in sorted(logged.items()):
            print(f"  {level} {event}: {n} (first: {first[:300]})")
    if failures:
        print(f"{sum(n for n, _ in failures.values())} failed checks, {len(failures)} distinct:")
        for n, first in failures.values():
            print(f"- {n} x {first}")
    return 0 if code == 0 and not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
