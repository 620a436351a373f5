"""Stored rounds: read back as :class:`Round` values, selected, deleted."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from langgraph_adamm.history import ImageRef, Round
from langgraph_adamm.storage.database import MemoryDatabase


def load_rounds(
    db: MemoryDatabase, user_id: str, condition: str, params: list[Any]
) -> list[tuple[int, Round]]:
    """A user's stored rounds that meet ``condition``, in history order.

    ``condition`` is a fixed SQL predicate over ``adamm_rounds`` written by this
    library (never by a model); its values come in ``params``.
    """
    rows = db.fetchall(
        'SELECT "order", round_id, session_id, time, user_text, assistant_text, '
        f"metadata FROM adamm_rounds WHERE user_id = ? AND ({condition}) "
        'ORDER BY "order"',
        [user_id, *params],
    )
    if not rows:
        return []
    images: dict[str, list[ImageRef]] = {}
    for rid, iid, path, url, caption, ocr, problem in db.fetchall(
        "SELECT round_id, image_id, path, url, caption, ocr, problem FROM adamm_images "
        "WHERE user_id = ? AND round_id IN (SELECT round_id FROM adamm_rounds "
        f"WHERE user_id = ? AND ({condition})) ORDER BY image_id",
        [user_id, user_id, *params],
    ):
        images.setdefault(rid, []).append(
            ImageRef(iid, path, url, caption, ocr, problem)
        )
    return [
        (
            order,
            Round(
                rid,
                sid,
                time,
                user or "",
                assistant or "",
                tuple(images.get(rid, ())),
                json.loads(meta) if meta else {},
            ),
        )
        for order, rid, sid, time, user, assistant, meta in rows
    ]


DatedRound = tuple[int, datetime]
"""(history position, time) of a dated round."""
UndatedRun = tuple[int, int, datetime | None, datetime | None]
"""(first and last position, times of the dated rounds before and after)."""

_DATED = 'SELECT "order", time FROM adamm_rounds WHERE user_id = ? AND time IS NOT NULL'


def has_dated_rounds(db: MemoryDatabase, user_id: str) -> bool:
    """Whether any of the user's stored rounds has a time."""
    return bool(db.fetchall(f"{_DATED} LIMIT 1", [user_id]))


def dated_rounds_near(
    db: MemoryDatabase, user_id: str, orders: Sequence[int], reach: int
) -> list[DatedRound]:
    """The dated rounds at most ``reach`` positions from any of ``orders``.

    In history order. One query over a few ranges of positions, which DuckDB
    reads from the row groups that hold them and PostgreSQL from the index of
    dated rounds (``adamm_rounds_dated``).
    """
    spans: list[list[int]] = []
    for o in sorted(orders):
        if spans and o - reach <= spans[-1][1] + 1:
            spans[-1][1] = o + reach
        else:
            spans.append([o - reach, o + reach])
    if not spans:
        return []
    ranges = " OR ".join('"order" BETWEEN ? AND ?' for _ in spans)
    rows = db.fetchall(
        f'{_DATED} AND ({ranges}) ORDER BY "order"',
        [user_id, *(x for span in spans for x in span)],
    )
    return [(int(o), t) for o, t in rows]


def dated_neighbour(
    db: MemoryDatabase, user_id: str, order: int, after: bool
) -> DatedRound | None:
    """The dated round nearest a history position before (or after) it."""
    side, direction = (">", "ASC") if after else ("<", "DESC")
    rows = db.fetchall(
        f'{_DATED} AND "order" {side} ? ORDER BY "order" {direction} LIMIT 1',
        [user_id, order],
    )
    return (int(rows[0][0]), rows[0][1]) if rows else None


