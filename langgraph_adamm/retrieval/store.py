"""Retrieval memory over the database: events, views, hierarchy, indexing.

Rounds are indexed in batches after they are stored (independently of attribute
extraction): their texts and images are embedded outside the transaction, then
events, views, touched episodes and topics and the rounds' ``indexed`` flag
commit together. On open the hierarchy is read from the database and the FAISS
indexes from their persisted files when those match the stored views
(:mod:`~langgraph_adamm.retrieval.persist`), else rebuilt from the stored
vectors, so a reopened memory returns the same results.
"""

from __future__ import annotations

import logging
import uuid
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import DEFAULT_USER_ID, Round
from langgraph_adamm.retrieval import persist
from langgraph_adamm.retrieval.describe import HierarchyDescriber
from langgraph_adamm.retrieval.encoders import (
    TextEncoder,
    VisualEncoder,
    base_view,
    chunk_view,
    load_image,
    normalize_rows,
)
from langgraph_adamm.retrieval.hierarchy import (
    Episode,
    Event,
    EventRow,
    EventTable,
    Hierarchy,
    Topic,
    add_vector,
    extractive_summary,
    int64s,
    unit_sum,
)
from langgraph_adamm.retrieval.index import VectorIndex
from langgraph_adamm.retrieval.lexical import (
    ENGLISH_STOP_WORDS,
    LexicalIndex,
    lexical_text,
)
from langgraph_adamm.retrieval.search import MemoryUnit, Scope, SearchMixin, StateLock
from langgraph_adamm.retrieval.sql_search import SqlViewSearch
from langgraph_adamm.storage import pgvector
from langgraph_adamm.storage.database import MemoryDatabase, insert_columns
from langgraph_adamm.storage.dialect import upsert
from langgraph_adamm.storage.pgvector import SqlVector, SqlVectors
from langgraph_adamm.storage.rounds import load_rounds

logger = logging.getLogger(__name__)

_EVENT_VIEWS = (
    "FROM adamm_event_views v JOIN adamm_events e USING (user_id, round_id) "
    "WHERE v.user_id = ? AND NOT starts_with(v.view, ?) "
    'ORDER BY e."order"'
)
"""A user's event views other than single turns, in the order the indexes hold
them (parameters: user id, the turn-view prefix)."""


_Member = tuple[Any, str | None, np.ndarray | None, np.ndarray | None]
"""A stored event as an episode is pooled from: time, text, text and visual
vectors."""

TURN_VIEW_PREFIX = "turn:"
"""Views of single turns (``turn:user``, ``turn:assistant``), written when
``config.turn_views`` is on. They serve the evidence forest's finer memories and
stay out of the event indexes, so event scores are the same with or without them."""


def round_text(rnd: Round) -> str:
    """Everything a round says in text: dialogue, captions, OCR."""
    parts = []
    if rnd.user:
        parts.append(f"User: {rnd.user}")
    if rnd.assistant:
        parts.append(f"Assistant: {rnd.assistant}")
    for img in rnd.images:
        if img.caption:
            parts.append(f"[Image {img.image_id}] {img.caption}")
        if img.ocr:
            parts.append(f"[Text in image {img.image_id}] {img.ocr}")
    return "\n".join(parts)


def compose(vectors: np.ndarray, lengths: Sequence[int]) -> np.ndarray:
    """A round's text vector from its views' vectors, without encoding it.

    The mean of the views weighted by their text's length, as mean pooling
    over the whole round's tokens would weigh its parts (a long dialogue more
    than a short caption), scaled to unit length.
    """
    weights = np.asarray(lengths, dtype=np.float64)
    if not weights.any():
        weights = np.ones(len(weights))
    mean = np.average(np.asarray(vectors, dtype=np.float64), axis=0, weights=weights)
    return normalize_rows(mean)[0]


@dataclass
class IndexOutcome:
    """What one indexing pass did."""

    indexed: int = 0
    image_problems: list[tuple[str, str, str]] = field(default_factory=list)
    """(round id, image id, problem) for images that could not be read."""


@dataclass
class RetrievalForget:
    """What forgetting rounds changed in the retrieval memory."""

    events: int = 0
    views: int = 0
    episodes_changed: list[int] = field(default_factory=list)
    episodes_removed: list[int] = field(default_factory=list)
    topics_changed: list[int] = field(default_factory=list)
    topics_removed: list[int] = field(default_factory=list)


def _vec(v: Any) -> np.ndarray | None:
    """A stored vector (little-endian float32 bytes) as an array."""
    if v is None:
        return None
    return np.frombuffer(bytes(v), dtype="<f4").astype(np.float32)


def _vecs(blobs: list[Any]) -> list[np.ndarray | None]:
    """Many stored vectors at once (None stays None).

    The rows are read-only views of one buffer: node sums are replaced, never
    changed in place.
    """
    present = [i for i, b in enumerate(blobs) if b is not None]
    out: list[np.ndarray | None] = [None] * len(blobs)
    if not present:
        return out
    sizes = {len(blobs[i]) for i in present}
    if len(sizes) != 1:  # mixed dimensions: one by one
        return [_vec(b) for b in blobs]
    flat = b"".join(bytes(blobs[i]) for i in present)
    matrix = np.frombuffer(flat, dtype="<f4").reshape(len(present), -1)
    for row, i in enumerate(present):
        out[i] = matrix[row]
    return out


