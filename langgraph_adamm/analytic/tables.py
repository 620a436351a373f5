"""Induced tables: their metadata, columns and example values.

A column's statistics are kept in :mod:`~langgraph_adamm.analytic.column_stats`;
how its type, unit and readings are decided from them, and how values are cast
to cells, in :mod:`~langgraph_adamm.analytic.column_types`. Their public names
are importable from here too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph_adamm.analytic.column_stats import ColumnStats as ColumnStats
from langgraph_adamm.analytic.column_stats import (
    ambiguous_separator as ambiguous_separator,
)
from langgraph_adamm.analytic.column_types import NUMERIC_TYPES as NUMERIC_TYPES
from langgraph_adamm.analytic.column_types import TYPE_LABELS as TYPE_LABELS
from langgraph_adamm.analytic.column_types import ColumnDecision as ColumnDecision
from langgraph_adamm.analytic.column_types import SqlType as SqlType
from langgraph_adamm.analytic.column_types import cell as cell
from langgraph_adamm.analytic.column_types import decide_column as decide_column
from langgraph_adamm.analytic.extraction.base import SOURCE_PRIORITY, Observation


@dataclass(frozen=True)
class Column:
    """One attribute column of an induced table."""

    name: str
    attribute: str
    sql_type: SqlType
    unit: str | None = None
    description: str = ""
    samples: tuple[str, ...] = ()
    bare_unit: str | None = None
    band: tuple[float, float] | None = None
    clock_reading: str | None = None
    alt_reading: str = ""

    @property
    def decision(self) -> ColumnDecision:
        """How the column's values are typed and converted."""
        return ColumnDecision(
            self.sql_type,
            self.unit,
            self.bare_unit,
            self.band,
            self.clock_reading,
            self.alt_reading,
        )


AUX_COLUMNS: tuple[Column, ...] = (
    Column("source", "source", "VARCHAR", None, "round id the row was read from"),
    Column("order", "order", "BIGINT", None, "position of the round in the history"),
    Column("time", "time", "TIMESTAMP", None, "when the round happened"),
)


@dataclass(frozen=True)
class TableSchema:
    """A materialized schema: its table and what the planner may know of it."""

    user_id: str
    schema_id: int
    table_name: str
    description: str
    attributes: frozenset[str]
    columns: tuple[Column, ...]
    version: int = 1
    created_order: int | None = None

    @property
    def column_attributes(self) -> frozenset[str]:
        """The attributes its columns hold: the schema's and optional ones."""
        return frozenset(c.attribute for c in self.columns)

    @property
    def all_columns(self) -> tuple[Column, ...]:
        """Auxiliary columns first, then the attribute columns."""
        return AUX_COLUMNS + self.columns

    def column(self, name: str) -> Column | None:
        """A column by exact name, or None."""
        for col in self.all_columns:
            if col.name == name:
                return col
        return None


def min_matching(schema_size: int, match_fraction: float) -> int:
    """How many of a schema's attributes a round must carry to become a row."""
    return max(1, math.ceil(schema_size * match_fraction - 1e-9))


def best_observations(observations: Iterable[Observation]) -> dict[str, Observation]:
    """One observation per attribute: the one from the most direct source."""
    best: dict[str, Observation] = {}
    for obs in observations:
        current = best.get(obs.attribute)
        if current is None or (
            SOURCE_PRIORITY[obs.provenance.source]
            < SOURCE_PRIORITY[current.provenance.source]
        ):
            best[obs.attribute] = obs
    return best


SAMPLES = 3
"""Example values kept per column."""


def sample_values(values: Iterable[Any], limit: int = SAMPLES) -> tuple[str, ...]:
    """A few distinct example values, as text, for metadata and prompts."""
    out: list[str] = []
    for v in values:
        if v is None:
            continue
        text = v.isoformat(sep=" ") if isinstance(v, datetime) else str(v)
        if text not in out:
            out.append(text)
        if len(out) >= limit:
            break
    return tuple(out)
