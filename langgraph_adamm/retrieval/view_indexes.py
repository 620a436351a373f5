"""The event views' indexes: opened from their files or rebuilt, extended, saved.

Per modality a FAISS :class:`~langgraph_adamm.retrieval.index.VectorIndex` of
the views and its owners (the event position of each row), and BM25 over the
events' texts (:class:`~langgraph_adamm.retrieval.lexical.LexicalIndex`), all
kept in a :class:`~langgraph_adamm.retrieval.state.RetrievalState`. Beside a
DuckDB file they are persisted (:mod:`~langgraph_adamm.retrieval.persist`) and
read back when they match the stored views; views searched in SQL (pgvector)
need no index in process.
"""

from __future__ import annotations

import logging
from array import array
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.retrieval import persist
from langgraph_adamm.retrieval.index import VectorIndex
from langgraph_adamm.retrieval.lexical import (
    ENGLISH_STOP_WORDS,
    LexicalIndex,
    lexical_text,
)
from langgraph_adamm.retrieval.rows import EVENT_VIEWS
from langgraph_adamm.retrieval.state import TURN_VIEW_PREFIX, RetrievalState
from langgraph_adamm.storage.vectors import vector_of

logger = logging.getLogger("langgraph_adamm.retrieval.memory")
"""The logger the store always used (its messages keep their origin)."""


class ViewIndexes:
    """Opens, extends and saves the indexes of one retrieval state."""

    def __init__(self, state: RetrievalState) -> None:
        self.state = state

    def load(self) -> None:
        """The vector indexes: the persisted files when they match, else rebuilt."""
        h = self.state.hierarchy
        self.state.text_owner = array("q")
        self.state.visual_owner = array("q")
        self.state.unsaved = 0
        if self.state.sql is not None:  # searched where stored: nothing to build
            self.state.index_source = "database"
            self.state.text_index = VectorIndex(
                self.state.text_encoder.dim, use_gpu=False
            )
            self.state.visual_index = None
            self.state.sql.reload()
            self.load_lexical(None)
            return
        stored, expected = None, None
        if self.folder is not None:  # a DuckDB file: indexes beside it
            expected = self.fingerprint()
            stored = persist.load(self.folder, expected, **self.options())
        if stored is not None:
            text_index, visual_index, text_owner, visual_owner = stored
            if all(o[-1] < len(h.events) for o in (text_owner, visual_owner) if o):
                self.state.index_source = "file"
                self.state.text_index, self.state.visual_index = (
                    text_index,
                    visual_index,
                )
                self.state.text_owner, self.state.visual_owner = (
                    text_owner,
                    visual_owner,
                )
                if not self.load_lexical(expected):
                    self.save(expected)  # the rebuilt lexical index with it
                return
            logger.warning("persisted index does not line up; rebuilding it")
        self.state.index_source = "database"
        self.state.text_index = VectorIndex(
            self.state.text_encoder.dim, **self.options()
        )
        self.state.visual_index = None
        text_rows: list[tuple[int, Any]] = []
        visual_rows: list[tuple[int, Any]] = []
        for rid, modality, vec in self.state.db.fetchall(
            "SELECT v.round_id, v.modality, v.vec " + EVENT_VIEWS,
            [self.state.user_id, TURN_VIEW_PREFIX],
        ):
            (text_rows if modality == "text" else visual_rows).append(
                (h.events.position(rid), vector_of(vec))
            )
        self.add_views(text_rows, visual_rows)
        self.load_lexical(None)
        if text_rows or visual_rows:
            self.save(expected)

    def new_lexical(self) -> LexicalIndex:
        """An empty lexical index with the configured stop words."""
        return LexicalIndex(
            stop_words=ENGLISH_STOP_WORDS
            if self.state.config.lexical_stop_words
            else None
        )

    def _read_lexical(self, path: Path) -> LexicalIndex:
        return LexicalIndex.read(
            path,
            stop_words=ENGLISH_STOP_WORDS
            if self.state.config.lexical_stop_words
            else None,
        )

    def load_lexical(self, expected: dict[str, Any] | None) -> bool:
        """The events' lexical index, read or built.

        From its file when that is current (True), else built from the stored
        event texts (False).
        """
        h = self.state.hierarchy
        if expected is not None:
            stored = persist.load_lexical(
                self.folder, expected, self._read_lexical, len(h.events)
            )
            if stored is not None:
                self.state.lexical = stored
                return True
        self.state.lexical = self.new_lexical()
        texts = [
            lexical_text(t or "")
            for (t,) in self.state.db.fetchall(
                'SELECT text FROM adamm_events WHERE user_id = ? ORDER BY "order"',
                [self.state.user_id],
            )
        ]
        if len(texts) != len(h.events):  # cannot happen inside one snapshot
            raise AdaMMError("the stored events changed while they were read")
        for i in range(0, len(texts), 10_000):
            self.state.lexical.add(texts[i : i + 10_000])
        return False

    @property
    def folder(self) -> Path | None:
        """Where the index files go; None: not persisted (config, or no file)."""
        if not self.state.config.persist_index:
            return None
        return persist.index_folder(self.state.db, self.state.user_id)

    def options(self) -> dict[str, Any]:
        """How a vector index is built: exact or HNSW, and its parameters."""
        cfg = self.state.config
        return {
            "approximate_above": cfg.approximate_search_above,
            "hnsw_m": cfg.hnsw_m,
            "ef_search": cfg.hnsw_ef_search,
        }

    def fingerprint(self) -> dict[str, Any]:
        """What a persisted index must match: the database state, views, layout.

        The token changes in every indexing transaction, so a file written for
        another state (a database rebuilt at the same path, a copy, a crash
        between commit and save) is never read back.
        """
        token = self.state.db.fetchall(
            "SELECT index_token FROM adamm_retrieval_meta WHERE user_id = ?",
            [self.state.user_id],
        )
        return {
            "token": token[0][0] if token else None,
            "views": persist.fingerprint(
                self.state.db, self.state.user_id, TURN_VIEW_PREFIX
            ),
            "text_encoder": [self.state.text_encoder.name, self.state.text_encoder.dim],
            "approximate_above": self.state.config.approximate_search_above,
            "hnsw_m": self.state.config.hnsw_m,
        }

    def save(self, expected: dict[str, Any] | None = None) -> None:
        """Persist the vector indexes beside the database file (when it is one)."""
        folder = self.folder
        self.state.unsaved = 0
        if folder is None:
            return
        persist.save(
            folder,
            expected or self.fingerprint(),
            self.state.text_index,
            self.state.visual_index,
            (self.state.text_owner, self.state.visual_owner),
            self.state.lexical,
        )

    def add_views(
        self, text_rows: list[tuple[int, Any]], visual_rows: list[tuple[int, Any]]
    ) -> None:
        """(event position, vector) rows appended to the text and visual index."""
        if visual_rows and self.state.visual_index is None:
            self.state.visual_index = VectorIndex(
                len(visual_rows[0][1]), **self.options()
            )
        for rows, index, owners in (
            (text_rows, self.state.text_index, self.state.text_owner),
            (visual_rows, self.state.visual_index, self.state.visual_owner),
        ):
            if not rows or index is None:
                continue
            index.add(np.asarray([v for _, v in rows], dtype=np.float32))
            owners.extend(owner for owner, _ in rows)
