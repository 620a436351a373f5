"""Vectors of the short texts a planner compares questions with.

The rule planner embeds column names ("total sleep") to find the column a
question's word means. Stored here when the memory is written (the text
model is loaded then), they let a later process plan an analytic question
without loading the model. Rows are keyed by user, by the encoder that made
them (its name and precision: torch and fp32 ONNX give the same vectors) and
by the text; vectors are little-endian float32.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.dialect import upsert


def stored_vectors(
    db: MemoryDatabase, user_id: str, encoder: str
) -> dict[str, np.ndarray]:
    """Every stored text's vector for this user and encoder."""
    rows = db.fetchall(
        "SELECT text, vec FROM adamm_text_vectors WHERE user_id = ? AND encoder = ?",
        [user_id, encoder],
    )
    return {str(t): np.frombuffer(bytes(v), dtype="<f4") for t, v in rows}


def keep_vectors(
    db: MemoryDatabase,
    user_id: str,
    encoder: str,
    texts: Iterable[str],
    vectors: Mapping[str, np.ndarray],
) -> None:
    """Make this user's stored texts exactly ``texts`` (new ones from ``vectors``).

    A text no longer among them (a column forgotten with its rounds) is
    deleted, whichever encoder made it; one not stored yet for ``encoder`` is
    inserted from ``vectors`` when given there.
    """
    wanted = set(texts)
    prune_vectors(db, user_id, wanted)
    have = set(stored_vectors(db, user_id, encoder))
    new = [t for t in sorted(wanted - have) if t in vectors]
    if new:
        head, tail = upsert(
            "adamm_text_vectors",
            ["user_id", "encoder", "text", "vec"],
            ["user_id", "encoder", "text"],
        )
        db.executemany(
            f"{head}VALUES (?, ?, ?, ?){tail}",
            [
                [user_id, encoder, t, np.asarray(vectors[t], dtype="<f4").tobytes()]
                for t in new
            ],
        )


def prune_vectors(db: MemoryDatabase, user_id: str, texts: Iterable[str]) -> None:
    """Delete this user's stored vectors of texts not among ``texts``."""
    wanted = set(texts)
    have = {
        str(t)
        for (t,) in db.fetchall(
            "SELECT DISTINCT text FROM adamm_text_vectors WHERE user_id = ?", [user_id]
        )
    }
    gone = sorted(have - wanted)
    if gone:
        db.execute(
            "DELETE FROM adamm_text_vectors WHERE user_id = ? "
            "AND text IN (SELECT unnest(?::VARCHAR[]))",
            [user_id, gone],
        )


def drop_vectors(db: MemoryDatabase, user_id: str) -> None:
    """Delete a user's stored vectors."""
    db.execute("DELETE FROM adamm_text_vectors WHERE user_id = ?", [user_id])
