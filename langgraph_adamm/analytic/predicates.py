"""Resolving model-supplied names and values against table metadata.

Table and column names are matched exactly, then after normalization, and
otherwise rejected with a "did you mean" hint; values are cast to the column's
type (with unit conversion for numbers); operators are checked against the
column type; and each filter compiles to SQL over quoted known identifiers with
bound parameters.
"""

from __future__ import annotations

import difflib
from datetime import date, datetime, timedelta
from typing import Any

from pydantic import ConfigDict, Field

from langgraph_adamm.analytic.placement import Span, TimeCondition
from langgraph_adamm.analytic.table_descriptions import safe_table_name
from langgraph_adamm.analytic.tables import (
    AUX_COLUMNS,
    NUMERIC_TYPES,
    TYPE_LABELS,
    Column,
    TableSchema,
)
from langgraph_adamm.analytic.values import (
    convert_units,
    convertible,
    normalize_attribute,
    parse_date_text,
    parse_value,
)
from langgraph_adamm.errors import ToolInputError
from langgraph_adamm.history import parse_time
from langgraph_adamm.schemas import AnyValue, WireModel
from langgraph_adamm.storage.database import quote_ident

OPERATOR_ALIASES: dict[str, str] = {
    "=": "=",
    "==": "=",
    "eq": "=",
    "is": "=",
    "equals": "=",
    "!=": "!=",
    "<>": "!=",
    "≠": "!=",
    "ne": "!=",
    "neq": "!=",
    "not": "!=",
    "<": "<",
    "lt": "<",
    "<=": "<=",
    "≤": "<=",
    "le": "<=",
    "lte": "<=",
    ">": ">",
    "gt": ">",
    ">=": ">=",
    "≥": ">=",
    "ge": ">=",
    "gte": ">=",
    "between": "between",
    "in": "in",
    "contains": "contains",
}
ORDERED_OPS = frozenset({"<", "<=", ">", ">=", "between"})
MAX_IN_VALUES = 200


class ColumnFilter(WireModel):
    """One predicate on a column: ``column op value``.

    ``between`` takes ``[low, high]`` (both inclusive); ``in`` takes a list. A
    date without a time, compared with a timestamp column, means the whole day.
    """

    model_config = ConfigDict(extra="forbid")

    column: str = Field(description="column name, e.g. 'time' or 'deep_sleep'")
    op: str = Field(
        default="=",
        description="one of =, !=, <, <=, >, >=, between, in, contains",
    )
    value: AnyValue = Field(
        default=None,
        description="a value of the column's type; [low, high] for between; "
        "a list for in",
    )


def _suggest(name: str, options: list[str]) -> str:
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""


def resolve_table(tables: list[TableSchema], name: Any) -> TableSchema:
    """The table a model meant, or a ToolInputError listing what exists."""
    names = [t.table_name for t in tables]
    if not isinstance(name, str) or not name.strip():
        raise ToolInputError(f"A table name is required. Available tables: {names}.")
    for t in tables:
        if t.table_name == name:
            return t
    wanted = safe_table_name(name)
    for t in tables:
        if t.table_name == wanted:
            return t
    raise ToolInputError(
        f"Unknown table {name!r}.{_suggest(wanted, names)} Available tables: {names}."
    )


def resolve_column(table: TableSchema, name: Any) -> Column:
    """The column a model meant, or a ToolInputError listing the table's columns."""
    names = [c.name for c in table.all_columns]
    if not isinstance(name, str) or not name.strip():
        raise ToolInputError(
            f"A column name is required. Columns of {table.table_name}: {names}."
        )
    col = table.column(name)
    if col is not None:
        return col
    normalized, _ = normalize_attribute(name)
    for candidate in (normalized, name.strip().lower()):
        col = table.column(candidate)
        if col is not None:
            return col
    # The auxiliary names are also reachable as written ("time", not "time_value").
    if normalized.endswith("_value") and table.column(normalized[:-6]) is not None:
        col = table.column(normalized[:-6])
        assert col is not None
        return col
    raise ToolInputError(
        f"Unknown column {name!r} in table {table.table_name}."
        f"{_suggest(normalized, names)} Columns: {names}."
    )