def undated_runs(
    db: MemoryDatabase, user_id: str, undated_orders: str
) -> list[UndatedRun]:
    """Undated rounds grouped by the dated rounds around them, in one query.

    ``undated_orders`` is a fixed query of this library, without parameters,
    yielding history positions of undated rounds. A group's rounds lie between
    the same two dated rounds of the user's history (a missing one is None);
    groups come in history order. For many positions at once, where
    :func:`dated_neighbour` would take queries each: DuckDB joins them as of
    the user's dated rounds (one pass over them), PostgreSQL probes the index
    of dated rounds (``adamm_rounds_dated``) per position.
    """
    if not db.asof_joins:
        sql = (
            f"WITH u AS (SELECT DISTINCT o FROM ({undated_orders}) AS q(o)), "
            'p AS (SELECT o, (SELECT max(r."order") FROM adamm_rounds r '
            'WHERE r.user_id = ? AND r.time IS NOT NULL AND r."order" < u.o) '
            "AS prev FROM u), "
            "g AS (SELECT prev, min(o) AS first, max(o) AS last FROM p "
            "GROUP BY prev) "
            "SELECT g.first, g.last, (SELECT r.time FROM adamm_rounds r "
            'WHERE r.user_id = ? AND r.time IS NOT NULL AND r."order" = g.prev), '
            "(SELECT r.time FROM adamm_rounds r WHERE r.user_id = ? "
            'AND r.time IS NOT NULL AND r."order" > g.last '
            'ORDER BY r."order" LIMIT 1) FROM g ORDER BY g.first'
        )
        params = [user_id] * 3
    else:
        sql = (
            f"WITH u AS (SELECT DISTINCT o FROM ({undated_orders}) AS q(o)), "
            'd AS (SELECT "order" AS o, time AS t FROM adamm_rounds '
            "WHERE user_id = ? AND time IS NOT NULL), "
            "p AS (SELECT u.o, d.o AS prev, d.t AS prev_t FROM u "
            "ASOF LEFT JOIN d ON u.o > d.o), "
            "g AS (SELECT prev, prev_t, min(o) AS first, max(o) AS last FROM p "
            "GROUP BY prev, prev_t) "
            "SELECT g.first, g.last, g.prev_t, d.t FROM g "
            "ASOF LEFT JOIN d ON g.last < d.o ORDER BY g.first"
        )
        params = [user_id]
    return [
        (int(first), int(last), after, before)
        for first, last, after, before in db.fetchall(sql, params)
    ]


def round_ids(
    db: MemoryDatabase,
    user_id: str,
    *,
    among: Sequence[str] | None = None,
    session_id: str | None = None,
    before: datetime | None = None,
) -> list[str]:
    """The user's stored round ids, in history order: all, or those of one selector.

    ``among`` keeps the listed ids that are stored; ``session_id`` one session's;
    ``before`` the rounds dated earlier (undated rounds are not selected).
    """
    sql = "SELECT round_id FROM adamm_rounds WHERE user_id = ?"
    params: list[Any] = [user_id]
    if among is not None:
        sql += " AND round_id IN (SELECT unnest(?::VARCHAR[]))"
        params.append([str(r) for r in among])
    elif session_id is not None:
        sql += " AND session_id = ?"
        params.append(session_id)
    elif before is not None:
        sql += " AND time < ?"
        params.append(before)
    return [r for (r,) in db.fetchall(sql + ' ORDER BY "order"', params)]


def delete_rounds(db: MemoryDatabase, user_id: str, ids: Sequence[str]) -> None:
    """Delete stored rounds, their images and the store items they carry.

    What was derived from them is the memories' to remove first.
    """
    for table in ("adamm_images", "adamm_store_items", "adamm_rounds"):
        db.execute(
            f"DELETE FROM {table} WHERE user_id = ? AND round_id IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [user_id, list(ids)],
        )


def indexed_rounds(db: MemoryDatabase, user_id: str, ids: Sequence[str]) -> int:
    """How many events of these rounds the retrieval memory holds."""
    return int(
        db.fetchall(
            "SELECT count(*) FROM adamm_events WHERE user_id = ? AND round_id IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [user_id, list(ids)],
        )[0][0]
    )


def has_user(db: MemoryDatabase, user_id: str) -> bool:
    """Whether any round of ``user_id`` is stored."""
    return bool(
        db.fetchall("SELECT 1 FROM adamm_rounds WHERE user_id = ? LIMIT 1", [user_id])
    )


def last_round_time(db: MemoryDatabase, user_id: str) -> datetime | None:
    """When the user's latest dated round happened (None: no dated round)."""
    row = db.fetchall("SELECT max(time) FROM adamm_rounds WHERE user_id = ?", [user_id])
    return row[0][0] if row else None
