"""The event -> episode -> topic hierarchy, built incrementally (AdaMM Appendix A).

Pure code over vectors: no database, no model. Each node keeps a text vector and,
when it or its children carry images, a visual vector. Similarity is late fusion
of the two cosines, 0.6 text / 0.4 visual, with the weights renormalized over the
modalities both nodes have: a missing modality is left out, never a zero vector.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import islice
from typing import Any

import numpy as np

from langgraph_adamm.config import AdaMMConfig

Vector = np.ndarray


def fuse(
    text_sim: float | None,
    visual_sim: float | None,
    text_weight: float = 0.6,
    visual_weight: float = 0.4,
) -> float:
    """Late fusion of a text and a visual similarity, either of which may be absent.

    The weights are renormalized over the similarities present: a missing
    modality is left out, never counted as zero. Returns 0.0 when both are absent.
    """
    total = weight = 0.0
    if text_sim is not None:
        total += text_weight * text_sim
        weight += text_weight
    if visual_sim is not None:
        total += visual_weight * visual_sim
        weight += visual_weight
    return total / weight if weight else 0.0


def fused_similarity(
    a_text: Vector | None,
    a_visual: Vector | None,
    b_text: Vector | None,
    b_visual: Vector | None,
    text_weight: float = 0.6,
    visual_weight: float = 0.4,
) -> float:
    """Late fusion of text and visual cosines over the modalities both sides have.

    Vectors are unit length, so a dot product is a cosine. Returns 0.0 when the
    two sides share no modality.
    """
    text = (
        float(np.dot(a_text, b_text))
        if a_text is not None and b_text is not None
        else None
    )
    visual = (
        float(np.dot(a_visual, b_visual))
        if a_visual is not None and b_visual is not None
        else None
    )
    return fuse(text, visual, text_weight, visual_weight)


def _unit(v: Vector) -> Vector:
    n = float(np.linalg.norm(v))
    return (v / n).astype(np.float32) if n else v.astype(np.float32)


@dataclass
class Event:
    """One round: its content, place in the history and vectors."""

    round_id: str
    session_id: str
    order: int
    time: datetime | None
    text: str
    text_vec: Vector | None
    visual_vec: Vector | None = None
    """Pooled (mean, then normalized) embedding of the round's images."""
    episode_id: int | None = None


def int64s(values: array) -> np.ndarray:
    """An ``array("q")`` as a NumPy view (an empty one as an empty array)."""
    return (
        np.frombuffer(values, dtype=np.int64) if len(values) else np.zeros(0, np.int64)
    )


EventRow = tuple[str, str, int, datetime | None, str | None, int | None]
"""A stored event: round id, session id, order, time, text, episode id."""
EventLoader = Callable[[list[str], "list[int] | None"], Iterable[EventRow]]
"""Reads stored events: (round ids, storage row hints or None) -> rows."""


