"""Forgetting: rounds leave the retrieval memory; what held them is pooled again.

Also the reload that reads the whole state back from the database (on open,
and after a failed change), since forgetting is undone by it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.retrieval import persist
from langgraph_adamm.retrieval.hierarchy import (
    Episode,
    Topic,
    add_vector,
    extractive_summary,
    int64s,
    unit_sum,
)
from langgraph_adamm.retrieval.indexer import RetrievalIndexer, RowWriter
from langgraph_adamm.retrieval.rows import (
    StoredMember,
    read_hierarchy,
    stored_members,
)
from langgraph_adamm.retrieval.state import RetrievalState
from langgraph_adamm.retrieval.view_indexes import ViewIndexes


@dataclass
class RetrievalForget:
    """What forgetting rounds changed in the retrieval memory."""

    events: int = 0
    views: int = 0
    episodes_changed: list[int] = field(default_factory=list)
    episodes_removed: list[int] = field(default_factory=list)
    topics_changed: list[int] = field(default_factory=list)
    topics_removed: list[int] = field(default_factory=list)


def _rows_of(owner: array, positions: np.ndarray) -> np.ndarray:
    """The index rows whose owner is one of the (sorted) event positions."""
    return np.flatnonzero(np.isin(int64s(owner), positions))


def _shifted(owner: array, removed_rows: np.ndarray, positions: np.ndarray) -> array:
    """Owners after deleting rows and events: later events move up."""
    kept = np.delete(int64s(owner), removed_rows)
    kept = kept - np.searchsorted(positions, kept)
    return array("q", kept.astype(np.int64).tobytes())


class RetrievalForgetter:
    """Removes rounds from a retrieval state, and reloads the state.

    Args:
        state: The state it changes.
        indexes: The state's view indexes (their files go when rounds do).
        upkeep: Describes the episodes and topics it pools again (a model's
            descriptions, when there is one).
        write: Writes the changed nodes (``RetrievalMemory._write``).
        load_indexes: Opens the indexes on a reload
            (``RetrievalMemory._load_indexes``).
    """

    def __init__(
        self,
        state: RetrievalState,
        indexes: ViewIndexes,
        upkeep: RetrievalIndexer,
        *,
        write: RowWriter,
        load_indexes: Callable[[], None],
    ) -> None:
        self.state = state
        self.indexes = indexes
        self.upkeep = upkeep
        self.write = write
        self.load_indexes = load_indexes

    def reload(self) -> None:
        """Rebuild the hierarchy and the vector indexes from the database.

        From one snapshot: another process may be indexing meanwhile.
        """
        with self.state.state_lock, self.state.db.snapshot():
            upkeep = self.upkeep if self.state.describer else None
            self.state.hierarchy = read_hierarchy(
                self.state,
                on_episode_closed=upkeep.describe_episode if upkeep else None,
                on_topic_grown=upkeep.describe_topic if upkeep else None,
            )
            self.load_indexes()

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
        if self.state.db.in_transaction and not self.state.state_lock.held():
            # a search holds the state, then waits for the database: taking
            # the state now, inside a transaction, could deadlock with it
            raise AdaMMError(
                "forget_rounds inside a transaction needs state_lock taken "
                "before the transaction (Memory.forget does both)"
            )
        with self.state.db.index_lock, self.state.state_lock:
            outer = self.state.db.in_transaction  # the caller commits, or rolls back
            try:
                with self.state.db.transaction():
                    report, gone = self._forget(list(dict.fromkeys(round_ids)))
                    if gone.size and self.state.sql is not None:
                        self.state.sql.reload()  # the deleted views went with the rows
                    elif gone.size:
                        t_rows = _rows_of(self.state.text_owner, gone)
                        v_rows = _rows_of(self.state.visual_owner, gone)
                        self.state.text_index.remove(t_rows)
                        if self.state.visual_index is not None:
                            self.state.visual_index.remove(v_rows)
                        self.state.text_owner = _shifted(
                            self.state.text_owner, t_rows, gone
                        )
                        self.state.visual_owner = _shifted(
                            self.state.visual_owner, v_rows, gone
                        )
                    if gone.size:
                        self.state.lexical.remove(gone)
                        self.state.hierarchy.events.remove(gone)
                        self.state.hierarchy.invalidate()
                        self.state.forgotten += 1
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
        persist.discard(self.indexes.folder)
        self.state.unsaved += events

    def _forget(self, round_ids: list[str]) -> tuple[RetrievalForget, np.ndarray]:
        report = RetrievalForget()
        h = self.state.hierarchy
        rows = self.state.db.fetchall(
            "SELECT round_id, episode_id FROM adamm_events WHERE user_id = ? AND "
            "round_id IN (SELECT unnest(?::VARCHAR[]))",
            [self.state.user_id, round_ids],
        )
        if not rows:
            return report, np.zeros(0, dtype=np.int64)
        gone = {rid for rid, _ in rows}
        positions = np.sort(np.asarray([h.events.position(r) for r in gone]))
        report.events = len(gone)
        (report.views,) = self.state.db.fetchall(
            "SELECT count(*) FROM adamm_event_views WHERE user_id = ? AND "
            "round_id IN (SELECT unnest(?::VARCHAR[]))",
            [self.state.user_id, sorted(gone)],
        )[0]
        for table in ("adamm_event_views", "adamm_events"):
            self.state.db.execute(
                f"DELETE FROM {table} WHERE user_id = ? AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.state.user_id, sorted(gone)],
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
        kept = stored_members(self.state, [r for ep in changed for r in ep.event_ids])
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
                self.state.db.execute(
                    f"DELETE FROM {table} WHERE user_id = ? AND {key} IN "
                    "(SELECT unnest(?::INTEGER[]))",
                    [self.state.user_id, ids],
                )
        # the changed nodes, the current episode and a new index token
        self.write([], [], changed_eps, changed_topics)
        return report, positions

    def _repool_episode(self, ep: Episode, stored: dict[str, StoredMember]) -> None:
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
        if self.state.describer is not None and ep.closed:
            self.upkeep.describe_episode(ep, self.state.hierarchy)

    def _repool_topic(self, topic: Topic) -> None:
        """A topic's sums and description from the episodes it keeps."""
        h = self.state.hierarchy
        episodes = [h.episodes[e] for e in topic.episode_ids]
        topic.text_sum = unit_sum([ep.text_sum for ep in episodes])
        visual = [ep.visual_sum for ep in episodes if ep.visual_sum is not None]
        topic.visual_sum = unit_sum(visual)
        topic.visual_count = len(visual)
        topic.description = extractive_summary(
            h.episodes[e].description for e in topic.episode_ids
        )
        if self.state.describer is not None:
            self.upkeep.describe_topic(topic, h)
