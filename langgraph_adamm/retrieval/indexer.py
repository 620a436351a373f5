"""Indexing: stored rounds become events, views and vectors; episodes and topics follow.

Rounds are indexed in batches after they are stored (independently of attribute
extraction): their texts and images are embedded outside the transaction, then
events, views, touched episodes and topics and the rounds' ``indexed`` flag
commit together, and the in-memory state follows under its lock. Episode and
topic upkeep (a model's descriptions, when there is one) is here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from langgraph_adamm.history import Round
from langgraph_adamm.retrieval.encoders import (
    base_view,
    chunk_view,
    load_image,
    normalize_rows,
)
from langgraph_adamm.retrieval.hierarchy import Episode, Event, Hierarchy, Topic
from langgraph_adamm.retrieval.lexical import lexical_text
from langgraph_adamm.retrieval.state import TURN_VIEW_PREFIX, RetrievalState
from langgraph_adamm.retrieval.view_indexes import ViewIndexes
from langgraph_adamm.storage.rounds import load_rounds

RowWriter = Callable[
    [
        list[Event],
        list[tuple[str, str, str, np.ndarray]],
        set[int],
        set[int],
    ],
    None,
]
"""Writes new events and views and the changed episodes and topics (ids) in the
caller's transaction (:func:`~langgraph_adamm.retrieval.rows.write_rows`)."""


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


