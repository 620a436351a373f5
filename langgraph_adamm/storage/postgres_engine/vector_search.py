"""Event-view search in SQL, with pgvector (PostgreSQL with the extension).

The same question the in-process FAISS index answers (the best views of one
modality for a query vector, by inner product of unit vectors), asked of
``adamm_event_views.emb``: exact up to ``approximate_search_above`` of the
user's views, through the HNSW index past it. Nothing is loaded on open but the
view counts, so a memory opens without rebuilding an index, and every process
searches what has been committed. See ``pgvector.py`` beside it for the storage.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.postgres_engine.pgvector import (
    HNSW_MAX_DIM,
    MODALITIES,
    TURN_PREFIX,
    ensure_index,
    predicate,
)
from langgraph_adamm.storage.vectors import SqlVector

HNSW_EF_CONSTRUCTION = 80
"""Build-time candidates of the HNSW index (as the in-process FAISS graph)."""
_EF_SEARCH_LIMIT = 1000
"""pgvector's largest ``hnsw.ef_search``; past it the iterative scan goes on."""


def make_index(
    db: MemoryDatabase, config: AdaMMConfig, modality: str, dim: int
) -> bool:
    """The HNSW index of a modality and dimension, with the config's graph degree.

    Whether it exists now (see :func:`~.pgvector.ensure_index`).
    """
    return ensure_index(
        db, modality, dim, m=config.hnsw_m, ef_construction=HNSW_EF_CONSTRUCTION
    )


class SqlViewSearch:
    """One user's event views, searched where they are stored.

    Args:
        db: A PostgreSQL memory database with pgvector (``db.vectors``).
        user_id: The namespace.
        config: ``approximate_search_above``, ``hnsw_m``, ``hnsw_ef_search``.
    """

    def __init__(self, db: MemoryDatabase, user_id: str, config: AdaMMConfig) -> None:
        self.db = db
        self.user_id = user_id
        self.config = config
        self.counts: dict[str, int] = dict.fromkeys(MODALITIES, 0)
        self.shortfalls = 0
        """HNSW searches that came back short and were answered exactly."""

    def reload(self) -> None:
        """Count the user's searchable views per modality."""
        self.counts = dict.fromkeys(MODALITIES, 0)
        for modality, n in self.db.fetchall(
            "SELECT modality, count(*) FROM adamm_event_views WHERE user_id = ? "
            "AND NOT starts_with(view, ?) GROUP BY modality",
            [self.user_id, TURN_PREFIX],
        ):
            if modality in self.counts:
                self.counts[modality] = int(n)

    def ensure_index(self, modality: str, dim: int) -> bool:
        """The HNSW index views of this modality and dimension go into."""
        return make_index(self.db, self.config, modality, dim)

    def index_due(self, modality: str, adding: int) -> bool:
        """Whether the user's views, with ``adding`` more, call for the index.

        Searches go through it past ``approximate_search_above`` views; below,
        they are exact and an index would only slow every insert.
        """
        limit = self.config.approximate_search_above
        return limit is not None and self.counts.get(modality, 0) + adding > limit

    def approximate(self, modality: str) -> bool:
        """Whether searches of a modality go through the HNSW index."""
        limit = self.config.approximate_search_above
        return limit is not None and self.counts.get(modality, 0) > limit

    def search(
        self, modality: str, query: np.ndarray, k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` best views' (round id, score), best first.

        ``k`` is not capped by the views counted at the last refresh: another
        process may have committed more since. An HNSW search that comes back
        short of what the user has (the shared graph's scan stopped among
        other users' rows: pgvector's ``hnsw.max_scan_tuples``) is answered by
        exact search instead.
        """
        if k <= 0:
            return []
        dim = int(query.shape[0])
        q = SqlVector(query)
        params = [q, self.user_id, k]
        exact = self.statement(modality, dim, approximate=False)
        if not (self.approximate(modality) and dim <= HNSW_MAX_DIM):
            return [(r, -float(d)) for r, d in self.db.fetchall(exact, params)]
        ef = min(max(self.config.hnsw_ef_search, k), _EF_SEARCH_LIMIT)
        with self.db.snapshot():
            # strict order: filtered by user, the scan goes on past ef_search,
            # still in score order, until k rows or pgvector's scan limit
            self.db.execute(
                "SELECT set_config('hnsw.ef_search', ?, true), "
                "set_config('hnsw.iterative_scan', 'strict_order', true)",
                [str(ef)],
            )
            rows = self.db.fetchall(
                self.statement(modality, dim, approximate=True), params
            )
        if len(rows) < min(k, self.counts.get(modality, 0)):
            self.shortfalls += 1
            rows = self.db.fetchall(exact, params)
        return [(r, -float(d)) for r, d in rows]

    @staticmethod
    def statement(modality: str, dim: int, *, approximate: bool) -> str:
        """The search query: (round id, negative inner product) rows, best first.

        Parameters: the query vector, the user, the limit. Exact: ``emb <#> q``
        is not the index's expression, so the user's rows are scanned.
        Approximate: the index's own expression and predicate, so the planner
        can use the HNSW index. The distance is computed once per row.
        """
        where = predicate(modality, dim)
        if not approximate:
            return (
                "SELECT round_id, emb <#> ? AS d FROM adamm_event_views "
                f"WHERE user_id = ? AND {where} ORDER BY d, round_id, view LIMIT ?"
            )
        dist = f"emb::vector({int(dim)}) <#> ?::vector({int(dim)})"
        return (
            f"SELECT round_id, {dist} AS d FROM adamm_event_views "
            f"WHERE user_id = ? AND {where} ORDER BY d LIMIT ?"
        )

    def best_of(
        self, modality: str, round_ids: Sequence[str], query: np.ndarray
    ) -> dict[str, float]:
        """Each event's best view score in a modality (events without one left out)."""
        if not round_ids:
            return {}
        where = predicate(modality, int(query.shape[0]))
        return {
            r: float(s)
            for r, s in self.db.fetchall(
                "SELECT round_id, max(-(emb <#> ?)) FROM adamm_event_views "
                f"WHERE user_id = ? AND {where} AND round_id IN "
                "(SELECT unnest(?::VARCHAR[])) GROUP BY round_id",
                [SqlVector(query), self.user_id, list(round_ids)],
            )
        }
