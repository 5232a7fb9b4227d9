"""What the tools return: pydantic models, so each tool has an output schema and its result
comes as ``structuredContent`` (and as JSON text for clients that read only text).

They hold what an agent acts on and leave out the rest of the daemon's replies (ranking
counters, edge versions): every key costs the agent context. Built from daemon replies with
`model_validate`; keys the daemon adds later are ignored (docs/protocol.md: clients must).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "Contradiction",
    "ContradictionsResult",
    "Deleted",
    "Edge",
    "EdgeRef",
    "Feedback",
    "Hit",
    "ListResult",
    "Memory",
    "MemoryRef",
    "QueryResult",
    "Signal",
    "StoreResult",
]


class Memory(BaseModel):
    id: str
    text: str
    type: str
    tags: list[str]
    namespace: str
    metadata: dict[str, Any] = Field(description="where it came from: project, file, ...")
    created_at: str
    updated_at: str
    version: int = Field(description="text versions: grows with each memory_update of the text")
    hidden: bool = Field(False, description="rated down so far that queries leave it out")


class EdgeRef(BaseModel):
    id: str = Field(description="the other memory")
    confidence: float


class Hit(Memory):
    score: float = Field(description="higher is better; comparable within one reply")
    contradicts: list[EdgeRef] = Field(
        default_factory=list, description="older memories this one contradicts (unresolved)"
    )
    contradicted_by: list[EdgeRef] = Field(
        default_factory=list, description="newer memories that contradict this one (unresolved): prefer those"
    )
    signals: dict[str, Any] | None = Field(None, description="with explain: why it ranked where it did")


class Budget(BaseModel):
    max_tokens: int
    used: int = Field(description="tokens of the results' texts")
    left_out: list[dict[str, Any]] = Field(description="results that did not fit: id and tokens")


class QueryResult(BaseModel):
    namespace: str
    results: list[Hit]
    trace: list[dict[str, Any]] | None = Field(None, description="with explain: each ranking stage")
    budget: Budget | None = Field(None, description="with max_tokens: what fitted")


class ListResult(BaseModel):
    namespace: str
    memories: list[Memory]
    next: str | None = Field(description="pass as `cursor` for the next page; null on the last one")


class MemoryRef(BaseModel):
    id: str
    text: str
    type: str
    created_at: str


class Signal(BaseModel):
    kind: str
    score: float
    evidence: Any = None


class Edge(BaseModel):
    source: str = Field(description="the newer memory")
    target: str = Field(description="the older memory")
    namespace: str
    confidence: float
    signals: list[Signal]
    created_at: str
    resolution: Literal["keep_new", "keep_old", "both_valid"] | None
    resolved_at: str | None


class Contradiction(Edge):
    new: MemoryRef
    old: MemoryRef


class ContradictionsResult(BaseModel):
    namespace: str
    contradictions: list[Contradiction]


class Redaction(BaseModel):
    field: str = Field(description="text, or the metadata key that held it")
    kind: str = Field(description="what was found, e.g. aws_access_key, password")
    start: int
    end: int


class StoreResult(BaseModel):
    id: str
    namespace: str
    contradictions: list[Contradiction] = Field(description="earlier memories this one contradicts")
    redacted: list[Redaction] = Field(
        default=[], description="secrets the daemon replaced by [redacted:KIND] before storing"
    )
    check: Literal["done", "pending"] = Field(
        description="pending: the contradiction check had not finished; see memory_contradictions later"
    )
    duplicate_of: str | None = Field(
        default=None, description="the same text was already remembered under this id: nothing new was stored"
    )
    hint: str | None = None


class Deleted(BaseModel):
    id: str
    deleted: bool = Field(description="false: there was no memory with this id (already deleted?)")


class Feedback(BaseModel):
    id: str
    feedback: float = Field(description="the accumulated rating")
    ratings: int
    hidden: bool = Field(description="rated down so far that queries leave it out")