def _type_error(col: Column, value: Any, extra: str = "") -> ToolInputError:
    return ToolInputError(
        f"Column {col.name} holds {TYPE_LABELS[col.sql_type]} values"
        f"{f' in {col.unit}' if col.unit else ''}; cannot use {value!r}.{extra}"
    )


def cast_value(col: Column, value: Any) -> Any:
    """A model-supplied value as the column's Python type.

    Numbers may carry a unit ("30 min"), converted to the column's unit. Returns
    a ``date`` (not a datetime) for a date-only value on a timestamp column, so
    the caller can treat it as a whole day.
    """
    if col.sql_type in NUMERIC_TYPES:
        if isinstance(value, bool):
            raise _type_error(col, value)
        if isinstance(value, (int, float)):
            try:
                return float(value)
            except OverflowError:
                raise _type_error(col, value, " The number is out of range.") from None
        parsed = parse_value(str(value))
        if parsed.number is None:
            raise _type_error(col, value)
        if not convertible(parsed.unit, col.unit):
            raise _type_error(col, value, f" Its unit is {col.unit}.")
        return convert_units(parsed.number, parsed.unit, col.unit)
    if col.sql_type == "TIMESTAMP":
        if isinstance(value, datetime):
            return value
        if isinstance(value, date):
            return value
        if isinstance(value, str):
            text = value.strip()
            if len(text) == 10 and text[4] == "-" and text[7] == "-":
                try:
                    return date.fromisoformat(text)
                except ValueError:
                    pass
            try:
                return parse_time(text)
            except ValueError:
                parsed_date = parse_date_text(text)
                if parsed_date is not None:
                    return parsed_date if ":" in text else parsed_date.date()
        raise _type_error(col, value, " Use an ISO date such as 2026-03-31.")
    if col.sql_type == "BOOLEAN":
        if isinstance(value, bool):
            return value
        parsed = parse_value(str(value))
        if parsed.boolean is None:
            raise _type_error(col, value, " Use true or false.")
        return parsed.boolean
    if isinstance(value, (dict, list)):
        raise _type_error(col, value)
    return str(value)


def _day(value: date) -> tuple[datetime, datetime]:
    start = datetime(value.year, value.month, value.day)
    try:
        return start, start + timedelta(days=1)
    except OverflowError:
        raise ToolInputError(
            f"The date {value.isoformat()} is out of range; use a date before "
            "9999-12-31."
        ) from None


ROUND_TIME = next(c for c in AUX_COLUMNS if c.name == "time")
"""The column of a round's own time (None for an undated round)."""


def _parsed(
    table: TableSchema, flt: ColumnFilter | dict[str, Any]
) -> tuple[Column, str, Any]:
    """A filter's column, canonical operator and raw value, checked."""
    if isinstance(flt, dict):
        try:
            flt = ColumnFilter.model_validate(flt)
        except Exception as exc:
            raise ToolInputError(
                f"Bad filter {flt!r}: give column, op and value."
            ) from exc
    col = resolve_column(table, flt.column)
    op = OPERATOR_ALIASES.get(str(flt.op).strip().lower())
    if op is None:
        raise ToolInputError(
            f"Unknown operator {flt.op!r}; use one of =, !=, <, <=, >, >=, between, "
            "in, contains."
        )
    if op == "contains" and col.sql_type != "VARCHAR":
        raise ToolInputError(
            f"'contains' works on text columns; {col.name} is "
            f"{TYPE_LABELS[col.sql_type]}."
        )
    if op in ORDERED_OPS and col.sql_type == "BOOLEAN":
        raise ToolInputError(f"{col.name} is boolean; use = or != with true/false.")
    value = flt.value
    if op == "between":
        if isinstance(value, dict):
            value = [
                value.get("low", value.get("from", value.get("start"))),
                value.get("high", value.get("to", value.get("end"))),
            ]
        if not isinstance(value, (list, tuple)) or len(value) != 2 or None in value:
            raise ToolInputError(f"'between' on {col.name} needs [low, high].")
    if op == "in":
        if not isinstance(value, (list, tuple)) or not value:
            raise ToolInputError(
                f"'in' on {col.name} needs a non-empty list of values."
            )
        if len(value) > MAX_IN_VALUES:
            raise ToolInputError(f"'in' takes at most {MAX_IN_VALUES} values.")
    return col, op, value


