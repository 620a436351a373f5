"""The state one user's retrieval memory keeps, and the lock that guards it.

:class:`RetrievalState` is what the retrieval services share: the indexer
(:mod:`~langgraph_adamm.retrieval.indexer`) adds to it, the searcher
(:mod:`~langgraph_adamm.retrieval.search`) reads it, the forgetter
(:mod:`~langgraph_adamm.retrieval.forgetter`) takes from it and reloads it.
Each of them takes the state explicitly; :class:`RetrievalMemory` composes them.
"""

from __future__ import annotations

import threading
from array import array
from dataclasses import dataclass, field

from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.retrieval.encoders import TextEncoder, VisualEncoder
from langgraph_adamm.retrieval.hierarchy import Hierarchy
from langgraph_adamm.retrieval.hierarchy_descriptions import HierarchyDescriber
from langgraph_adamm.retrieval.index import VectorIndex
from langgraph_adamm.retrieval.lexical import LexicalIndex
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.vectors import ViewSearch

TURN_VIEW_PREFIX = "turn:"
"""Views of single turns (``turn:user``, ``turn:assistant``), written when
``config.turn_views`` is on. They serve the evidence forest's finer memories and
stay out of the event indexes, so event scores are the same with or without them."""


class StateLock:
    """A reentrant lock that can tell whether the calling thread holds it."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._owner: int | None = None
        self._depth = 0

    def __enter__(self) -> StateLock:
        self._lock.acquire()
        self._owner = threading.get_ident()
        self._depth += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if not self._depth:
            self._owner = None
        self._lock.release()

    def held(self) -> bool:
        """Whether the calling thread holds the lock."""
        return self._owner == threading.get_ident()


@dataclass(eq=False)
class RetrievalState:
    """One user's retrieval memory in process: where it is stored and what is open.

    The hierarchy and the indexes are set by a reload (from one database
    snapshot) and changed only under ``state_lock``.
    """

    db: MemoryDatabase
    user_id: str
    config: AdaMMConfig
    text_encoder: TextEncoder
    visual_encoder: VisualEncoder | None
    describer: HierarchyDescriber | None
    sql: ViewSearch | None
    """Set when the views are searched in SQL (pgvector); None: FAISS."""
    stored_visual: str | None = None
    """The visual encoder named in the database (kept by a text-only session)."""
    state_lock: StateLock = field(default_factory=StateLock)
    """Held while the in-memory state changes (indexing a batch, forgetting,
    reloading) and while a search reads it, so that no search sees half a
    change. Taken after ``db.index_lock`` and before any transaction (a
    search takes it, then the database's)."""
    hierarchy: Hierarchy = field(init=False)
    text_index: VectorIndex = field(init=False)
    visual_index: VectorIndex | None = field(init=False)
    text_owner: array[int] = field(init=False)
    """The event position of every row of the text index (sorted)."""
    visual_owner: array[int] = field(init=False)
    """The event position of every row of the visual index (sorted)."""
    lexical: LexicalIndex = field(init=False)
    """BM25 over the events' texts, by event position."""
    unsaved: int = 0
    """Events indexed or forgotten since the index files were last written."""
    index_source: str = "database"
    """Where the open indexes came from: ``"file"`` or ``"database"``."""
    forgotten: int = 0
    """How many times rounds were forgotten (caches built on events compare it)."""
    unknown_views: int = 0
    """Views a SQL search returned of events this state does not hold yet."""


__all__ = ["TURN_VIEW_PREFIX", "RetrievalState", "StateLock"]
