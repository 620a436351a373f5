"""Baseline retrievers that every benchmark evaluation scores next to the hierarchy.

Each is a callable ``(query, k) -> round ids``, best first, built over one
history's rounds as :func:`~langgraph_adamm.retrieval.memory.round_text` writes
them, so that the methods differ in how they rank and never in what they see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from langgraph_adamm.history import History
from langgraph_adamm.retrieval.encoders import TextEncoder
from langgraph_adamm.retrieval.lexical import LexicalIndex, lexical_text
from langgraph_adamm.retrieval.memory import round_text

Retriever = Callable[[str, int], list[str]]

RRF_CONSTANT = 60
"""The k of reciprocal-rank fusion (Cormack et al., 2009), as in most hybrid search."""

FUSION_DEPTH = 100
"""How many rounds of each ranking the hybrid fuses."""


class FlatRetriever:
    """The flat baseline (MM-RAG): one vector per round, top-K by cosine."""

    def __init__(self, history: History, encoder: TextEncoder) -> None:
        self.ids = [r.round_id for r in history.rounds()]
        self.encoder = encoder
        self.matrix = encoder.encode([round_text(r) for r in history.rounds()])

    def __call__(self, query: str, k: int) -> list[str]:
        """The top-k round ids."""
        scores = self.matrix @ self.encoder.encode([query])[0]
        order = sorted(range(len(self.ids)), key=lambda i: (-float(scores[i]), i))[:k]
        return [self.ids[i] for i in order]


class LangGraphStoreRetriever:
    """LangGraph's own InMemoryStore with an embedding index over the round texts."""

    def __init__(self, history: History, encoder: TextEncoder) -> None:
        from langgraph.store.base import PutOp
        from langgraph.store.memory import InMemoryStore

        def embed(texts: Sequence[str]) -> list[list[float]]:
            return encoder.encode(list(texts)).tolist()

        self.store = InMemoryStore(
            index={"dims": encoder.dim, "embed": embed, "fields": ["text"]}
        )
        self.store.batch(
            [
                PutOp(("rounds",), r.round_id, {"text": round_text(r)})
                for r in history.rounds()
            ]
        )

    def __call__(self, query: str, k: int) -> list[str]:
        """The top-k round ids."""
        return [
            item.key for item in self.store.search(("rounds",), query=query, limit=k)
        ]


class BM25Retriever:
    """Okapi BM25 over the round texts: the lexical baseline.

    The texts without the role labels and image markers every round shares
    (:func:`~langgraph_adamm.retrieval.lexical.lexical_text`), as a user's own
    BM25 over the dialogue and captions would read them. Returns fewer than k
    rounds when fewer share a term with the query.
    """

    def __init__(self, history: History) -> None:
        self.ids = [r.round_id for r in history.rounds()]
        self.index = LexicalIndex()
        self.index.add([lexical_text(round_text(r)) for r in history.rounds()])

    def __call__(self, query: str, k: int) -> list[str]:
        """The top-k round ids."""
        return [self.ids[pos] for pos, _ in self.index.search(query, k)]


def reciprocal_rank_fusion(
    rankings: Iterable[Sequence[str]], constant: int = RRF_CONSTANT
) -> list[str]:
    """Ids by the sum over rankings of 1 / (constant + rank), rank from 1.

    Ties keep the order in which the ids were first seen.
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(dict.fromkeys(ranking), 1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (constant + rank)
    return sorted(scores, key=lambda key: -scores[key])


class HybridRetriever:
    """Reciprocal-rank fusion of a dense and a lexical ranking."""

    def __init__(
        self, dense: Retriever, lexical: Retriever, depth: int = FUSION_DEPTH
    ) -> None:
        self.dense = dense
        self.lexical = lexical
        self.depth = depth

    def __call__(self, query: str, k: int) -> list[str]:
        """The top-k round ids of the fused ranking."""
        depth = max(self.depth, k)
        fused = reciprocal_rank_fusion(
            [self.dense(query, depth), self.lexical(query, depth)]
        )
        return fused[:k]