def _blob(v: np.ndarray | None) -> bytes | None:
    """A vector as stored: little-endian float32 bytes (one value, not 384)."""
    return None if v is None else np.asarray(v, dtype="<f4").tobytes()


def _members(ids: list[str], episode_of: np.ndarray) -> dict[int, list[str]]:
    """Round ids per episode, in history order (``episode_of`` -1: none)."""
    order = np.argsort(episode_of, kind="stable")
    eps = episode_of[order]
    cuts = np.flatnonzero(eps[1:] != eps[:-1]) + 1
    bounds = [0, *cuts.tolist(), len(order)]
    at = order.tolist()
    return {
        int(eps[a]): [ids[i] for i in at[a:b]]
        for a, b in zip(bounds, bounds[1:], strict=False)
        if a < b and eps[a] >= 0
    }


def _rows_of(owner: array, positions: np.ndarray) -> np.ndarray:
    """The index rows whose owner is one of the (sorted) event positions."""
    return np.flatnonzero(np.isin(int64s(owner), positions))


def _shifted(owner: array, removed_rows: np.ndarray, positions: np.ndarray) -> array:
    """Owners after deleting rows and events: later events move up."""
    kept = np.delete(int64s(owner), removed_rows)
    kept = kept - np.searchsorted(positions, kept)
    return array("q", kept.astype(np.int64).tobytes())


