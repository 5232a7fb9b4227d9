"""Soak test: many client processes hammer one real daemon with mixed operations.

    python bench/soak.py [--ops 10000] [--procs 8] [--seed 1] [--rate OPS_PER_S] [--save FILE] [--keep]

One fresh daemon (`_daemon.BenchDaemon`, default configuration) on a temporary socket and data
dir; ``--procs`` client *processes* (``spawn``: each its own `Client` connection) start together
and each runs ``--ops`` operations drawn at random (seeded per process) from this mix:

========== ====== ===================================================================
method     share  what
========== ====== ===================================================================
store      22 %   one memory, 30-600 characters; a tenth with a client-chosen id, and
                  now and then a retry of such a store (must answer ``created: false``)
store_batch 6 %   2-16 memories in one call
query      30 %   own / team / shared / default namespace, sometimes type or tag
                  filters, limits 1-50, sometimes ``explain``
get        30 %   mostly an own live id (text, type, tags, namespace, metadata must
                  match), some own deleted ids (must be ``not_found``) and some ids of
                  other processes seen in query results (may be gone: a ``not_found``
                  there is expected, a different text is not)
delete     10 %   an own live id (must answer ``deleted: true``); a tenth repeat an own
                  deleted id (must answer ``deleted: false``)
flush       2 %   waits for every write and background job queued before it
========== ====== ===================================================================

A tenth of the stores are statements about a shared pool of facts ("the data team uses
Jenkins for nightly builds" / "... no longer uses Jenkins ..., it switched to GitLab CI"),
in the shared or a team namespace, so the background contradiction checker flags pairs
while the soak runs. Every memory carries ``{"proc", "seq", "sha"}`` metadata (``sha``: a
hash of its text), so any process can tell a well-formed memory of another process. Each text
ends with its process and sequence number, so no two are the same: an exact repeat in a
namespace would be merged into the first (docs/duplicates.md).

Checks while running (any failure, and any unexpected exception, is an error): store returns
a valid new id; a get of an own live id returns exactly what was stored; a deleted id is
``not_found`` for get and never comes back from a query; query results are well formed (every
key of the protocol, the requested namespace, the type and tag filters, at most ``limit``,
scores descending, text matching its hash). After all processes finish: each re-reads every
id it still holds (get); the parent then checks the daemon answers ``ping``, that a paged
``export`` holds every live id exactly once and nothing else (and only edges between live
memories of one namespace), that ``stats`` counts exactly the live memories per namespace,
and that the daemon exits 0 on SIGTERM with no error in its log.

By default each process sends its next operation as soon as the last is answered (a closed
loop): a daemon that answers faster is sent more, so its medians are measured under a heavier
load, and a slow ``flush`` (which waits for the contradiction checks) lightens the load of the
other calls. ``--rate`` offers a fixed load instead (operations/s of all processes together;
each process waits ``procs / rate`` seconds between the starts of two operations), so two
daemons can be compared at the same load as long as both keep up with it (the report says the
operations/s reached).

Reported: per method the calls, p50 / p99 / max latency in ms measured in the client around
the call; total operations, wall time of the operation phase and throughput; errors (must be
0: the exit status is 1 otherwise); the daemon's RSS at the end (and its peak); contradiction
edges flagged. ``--ops 200`` is a smoke run of about a minute.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing as mp
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _daemon import BenchDaemon, pct
from bench_store_query import OBJECTS, SUBJECTS

from omegad_client import Client, NotFound, OmegadError
from omegad_client.protocol import MEMORY_TYPES

# -- the mix ---------------------------------------------------------------------------------

METHODS = ("store", "store_batch", "query", "get", "delete", "flush")
WEIGHTS = (22, 6, 30, 30, 10, 2)
SHARED_NS = "shared"
TAGS = ("auth", "ci", "billing", "infra", "frontend", "oncall", "db", "perf", "security", "docs")
#: memory types, most common first (realistic agents store many plain memories and decisions)
TYPE_WEIGHTS = {
    "memory": 20,
    "decision": 12,
    "fact": 12,
    "lesson": 8,
    "note": 10,
    "preference": 6,
    "error": 6,
    "todo": 6,
    "session": 4,
}
assert set(TYPE_WEIGHTS) == set(MEMORY_TYPES)
QUERY_LIMITS = (None, 1, 3, 5, 5, 10, 10, 20, 50)
MAX_ERRORS_KEPT = 20
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$")
MEMORY_KEYS = {
    "id": str,
    "text": str,
    "type": str,
    "tags": list,
    "namespace": str,
    "metadata": dict,
    "created_at": str,
    "updated_at": str,
    "version": int,
}

# -- text generation ----------------------------------------------------------------------------


def _alternatives(text: str) -> list[str]:
    return text.split("|")


VERBS = _alternatives(
    "fails on|times out on|retries|was migrated to|needs|depends on|reads from|writes to|was rolled back after|"
    "leaks memory on|logs|rejects|caches|throttles|was upgraded to handle|must not touch|should call|keeps|drops|"
    "duplicates|validates|ignores|compresses|was moved behind|blocks on|pages on|exports|syncs with|replaced"
)
QUALIFIERS = _alternatives(
    "after the last release|during peak hours|when the disk is almost full|on Mondays|since the upgrade to version 3|"
    "only in production|unless the flag is enabled|every few minutes|under heavy load|when the network is flaky|"
    "after a cold restart|for enterprise customers|before the quarterly audit|while the migration runs|"
    "behind the corporate proxy|on the first of each month|until we rotate the keys|"
    "if the payload exceeds 10 MB|without any warning in the logs"
)
CONNECTORS = ("and", "but", "so", "because", "although", "which means", "while", "and then", "yet")
FILLERS = _alternatives(
    "We decided to keep it that way.|Alice wants a ticket for it.|This was confirmed in the postmortem.|"
    "The fix is tracked in JIRA.|Nobody owns it yet.|The workaround is a manual restart.|"
    "We should revisit this next sprint.|It cost us about two hours.|The docs are out of date.|"
    "Remember to tell the on-call engineer.|The vendor says it is expected.|The alert threshold is too low."
)
QUESTION_STARTS = ("why does", "how do we fix", "what happened to", "when did", "who owns", "where is", "does")

# Facts stated both ways, so the contradiction checker has pairs to find: (old form, new form).
TEAMS = ("the data team", "the platform team", "the mobile team", "the billing team", "the security team")
TOOLS = ("Jenkins", "GitLab CI", "CircleCI", "Buildkite", "Airflow", "Dagster", "Terraform", "Pulumi", "Grafana")
PURPOSES = ("nightly builds", "release pipelines", "scheduled exports", "infrastructure changes", "dashboards")
PEOPLE = ("Alice", "Bob", "Priya", "Marcus", "Chen", "Fatima")
APPS = ("the editor", "the terminal", "the admin panel", "the docs site")
SERVICES = ("the billing API", "the search service", "the auth proxy", "the upload service", "the GraphQL gateway")
FLAGS = ("new-checkout", "fast-search", "dark-launch-v2", "batch-exports", "smart-retries")


def fact_pairs() -> list[tuple[str, str]]:
    """The shared fact pool (the same in every process): statements and their reversals."""
    pairs: list[tuple[str, str]] = []
    for i, team in enumerate(TEAMS):
        for j, purpose in enumerate(PURPOSES):
            a = TOOLS[(i + j) % len(TOOLS)]
            b = TOOLS[(i + j + 3) % len(TOOLS)]
            pairs.append(
                (f"{team} uses {a} for {purpose}.", f"{team} no longer uses {a} for {purpose}, it switched to {b}.")
            )
    for person in PEOPLE:
        for app in APPS:
            pairs.append((f"{person} prefers dark mode in {app}.", f"{person} switched to light mode in {app}."))
    for k, service in enumerate(SERVICES):
        pairs.append(
            (
                f"The request timeout of {service} is {10 * (k + 1)} seconds.",
                f"The request timeout of {service} is now {10 * (k + 4)} seconds.",
            )
        )
        pairs.append(
            (f"{service} accepts uploads from partner accounts.", f"{service} rejects uploads from partner accounts.")
        )
    for flag in FLAGS:
        pairs.append(
            (f"Feature flag {flag} is enabled in production.", f"Feature flag {flag} is disabled in production.")
        )
    return [(a[0].upper() + a[1:], b[0].upper() + b[1:]) for a, b in pairs]


FACTS = fact_pairs()


def _sentence(rng: random.Random) -> str:
    words = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    r = rng.random()
    if r < 0.5:
        words += " " + rng.choice(QUALIFIERS)
    elif r < 0.65:
        words += f" (ticket {rng.randint(100, 9999)})"
    elif r < 0.75:
        words += f" on port {rng.randint(1024, 65535)}"
    if rng.random() < 0.35:
        words += f", {rng.choice(CONNECTORS)} {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    return words[0].upper() + words[1:] + "."


def memory_text(rng: random.Random) -> str:
    """A memory-like text of 30-600 characters (most of them short, a few long)."""
    r = rng.random()
    target = rng.randint(30, 150) if r < 0.6 else rng.randint(150, 350) if r < 0.9 else rng.randint(350, 600)
    parts: list[str] = []
    length = -1
    while length < target:
        part = rng.choice(FILLERS) if parts and rng.random() < 0.25 else _sentence(rng)
        parts.append(part)
        length += len(part) + 1
    text = " ".join(parts)
    if len(text) > 600:
        cut = text.rfind(" ", 0, 599)
        text = text[:cut].rstrip(",.") + "."
    return text


def query_text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        words = f"{rng.choice(QUESTION_STARTS)} {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    elif rng.random() < 0.5:
        a, b = rng.choice(FACTS)
        words = " ".join(rng.choice((a, b)).rstrip(".").split()[:6])
    else:
        words = f"{rng.choice(SUBJECTS)} {rng.choice(OBJECTS)} {rng.choice(QUALIFIERS)}"
    return words


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- statistics -------------------------------------------------------------------------------


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "p50": float("nan"), "p99": float("nan"), "max": float("nan"), "total_s": 0.0}
    return {
        "n": len(values),
        "p50": round(pct(values, 0.5), 2),
        "p99": round(pct(values, 0.99), 2),
        "max": round(max(values), 2),
        "total_s": round(sum(values) / 1000, 2),
    }


def rss_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in kB (empty once it is gone)."""
    out: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# -- one client process -------------------------------------------------------------------------


