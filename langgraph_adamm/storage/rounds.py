"""Reading stored rounds (with their images) back as :class:`Round` values."""

from __future__ import annotations

import json
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