class EventTable(Mapping[str, Event]):
    """A memory's events in history order, by round id or by position.

    Round ids and episode ids are kept per position; the rest of a stored event
    (session, time, text) is read through ``loader`` when the event is first
    asked for, in one batch for many, and kept. A memory of a million events
    thus opens without making a million objects.

    Args:
        loader: Reads stored events by round id, given also their storage row
            hints where known (rows in any order, unknown ids left out); None
            when every event is added in this process.
    """

    def __init__(self, loader: EventLoader | None = None) -> None:
        self.ids: list[str] = []
        self._episodes = array("q")  # -1: none yet
        self._hints = array("q")  # storage rows of the stored events
        self._cache: dict[str, Event] = {}
        self._pos: dict[str, int] | None = {}
        self._loader = loader

    @classmethod
    def stored(
        cls,
        ids: list[str],
        episode_ids: Sequence[int],
        loader: EventLoader,
        hints: Sequence[int] = (),
    ) -> EventTable:
        """Stored events: ids in history order and their episodes (-1: none).

        ``hints`` (one per stored event, optional) are where the loader may
        look first; it must check what it finds there.
        """
        table = cls(loader)
        table.ids = ids
        table._episodes = array("q", np.asarray(episode_ids, dtype=np.int64).tobytes())
        if len(hints):
            table._hints = array("q", np.asarray(hints, dtype=np.int64).tobytes())
        table._pos = None  # built on first use
        return table

    def _positions(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = dict(zip(self.ids, range(len(self.ids)), strict=True))
        return self._pos

    def position(self, round_id: str) -> int:
        """The event's place in history order (KeyError when unknown)."""
        return self._positions()[round_id]

    def episode_at(self, pos: int) -> int | None:
        """The episode of the event at a position (no event object made)."""
        ep = self._episodes[pos]
        return None if ep < 0 else ep

    def add(self, event: Event) -> None:
        """Append an event (the next in history order)."""
        self._positions()[event.round_id] = len(self.ids)
        self.ids.append(event.round_id)
        self._episodes.append(-1 if event.episode_id is None else event.episode_id)
        self._cache[event.round_id] = event

    def remove(self, positions: np.ndarray) -> None:
        """Drop the events at these positions; later events move up."""
        drop = np.unique(np.asarray(positions, dtype=np.int64))
        if not len(drop):
            return
        for p in drop.tolist():
            self._cache.pop(self.ids[p], None)
        keep = np.ones(len(self.ids), dtype=bool)
        keep[drop] = False
        self.ids = [rid for rid, k in zip(self.ids, keep.tolist(), strict=True) if k]

        def kept(values: array) -> array:
            rows = int64s(values)
            return array("q", rows[keep[: len(rows)]].tobytes())

        self._episodes = kept(self._episodes)
        self._hints = kept(self._hints)
        self._pos = None

    def many(self, round_ids: Iterable[str]) -> list[Event]:
        """Events by round id, reading every missing one in one batch."""
        wanted = list(round_ids)
        self._load([r for r in dict.fromkeys(wanted) if r not in self._cache], None)
        return [self._cache[r] for r in wanted]  # KeyError names an unknown id

    def many_at(self, positions: Iterable[int]) -> list[Event]:
        """Events by position (what a search returns), read in one batch."""
        at = list(positions)
        missing = {
            self.ids[p]: self._hints[p] if p < len(self._hints) else -1
            for p in at
            if self.ids[p] not in self._cache
        }
        self._load(list(missing), list(missing.values()))
        return [self._cache[self.ids[p]] for p in at]

    def clear_loaded(self) -> None:
        """Drop the events held in memory (read again on demand).

        Only with a loader: every added event is stored by then.
        """
        if self._loader is not None:
            self._cache.clear()

    def _load(self, missing: list[str], hints: list[int] | None) -> None:
        if not missing or self._loader is None:
            return
        for rid, sid, order, time, text, ep in self._loader(missing, hints):
            self._cache[rid] = Event(rid, sid, order, time, text or "", None, None, ep)

    def __getitem__(self, round_id: str) -> Event:
        hit = self._cache.get(round_id)
        return hit if hit is not None else self.many([round_id])[0]

    def __contains__(self, round_id: object) -> bool:
        return round_id in self._cache or round_id in self._positions()

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)


class _PooledVectors:
    """Node vectors from running sums of the children's (or a description's)."""

    text_sum: Vector | None
    visual_sum: Vector | None

    @property
    def text_vec(self) -> Vector | None:
        """The pooled text vector, normalized."""
        return None if self.text_sum is None else _unit(self.text_sum)

    @property
    def visual_vec(self) -> Vector | None:
        """The pooled visual vector of the image-bearing children, normalized."""
        return None if self.visual_sum is None else _unit(self.visual_sum)


@dataclass
class Episode(_PooledVectors):
    """Temporally adjacent, similar events."""

    episode_id: int
    event_ids: list[str] = field(default_factory=list)
    start: datetime | None = None
    end: datetime | None = None
    description: str = ""
    text_sum: Vector | None = None
    visual_sum: Vector | None = None
    visual_count: int = 0
    topic_id: int | None = None
    closed: bool = False


@dataclass
class Topic(_PooledVectors):
    """Related episodes, with no adjacency required."""

    topic_id: int
    episode_ids: list[int] = field(default_factory=list)
    description: str = ""
    text_sum: Vector | None = None
    visual_sum: Vector | None = None
    visual_count: int = 0


def unit_sum(vectors: Sequence[Vector | None]) -> Vector | None:
    """The sum of the present vectors' unit vectors (None when none is)."""
    rows, present = _unit_rows(vectors)
    return rows[present].sum(axis=0, dtype=np.float32) if present.any() else None


def _unit_rows(sums: Sequence[Vector | None]) -> tuple[np.ndarray, np.ndarray]:
    """Unit rows of the present sums (zeros elsewhere) and which are present."""
    present = np.array([v is not None for v in sums], dtype=bool)
    if not present.any():
        return np.zeros((len(sums), 0), dtype=np.float32), present
    dim = next(len(v) for v in sums if v is not None)
    rows = np.zeros((len(sums), dim), dtype=np.float32)
    for i, v in enumerate(sums):
        if v is not None:
            rows[i] = v
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return rows / norms, present