@dataclass
class Mine:
    """What this process stored and still holds (what a get must return)."""

    text: str
    type: str
    tags: list[str]
    namespace: str
    metadata: dict[str, Any]
    custom_id: bool


class IdPool:
    """Ids with O(1) add, remove and uniform random choice."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.index: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, key: object) -> bool:
        return key in self.index

    def add(self, key: str) -> None:
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(key)

    def remove(self, key: str) -> None:
        i = self.index.pop(key)
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.index[last] = i

    def choice(self, rng: random.Random) -> str:
        return self.items[rng.randrange(len(self.items))]


class Mismatch(Exception):
    """A reply that is well received but wrong (a correctness failure)."""


@dataclass
class Worker:
    k: int
    procs: int
    seed: int
    client: Client
    rng: random.Random = field(init=False)
    live: dict[str, Mine] = field(default_factory=dict)
    live_ids: IdPool = field(default_factory=IdPool)
    custom_ids: IdPool = field(default_factory=IdPool)
    deleted: IdPool = field(default_factory=IdPool)
    foreign: IdPool = field(default_factory=IdPool)
    foreign_hash: dict[str, str] = field(default_factory=dict)
    lat: dict[str, list[float]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    seq: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed * 1000 + self.k)

    # -- bookkeeping --

    @property
    def own_ns(self) -> str:
        return f"proc-{self.k}"

    @property
    def team_ns(self) -> str:
        return f"team-{self.k % 2}"

    def error(self, method: str, message: str) -> None:
        self.errors += 1
        if len(self.error_samples) < MAX_ERRORS_KEPT:
            self.error_samples.append(f"p{self.k} {method}: {message}")

    def timed(self, key: str, started: float) -> None:
        ms = (time.perf_counter() - started) * 1000
        self.lat.setdefault(key, []).append(ms)

    def trace_stages(self, trace: list[dict[str, Any]]) -> None:
        """Keep an explained query's stage times (daemon side), to say where a query waits."""
        for st in trace:
            for key, value in st.items():
                if (key == "ms" or key.endswith("_ms")) and isinstance(value, (int, float)):
                    name = st["stage"] if key == "ms" else f"{st['stage']}: {key.removesuffix('_ms')}"
                    self.lat.setdefault(f"query stage {name}", []).append(float(value))

    def pick_namespace(self) -> str | None:
        r = self.rng.random()
        return self.own_ns if r < 0.4 else self.team_ns if r < 0.6 else SHARED_NS if r < 0.85 else None

    def new_item(self) -> tuple[dict[str, Any], Mine]:
        """Parameters of one new memory, and what a get must later return for it."""
        rng = self.rng
        self.seq += 1
        if rng.random() < 0.1:
            a, b = rng.choice(FACTS)
            text = b if rng.random() < 0.5 else a
            namespace: str | None = SHARED_NS if rng.random() < 0.6 else self.team_ns
        else:
            text = memory_text(rng)
            namespace = self.pick_namespace()
        # Every text is new: an exact repeat in one namespace would be merged into the memory
        # stored first (docs/duplicates.md), which the checks here would count as a wrong id.
        text = f"{text} (p{self.k}.{self.seq})"
        meta = {"proc": self.k, "seq": self.seq, "sha": text_hash(text)}
        params: dict[str, Any] = {"text": text, "metadata": meta}
        mtype = "memory"
        if rng.random() < 0.85:
            mtype = rng.choices(list(TYPE_WEIGHTS), weights=list(TYPE_WEIGHTS.values()))[0]
            params["type"] = mtype
        tags = rng.sample(TAGS, rng.randint(0, 3))
        if tags:
            params["tags"] = tags
        if namespace is not None:
            params["namespace"] = namespace
        custom = rng.random() < 0.1
        if custom:
            params["id"] = f"soak-{self.seed}-p{self.k}-{self.seq}"
        mine = Mine(text, mtype, sorted(tags), namespace or "default", meta, custom)
        return params, mine

    def remember(self, memory_id: str, mine: Mine) -> None:
        if not isinstance(memory_id, str) or not ID_RE.match(memory_id):
            raise Mismatch(f"invalid id {memory_id!r}")
        if memory_id in self.live or memory_id in self.deleted:
            raise Mismatch(f"id {memory_id} returned for a new memory was already used")
        self.live[memory_id] = mine
        self.live_ids.add(memory_id)
        if mine.custom_id:
            self.custom_ids.add(memory_id)

    def check_memory(self, m: Any, where: str) -> None:
        """*m* has every key of a memory with the right types, and its text matches its hash."""
        if not isinstance(m, dict):
            raise Mismatch(f"{where}: not a map: {m!r}")
        for key, typ in MEMORY_KEYS.items():
            if not isinstance(m.get(key), typ):
                raise Mismatch(f"{where}: key {key!r} missing or not {typ.__name__}: {m.get(key)!r}")
        meta = m["metadata"]
        if not isinstance(meta.get("proc"), int) or meta.get("sha") != text_hash(m["text"]):
            raise Mismatch(f"{where}: memory {m['id']} text does not match its metadata {meta!r}")
        if m["type"] not in MEMORY_TYPES:
            raise Mismatch(f"{where}: memory {m['id']} has unknown type {m['type']!r}")

    def check_mine(self, m: dict[str, Any], mine: Mine, where: str) -> None:
        self.check_memory(m, where)
        got = (m["text"], m["type"], sorted(m["tags"]), m["namespace"], m["metadata"])
        want = (mine.text, mine.type, mine.tags, mine.namespace, mine.metadata)
        if got != want:
            raise Mismatch(f"{where}: memory {m['id']} is {got!r}, stored {want!r}")

    # -- operations --

    def op_store(self) -> None:
        rng = self.rng
        if len(self.custom_ids) and rng.random() < 0.03:
            # a retry of a store with a client-chosen id: idempotent
            memory_id = self.custom_ids.choice(rng)
            mine = self.live[memory_id]
            params: dict[str, Any] = {
                "text": mine.text,
                "type": mine.type,
                "metadata": mine.metadata,
                "id": memory_id,
                "namespace": mine.namespace,
            }
            if mine.tags:
                params["tags"] = mine.tags
            s = time.perf_counter()
            reply = self.client.store_result(**params)
            self.timed("store", s)
            self.counts["store retry"] += 1
            if reply.get("id") != memory_id or reply.get("created") is not False:
                raise Mismatch(f"retry of {memory_id} answered {reply!r}, expected created false")
            return
        params, mine = self.new_item()
        s = time.perf_counter()
        reply = self.client.store_result(**params)
        self.timed("store", s)
        if reply.get("created") is not True:
            raise Mismatch(f"store answered {reply!r}, expected created true")
        if mine.custom_id and reply.get("id") != params["id"]:
            raise Mismatch(f"store with id {params['id']} answered {reply!r}")
        self.remember(reply["id"], mine)

    def op_store_batch(self) -> None:
        n = self.rng.randint(2, 16)
        made = [self.new_item() for _ in range(n)]
        s = time.perf_counter()
        ids = self.client.store_batch([p for p, _ in made])
        self.timed("store_batch", s)
        self.counts["batch items"] += n
        if not isinstance(ids, list) or len(ids) != n or len(set(ids)) != n:
            raise Mismatch(f"store_batch of {n} answered ids {ids!r}")
        for memory_id, (params, mine) in zip(ids, made, strict=True):
            if mine.custom_id and memory_id != params["id"]:
                raise Mismatch(f"store_batch item with id {params['id']} answered {memory_id}")
            self.remember(memory_id, mine)

    def op_query(self) -> None:
        rng = self.rng
        namespace = self.pick_namespace()
        kwargs: dict[str, Any] = {}
        if namespace is not None:
            kwargs["namespace"] = namespace
        limit = rng.choice(QUERY_LIMITS)
        if limit is not None:
            kwargs["limit"] = limit
        types = tags = None
        if rng.random() < 0.25:
            types = rng.sample(MEMORY_TYPES, rng.randint(1, 3))
            kwargs["types"] = types
        if rng.random() < 0.15:
            tags = rng.sample(TAGS, rng.randint(1, 2))
            kwargs["tags"] = tags
        explain = rng.random() < 0.05
        text = query_text(rng)
        s = time.perf_counter()
        reply = self.client.query(text, explain=explain, **kwargs)
        self.timed("query", s)
        kind = "filtered" if types or tags else "namespace" if namespace else "default ns"
        self.counts[f"query {kind}"] += 1
        if explain:
            if not isinstance(reply, dict) or not isinstance(reply.get("trace"), list):
                raise Mismatch(f"explain reply without a trace: {str(reply)[:300]}")
            stages = [st.get("stage") for st in reply["trace"]]
            if stages[:1] != ["embed"]:
                raise Mismatch(f"explain trace stages {stages}")
            self.trace_stages(reply["trace"])
            results = reply.get("results")
        else:
            results = reply
        if not isinstance(results, list):
            raise Mismatch(f"query results are not a list: {str(reply)[:300]}")
        if len(results) > (limit or 5):
            raise Mismatch(f"query with limit {limit} returned {len(results)} results")
        want_ns = namespace or "default"
        last = math.inf
        for r in results:
            self.check_memory(r, "query")
            score = r.get("score")
            if not isinstance(score, float) or not math.isfinite(score):
                raise Mismatch(f"query result {r['id']} has score {score!r}")
            if score > last + 1e-9:
                raise Mismatch(f"query scores not descending: {last} then {score}")
            last = score
            if r["namespace"] != want_ns:
                raise Mismatch(f"query in {want_ns} returned {r['id']} of namespace {r['namespace']}")
            if types and r["type"] not in types:
                raise Mismatch(f"query for types {types} returned {r['id']} of type {r['type']}")
            if tags and not set(tags) & set(r["tags"]):
                raise Mismatch(f"query for tags {tags} returned {r['id']} with tags {r['tags']}")
            for key in ("contradicts", "contradicted_by"):
                for edge in r.get(key, []):
                    if not isinstance(edge, dict) or not isinstance(edge.get("id"), str):
                        raise Mismatch(f"query result {r['id']} has a malformed {key}: {edge!r}")
            memory_id = r["id"]
            if r["metadata"]["proc"] == self.k:
                if memory_id in self.deleted:
                    raise Mismatch(f"query returned {memory_id}, deleted (acknowledged) before the query")
                mine = self.live.get(memory_id)
                if mine is None:
                    raise Mismatch(f"query returned {memory_id} with this process's metadata, never stored")
                self.check_mine(r, mine, "query")
            elif memory_id not in self.foreign and len(self.foreign) < 5000:
                self.foreign.add(memory_id)
                self.foreign_hash[memory_id] = r["metadata"]["sha"]

    def op_get(self) -> None:
        rng = self.rng
        r = rng.random()
        if r < 0.1 and len(self.foreign):
            memory_id = self.foreign.choice(rng)
            s = time.perf_counter()
            try:
                m = self.client.get(memory_id)
            except NotFound:
                self.timed("get", s)
                self.counts["get foreign, gone"] += 1
                self.foreign.remove(memory_id)  # another process deleted it: legitimate
                return
            self.timed("get", s)
            self.counts["get foreign"] += 1
            self.check_memory(m, "get foreign")
            if m["id"] != memory_id or m["metadata"]["sha"] != self.foreign_hash[memory_id]:
                raise Mismatch(f"get {memory_id} (another process's) returned a different memory: {m!r}")
            return
        if r < 0.18 and len(self.deleted):
            memory_id = self.deleted.choice(rng)
            s = time.perf_counter()
            try:
                m = self.client.get(memory_id)
            except NotFound:
                self.timed("get", s)
                self.counts["get deleted"] += 1
                return
            self.timed("get", s)
            raise Mismatch(f"get of deleted {memory_id} returned {str(m)[:200]}")
        memory_id = self.live_ids.choice(rng)
        s = time.perf_counter()
        m = self.client.get(memory_id)
        self.timed("get", s)
        self.counts["get own"] += 1
        if m.get("id") != memory_id:
            raise Mismatch(f"get {memory_id} returned id {m.get('id')!r}")
        self.check_mine(m, self.live[memory_id], "get")

    def op_delete(self) -> None:
        rng = self.rng
        if len(self.deleted) and rng.random() < 0.1:
            memory_id = self.deleted.choice(rng)
            s = time.perf_counter()
            deleted = self.client.delete(memory_id)
            self.timed("delete", s)
            self.counts["delete again"] += 1
            if deleted is not False:
                raise Mismatch(f"second delete of {memory_id} answered deleted={deleted!r}")
            return
        memory_id = self.live_ids.choice(rng)
        s = time.perf_counter()
        deleted = self.client.delete(memory_id)
        self.timed("delete", s)
        if deleted is not True:
            raise Mismatch(f"delete of live {memory_id} answered deleted={deleted!r}")
        self.live_ids.remove(memory_id)
        if memory_id in self.custom_ids:
            self.custom_ids.remove(memory_id)
        del self.live[memory_id]
        self.deleted.add(memory_id)

    def op_flush(self) -> None:
        s = time.perf_counter()
        reply = self.client.flush()
        self.timed("flush", s)
        if not isinstance(reply.get("waited_ms"), (int, float)):
            raise Mismatch(f"flush answered {reply!r}")

    def run_one(self) -> None:
        method = self.rng.choices(METHODS, weights=WEIGHTS)[0]
        if not self.live and method in ("get", "delete"):
            method = "store"  # nothing of its own to read or delete yet
        self.counts[method] += 1
        try:
            getattr(self, f"op_{method}")()
        except Mismatch as exc:
            self.error(method, str(exc))
        except OmegadError as exc:  # any error reply or transport failure is unexpected here
            self.error(method, f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # a reply of an unexpected shape
            self.error(method, f"unexpected {type(exc).__name__}: {exc}")

    def verify(self) -> tuple[list[float], int]:
        """Get every id still held and a sample of deleted ones; returns latencies and checks."""
        lat: list[float] = []
        checked = 0
        for memory_id, mine in list(self.live.items()):
            s = time.perf_counter()
            try:
                m = self.client.get(memory_id)
                lat.append((time.perf_counter() - s) * 1000)
                self.check_mine(m, mine, "final get")
            except Mismatch as exc:
                self.error("final get", str(exc))
            except OmegadError as exc:
                self.error("final get", f"{memory_id}: {type(exc).__name__}: {exc}")
            checked += 1
        for memory_id in self.deleted.items[:500]:
            try:
                self.client.get(memory_id)
                self.error("final get", f"deleted {memory_id} still exists")
            except NotFound:
                pass
            except OmegadError as exc:
                self.error("final get", f"{memory_id}: {type(exc).__name__}: {exc}")
            checked += 1
        return lat, checked


def client_process(
    k: int,
    procs: int,
    socket: str,
    ops: int,
    seed: int,
    start: Any,
    verify: Any,
    out: Any,
    timeout: float,
    rate: float | None = None,
) -> None:
    """One client process: run *ops* operations, report, wait for the others, re-read everything.
    With *rate* (operations/s of all processes together) each operation starts at least
    ``procs / rate`` seconds after the previous one began (no catching up after a slow one)."""
    w: Worker | None = None
    try:
        with Client(socket, timeout=timeout) as c:
            w = Worker(k, procs, seed, c)
            c.ping()
            start.wait(300)
            t0 = time.monotonic()
            step = max(ops // 10, 1)
            gap = procs / rate if rate else 0.0
            began = time.monotonic()
            for i in range(ops):
                if gap:
                    time.sleep(max(0.0, began + gap - time.monotonic()))
                    began = time.monotonic()
                w.run_one()
                if (i + 1) % step == 0 and procs * ops >= 2000:
                    log(f"p{k}: {i + 1}/{ops} ops, {w.errors} errors, {len(w.live)} live")
            t1 = time.monotonic()
            out.put({"kind": "ops_done", "k": k})
            verify.wait()
            vlat, checked = w.verify()
        out.put(
            {
                "kind": "result",
                "k": k,
                "t0": t0,
                "t1": t1,
                "lat": w.lat,
                "counts": dict(w.counts),
                "errors": w.errors,
                "error_samples": w.error_samples,
                "live": {i: (m.metadata["sha"], m.namespace) for i, m in w.live.items()},
                "deleted": len(w.deleted),
                "verify_lat": vlat,
                "verified": checked,
            }
        )
    except BaseException as exc:  # report instead of leaving the parent waiting
        out.put({"kind": "crash", "k": k, "error": f"{type(exc).__name__}: {exc}"})
        raise


# -- the daemon -----------------------------------------------------------------------------------


class SoakDaemon(BenchDaemon):
    """`BenchDaemon` that is stopped explicitly, so its exit code and log can be read."""

    returncode: int | None = None
    log_levels: Counter[str]
    log_problems: list[str]

    def stop_and_read_log(self, timeout: float = 120) -> int | None:
        """The exit code after SIGTERM; None when the daemon had to be killed."""
        try:
            self.returncode = self.stop(timeout)
        except subprocess.TimeoutExpired:
            log(f"daemon still running {timeout} s after SIGTERM: killed it")
            self.returncode = None
        self.read_log()
        return self.returncode

    def read_log(self) -> None:
        self.log_levels = Counter()
        self.log_problems = []
        for line in self.log().splitlines():
            try:
                entry = json.loads(line)
                level = str(entry.get("level", "?"))
            except (ValueError, AttributeError):
                # Lance's own log lines; a compaction that a concurrent delete pre-empted is
                # expected and handled (the pass reports it, the next one runs in the writer)
                level = "lance_preempted" if _LANCE_PREEMPTED in line and "preempted" in line else "unparsed"
            self.log_levels[level] += 1
            if level in ("error", "critical", "exception", "unparsed") and len(self.log_problems) < MAX_ERRORS_KEPT:
                self.log_problems.append(line[:600])


_LANCE_PREEMPTED = "WARN  lance::dataset::optimize] Compaction commit failed"


class RssSampler(threading.Thread):
    def __init__(self, pid: int, every: float = 2.0) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.every = every
        self.peak = 0
        self.stop_event = threading.Event()

    def run(self) -> None:
        while not self.stop_event.wait(self.every):
            self.peak = max(self.peak, rss_kb(self.pid).get("VmRSS", 0))


# -- the run ----------------------------------------------------------------------------------------


def final_checks(d: SoakDaemon, results: list[dict[str, Any]], errors: list[str]) -> dict[str, Any]:
    """ping, export and stats against what the processes hold; appends failures to *errors*."""
    expected: dict[str, tuple[str, str]] = {}
    for r in results:
        expected.update(r["live"])
    per_ns = Counter(ns for _, ns in expected.values())
    out: dict[str, Any] = {"live": len(expected)}
    with d.client(timeout=1800) as c:
        c.ping()
        c.flush()
        seen: Counter[str] = Counter()
        edges: list[dict[str, Any]] = []
        t = time.perf_counter()
        for record in c.export_records(page=1000):
            if record.get("record") == "memory":
                seen[record["id"]] += 1
                want = expected.get(record["id"])
                if want is None:
                    errors.append(f"export: unexpected memory {record['id']} ({record.get('namespace')})")
                elif (record["metadata"].get("sha"), record["namespace"]) != want or text_hash(record["text"]) != want[
                    0
                ]:
                    errors.append(f"export: memory {record['id']} differs from what its process stored")
            elif record.get("record") == "edge":
                edges.append(record)
        out["export_s"] = round(time.perf_counter() - t, 1)
        dup = [i for i, n in seen.items() if n > 1]
        missing = [i for i in expected if i not in seen]
        if dup:
            errors.append(f"export: {len(dup)} ids more than once, e.g. {dup[:3]}")
        if missing:
            errors.append(f"export: {len(missing)} live ids missing, e.g. {missing[:3]}")
        for e in edges:
            src, dst = expected.get(e["source"]), expected.get(e["target"])
            if src is None or dst is None:
                errors.append(f"export: edge {e['id']} has a side that is not live ({e['source']} -> {e['target']})")
            elif not (src[1] == dst[1] == e["namespace"]):
                errors.append(f"export: edge {e['id']} crosses namespaces {src[1]} / {dst[1]} / {e['namespace']}")
        out["exported"] = sum(seen.values())
        out["edges"] = len(edges)
        stats = c.stats()
        out["stats"] = stats
        if stats["memories"] != len(expected):
            errors.append(f"stats: memories {stats['memories']}, live ids {len(expected)}")
        got_ns = {ns: v["total"] for ns, v in stats["namespaces"].items() if v["total"]}
        if got_ns != dict(per_ns):
            errors.append(f"stats: namespaces {got_ns}, expected {dict(per_ns)}")
        writer = stats["queues"]["writer"]
        background = stats["queues"]["background"]
        if writer.get("errors") or background.get("failed"):
            errors.append(f"stats: writer errors {writer.get('errors')}, background failed {background.get('failed')}")
        out["shared_contradictions"] = len(c.contradictions(namespace=SHARED_NS, limit=1000))
        c.ping()
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    ctx = mp.get_context("spawn")  # fork would copy the parent's threads (RSS sampler)
    config = args.config.read_text(encoding="utf-8") if args.config else None
    d = SoakDaemon(keep=args.keep, log_level=args.log_level, config_text=config)
    res: dict[str, Any] = {"procs": args.procs, "ops_per_proc": args.ops, "seed": args.seed, "rate": args.rate}
    errors: list[str] = []
    n_errors = 0
    with d:
        pid = d.pid()
        res["rss_start_kb"] = rss_kb(pid).get("VmRSS")
        with d.client() as c:
            hello = c.hello()
        res["daemon"] = {
            "version": hello.get("daemon_version"),
            "embedding": hello.get("embedding"),
            "reranker": (hello.get("reranker") or {}).get("state"),
        }
        sampler = RssSampler(pid)
        sampler.start()
        start = ctx.Barrier(args.procs + 1)
        verify = ctx.Event()
        out = ctx.Queue()
        procs = [
            ctx.Process(
                target=client_process,
                args=(k, args.procs, str(d.socket), args.ops, args.seed, start, verify, out, args.timeout, args.rate),
                daemon=True,
            )
            for k in range(args.procs)
        ]
        for p in procs:
            p.start()
        start.wait(300)
        t_start = time.monotonic()
        log(f"{args.procs} processes x {args.ops} operations started (daemon pid {pid})")
        done: set[int] = set()
        results: dict[int, dict[str, Any]] = {}
        crashed: dict[int, str] = {}
        while len(results) + len(crashed) < args.procs:
            try:
                msg = out.get(timeout=5)
            except queue.Empty:
                if d.proc is not None and d.proc.poll() is not None:
                    errors.append(f"daemon died with code {d.proc.returncode}")
                    n_errors += 1
                    break
                for k, p in enumerate(procs):
                    if not p.is_alive() and k not in results and k not in crashed:
                        crashed[k] = f"exited with code {p.exitcode} without a report"
                if len(done | set(crashed)) == args.procs:
                    verify.set()
                continue
            if msg["kind"] == "ops_done":
                done.add(msg["k"])
                if len(done) == 1:
                    log(f"p{msg['k']} finished its operations first")
                if len(done | set(crashed)) == args.procs:
                    res["ops_wall_s_parent"] = round(time.monotonic() - t_start, 1)
                    res["rss_after_ops_kb"] = rss_kb(pid).get("VmRSS")
                    log("all processes done: final get of every live id")
                    verify.set()
            elif msg["kind"] == "result":
                results[msg["k"]] = msg
            else:
                crashed[msg["k"]] = msg["error"]
        for p in procs:
            p.join(60)
        for k, why in sorted(crashed.items()):
            errors.append(f"p{k} crashed: {why}")
            n_errors += 1
        ordered = [results[k] for k in sorted(results)]
        for r in ordered:
            n_errors += r["errors"]
            errors.extend(r["error_samples"])
        lat: dict[str, list[float]] = {}
        for r in ordered:
            for key, values in r["lat"].items():
                lat.setdefault(key, []).extend(values)
        counts: Counter[str] = Counter()
        for r in ordered:
            counts.update(r["counts"])
        res["methods"] = {m: summary(lat.get(m, [])) for m in METHODS}
        res["query_stages"] = {
            k.removeprefix("query stage "): summary(v) for k, v in lat.items() if k.startswith("query stage ")
        }
        res["counts"] = dict(counts)
        res["total_ops"] = sum(counts[m] for m in METHODS)
        if ordered:
            wall = max(r["t1"] for r in ordered) - min(r["t0"] for r in ordered)
            res["wall_s"] = round(wall, 1)
            res["ops_per_s"] = round(res["total_ops"] / wall, 1)
        res["verify_get"] = summary([x for r in ordered for x in r["verify_lat"]])
        res["verified"] = sum(r["verified"] for r in ordered)
        res["deleted"] = sum(r["deleted"] for r in ordered)
        log("final checks: ping, export, stats")
        if d.proc is not None and d.proc.poll() is None:
            before = len(errors)
            res["final"] = final_checks(d, ordered, errors)
            n_errors += len(errors) - before
        sampler.stop_event.set()
        status = rss_kb(pid)
        res["rss_end_kb"] = status.get("VmRSS")
        res["rss_peak_kb"] = max(status.get("VmHWM", 0), sampler.peak)
        log("SIGTERM")
        t = time.perf_counter()
        code = d.stop_and_read_log()
        res["shutdown_s"] = round(time.perf_counter() - t, 2)
        res["daemon_exit"] = code
        if code != 0:
            errors.append(f"daemon exit code on SIGTERM: {code}")
            n_errors += 1
        res["daemon_log_levels"] = dict(d.log_levels)
        res["daemon_log_problems"] = d.log_problems
        if d.log_problems:
            n_errors += len(d.log_problems)
            errors.extend(f"daemon log: {line}" for line in d.log_problems)
        if args.log_level in ("info", "debug"):
            res["slowest"] = slowest_calls(d.log_path)
        if args.keep:
            res["kept"] = str(d.tmp)
    res["errors"] = n_errors
    res["error_samples"] = errors[:MAX_ERRORS_KEPT]
    return res


# -- what the slowest calls waited for (from the daemon's info log) ------------------------------------


def _ts(entry: dict[str, Any]) -> float | None:
    try:
        return datetime.fromisoformat(str(entry["timestamp"]).replace("Z", "+00:00")).timestamp()
    except (KeyError, ValueError):
        return None


def _event_brief(e: dict[str, Any]) -> str:
    """One line for a daemon event: its name and the durations that say where its time went."""
    name = str(e.get("event"))
    if name == "maintenance":
        parts = [f"reason {e.get('reason')}", f"{e.get('ms')} ms"]
        parts += [f"{k} {e[k]}" for k in ("reorganize_ms", "finish_ms", "durable_ms") if k in e]
        if isinstance(e.get("cleanup"), dict) and "ms" in e["cleanup"]:
            parts.append(f"cleanup {e['cleanup']['ms']} ms")
        if isinstance(e.get("indexed"), dict):
            parts.append(f"index fold {e['indexed'].get('ms')} ms ({e['indexed'].get('rows')} rows)")
        for table, c in (e.get("compacted") or {}).items():
            if isinstance(c, dict) and "ms" in c:
                parts.append(f"compact {table} {c.get('ms')} ms (commit {c.get('commit_ms')})")
        if e.get("serialized"):
            parts.append("serialized with writes")
        return f"maintenance: {', '.join(str(x) for x in parts)}"
    keys = ("rows", "ms", "commit_ms", "sync_ms", "queue", "error", "method")
    detail = ", ".join(f"{k} {e[k]}" for k in keys if k in e)
    return f"{name}: {detail}" if detail else name


def slowest_calls(log_path: Path, n: int = 10, slow_ms: float = 1000.0) -> list[dict[str, Any]]:
    """The *n* slowest requests in a daemon's JSON info log, each with the daemon events whose
    span overlaps it (maintenance passes, the index build, cache renewals, warnings) and how many
    other requests were slower than *slow_ms* at the same time (many: the whole daemon waited)."""
    requests: list[tuple[float, float, str]] = []  # (start, end, method)
    events: list[tuple[float, float, dict[str, Any]]] = []
    for line in log_path.read_text(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        end = _ts(entry)
        if end is None:
            continue
        ms = entry.get("ms")
        span = float(ms) / 1000 if isinstance(ms, (int, float)) else 0.0
        if entry.get("event") == "request":
            requests.append((end - span, end, str(entry.get("method"))))
        elif entry.get("event") not in ("started", "stopping", "stopped"):
            events.append((end - span, end, entry))
    slow = [r for r in requests if (r[1] - r[0]) * 1000 >= slow_ms]
    out = []
    for start, end, method in sorted(requests, key=lambda r: r[0] - r[1])[:n]:
        overlap = [e for s, t, e in events if s <= end and t >= start]
        out.append(
            {
                "method": method,
                "ms": round((end - start) * 1000, 1),
                "ended": time.strftime("%H:%M:%S", time.gmtime(end)),
                "slow_beside": sum(1 for s, t, _ in slow if s <= end and t >= start)
                - ((end - start) * 1000 >= slow_ms),  # (not the call itself)
                "events": [_event_brief(e) for e in overlap][:6],
            }
        )
    return out


# -- report ------------------------------------------------------------------------------------------


def render(r: dict[str, Any]) -> str:
    lines: list[str] = []
    add = lines.append
    daemon = r["daemon"]
    add(
        f"## omegad soak: {r['procs']} processes x {r['ops_per_proc']} operations (seed {r['seed']})"
        + (f", offered {r['rate']:g} operations/s" if r.get("rate") else ", closed loop")
        + "\n\n"
        f"daemon {daemon['version']}, model {daemon['embedding']['model']}, reranker {daemon['reranker']}; "
        f"{os.cpu_count()} cores\n"
    )
    add("| method | calls | p50 ms | p99 ms | max ms |")
    add("|---|---:|---:|---:|---:|")
    for m in METHODS:
        s = r["methods"][m]
        add(_latency_row(m, s))
    add(_latency_row("(final get, not in the mix)", r["verify_get"]))
    add("")
    if r.get("query_stages"):
        add(
            "a query's stages (daemon side, the explained queries; 'embed: wait' is the time until its run began, 'recall: vector' and 'fts' run in threads):\n"
        )
        add("| stage | n | p50 ms | p99 ms | max ms |")
        add("|---|---:|---:|---:|---:|")
        for name, s in r["query_stages"].items():
            add(_latency_row(name, s))
        add("")
    fin = r.get("final", {})
    stats = fin.get("stats", {})
    contra = stats.get("contradictions", {})
    c = r["counts"]
    rows = [
        ("total operations", f"{r['total_ops']}"),
        ("wall time (operation phase)", f"{r.get('wall_s', float('nan')):.1f} s"),
        ("throughput", f"{r.get('ops_per_s', float('nan')):.1f} ops/s"),
        ("errors", f"{r['errors']}"),
        (
            "memories stored (store + batch items)",
            f"{c.get('store', 0) - c.get('store retry', 0) + c.get('batch items', 0)}",
        ),
        ("deleted / live at the end", f"{r['deleted']} / {fin.get('live', '-')}"),
        (
            "export: memories / edges",
            f"{fin.get('exported', '-')} / {fin.get('edges', '-')} ({fin.get('export_s', '-')} s)",
        ),
        ("stats: memories", f"{stats.get('memories', '-')}"),
        (
            "contradictions: checked / flagged / edges",
            f"{contra.get('checked', '-')} / {contra.get('flagged', '-')} / {contra.get('edges', '-')}",
        ),
        ("contradictions listed in `shared`", f"{fin.get('shared_contradictions', '-')}"),
        ("maintenance passes", f"{stats.get('maintenance', {}).get('runs', '-')}"),
        (
            "daemon RSS start / after ops / end",
            f"{_mb(r.get('rss_start_kb'))} / {_mb(r.get('rss_after_ops_kb'))} / {_mb(r.get('rss_end_kb'))}",
        ),
        ("daemon RSS peak", _mb(r.get("rss_peak_kb"))),
        (
            "daemon memory at the end: Lance caches / Arrow / malloc in use / malloc freed, held",
            _memory(stats.get("memory")),
        ),
        ("daemon exit code on SIGTERM", f"{r.get('daemon_exit')} after {r.get('shutdown_s')} s"),
        (
            "daemon log lines by level",
            ", ".join(f"{k} {n}" for k, n in sorted(r.get("daemon_log_levels", {}).items())) or "none",
        ),
    ]
    add("| | |")
    add("|---|---:|")
    for label, value in rows:
        add(f"| {label} | {value} |")
    add("")
    detail = sorted((k, n) for k, n in c.items() if k not in METHODS)
    add("mix detail: " + ", ".join(f"{k} {n}" for k, n in detail))
    if r.get("slowest"):
        add("")
        add(render_slowest(r["slowest"]))
    if r["error_samples"]:
        add("")
        add(f"first {len(r['error_samples'])} errors:")
        for e in r["error_samples"]:
            add(f"- {e}")
    return "\n".join(lines)


def _latency_row(label: str, s: dict[str, float]) -> str:
    """One row of a latency table: calls, p50, p99 and max in ms (`summary`)."""
    return f"| {label} | {s['n']} | {s['p50']:.2f} | {s['p99']:.2f} | {s['max']:.2f} |"


def render_slowest(slowest: list[dict[str, Any]]) -> str:
    lines = ["slowest calls (daemon-side time) and what the daemon was doing meanwhile:"]
    for c in slowest:
        lines.append(
            f"- {c['method']} {c['ms']:.0f} ms, ended {c['ended']}, {c['slow_beside']} other calls > 1 s beside it"
        )
        lines.extend(f"  - {e}" for e in c["events"])
    return "\n".join(lines)


def _memory(m: dict[str, Any] | None) -> str:
    if not m:
        return "-"
    malloc = m.get("malloc") or {}
    parts = (m.get("lance_cache_bytes"), m.get("arrow_bytes"), malloc.get("in_use"), malloc.get("free_held"))
    return " / ".join("-" if b is None else f"{b / 2**20:.0f} MB" for b in parts)


def _mb(kb: int | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.0f} MB"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--ops", type=int, default=10_000, help="operations per client process")
    ap.add_argument("--procs", type=int, default=8, help="client processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0, help="client call timeout (s)")
    ap.add_argument(
        "--rate",
        type=float,
        help="offered load, operations/s of all processes together (default: each process as fast as it is answered)",
    )
    ap.add_argument("--save", type=Path, help="also write the results as JSON to this file")
    ap.add_argument("--keep", action="store_true", help="keep the daemon's data dir and log")
    ap.add_argument(
        "--log-level",
        default="warning",
        choices=("debug", "info", "warning", "error"),
        help="daemon log level; info keeps every request's duration and each maintenance pass (use with --keep)",
    )
    ap.add_argument(
        "--config",
        type=Path,
        metavar="TOML",
        help="the daemon's configuration file (e.g. a lower index.vector_index_rows, to reach the vector index sooner)",
    )
    ap.add_argument("--explain", type=Path, metavar="LOG", help="only list the slowest calls in a kept info log")
    args = ap.parse_args(argv)
    if args.explain:
        print(render_slowest(slowest_calls(args.explain)))
        return 0
    started = time.perf_counter()
    r = run(args)
    r["elapsed_s"] = round(time.perf_counter() - started, 1)
    if args.save:
        args.save.write_text(json.dumps(r, indent=2, default=str) + "\n")
    print(render(r))
    print(f"\ntotal run {r['elapsed_s']:.0f} s")
    return 1 if r["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
