"""What a memory holds, read the same way on DuckDB and PostgreSQL.

Used by the tests and by ``tools/benchmarks/kill_trials.py`` to say that two
memories are equal: every stored row of a user, table by table, and a cheap
deterministic text encoder for runs where the embedding model does not matter.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from langgraph_adamm import Memory
from langgraph_adamm.storage.database import MemoryDatabase, quote_ident


class HashEncoder:
    """A deterministic, cheap text encoder: hashed character trigrams."""

    name = "hash-trigrams"
    dim = 64

    def encode(self, texts: Any) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            t = f"  {text.lower()} "
            for j in range(len(t) - 2):
                h = hashlib.blake2b(t[j : j + 3].encode(), digest_size=2).digest()
                out[i, int.from_bytes(h, "big") % self.dim] += 1.0
            norm = np.linalg.norm(out[i]) or 1.0
            out[i] /= norm
        return out


def _row_key(row: tuple[Any, ...]) -> list[tuple[bool, str, str]]:
    return [(v is None, type(v).__name__, repr(v)) for v in row]


def stored_rows(
    db: MemoryDatabase,
    source: str,
    params: list[Any] | None = None,
    columns: Sequence[str] | None = None,
) -> list[tuple[Any, ...]]:
    """``SELECT * FROM source`` in a stable order, without storage row numbers.

    ``source`` is a (quoted) table with an optional WHERE clause. PostgreSQL's
    tables carry the row numbers DuckDB keeps hidden as a ``rowid`` column; it
    is left out, so that the same memory reads the same on both engines. So is
    ``emb``, pgvector's copy of an event view's ``vec`` (PostgreSQL with the
    extension; ``tests/test_pgvector.py`` checks that the two agree).
    ``columns``, when given, are read in that order (an induced table's
    columns lie in another order on PostgreSQL: fixed widths first).
    """
    chosen = ", ".join(quote_ident(c) for c in columns) if columns else "*"
    cursor = db.execute(f"SELECT {chosen} FROM {source}", params or [])
    names = [d[0] for d in cursor.description]
    keep = [i for i, n in enumerate(names) if n not in ("rowid", "emb")]
    rows = [tuple(r[i] for i in keep) for r in cursor.fetchall()]
    return sorted(rows, key=_row_key)


def user_state(m: Memory) -> dict[str, Any]:
    """Every stored row of the Memory's user, by table, in a stable order.

    Left out: the index token (a fresh random one per indexed batch) and the
    user's version (how many times writers took the user), which say when
    state changed, not what it is.
    """
    out: dict[str, Any] = {}
    for (table,) in m.db.fetchall(
        "SELECT table_name FROM information_schema.tables WHERE "
        "table_schema = current_schema() AND table_name LIKE 'adamm%' "
        "AND table_name NOT IN ('adamm_migrations', 'adamm_user_versions')"
    ):
        rows = stored_rows(m.db, f"{table} WHERE user_id = ?", [m.user_id])
        if table == "adamm_retrieval_meta":
            rows = [r[:4] for r in rows]  # without index_token
        out[table] = rows
    for t in m.tables:
        out[t.table_name] = stored_rows(
            m.db, m.analytic.qualified(t), columns=[c.name for c in t.all_columns]
        )
    return out