class RetrievalIndexer:
    """Adds pending rounds to a retrieval state and keeps its nodes described.

    Args:
        state: The state it adds to.
        indexes: The state's view indexes (extended and saved).
        write: Writes a batch's rows (``RetrievalMemory._write``).
        reload: Reads the state again after a failed batch
            (``RetrievalMemory.reload``).
    """

    def __init__(
        self,
        state: RetrievalState,
        indexes: ViewIndexes,
        *,
        write: RowWriter,
        reload: Callable[[], None],
    ) -> None:
        self.state = state
        self.indexes = indexes
        self.write = write
        self.reload = reload

    def pending_rounds(self) -> list[tuple[int, Round]]:
        """Stored rounds not yet in retrieval memory, in history order."""
        return load_rounds(
            self.state.db, self.state.user_id, "NOT coalesce(indexed, false)", []
        )

    def index_pending(
        self,
        progress: Callable[[int, int], None] | None = None,
        save_fraction: float = 0.05,
    ) -> IndexOutcome:
        """Embed and insert every pending round, batch by batch.

        One indexing runs at a time per database, and it reads what is pending
        once it holds the lock, so no round is indexed twice.
        """
        with self.state.db.index_lock:
            outcome = self._index_pending(progress)
            self.state.unsaved += outcome.indexed
            # Writing the index costs its size: write when the unsaved part is
            # 5% of the memory or more (always, for a small one), and on close.
            if self.state.unsaved and self.state.unsaved >= save_fraction * len(
                self.state.hierarchy.events
            ):
                self.indexes.save()
            return outcome

    def flush_index(self) -> None:
        """Persist the indexes if rounds were indexed since they were last saved."""
        with self.state.db.index_lock:
            if self.state.unsaved:
                self.indexes.save()

    def _index_pending(
        self, progress: Callable[[int, int], None] | None = None
    ) -> IndexOutcome:
        pending = self.pending_rounds()
        outcome = IndexOutcome()
        size = self.state.config.ingest_batch_size
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
        if self.state.visual_encoder is None:
            return {}
        todo = [
            (rnd.round_id, img)
            for _, rnd in batch
            for img in rnd.images
            if img.path and not img.problem
        ]
        out: dict[tuple[str, str], np.ndarray] = {}
        group = max(1, self.state.config.image_group_size)
        for i in range(0, len(todo), group):  # bounded: decoded images are large
            out.update(self._embed_image_group(todo[i : i + group], outcome))
        return out

    def _embed_image_group(
        self, todo: Sequence[tuple[str, Any]], outcome: IndexOutcome
    ) -> dict[tuple[str, str], np.ndarray]:
        assert self.state.visual_encoder is not None
        loaded: list[tuple[tuple[str, str], Any]] = []
        for round_id, img in todo:
            try:
                loaded.append(
                    (
                        (round_id, img.image_id),
                        load_image(
                            img.path, max_pixels=self.state.config.max_image_pixels
                        ),
                    )
                )
            except Exception as exc:  # noqa: BLE001 - recorded for this image
                outcome.image_problems.append((round_id, img.image_id, str(exc)[:500]))
        if not loaded:
            return {}
        try:
            vecs = self.state.visual_encoder.encode_images([im for _, im in loaded])
            return {key: vecs[j] for j, (key, _) in enumerate(loaded)}
        except Exception:  # noqa: BLE001 - find the image that fails, keep the rest
            out: dict[tuple[str, str], np.ndarray] = {}
            for key, im in loaded:
                try:
                    out[key] = self.state.visual_encoder.encode_images([im])[0]
                except Exception as exc:  # noqa: BLE001
                    outcome.image_problems.append(
                        (key[0], key[1], f"image could not be encoded: {exc}"[:500])
                    )
            return out

    def _chunked(self, texts: list[str]) -> list[list[str]]:
        """Each view's text in the pieces the encoder's window takes."""
        encoder = self.state.text_encoder
        if not self.state.config.chunk_views:
            return [[t] for t in texts]
        many = getattr(encoder, "chunks_many", None)
        if many is not None:
            return list(many(texts))
        one = getattr(encoder, "chunks", None)
        return [one(t) if one else [t] for t in texts]

    def _index_batch(
        self, batch: Sequence[tuple[int, Round]], outcome: IndexOutcome
    ) -> None:
        # Views: the whole round, its dialogue, each caption and OCR text; a
        # view longer than the model's window in pieces (``round|2``...).
        views: list[tuple[int, str, str]] = []

        def add(j: int, view: str, text: str) -> None:
            views.append((j, view, text))

        full_texts = [round_text(rnd) for _, rnd in batch]
        plain = [lexical_text(t) for t in full_texts]
        whole = self.state.config.encode_image_round_views
        for j, (_, rnd) in enumerate(batch):
            full = full_texts[j]
            # an image-only round has no text vector, not a made-up one
            if full and (whole or not rnd.images):
                add(
                    j,
                    "round",
                    full if self.state.config.label_round_views else plain[j],
                )
            dialogue = "\n".join(x for x in (rnd.user, rnd.assistant) if x)
            if rnd.images and dialogue:
                add(j, "dialogue", dialogue)
            for img in rnd.images:
                for kind, text in (("caption", img.caption), ("ocr", img.ocr)):
                    if text:
                        add(j, f"{kind}:{img.image_id}", text)
            if self.state.config.turn_views and rnd.user and rnd.assistant:
                for kind, text in (("user", rnd.user), ("assistant", rnd.assistant)):
                    add(j, f"{TURN_VIEW_PREFIX}{kind}", text)
        texts: list[str] = []
        owners: list[tuple[int, str]] = []
        for (j, view, _), chunked in zip(
            views, self._chunked([v[2] for v in views]), strict=True
        ):
            for k, piece in enumerate(chunked):
                texts.append(piece)
                owners.append((j, chunk_view(view, k)))
        problems_before = len(outcome.image_problems)
        # one forward pass per distinct text (a caption shown twice, a turn that
        # is also the whole round when views coincide)
        distinct = list(dict.fromkeys(texts))
        encoded = self.state.text_encoder.encode(distinct)
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
        start = len(self.state.hierarchy.events)
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
        self.state.db.refresh_vectors()  # another process may have added pgvector
        if self.state.db.vector_search and self.state.sql is not None:
            # once the user's views pass approximate_search_above; before the
            # batch's transaction (CREATE INDEX CONCURRENTLY runs outside one)
            adding = {"text": len(text_new), "visual": len(visual_new)}
            for modality, dim in sorted({(v[2], len(v[3])) for v in view_rows}):
                if self.state.sql.index_due(modality, adding.get(modality, 0)):
                    self.state.sql.ensure_index(modality, dim)
        with self.state.state_lock:
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
        with self.state.db.transaction():
            touched_eps: set[int] = set()
            touched_topics: set[int] = set()
            for ev in events:
                change = self.state.hierarchy.add_event(ev)
                touched_eps |= change.episodes
                touched_topics |= change.topics
            self.write(events, view_rows, touched_eps, touched_topics)
            for round_id, image_id, problem in outcome.image_problems[problems_before:]:
                self.state.db.execute(
                    "UPDATE adamm_images SET problem = ? WHERE user_id = ? AND "
                    "round_id = ? AND image_id = ?",
                    [problem, self.state.user_id, round_id, image_id],
                )
            self.state.db.execute(
                "UPDATE adamm_rounds SET indexed = true WHERE user_id = ? "
                "AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.state.user_id, [r.round_id for _, r in batch]],
            )
            self.state.lexical.add(plain)
            if self.state.sql is None:
                self.indexes.add_views(text_new, visual_new)
            else:
                self.state.sql.counts["text"] += len(text_new)
                self.state.sql.counts["visual"] += len(visual_new)

    def describe_episode(self, ep: Episode, h: Hierarchy) -> None:
        """A closed episode, described by the model and embedded from that text."""
        assert self.state.describer is not None
        ep.description = self.state.describer.describe_episode(
            [h.events[r].text for r in ep.event_ids]
        )
        ep.text_sum = self.state.text_encoder.encode([ep.description])[0]

    def describe_topic(self, topic: Topic, h: Hierarchy) -> None:
        """A grown topic, described by the model and embedded from that text."""
        assert self.state.describer is not None
        topic.description = self.state.describer.describe_topic(
            [h.episodes[e].description for e in topic.episode_ids]
        )
        topic.text_sum = self.state.text_encoder.encode([topic.description])[0]