@dataclass
class NodeVectors:
    """One level's nodes with their pooled vectors as matrices."""

    nodes: list[Episode | Topic]
    text: np.ndarray
    has_text: np.ndarray
    visual: np.ndarray
    has_visual: np.ndarray
    lexical: Any = field(default=None, repr=False, compare=False)
    """BM25 over the nodes' descriptions, built by the first search that needs
    it (a :class:`~langgraph_adamm.retrieval.lexical.LexicalIndex`)."""

    @classmethod
    def stack(cls, nodes: list[Episode | Topic]) -> NodeVectors:
        """Stack the nodes' text and visual sums, normalized."""
        text, has_text = _unit_rows([n.text_sum for n in nodes])
        visual, has_visual = _unit_rows([n.visual_sum for n in nodes])
        return cls(nodes, text, has_text, visual, has_visual)

    def with_node(self, node: Episode | Topic) -> NodeVectors | None:
        """These vectors with one node's rows stacked again (appended when new).

        The other nodes' rows are kept, so that a node growing costs one row
        rather than the level's every row; each row is what :meth:`stack` gives
        it. None when the node's vector does not fit the matrix (the level's
        first vector of a modality): stack the level again.
        """
        at = next((i for i, n in enumerate(self.nodes) if n is node), len(self.nodes))
        arrays: list[np.ndarray] = []
        for matrix, has, vector in (
            (self.text, self.has_text, node.text_sum),
            (self.visual, self.has_visual, node.visual_sum),
        ):
            if vector is None:
                row = np.zeros((1, matrix.shape[1]), dtype=matrix.dtype)
            elif len(vector) == matrix.shape[1]:
                row = _unit_rows([vector])[0]
            else:
                return None
            if at == len(self.nodes):
                arrays += [np.vstack([matrix, row]), np.append(has, vector is not None)]
            else:
                matrix, has = matrix.copy(), has.copy()
                matrix[at], has[at] = row[0], vector is not None
                arrays += [matrix, has]
        nodes = self.nodes if at < len(self.nodes) else [*self.nodes, node]
        return NodeVectors(list(nodes), *arrays)

    def scores(
        self,
        q_text: Vector | None,
        q_visual: Vector | None,
        text_weight: float = 0.6,
        visual_weight: float = 0.4,
    ) -> np.ndarray:
        """Fused similarity of every node to a query (as :func:`fused_similarity`)."""
        n = len(self.nodes)
        total = np.zeros(n, dtype=np.float64)
        weight = np.zeros(n, dtype=np.float64)
        for q, m, has, w in (
            (q_text, self.text, self.has_text, text_weight),
            (q_visual, self.visual, self.has_visual, visual_weight),
        ):
            if q is None or not m.shape[1] or m.shape[1] != len(q):
                continue
            # cosines in float32 as np.dot gives them, fused in float64 as
            # fuse() does, so that a node scores exactly what it would alone
            sims = (m @ np.asarray(q, dtype=np.float32)).astype(np.float64)
            total += np.where(has, w * sims, 0.0)
            weight += np.where(has, w, 0.0)
        return np.divide(total, weight, out=np.zeros(n), where=weight > 0)


def add_vector(total: Vector | None, v: Vector | None) -> Vector | None:
    """A running sum of vectors (None: nothing yet); never changes ``total``."""
    if v is None:
        return total
    return v.astype(np.float32).copy() if total is None else total + v


SUMMARY_SCAN = 64
"""An offline description reads at most this many texts (the first ones), so
that a node of thousands of children is not read in full at every change."""


def extractive_summary(texts: Iterable[str], limit: int = 400) -> str:
    """An offline description: the first sentence of each text, in order.

    Reads the first :data:`SUMMARY_SCAN` texts at most.
    """
    parts: list[str] = []
    size = 0
    for text in islice(texts, SUMMARY_SCAN):
        first = text.strip().split("\n")[0]
        for stop in (". ", "? ", "! "):
            cut = first.find(stop)
            if cut != -1:
                first = first[: cut + 1]
        first = first.strip()
        if not first or first in parts:
            continue
        if size + len(first) > limit:
            break
        parts.append(first)
        size += len(first) + 1
    return " ".join(parts)


@dataclass
class HierarchyChange:
    """What one insertion touched, for persistence."""

    episodes: set[int] = field(default_factory=set)
    topics: set[int] = field(default_factory=set)


