"""The cross-encoder rerank stage slot.

The query pipeline calls `Reranker.rerank` on its top `pipeline.RERANK_TOP` candidates after
heuristic scoring. Until the cross-encoder lands (ms-marco-MiniLM-L-6-v2 in one ONNX session,
boost ``score × (1 + w × sigmoid(logit))``), the stage reports itself ``not_installed`` and
leaves the order unchanged; queries never wait for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .pipeline import Candidate

__all__ = ["Reranker"]


class Reranker:
    """The rerank stage. `ready` says whether `rerank` changes anything."""

    def __init__(self) -> None:
        self.state = "not_installed"
        self.detail = "the cross-encoder rerank stage is not part of this version; results keep the heuristic order"

    @property
    def ready(self) -> bool:
        return False

    def describe(self) -> dict[str, Any]:
        return {"state": self.state, "detail": self.detail}

    async def rerank(self, query: str, candidates: Sequence[Candidate]) -> dict[str, Any]:
        """Re-score *candidates* in place; returns trace details. A no-op until installed."""
        return {"skipped": self.state}