def compile_filter(
    table: TableSchema, flt: ColumnFilter | dict[str, Any]
) -> tuple[str, list[Any]]:
    """SQL and parameters for one filter.

    Raises:
        ToolInputError: for an unknown column or operator, an operator the
            column's type does not support, or a value that does not cast.
    """
    col, op, value = _parsed(table, flt)
    q = quote_ident(col.name)
    if value is None and op in ("=", "!="):
        return f"{q} IS {'NOT ' if op == '!=' else ''}NULL", []
    if col.sql_type == "TIMESTAMP":
        return _time_condition(col, op, value).sql(q)
    if op == "between":
        low, high = cast_value(col, value[0]), cast_value(col, value[1])
        lo_sql, lo_params = _bound(col, ">=", low)
        hi_sql, hi_params = _bound(col, "<=", high)
        return f"({lo_sql} AND {hi_sql})", lo_params + hi_params
    if op == "in":
        parts, params = [], []
        for v in value:
            sql, p = _bound(col, "=", cast_value(col, v))
            parts.append(sql)
            params.extend(p)
        return f"({' OR '.join(parts)})", params
    if op == "contains":
        return f"strpos(lower({q}), lower(?)) > 0", [str(value)]
    return _bound(col, op, cast_value(col, value))


def round_time_condition(
    table: TableSchema, flt: ColumnFilter | dict[str, Any]
) -> TimeCondition | None:
    """What a filter on the round's time asks of it; None for any other filter.

    A filter for undated rounds themselves (``time = null``) is no condition
    on a time: it is None too.
    """
    col, op, value = _parsed(table, flt)
    if col != ROUND_TIME or (value is None and op in ("=", "!=")):
        return None
    return _time_condition(col, op, value)


def _span(col: Column, op: str, value: Any) -> Span:
    """The times ``column op value`` keeps (``!=``: those ``=`` keeps)."""
    value = cast_value(col, value)
    if isinstance(value, date) and not isinstance(value, datetime):
        start, end = _day(value)  # a date means the whole day
        return {
            "=": Span(start, end, high_open=True),
            "!=": Span(start, end, high_open=True),
            "<": Span(high=start, high_open=True),
            "<=": Span(high=end, high_open=True),
            ">": Span(low=end),
            ">=": Span(low=start),
        }[op]
    return {
        "=": Span(value, value),
        "!=": Span(value, value),
        "<": Span(high=value, high_open=True),
        "<=": Span(high=value),
        ">": Span(low=value, low_open=True),
        ">=": Span(low=value),
    }[op]


def _time_condition(col: Column, op: str, value: Any) -> TimeCondition:
    if op == "between":
        low, high = _span(col, ">=", value[0]), _span(col, "<=", value[1])
        return TimeCondition((Span(low.low, high.high, high_open=high.high_open),))
    if op == "in":
        return TimeCondition(tuple(_span(col, "=", v) for v in value))
    if op == "contains":  # refused by _parsed: timestamps are no text
        raise AssertionError(op)
    return TimeCondition((_span(col, op, value),), negated=op == "!=")


def _bound(col: Column, op: str, value: Any) -> tuple[str, list[Any]]:
    """``column op value`` for a column that is no timestamp."""
    q = quote_ident(col.name)
    if col.sql_type == "VARCHAR" and op in ("=", "!="):
        return f"lower({q}) {op} lower(?)", [value]
    cast = {
        "DOUBLE": "DOUBLE",
        "BIGINT": "DOUBLE",
        "BOOLEAN": "BOOLEAN",
        "VARCHAR": "VARCHAR",
    }[col.sql_type]
    return f"{q} {op} CAST(? AS {cast})", [value]