class Hierarchy:
    """Incremental construction: each new event touches only its own ancestors.

    Without a describer, node descriptions are extractive and node text vectors
    pool their children's. With ``describe`` hooks (a model), a closed episode and
    a grown topic are re-described, and the hook may re-embed the node from its
    description (AdaMM App. A) before the episode is matched against topics.
    """

    def __init__(
        self,
        config: AdaMMConfig | None = None,
        *,
        on_episode_closed: Callable[[Episode, Hierarchy], None] | None = None,
        on_topic_grown: Callable[[Topic, Hierarchy], None] | None = None,
    ) -> None:
        self.config = config or AdaMMConfig()
        self.on_episode_closed = on_episode_closed
        self.on_topic_grown = on_topic_grown
        self.events = EventTable()
        self.episodes: dict[int, Episode] = {}
        self.topics: dict[int, Topic] = {}
        self.current: int | None = None
        self._stacked: dict[str, NodeVectors] = {}
        self._last_ids: dict[str, int] = {}

    def _next_id(self, kind: str, nodes: Mapping[int, object]) -> int:
        """A new node id: one past the largest (found once, then counted on)."""
        last = self._last_ids.get(kind)
        if last is None:
            last = max(nodes, default=0)
        self._last_ids[kind] = last + 1
        return last + 1

    def invalidate(self) -> None:
        """Drop the stacked node vectors after episodes or topics were edited."""
        self._stacked.clear()

    def node_vectors(self, level: str) -> NodeVectors:
        """All episodes' (``"episode"``) or topics' (``"topic"``) vectors stacked.

        Kept until the hierarchy next changes, so that searching a level scores
        every node in one matrix product.
        """
        if level not in self._stacked:
            nodes: list[Episode | Topic] = list(
                self.episodes.values() if level == "episode" else self.topics.values()
            )
            self._stacked[level] = NodeVectors.stack(nodes)
        return self._stacked[level]

    def _fused(
        self,
        a_text: Vector | None,
        a_vis: Vector | None,
        b_text: Vector | None,
        b_vis: Vector | None,
    ) -> float:
        return fused_similarity(
            a_text,
            a_vis,
            b_text,
            b_vis,
            self.config.text_weight,
            self.config.visual_weight,
        )

    def joins_current(self, event: Event) -> bool:
        """Whether the event continues the current episode (gap and similarity)."""
        if self.current is None:
            return False
        ep = self.episodes[self.current]
        if event.time is not None and ep.end is not None:
            # Either direction: a later ingest may add rounds to an older session.
            gap = abs(event.time - ep.end)
            if gap > timedelta(days=self.config.episode_max_gap_days):
                return False
        sim = self._fused(event.text_vec, event.visual_vec, ep.text_vec, ep.visual_vec)
        return sim > self.config.episode_threshold

    def add_event(self, event: Event) -> HierarchyChange:
        """Insert the next event in history order."""
        self._stacked.pop("episode", None)  # topics change only when one closes
        change = HierarchyChange()
        if not self.joins_current(event):
            if self.current is not None:
                change.topics.add(self.close_current())
                change.episodes.add(self.current)
            new_id = self._next_id("episode", self.episodes)
            self.episodes[new_id] = Episode(new_id)
            self.current = new_id
        ep = self.episodes[self.current]  # type: ignore[index]
        ep.event_ids.append(event.round_id)
        ep.text_sum = add_vector(ep.text_sum, event.text_vec)
        if event.visual_vec is not None:
            ep.visual_sum = add_vector(ep.visual_sum, event.visual_vec)
            ep.visual_count += 1
        if event.time is not None:
            ep.start = ep.start or event.time
            ep.end = event.time
        event.episode_id = ep.episode_id
        self.events.add(event)
        ep.description = extractive_summary(
            e.text for e in self.events.many(ep.event_ids[:SUMMARY_SCAN])
        )
        change.episodes.add(ep.episode_id)
        self._stacked.pop("episode", None)
        return change

    def close_current(self) -> int:
        """Close the current episode and attach it to its best topic (or a new one)."""
        assert self.current is not None
        self._stacked.pop("episode", None)
        ep = self.episodes[self.current]
        ep.closed = True
        if self.on_episode_closed is not None:
            self.on_episode_closed(ep, self)
        best: Topic | None = None
        topics = self.node_vectors("topic")  # one matrix product for all topics
        if topics.nodes:
            sims = topics.scores(
                ep.text_vec,
                ep.visual_vec,
                self.config.text_weight,
                self.config.visual_weight,
            )
            at = int(np.argmax(sims))  # the first of equals, as topics were made
            if sims[at] > self.config.topic_threshold:
                best = topics.nodes[at]  # type: ignore[assignment]
        if best is None:
            best = Topic(self._next_id("topic", self.topics))
            self.topics[best.topic_id] = best
        best.episode_ids.append(ep.episode_id)
        best.text_sum = add_vector(best.text_sum, ep.text_vec)
        if ep.visual_vec is not None:
            best.visual_sum = add_vector(best.visual_sum, ep.visual_vec)
            best.visual_count += 1
        best.description = extractive_summary(
            self.episodes[e].description for e in best.episode_ids[:SUMMARY_SCAN]
        )
        ep.topic_id = best.topic_id
        if self.on_topic_grown is not None:
            self.on_topic_grown(best, self)
        stacked = self._stacked.get("topic")  # None if a callback invalidated it
        self._stacked.clear()
        grown = stacked.with_node(best) if stacked is not None else None
        if grown is not None:
            self._stacked["topic"] = grown
        return best.topic_id
