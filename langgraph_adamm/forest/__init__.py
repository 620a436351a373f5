"""The evidence forest (GraphMemix): an optional rerank stage over retrieval.

Candidate discovery over a bounded graph of memories, a listwise node verifier
and an Evidence-Chain Verifier run concurrently, and a forest solver (Kruskal
1-swap proposal, then exact refinement) that chooses the evidence set; the
chosen forest exports as a networkx graph (:func:`forest_graph`).
"""

from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.forest.graph import forest_graph, pool_graph, selected_forest
from langgraph_adamm.forest.rerank import (
    ForestReranker,
    ForestResult,
    SelectedMemory,
    forest_rerank,
)

__all__ = [
    "CandidatePool",
    "ForestCandidate",
    "ForestReranker",
    "ForestResult",
    "SelectedMemory",
    "forest_graph",
    "forest_rerank",
    "pool_graph",
    "selected_forest",
]
