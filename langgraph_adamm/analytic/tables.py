"""Induced tables: their metadata, column-type inference and cell casting."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from langgraph_adamm.analytic.extraction.base import SOURCE_PRIORITY, Observation
from langgraph_adamm.analytic.values import convert_units, convertible, is_dimensioned

SqlType = Literal["DOUBLE", "BIGINT", "TIMESTAMP", "BOOLEAN", "VARCHAR"]
NUMERIC_TYPES: frozenset[str] = frozenset({"DOUBLE", "BIGINT"})
TYPE_LABELS: dict[str, str] = {
    "DOUBLE": "number",
    "BIGINT": "integer",
    "TIMESTAMP": "timestamp",
    "BOOLEAN": "boolean",
    "VARCHAR": "text",
}


@dataclass(frozen=True)
class Column:
    """One attribute column of an induced table."""

    name: str
    attribute: str
    sql_type: SqlType
    unit: str | None = None
    description: str = ""
    samples: tuple[str, ...] = ()


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


def infer_column_type(
    observations: Sequence[Observation], fraction: float
) -> tuple[SqlType, str | None]:
    """The SQL type and unit of a column from its observed values.

    A type wins when at least ``fraction`` of the values parse as it; numbers take
    the most common unit, and the column is an integer column only when every
    number is a whole number in that unit.
    """
    if not observations:
        return "VARCHAR", None
    kinds = Counter(o.value.kind for o in observations)
    total = len(observations)
    numeric = kinds["integer"] + kinds["number"]
    if numeric / total >= fraction:
        units = Counter(o.value.unit for o in observations if o.value.unit)
        unit = min(units, key=lambda u: (-units[u], u)) if units else None
        unitless = sum(
            1 for o in observations if o.value.number is not None and not o.value.unit
        )
        if unit is not None and is_dimensioned(unit) and units[unit] * 5 < unitless:
            # A few values with a unit among many without do not say what the
            # bare numbers mean; the column stays unitless and those few are NULL.
            unit = None
        whole = True
        for o in observations:
            if o.value.number is None:
                continue
            if not convertible(o.value.unit, unit):
                continue
            value = convert_units(o.value.number, o.value.unit, unit)
            if not float(value).is_integer() or abs(value) >= 2**62:
                whole = False
                break
        return ("BIGINT" if whole else "DOUBLE"), unit
    if kinds["boolean"] / total >= fraction:
        return "BOOLEAN", None
    if kinds["timestamp"] / total >= fraction:
        return "TIMESTAMP", None
    return "VARCHAR", None


def cell_value(column: Column, obs: Observation) -> Any:
    """An observation cast to its column's type; None when it does not fit."""
    value = obs.value
    if column.sql_type in NUMERIC_TYPES:
        if value.number is None or not convertible(value.unit, column.unit):
            return None
        if column.unit is None and value.unit and is_dimensioned(value.unit):
            return None
        number = convert_units(value.number, value.unit, column.unit)
        if column.sql_type == "BIGINT":
            whole = float(number).is_integer() and abs(number) < 2**62
            return int(number) if whole else float(number)
        return float(number)
    if column.sql_type == "BOOLEAN":
        return value.boolean
    if column.sql_type == "TIMESTAMP":
        return value.timestamp
    return value.text


def sample_values(values: Iterable[Any], limit: int = 3) -> tuple[str, ...]:
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
