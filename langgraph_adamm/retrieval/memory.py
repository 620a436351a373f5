"""Retrieval memory over the database: one user's events, views and hierarchy.

:class:`RetrievalMemory` composes services over one explicit
:class:`~langgraph_adamm.retrieval.state.RetrievalState`: the indexer adds
stored rounds (:mod:`~langgraph_adamm.retrieval.indexer`), the searcher answers
SemanticMatch and EventLocate (:mod:`~langgraph_adamm.retrieval.search`), the
forgetter removes rounds and reloads the state
(:mod:`~langgraph_adamm.retrieval.forgetter`), over the state's view indexes
(:mod:`~langgraph_adamm.retrieval.view_indexes`) and rows
(:mod:`~langgraph_adamm.retrieval.rows`). On open the hierarchy is read from the
database and the FAISS indexes from their persisted files when those match the
stored views (:mod:`~langgraph_adamm.retrieval.persist`), else rebuilt from the
stored vectors, so a reopened memory returns the same results.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

import numpy as np

from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import DEFAULT_USER_ID, Round
from langgraph_adamm.retrieval.encoders import TextEncoder, VisualEncoder
from langgraph_adamm.retrieval.forgetter import RetrievalForget, RetrievalForgetter
from langgraph_adamm.retrieval.hierarchy import Event, Hierarchy, NodeVectors
from langgraph_adamm.retrieval.hierarchy_descriptions import HierarchyDescriber
from langgraph_adamm.retrieval.index import VectorIndex
from langgraph_adamm.retrieval.indexer import (
    IndexOutcome,
    RetrievalIndexer,
    compose,
    round_text,
)
from langgraph_adamm.retrieval.lexical import LexicalIndex
from langgraph_adamm.retrieval.rows import write_rows
from langgraph_adamm.retrieval.search import MemoryUnit, Parts, RetrievalSearcher, Scope
from langgraph_adamm.retrieval.state import (
    TURN_VIEW_PREFIX,
    RetrievalState,
    StateLock,
)
from langgraph_adamm.retrieval.view_indexes import ViewIndexes
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.vectors import ViewSearch

T = TypeVar("T")


class _InState(Generic[T]):
    """A :class:`RetrievalMemory` attribute that lives in its state."""

    def __init__(self, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, memory: None, owner: type) -> _InState[T]: ...
    @overload
    def __get__(self, memory: RetrievalMemory, owner: type) -> T: ...
    def __get__(self, memory: RetrievalMemory | None, owner: type) -> T | _InState[T]:
        if memory is None:
            return self
        value: T = getattr(memory.state, self.name)
        return value

    def __set__(self, memory: RetrievalMemory, value: T) -> None:
        setattr(memory.state, self.name, value)


class RetrievalMemory:
    """One user's retrieval memory inside a :class:`MemoryDatabase`.

    Args:
        db: The memory database.
        user_id: The namespace.
        text_encoder: Embeds texts (MiniLM by default, chosen by the caller).
        visual_encoder: Embeds images and, through its text branch, queries; None
            runs text-only (captions and OCR still represent images).
        config: Thresholds, fusion weights and batch size.
        describer: Describes closed episodes and grown topics (a model); None:
            extractive descriptions.
    """

    save_fraction = 0.05
    """Indexes are written once the rounds indexed since the last write are this
    fraction of the memory (and on close)."""

    db: _InState[MemoryDatabase] = _InState("db")
    user_id: _InState[str] = _InState("user_id")
    config: _InState[AdaMMConfig] = _InState("config")
    text_encoder: _InState[TextEncoder] = _InState("text_encoder")
    visual_encoder: _InState[VisualEncoder | None] = _InState("visual_encoder")
    describer: _InState[HierarchyDescriber | None] = _InState("describer")
    state_lock: _InState[StateLock] = _InState("state_lock")
    """Held while the in-memory state changes and while a search reads it
    (:attr:`RetrievalState.state_lock`)."""
    hierarchy: _InState[Hierarchy] = _InState("hierarchy")
    forgotten: _InState[int] = _InState("forgotten")
    """How many times rounds were forgotten (caches built on events compare it)."""
    index_source: _InState[str] = _InState("index_source")
    """Where the open indexes came from: ``"file"`` or ``"database"``."""
    _sql: _InState[ViewSearch | None] = _InState("sql")
    _text_index: _InState[VectorIndex] = _InState("text_index")
    _visual_index: _InState[VectorIndex | None] = _InState("visual_index")
    _text_owner: _InState[array[int]] = _InState("text_owner")
    _visual_owner: _InState[array[int]] = _InState("visual_owner")
    _lexical: _InState[LexicalIndex] = _InState("lexical")
    _unsaved: _InState[int] = _InState("unsaved")
    _stored_visual: _InState[str | None] = _InState("stored_visual")

    def __init__(
        self,
        db: MemoryDatabase,
        user_id: str = DEFAULT_USER_ID,
        *,
        text_encoder: TextEncoder,
        visual_encoder: VisualEncoder | None = None,
        config: AdaMMConfig | None = None,
        describer: HierarchyDescriber | None = None,
    ) -> None:
        config = config or AdaMMConfig()
        self.state = RetrievalState(
            db,
            user_id,
            config,
            text_encoder,
            visual_encoder,
            describer,
            sql=None,
        )
        self.state.stored_visual = self._check_encoders()
        self.state.sql = db.view_search(user_id, config)
        self.indexes = ViewIndexes(self.state)
        # The services write rows and open indexes through this memory's own
        # methods, so that what replaces one of them here replaces it for all.
        self.indexer = RetrievalIndexer(
            self.state,
            self.indexes,
            write=lambda *rows: self._write(*rows),
            reload=lambda: self.reload(),
        )
        self.searcher = RetrievalSearcher(self.state)
        self.forgetter = RetrievalForgetter(
            self.state,
            self.indexes,
            self.indexer,
            write=lambda *rows: self._write(*rows),
            load_indexes=lambda: self._load_indexes(),
        )
        self.reload()

    def _check_encoders(self) -> str | None:
        """The stored visual encoder's name; refuses encoders that do not match."""
        row = self.db.fetchall(
            "SELECT text_encoder, visual_encoder FROM adamm_retrieval_meta "
            "WHERE user_id = ?",
            [self.user_id],
        )
        visual = self.visual_encoder.name if self.visual_encoder else None
        stored: str | None = row[0][1] if row else None
        if row and row[0][0] != self.text_encoder.name:
            raise AdaMMError(
                f"this memory's vectors were made by text encoder {row[0][0]!r}, not "
                f"{self.text_encoder.name!r}; open it with the same encoder"
            )
        if row and row[0][1] and visual and row[0][1] != visual:
            raise AdaMMError(
                f"this memory's image vectors were made by {row[0][1]!r}, "
                f"not {visual!r}"
            )
        return stored

    # -- state and indexes ----------------------------------------------------
    def reload(self) -> None:
        """Rebuild the hierarchy and the vector indexes from the database.

        From one snapshot: another process may be indexing meanwhile.
        """
        self.forgetter.reload()

    def _load_indexes(self) -> None:
        self.indexes.load()

    @property
    def _index_folder(self) -> Path | None:
        return self.indexes.folder

    def save_index(self, expected: dict[str, Any] | None = None) -> None:
        """Persist the vector indexes beside the database file (when it is one)."""
        self.indexes.save(expected)

    def _add_views(
        self, text_rows: list[tuple[int, Any]], visual_rows: list[tuple[int, Any]]
    ) -> None:
        self.indexes.add_views(text_rows, visual_rows)

    def _write(
        self,
        events: list[Event],
        views: list[tuple[str, str, str, np.ndarray]],
        episodes: set[int],
        topics: set[int],
    ) -> None:
        write_rows(self.state, events, views, episodes, topics)

    @property
    def event_count(self) -> int:
        """Events in memory."""
        return len(self.hierarchy.events)

    # -- indexing -------------------------------------------------------------
    def pending_rounds(self) -> list[tuple[int, Round]]:
        """Stored rounds not yet in retrieval memory, in history order."""
        return self.indexer.pending_rounds()

    def index_pending(
        self, progress: Callable[[int, int], None] | None = None
    ) -> IndexOutcome:
        """Embed and insert every pending round, batch by batch.

        One indexing runs at a time per database, and it reads what is pending
        once it holds the lock, so no round is indexed twice.
        """
        return self.indexer.index_pending(progress, self.save_fraction)

    def flush_index(self) -> None:
        """Persist the indexes if rounds were indexed since they were last saved."""
        self.indexer.flush_index()

    # -- forgetting -----------------------------------------------------------
    def forget_rounds(self, round_ids: Sequence[str]) -> RetrievalForget:
        """Remove the rounds' events, views and vectors; re-pool what held them.

        See :meth:`RetrievalForgetter.forget_rounds`.
        """
        return self.forgetter.forget_rounds(round_ids)

    def forget_saved(self, events: int) -> None:
        """After forgetting: the index files, which hold the forgotten vectors, go."""
        self.forgetter.forget_saved(events)

    # -- search ---------------------------------------------------------------
    def view_rows(self, owner: int) -> tuple[list[int], list[int]]:
        """An event's rows in the text and the visual index."""
        return self.searcher.view_rows(owner)

    def view_count(self, modality: str) -> int:
        """How many views of a modality event search looks at (``text``/``visual``)."""
        return self.searcher.view_count(modality)

    @property
    def approximate_search(self) -> bool:
        """Whether event search goes through an HNSW graph (FAISS or pgvector)."""
        return self.searcher.approximate_search

    def _query_vectors(self, query: str) -> tuple[np.ndarray, np.ndarray | None]:
        return self.searcher._query_vectors(query)

    def event_scores(
        self,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        events: int,
        query: str | None = None,
    ) -> dict[int, float]:
        """Scores of at least ``events`` best-matching events (when there are)."""
        return self.searcher.event_scores(q_text, q_visual, events, query)

    def event_parts(
        self,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        events: int,
        query: str | None = None,
    ) -> Parts:
        """At least ``events`` best events, each with its fused score and parts."""
        return self.searcher.event_parts(q_text, q_visual, events, query)

    def episode_scores(self, query: str) -> dict[str, float]:
        """Every episode's fused score for a query, by unit id (``episode:N``)."""
        return self.searcher.episode_scores(query)

    def round_lexical_scores(self, query: str) -> dict[str, float]:
        """Round id -> lexical score (0-1) of each event holding a query word."""
        return self.searcher.round_lexical_scores(query)

    def session_rounds(self, session_id: str) -> list[str]:
        """The round ids of a session's events, in history order."""
        return self.searcher.session_rounds(session_id)

    def node_parts(
        self,
        level: NodeVectors,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        query: str | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Every node of a level: fused score, dense part, lexical part."""
        return self.searcher.node_parts(level, q_text, q_visual, query)

    def semantic_match(
        self,
        query_content: str,
        retrieval_scope: Scope = "event",
        result_budget: int = 10,
    ) -> list[MemoryUnit]:
        """SemanticMatch: the best units of one hierarchy level for a query."""
        return self.searcher.semantic_match(
            query_content, retrieval_scope, result_budget
        )

    def event_locate(
        self, query_content: str, result_budget: int = 10, window: int | None = None
    ) -> list[MemoryUnit]:
        """EventLocate: the best events, each with its neighbours in its session."""
        return self.searcher.event_locate(query_content, result_budget, window)

    def retrieve_rounds(
        self, query: str, k: int = 10, *, hierarchical: bool = True
    ) -> list[str]:
        """Round ids for a query, for evaluation against gold evidence rounds."""
        return self.searcher.retrieve_rounds(query, k, hierarchical=hierarchical)

    def scored_rounds(
        self, query: str, k: int = 10, *, hierarchical: bool = True
    ) -> list[tuple[str, float]]:
        """Round ids for a query with their scores (lexical + dense), best first."""
        return self.searcher.scored_rounds(query, k, hierarchical=hierarchical)


__all__ = [
    "TURN_VIEW_PREFIX",
    "IndexOutcome",
    "MemoryUnit",
    "RetrievalForget",
    "RetrievalMemory",
    "Scope",
    "StateLock",
    "compose",
    "round_text",
]