class RetrievalMemory(SearchMixin):
    """One user's retrieval memory inside a :class:`MemoryDatabase`.

    Args:
        db: The memory database.
        user_id: The namespace.
        text_encoder: Embeds texts (MiniLM by default, chosen by the caller).
        visual_encoder: Embeds images and, through its text branch, queries; None
            runs text-only (captions and OCR still represent images).
        config: Thresholds, fusion weights and batch size.
    """

    forgotten = 0
    """How many times rounds were forgotten (caches built on events compare it)."""
    save_fraction = 0.05
    """Indexes are written once the rounds indexed since the last write are this
    fraction of the memory (and on close)."""
    index_source: str = "database"
    """Where the open indexes came from: ``"file"`` or ``"database"``."""

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
        self.db = db
        self.describer = describer
        self.user_id = user_id
        self.text_encoder = text_encoder
        self.visual_encoder = visual_encoder
        self.config = config or AdaMMConfig()
        self.state_lock = StateLock()
        """Held while the in-memory state changes (indexing a batch, forgetting,
        reloading) and while a search reads it, so that no search sees half a
        change. Taken after ``db.index_lock`` and before any transaction (a
        search takes it, then the database's)."""
        self._check_encoders()
        self._sql = (
            SqlViewSearch(db, user_id, self.config)
            if db.vectors and db.vector_search and self.config.pgvector_search
            else None
        )
        self.reload()

    def _check_encoders(self) -> None:
        row = self.db.fetchall(
            "SELECT text_encoder, visual_encoder FROM adamm_retrieval_meta "
            "WHERE user_id = ?",
            [self.user_id],
        )
        visual = self.visual_encoder.name if self.visual_encoder else None
        self._stored_visual: str | None = row[0][1] if row else None
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

    # -- state --------------------------------------------------------------
    def reload(self) -> None:
        """Rebuild the hierarchy and the vector indexes from the database.

        From one snapshot: another process may be indexing meanwhile.
        """
        with self.state_lock, self.db.snapshot():
            self.hierarchy = self._read_hierarchy()
            self._load_indexes()

    def _read_hierarchy(self) -> Hierarchy:
        """Events (by position), episodes, topics and the current episode."""
        h = Hierarchy(
            self.config,
            on_episode_closed=self._describe_episode if self.describer else None,
            on_topic_grown=self._describe_topic if self.describer else None,
        )
        # Stored events are read by position (round and episode ids, as
        # arrays); the rest of an event is read when a search first returns it.
        # An event's own vectors matter only while it is being added to the
        # hierarchy (episodes keep their sums), so they are not read back.
        cols = self.db.fetchnumpy(
            "SELECT round_id, coalesce(episode_id, -1) AS episode_id, rowid AS at "
            'FROM adamm_events WHERE user_id = ? ORDER BY "order"',
            [self.user_id],
        )
        h.events = EventTable.stored(
            cols["round_id"].tolist(),
            cols["episode_id"],
            self._load_events,
            hints=cols["at"],
        )
        # Each episode's events, from the events' episode ids (the same lists
        # as the episodes' stored event_ids, without reading a string per event).
        members = _members(h.events.ids, np.asarray(cols["episode_id"]))
        rows = self.db.fetchall(
            "SELECT episode_id, topic_id, description, start_time, end_time, "
            "text_sum, visual_sum, visual_count, closed FROM adamm_episodes "
            "WHERE user_id = ?",
            [self.user_id],
        )
        text_sums = _vecs([r[5] for r in rows])
        visual_sums = _vecs([r[6] for r in rows])
        for (eid, tid, desc, start, end, _, _, vcount, closed), tsum, vsum in zip(
            rows, text_sums, visual_sums, strict=True
        ):
            h.episodes[eid] = Episode(
                eid,
                members.get(eid, []),
                start,
                end,
                desc or "",
                tsum,
                vsum,
                vcount or 0,
                tid,
                bool(closed),
            )
        for tid, desc, eps, tsum, vsum, vcount in self.db.fetchall(
            "SELECT topic_id, description, episode_ids, text_sum, visual_sum, "
            "visual_count FROM adamm_topics WHERE user_id = ?",
            [self.user_id],
        ):
            h.topics[tid] = Topic(
                tid, list(eps or []), desc or "", _vec(tsum), _vec(vsum), vcount or 0
            )
        meta = self.db.fetchall(
            "SELECT current_episode FROM adamm_retrieval_meta WHERE user_id = ?",
            [self.user_id],
        )
        h.current = meta[0][0] if meta else None
        return h

    def _load_indexes(self) -> None:
        """The vector indexes: the persisted files when they match, else rebuilt."""
        h = self.hierarchy
        self._text_owner = array("q")
        self._visual_owner = array("q")
        self._unsaved = 0
        if self._sql is not None:  # searched where stored: nothing to build
            self.index_source = "database"
            self._text_index = VectorIndex(self.text_encoder.dim, use_gpu=False)
            self._visual_index = None
            self._sql.reload()
            self._load_lexical(None)
            return
        stored, expected = None, None
        if self._index_folder is not None:  # a DuckDB file: indexes beside it
            expected = self._index_fingerprint()
            stored = persist.load(self._index_folder, expected, **self._index_options())
        if stored is not None:
            text_index, visual_index, text_owner, visual_owner = stored
            if all(o[-1] < len(h.events) for o in (text_owner, visual_owner) if o):
                self.index_source = "file"
                self._text_index, self._visual_index = text_index, visual_index
                self._text_owner, self._visual_owner = text_owner, visual_owner
                if not self._load_lexical(expected):
                    self.save_index(expected)  # the rebuilt lexical index with it
                return
            logger.warning("persisted index does not line up; rebuilding it")
        self.index_source = "database"
        self._text_index = VectorIndex(self.text_encoder.dim, **self._index_options())
        self._visual_index = None
        text_rows: list[tuple[int, Any]] = []
        visual_rows: list[tuple[int, Any]] = []
        for rid, modality, vec in self.db.fetchall(
            "SELECT v.round_id, v.modality, v.vec " + _EVENT_VIEWS,
            [self.user_id, TURN_VIEW_PREFIX],
        ):
            (text_rows if modality == "text" else visual_rows).append(
                (h.events.position(rid), _vec(vec))
            )
        self._add_views(text_rows, visual_rows)
        self._load_lexical(None)
        if text_rows or visual_rows:
            self.save_index(expected)

    def _new_lexical(self) -> LexicalIndex:
        return LexicalIndex(
            stop_words=ENGLISH_STOP_WORDS if self.config.lexical_stop_words else None
        )

    def _read_lexical(self, path: Path) -> LexicalIndex:
        return LexicalIndex.read(
            path,
            stop_words=ENGLISH_STOP_WORDS if self.config.lexical_stop_words else None,
        )

    def _load_lexical(self, expected: dict[str, Any] | None) -> bool:
        """The events' lexical index, read or built.

        From its file when that is current (True), else built from the stored
        event texts (False).
        """
        h = self.hierarchy
        if expected is not None:
            stored = persist.load_lexical(
                self._index_folder, expected, self._read_lexical, len(h.events)
            )
            if stored is not None:
                self._lexical = stored
                return True
        self._lexical = self._new_lexical()
        texts = [
            lexical_text(t or "")
            for (t,) in self.db.fetchall(
                'SELECT text FROM adamm_events WHERE user_id = ? ORDER BY "order"',
                [self.user_id],
            )
        ]
        if len(texts) != len(h.events):  # cannot happen inside one snapshot
            raise AdaMMError("the stored events changed while they were read")
        for i in range(0, len(texts), 10_000):
            self._lexical.add(texts[i : i + 10_000])
        return False

    def _load_events(
        self, round_ids: list[str], hints: list[int] | None
    ) -> list[EventRow]:
        """Stored events by round id; by storage row first where hinted.

        A row found at its hint counts only when it is this user's event with
        that round id (rows move when the table is rewritten); the rest are
        looked up by round id.
        """
        cols = 'round_id, session_id, "order", time, text, episode_id'
        found: list[EventRow] = []
        if hints and any(h >= 0 for h in hints):
            wanted = set(round_ids)
            found = [
                row[1:]
                for row in self.db.fetchall(
                    f"SELECT user_id, {cols} FROM adamm_events WHERE rowid IN "
                    "(SELECT unnest(?::BIGINT[]))",
                    [[h for h in hints if h >= 0]],
                )
                if row[0] == self.user_id and row[1] in wanted
            ]
        rest = sorted(set(round_ids) - {row[0] for row in found})
        if rest:
            found += self.db.fetchall(
                f"SELECT {cols} FROM adamm_events WHERE user_id = ? AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.user_id, rest],
            )
        return found

    # -- persisted indexes ----------------------------------------------------
    @property
    def _index_folder(self) -> Path | None:
        if not self.config.persist_index:
            return None
        return persist.index_folder(self.db, self.user_id)

    def _index_options(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "approximate_above": cfg.approximate_search_above,
            "hnsw_m": cfg.hnsw_m,
            "ef_search": cfg.hnsw_ef_search,
        }

    def _index_fingerprint(self) -> dict[str, Any]:
        """What a persisted index must match: the database state, views, layout.

        The token changes in every indexing transaction, so a file written for
        another state (a database rebuilt at the same path, a copy, a crash
        between commit and save) is never read back.
        """
        token = self.db.fetchall(
            "SELECT index_token FROM adamm_retrieval_meta WHERE user_id = ?",
            [self.user_id],
        )
        return {
            "token": token[0][0] if token else None,
            "views": persist.fingerprint(self.db, self.user_id, TURN_VIEW_PREFIX),
            "text_encoder": [self.text_encoder.name, self.text_encoder.dim],
            "approximate_above": self.config.approximate_search_above,
            "hnsw_m": self.config.hnsw_m,
        }

    def save_index(self, expected: dict[str, Any] | None = None) -> None:
        """Persist the vector indexes beside the database file (when it is one)."""
        folder = self._index_folder
        self._unsaved = 0
        if folder is None:
            return
        persist.save(
            folder,
            expected or self._index_fingerprint(),
            self._text_index,
            self._visual_index,
            (self._text_owner, self._visual_owner),
            self._lexical,
        )

    def _add_views(
        self, text_rows: list[tuple[int, Any]], visual_rows: list[tuple[int, Any]]
    ) -> None:
        if visual_rows and self._visual_index is None:
            self._visual_index = VectorIndex(
                len(visual_rows[0][1]), **self._index_options()
            )
        for rows, index, owners in (
            (text_rows, self._text_index, self._text_owner),
            (visual_rows, self._visual_index, self._visual_owner),
        ):
            if not rows or index is None:
                continue
            index.add(np.asarray([v for _, v in rows], dtype=np.float32))
            owners.extend(owner for owner, _ in rows)

    @property
    def event_count(self) -> int:
        """Events in memory."""
        return len(self.hierarchy.events)

    # -- indexing -----------------------------------------------------------
    def pending_rounds(self) -> list[tuple[int, Round]]:
        """Stored rounds not yet in retrieval memory, in history order."""
        return load_rounds(self.db, self.user_id, "NOT coalesce(indexed, false)", [])

    def index_pending(
        self, progress: Callable[[int, int], None] | None = None
    ) -> IndexOutcome:
        """Embed and insert every pending round, batch by batch.

        One indexing runs at a time per database, and it reads what is pending
        once it holds the lock, so no round is indexed twice.
        """
        with self.db.index_lock:
            outcome = self._index_pending(progress)
            self._unsaved += outcome.indexed
            # Writing the index costs its size: write when the unsaved part is
            # 5% of the memory or more (always, for a small one), and on close.
            if self._unsaved and self._unsaved >= self.save_fraction * self.event_count:
                self.save_index()
            return outcome

    def flush_index(self) -> None:
        """Persist the indexes if rounds were indexed since they were last saved."""
        with self.db.index_lock:
            if self._unsaved:
                self.save_index()

    def _index_pending(
        self, progress: Callable[[int, int], None] | None = None
    ) -> IndexOutcome:
        pending = self.pending_rounds()
        outcome = IndexOutcome()
        size = self.config.ingest_batch_size
        for i in range(0, len(pending), size):
            batch = pending[i : i + size]
            self._index_batch(batch, outcome)
            outcome.indexed += len(batch)
            if progress:
                progress(outcome.indexed, len(pending))
        return outcome

    def _embed_images(
        self, batch: Sequence[tuple[int, Round]], outcome: IndexOutcome
    ) -> dict[tuple[str, str], np.ndarray]:
        if self.visual_encoder is None:
            return {}
        todo = [
            (rnd.round_id, img)
            for _, rnd in batch
            for img in rnd.images
            if img.path and not img.problem
        ]
        out: dict[tuple[str, str], np.ndarray] = {}
        group = max(1, self.config.image_group_size)
        for i in range(0, len(todo), group):  # bounded: decoded images are large
            out.update(self._embed_image_group(todo[i : i + group], outcome))
        return out

    def _embed_image_group(
        self, todo: Sequence[tuple[str, Any]], outcome: IndexOutcome
    ) -> dict[tuple[str, str], np.ndarray]:
        assert self.visual_encoder is not None
        loaded: list[tuple[tuple[str, str], Any]] = []
        for round_id, img in todo:
            try:
                loaded.append(
                    (
                        (round_id, img.image_id),
                        load_image(img.path, max_pixels=self.config.max_image_pixels),
                    )
                )
            except Exception as exc:  # noqa: BLE001 - recorded for this image
                outcome.image_problems.append((round_id, img.image_id, str(exc)[:500]))
        if not loaded:
            return {}
        try:
            vecs = self.visual_encoder.encode_images([im for _, im in loaded])
            return {key: vecs[j] for j, (key, _) in enumerate(loaded)}
        except Exception:  # noqa: BLE001 - find the image that fails, keep the rest
            out: dict[tuple[str, str], np.ndarray] = {}
            for key, im in loaded:
                try:
                    out[key] = self.visual_encoder.encode_images([im])[0]
                except Exception as exc:  # noqa: BLE001
                    outcome.image_problems.append(
                        (key[0], key[1], f"image could not be encoded: {exc}"[:500])
                    )
            return out

    def _index_batch(
        self, batch: Sequence[tuple[int, Round]], outcome: IndexOutcome
    ) -> None:
        # Views: the whole round, its dialogue, each caption and OCR text; a
        # view longer than the model's window in pieces (``round|2``...).
        texts: list[str] = []
        owners: list[tuple[int, str]] = []
        chunker = getattr(self.text_encoder, "chunks", None)
        if not self.config.chunk_views:
            chunker = None

        def add(j: int, view: str, text: str) -> None:
            for k, piece in enumerate(chunker(text) if chunker else [text]):
                texts.append(piece)
                owners.append((j, chunk_view(view, k)))

        full_texts = [round_text(rnd) for _, rnd in batch]
        plain = [lexical_text(t) for t in full_texts]
        whole = self.config.encode_image_round_views
        for j, (_, rnd) in enumerate(batch):
            full = full_texts[j]
            # an image-only round has no text vector, not a made-up one
            if full and (whole or not rnd.images):
                add(j, "round", full if self.config.label_round_views else plain[j])
            dialogue = "\n".join(x for x in (rnd.user, rnd.assistant) if x)
            if rnd.images and dialogue:
                add(j, "dialogue", dialogue)
            for img in rnd.images:
                for kind, text in (("caption", img.caption), ("ocr", img.ocr)):
                    if text:
                        add(j, f"{kind}:{img.image_id}", text)
            if self.config.turn_views and rnd.user and rnd.assistant:
                for kind, text in (("user", rnd.user), ("assistant", rnd.assistant)):
                    add(j, f"{TURN_VIEW_PREFIX}{kind}", text)
        problems_before = len(outcome.image_problems)
        # one forward pass per distinct text (a caption shown twice, a turn that
        # is also the whole round when views coincide)
        distinct = list(dict.fromkeys(texts))
        encoded = self.text_encoder.encode(distinct)
        row_of = {t: i for i, t in enumerate(distinct)}
        vectors = encoded[[row_of[t] for t in texts]] if texts else encoded
        image_vecs = self._embed_images(batch, outcome)
        # a round's vector: its whole-round view, composed from the pieces
        # when it was too long for one (not its first piece alone)
        pieces: dict[int, list[int]] = {}
        for k, (j, view) in enumerate(owners):
            if base_view(view) == "round":
                pieces.setdefault(j, []).append(k)
        full_vec: dict[int, np.ndarray] = {
            j: vectors[ks[0]]
            if len(ks) == 1
            else compose(vectors[ks], [len(texts[k]) for k in ks])
            for j, ks in pieces.items()
        }
        composed: set[int] = set()
        if not whole:  # no whole view encoded: composed from the round's views
            parts: dict[int, list[int]] = {}
            for k, (j, view) in enumerate(owners):
                if j not in full_vec and not view.startswith(TURN_VIEW_PREFIX):
                    parts.setdefault(j, []).append(k)
            for j, ks in parts.items():
                full_vec[j] = compose(vectors[ks], [len(texts[k]) for k in ks])
                if len(ks) > 1:  # a single view already is the whole round
                    composed.add(j)
        start = len(self.hierarchy.events)
        events: list[Event] = []
        view_rows: list[tuple[str, str, str, np.ndarray]] = []
        text_new: list[tuple[int, Any]] = []
        visual_new: list[tuple[int, Any]] = []
        for j, (order, rnd) in enumerate(batch):
            keys = [(rnd.round_id, i.image_id) for i in rnd.images]
            imgs = [image_vecs[k] for k in keys if k in image_vecs]
            pooled = normalize_rows(np.mean(imgs, axis=0))[0] if imgs else None
            events.append(
                Event(
                    rnd.round_id,
                    rnd.session_id,
                    order,
                    rnd.time,
                    full_texts[j],
                    full_vec.get(j),
                    pooled,
                )
            )
            for img, key in zip(rnd.images, keys, strict=True):
                if key in image_vecs:
                    view_rows.append(
                        (
                            rnd.round_id,
                            f"image:{img.image_id}",
                            "visual",
                            image_vecs[key],
                        )
                    )
                    visual_new.append((start + j, image_vecs[key]))
        for k, (j, view) in enumerate(owners):
            if j in composed and (k == 0 or owners[k - 1][0] != j):
                # searched like an encoded whole-round view, in its place
                view_rows.append((batch[j][1].round_id, "round", "text", full_vec[j]))
                text_new.append((start + j, full_vec[j]))
            view_rows.append((batch[j][1].round_id, view, "text", vectors[k]))
            if not view.startswith(TURN_VIEW_PREFIX):
                text_new.append((start + j, vectors[k]))
        pgvector.refresh(self.db)  # another process may have added pgvector
        if self.db.vector_search and self._sql is not None:
            # once the user's views pass approximate_search_above; before the
            # batch's transaction (CREATE INDEX CONCURRENTLY runs outside one)
            adding = {"text": len(text_new), "visual": len(visual_new)}
            for modality, dim in sorted({(v[2], len(v[3])) for v in view_rows}):
                if self._sql.index_due(modality, adding.get(modality, 0)):
                    self._sql.ensure_index(modality, dim)
        with self.state_lock:
            try:
                self._apply_batch(
                    batch,
                    plain,
                    outcome,
                    problems_before,
                    events,
                    view_rows,
                    text_new,
                    visual_new,
                )
            except BaseException:
                self.reload()  # before any search sees what was not committed
                raise

    def _apply_batch(
        self,
        batch: Sequence[tuple[int, Round]],
        plain: list[str],
        outcome: IndexOutcome,
        problems_before: int,
        events: list[Event],
        view_rows: list[tuple[str, str, str, np.ndarray]],
        text_new: list[tuple[int, Any]],
        visual_new: list[tuple[int, Any]],
    ) -> None:
        """Add a batch's events, views and vectors in one transaction."""
        with self.db.transaction():
            touched_eps: set[int] = set()
            touched_topics: set[int] = set()
            for ev in events:
                change = self.hierarchy.add_event(ev)
                touched_eps |= change.episodes
                touched_topics |= change.topics
            self._write(events, view_rows, touched_eps, touched_topics)
            for round_id, image_id, problem in outcome.image_problems[problems_before:]:
                self.db.execute(
                    "UPDATE adamm_images SET problem = ? WHERE user_id = ? AND "
                    "round_id = ? AND image_id = ?",
                    [problem, self.user_id, round_id, image_id],
                )
            self.db.execute(
                "UPDATE adamm_rounds SET indexed = true WHERE user_id = ? "
                "AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.user_id, [r.round_id for _, r in batch]],
            )
            self._lexical.add(plain)
            if self._sql is None:
                self._add_views(text_new, visual_new)
            else:
                self._sql.counts["text"] += len(text_new)
                self._sql.counts["visual"] += len(visual_new)

    # -- forgetting ---------------------------------------------------------
    def forget_rounds(self, round_ids: Sequence[str]) -> RetrievalForget:
        """Remove the rounds' events, views and vectors; re-pool what held them.

        Each episode that loses events is pooled again from the events it
        keeps (sums, times, description; a closed episode is described again
        by the model when there is one), or removed when none is left; each
        topic that loses or changes episodes likewise. The vector rows of the
        rounds are deleted from the indexes (marked dead and zeroed; see
        :meth:`VectorIndex.remove`), and the persisted index files are deleted
        (written again on close or by the next indexing). Joins a caller's
        transaction (the caller then calls :meth:`forget_saved` after its
        commit, and reloads on failure); otherwise, on failure, the in-memory
        state is read again.
        """
        if self.db.in_transaction and not self.state_lock.held():
            # a search holds the state, then waits for the database: taking
            # the state now, inside a transaction, could deadlock with it
            raise AdaMMError(
                "forget_rounds inside a transaction needs state_lock taken "
                "before the transaction (Memory.forget does both)"
            )
        with self.db.index_lock, self.state_lock:
            outer = self.db.in_transaction  # the caller commits, or rolls back
            try:
                with self.db.transaction():
                    report, gone = self._forget(list(dict.fromkeys(round_ids)))
                    if gone.size and self._sql is not None:
                        self._sql.reload()  # the deleted views went with the rows
                    elif gone.size:
                        t_rows = _rows_of(self._text_owner, gone)
                        v_rows = _rows_of(self._visual_owner, gone)
                        self._text_index.remove(t_rows)
                        if self._visual_index is not None:
                            self._visual_index.remove(v_rows)
                        self._text_owner = _shifted(self._text_owner, t_rows, gone)
                        self._visual_owner = _shifted(self._visual_owner, v_rows, gone)
                    if gone.size:
                        self._lexical.remove(gone)
                        self.hierarchy.events.remove(gone)
                        self.hierarchy.invalidate()
                        self.forgotten += 1
            except BaseException:
                if not outer:  # inside a caller's transaction the caller reloads
                    self.reload()
                raise
            if gone.size and not outer:
                self.forget_saved(len(gone))
            return report

    def forget_saved(self, events: int) -> None:
        """After forgetting: the index files, which hold the forgotten vectors, go.

        The indexes are written again as after indexing (5% rule, and close).
        """
        persist.discard(self._index_folder)
        self._unsaved += events

    def _forget(self, round_ids: list[str]) -> tuple[RetrievalForget, np.ndarray]:
        report = RetrievalForget()
        h = self.hierarchy
        rows = self.db.fetchall(
            "SELECT round_id, episode_id FROM adamm_events WHERE user_id = ? AND "
            "round_id IN (SELECT unnest(?::VARCHAR[]))",
            [self.user_id, round_ids],
        )
        if not rows:
            return report, np.zeros(0, dtype=np.int64)
        gone = {rid for rid, _ in rows}
        positions = np.sort(np.asarray([h.events.position(r) for r in gone]))
        report.events = len(gone)
        (report.views,) = self.db.fetchall(
            "SELECT count(*) FROM adamm_event_views WHERE user_id = ? AND "
            "round_id IN (SELECT unnest(?::VARCHAR[]))",
            [self.user_id, sorted(gone)],
        )[0]
        for table in ("adamm_event_views", "adamm_events"):
            self.db.execute(
                f"DELETE FROM {table} WHERE user_id = ? AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.user_id, sorted(gone)],
            )
        touched_topics: set[int] = set()
        changed: list[Episode] = []
        for ep_id in sorted({e for _, e in rows if e is not None}):
            ep = h.episodes.get(ep_id)
            if ep is None:
                continue
            ep.event_ids = [r for r in ep.event_ids if r not in gone]
            if ep.topic_id is not None:
                touched_topics.add(ep.topic_id)
            if not ep.event_ids:
                del h.episodes[ep_id]
                report.episodes_removed.append(ep_id)
                if h.current == ep_id:
                    h.current = None
                continue
            changed.append(ep)
            report.episodes_changed.append(ep_id)
        kept = self._stored_members([r for ep in changed for r in ep.event_ids])
        for ep in changed:
            self._repool_episode(ep, kept)
        changed_eps = {ep.episode_id for ep in changed}
        removed_eps = set(report.episodes_removed)
        changed_topics: set[int] = set()
        for tid in sorted(touched_topics):
            topic = h.topics.get(tid)
            if topic is None:
                continue
            topic.episode_ids = [e for e in topic.episode_ids if e not in removed_eps]
            if not topic.episode_ids:
                del h.topics[tid]
                report.topics_removed.append(tid)
                continue
            self._repool_topic(topic)
            changed_topics.add(tid)
            report.topics_changed.append(tid)
        for table, key, ids in (
            ("adamm_episodes", "episode_id", report.episodes_removed),
            ("adamm_topics", "topic_id", report.topics_removed),
        ):
            if ids:
                self.db.execute(
                    f"DELETE FROM {table} WHERE user_id = ? AND {key} IN "
                    "(SELECT unnest(?::INTEGER[]))",
                    [self.user_id, ids],
                )
        # the changed nodes, the current episode and a new index token
        self._write([], [], changed_eps, changed_topics)
        return report, positions

    def _stored_members(self, round_ids: list[str]) -> dict[str, _Member]:
        """Time, text and vectors of stored events, by round id (one query)."""
        if not round_ids:
            return {}
        return {
            rid: (time, text, _vec(tvec), _vec(vvec))
            for rid, time, text, tvec, vvec in self.db.fetchall(
                "SELECT round_id, time, text, text_vec, visual_vec FROM adamm_events "
                "WHERE user_id = ? AND round_id IN (SELECT unnest(?::VARCHAR[]))",
                [self.user_id, round_ids],
            )
        }

    def _repool_episode(self, ep: Episode, stored: dict[str, _Member]) -> None:
        """An episode's sums, times and description from the events it keeps."""
        members = [stored[r] for r in ep.event_ids]
        ep.text_sum = ep.visual_sum = None
        ep.visual_count = 0
        ep.start = ep.end = None
        for time, _, tvec, vvec in members:
            ep.text_sum = add_vector(ep.text_sum, tvec)
            if vvec is not None:
                ep.visual_sum = add_vector(ep.visual_sum, vvec)
                ep.visual_count += 1
            if time is not None:
                ep.start = ep.start or time
                ep.end = time
        ep.description = extractive_summary(text or "" for _, text, _, _ in members)
        if self.describer is not None and ep.closed:
            self._describe_episode(ep, self.hierarchy)

    def _repool_topic(self, topic: Topic) -> None:
        """A topic's sums and description from the episodes it keeps."""
        h = self.hierarchy
        episodes = [h.episodes[e] for e in topic.episode_ids]
        topic.text_sum = unit_sum([ep.text_sum for ep in episodes])
        visual = [ep.visual_sum for ep in episodes if ep.visual_sum is not None]
        topic.visual_sum = unit_sum(visual)
        topic.visual_count = len(visual)
        topic.description = extractive_summary(
            h.episodes[e].description for e in topic.episode_ids
        )
        if self.describer is not None:
            self._describe_topic(topic, h)

    def _describe_episode(self, ep: Episode, h: Hierarchy) -> None:
        """A closed episode, described by the model and embedded from that text."""
        assert self.describer is not None
        ep.description = self.describer.describe_episode(
            [h.events[r].text for r in ep.event_ids]
        )
        ep.text_sum = self.text_encoder.encode([ep.description])[0]

    def _describe_topic(self, topic: Topic, h: Hierarchy) -> None:
        """A grown topic, described by the model and embedded from that text."""
        assert self.describer is not None
        topic.description = self.describer.describe_topic(
            [h.episodes[e].description for e in topic.episode_ids]
        )
        topic.text_sum = self.text_encoder.encode([topic.description])[0]

    def _write(
        self,
        events: list[Event],
        views: list[tuple[str, str, str, np.ndarray]],
        episodes: set[int],
        topics: set[int],
    ) -> None:
        uid = self.user_id
        insert_columns(
            self.db,
            "adamm_events",
            (
                "user_id",
                "round_id",
                "session_id",
                "order",
                "time",
                "text",
                "text_vec",
                "visual_vec",
                "episode_id",
            ),
            (
                "VARCHAR",
                "VARCHAR",
                "VARCHAR",
                "BIGINT",
                "TIMESTAMP",
                "VARCHAR",
                "BLOB",
                "BLOB",
                "INTEGER",
            ),
            [
                [uid] * len(events),
                [e.round_id for e in events],
                [e.session_id for e in events],
                [e.order for e in events],
                [e.time for e in events],
                [e.text for e in events],
                [_blob(e.text_vec) for e in events],
                [_blob(e.visual_vec) for e in events],
                [e.episode_id for e in events],
            ],
        )
        columns = ["user_id", "round_id", "view", "modality", "vec"]
        types = ["VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "BLOB"]
        values: list[list[Any]] = [
            [uid] * len(views),
            [v[0] for v in views],
            [v[1] for v in views],
            [v[2] for v in views],
            [_blob(v[3]) for v in views],
        ]
        if self.db.vectors:  # every writer fills the column SQL searches
            columns.append("emb")
            types.append("vector")
            values.append(SqlVectors(SqlVector(v[3]) for v in views))
        insert_columns(self.db, "adamm_event_views", columns, types, values)
        h = self.hierarchy
        eps = [h.episodes[e] for e in sorted(episodes)]
        insert_columns(
            self.db,
            "adamm_episodes",
            (
                "user_id",
                "episode_id",
                "topic_id",
                "description",
                "start_time",
                "end_time",
                "event_ids",
                "text_sum",
                "visual_sum",
                "visual_count",
                "closed",
            ),
            (
                "VARCHAR",
                "INTEGER",
                "INTEGER",
                "VARCHAR",
                "TIMESTAMP",
                "TIMESTAMP",
                "VARCHAR[]",
                "BLOB",
                "BLOB",
                "INTEGER",
                "BOOLEAN",
            ),
            [
                [uid] * len(eps),
                [e.episode_id for e in eps],
                [e.topic_id for e in eps],
                [e.description for e in eps],
                [e.start for e in eps],
                [e.end for e in eps],
                [e.event_ids for e in eps],
                [_blob(e.text_sum) for e in eps],
                [_blob(e.visual_sum) for e in eps],
                [e.visual_count for e in eps],
                [e.closed for e in eps],
            ],
            key=("user_id", "episode_id"),
        )
        tops = [h.topics[t] for t in sorted(topics)]
        insert_columns(
            self.db,
            "adamm_topics",
            (
                "user_id",
                "topic_id",
                "description",
                "episode_ids",
                "text_sum",
                "visual_sum",
                "visual_count",
            ),
            (
                "VARCHAR",
                "INTEGER",
                "VARCHAR",
                "INTEGER[]",
                "BLOB",
                "BLOB",
                "INTEGER",
            ),
            [
                [uid] * len(tops),
                [t.topic_id for t in tops],
                [t.description for t in tops],
                [t.episode_ids for t in tops],
                [_blob(t.text_sum) for t in tops],
                [_blob(t.visual_sum) for t in tops],
                [t.visual_count for t in tops],
            ],
            key=("user_id", "topic_id"),
        )
        head, tail = upsert(
            "adamm_retrieval_meta",
            (
                "user_id",
                "text_encoder",
                "visual_encoder",
                "current_episode",
                "index_token",
            ),
            ("user_id",),
        )
        self.db.execute(
            head + "VALUES (?, ?, ?, ?, ?)" + tail,
            [
                uid,
                self.text_encoder.name,
                # A text-only session keeps the name of the encoder that made the
                # stored image vectors, so a later mismatch is still refused.
                self.visual_encoder.name
                if self.visual_encoder
                else self._stored_visual,
                h.current,
                uuid.uuid4().hex,  # a new state: older index files no longer match
            ],
        )


__all__ = [
    "TURN_VIEW_PREFIX",
    "IndexOutcome",
    "MemoryUnit",
    "RetrievalMemory",
    "Scope",
    "round_text",
]
