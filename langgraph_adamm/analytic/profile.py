"""Column profiles of induced tables: distinct text values and numeric ranges.

Planners match a question's words against what a table actually holds ("at Cafe
Luna" is a value of ``merchant``), so they see more than three samples.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.analytic.tables import NUMERIC_TYPES, TableSchema
from langgraph_adamm.storage.database import quote_ident

MAX_LABELS = 5
"""Other labels kept per column, most used first."""


@dataclass(frozen=True)
class ColumnProfile:
    """Distinct values (text, boolean) or the range (numbers) of one column."""

    values: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None


def profile_table(
    memory: AnalyticMemory, table: TableSchema, max_values: int = 40
) -> dict[str, ColumnProfile]:
    """Profiles of a table's attribute columns (one query per text column)."""
    source = memory.qualified(table)
    out: dict[str, ColumnProfile] = {}
    numeric = [c for c in table.columns if c.sql_type in NUMERIC_TYPES]
    if numeric:
        parts = ", ".join(
            f"min({quote_ident(c.name)}), max({quote_ident(c.name)})" for c in numeric
        )
        row = memory.db.fetchall(f"SELECT {parts} FROM {source}")[0]
        for i, col in enumerate(numeric):
            low, high = row[2 * i], row[2 * i + 1]
            out[col.name] = ColumnProfile(
                low=None if low is None else float(low),
                high=None if high is None else float(high),
            )
    for col in table.columns:
        if col.sql_type not in ("VARCHAR", "BOOLEAN"):
            continue
        q = quote_ident(col.name)
        rows = memory.db.fetchall(
            f"SELECT CAST({q} AS VARCHAR) AS v, count(*) AS n FROM {source} "
            f"WHERE {q} IS NOT NULL GROUP BY v ORDER BY n DESC, v LIMIT ?",
            [max_values],
        )
        out[col.name] = ColumnProfile(values=tuple(str(r[0]) for r in rows))
    return out


def column_labels(
    memory: AnalyticMemory, table: TableSchema
) -> dict[str, tuple[str, ...]]:
    """Per column, the other labels its values were written with.

    Kinds by meaning give one attribute many labels ("Time control" and "TC"
    are ``tc``); each observation keeps its own, and a question may use any.
    """
    return attribute_labels(memory, [c.attribute for c in table.columns])


def attribute_labels(
    memory: AnalyticMemory, attributes: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """:func:`column_labels` of many attributes (several tables') in one query."""
    attrs = list(dict.fromkeys(attributes))
    if not attrs:
        return {}
    rows = memory.db.fetchall(
        "SELECT attribute, lower(raw_attribute), count(*) AS n FROM adamm_observations "
        "WHERE user_id = ? AND attribute IN (SELECT unnest(?::VARCHAR[])) "
        "GROUP BY 1, 2 ORDER BY n DESC, 2",
        [memory.user_id, attrs],
    )
    out: dict[str, list[str]] = {}
    for attr, raw, _ in rows:
        label = " ".join(re.findall(r"[a-z0-9]+", raw or ""))
        if (
            label
            and label != " ".join(attr.split("_"))
            and label not in out.get(attr, [])
        ):
            out.setdefault(attr, []).append(label)
    return {a: tuple(v[:MAX_LABELS]) for a, v in out.items()}


def layout_count(memory: AnalyticMemory, table: TableSchema) -> int:
    """How many layouts fed a table: distinct sets of labels its records used.

    Each record of the table's rounds counts with the labels (as written) of
    the table's attributes it states; ``Dist 1650m · Laps 66`` and ``distance
    1.4 km, time 33 min`` are two layouts of one kind.
    """
    attrs = [c.attribute for c in table.columns]
    if not attrs:
        return 0
    rows = memory.db.fetchall(
        "SELECT round_id, coalesce(record, 0), lower(raw_attribute) "
        "FROM adamm_observations WHERE user_id = ? "
        "AND attribute IN (SELECT unnest(?::VARCHAR[])) "
        f"AND round_id IN (SELECT source FROM {memory.catalog.qualified(table)})",
        [memory.user_id, attrs],
    )
    records: dict[tuple[str, int], set[str]] = {}
    for rid, record, raw in rows:
        records.setdefault((rid, record), set()).add(
            " ".join(re.findall(r"[a-z0-9]+", raw or ""))
        )
    return len({frozenset(labels) for labels in records.values()})
