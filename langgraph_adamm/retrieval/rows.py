"""The retrieval memory's rows: stored vectors, reading the hierarchy, writing.

How events, views, episodes and topics sit in the database
(``adamm_events``, ``adamm_event_views``, ``adamm_episodes``, ``adamm_topics``,
``adamm_retrieval_meta``) and how they are read back into a
:class:`~langgraph_adamm.retrieval.hierarchy.Hierarchy`. Vectors are stored as
little-endian float32 bytes (:func:`~langgraph_adamm.storage.vectors.vector_of`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from langgraph_adamm.retrieval.hierarchy import (
    Episode,
    Event,
    EventRow,
    EventTable,
    Hierarchy,
    Topic,
)
from langgraph_adamm.retrieval.state import RetrievalState
from langgraph_adamm.storage.bulk import insert_columns
from langgraph_adamm.storage.dialect import upsert
from langgraph_adamm.storage.vectors import (
    SqlVector,
    SqlVectors,
    blob_of,
    vector_of,
    vectors_of,
)

EVENT_VIEWS = (
    "FROM adamm_event_views v JOIN adamm_events e USING (user_id, round_id) "
    "WHERE v.user_id = ? AND NOT starts_with(v.view, ?) "
    'ORDER BY e."order"'
)
"""A user's event views other than single turns, in the order the indexes hold
them (parameters: user id, the turn-view prefix)."""


StoredMember = tuple[Any, str | None, np.ndarray | None, np.ndarray | None]
"""A stored event as an episode is pooled from: time, text, text and visual
vectors."""


def members_by_episode(ids: list[str], episode_of: np.ndarray) -> dict[int, list[str]]:
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


def read_hierarchy(
    state: RetrievalState,
    on_episode_closed: Callable[[Episode, Hierarchy], None] | None = None,
    on_topic_grown: Callable[[Topic, Hierarchy], None] | None = None,
) -> Hierarchy:
    """A user's stored hierarchy: events (by position), episodes, topics.

    With the current episode; the hooks re-describe nodes as they change (a
    model describes them).
    """
    h = Hierarchy(
        state.config,
        on_episode_closed=on_episode_closed,
        on_topic_grown=on_topic_grown,
    )
    # Stored events are read by position (round and episode ids, as
    # arrays); the rest of an event is read when a search first returns it.
    # An event's own vectors matter only while it is being added to the
    # hierarchy (episodes keep their sums), so they are not read back.
    cols = state.db.fetchnumpy(
        "SELECT round_id, coalesce(episode_id, -1) AS episode_id, rowid AS at "
        'FROM adamm_events WHERE user_id = ? ORDER BY "order"',
        [state.user_id],
    )
    h.events = EventTable.stored(
        cols["round_id"].tolist(),
        cols["episode_id"],
        partial(load_events, state),
        hints=cols["at"],
    )
    # Each episode's events, from the events' episode ids (the same lists
    # as the episodes' stored event_ids, without reading a string per event).
    members = members_by_episode(h.events.ids, np.asarray(cols["episode_id"]))
    rows = state.db.fetchall(
        "SELECT episode_id, topic_id, description, start_time, end_time, "
        "text_sum, visual_sum, visual_count, closed FROM adamm_episodes "
        "WHERE user_id = ? ORDER BY episode_id",
        [state.user_id],
    )
    text_sums = vectors_of([r[5] for r in rows])
    visual_sums = vectors_of([r[6] for r in rows])
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
    for tid, desc, eps, tsum, vsum, vcount in state.db.fetchall(
        "SELECT topic_id, description, episode_ids, text_sum, visual_sum, "
        "visual_count FROM adamm_topics WHERE user_id = ? ORDER BY topic_id",
        [state.user_id],
    ):
        h.topics[tid] = Topic(
            tid,
            list(eps or []),
            desc or "",
            vector_of(tsum),
            vector_of(vsum),
            vcount or 0,
        )
    meta = state.db.fetchall(
        "SELECT current_episode FROM adamm_retrieval_meta WHERE user_id = ?",
        [state.user_id],
    )
    h.current = meta[0][0] if meta else None
    return h


def load_events(
    state: RetrievalState, round_ids: list[str], hints: list[int] | None
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
            for row in state.db.fetchall(
                f"SELECT user_id, {cols} FROM adamm_events WHERE rowid IN "
                "(SELECT unnest(?::BIGINT[]))",
                [[h for h in hints if h >= 0]],
            )
            if row[0] == state.user_id and row[1] in wanted
        ]
    rest = sorted(set(round_ids) - {row[0] for row in found})
    if rest:
        found += state.db.fetchall(
            f"SELECT {cols} FROM adamm_events WHERE user_id = ? AND round_id IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [state.user_id, rest],
        )
    return found


def stored_members(
    state: RetrievalState, round_ids: list[str]
) -> dict[str, StoredMember]:
    """Time, text and vectors of stored events, by round id (one query)."""
    if not round_ids:
        return {}
    return {
        rid: (time, text, vector_of(tvec), vector_of(vvec))
        for rid, time, text, tvec, vvec in state.db.fetchall(
            "SELECT round_id, time, text, text_vec, visual_vec FROM adamm_events "
            "WHERE user_id = ? AND round_id IN (SELECT unnest(?::VARCHAR[]))",
            [state.user_id, round_ids],
        )
    }


def write_rows(
    state: RetrievalState,
    events: list[Event],
    views: list[tuple[str, str, str, np.ndarray]],
    episodes: set[int],
    topics: set[int],
) -> None:
    """Rows for new events and views, changed episodes and topics, and the meta.

    Inside the caller's transaction; the meta row gets a new index token.
    """
    uid = state.user_id
    insert_columns(
        state.db,
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
            [blob_of(e.text_vec) for e in events],
            [blob_of(e.visual_vec) for e in events],
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
        [blob_of(v[3]) for v in views],
    ]
    if state.db.vectors:  # every writer fills the column SQL searches
        columns.append("emb")
        types.append("vector")
        values.append(SqlVectors(SqlVector(v[3]) for v in views))
    insert_columns(state.db, "adamm_event_views", columns, types, values)
    h = state.hierarchy
    eps = [h.episodes[e] for e in sorted(episodes)]
    insert_columns(
        state.db,
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
            [blob_of(e.text_sum) for e in eps],
            [blob_of(e.visual_sum) for e in eps],
            [e.visual_count for e in eps],
            [e.closed for e in eps],
        ],
        key=("user_id", "episode_id"),
    )
    tops = [h.topics[t] for t in sorted(topics)]
    insert_columns(
        state.db,
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
            [blob_of(t.text_sum) for t in tops],
            [blob_of(t.visual_sum) for t in tops],
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
    state.db.execute(
        head + "VALUES (?, ?, ?, ?, ?)" + tail,
        [
            uid,
            state.text_encoder.name,
            # A text-only session keeps the name of the encoder that made the
            # stored image vectors, so a later mismatch is still refused.
            state.visual_encoder.name if state.visual_encoder else state.stored_visual,
            h.current,
            uuid.uuid4().hex,  # a new state: older index files no longer match
        ],
    )
