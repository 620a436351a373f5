"""The analytic operators Lookup, Filter, Compute and Rank (AdaMM Appendix B).

Plain functions over an :class:`AnalyticMemory`: typed pydantic arguments in,
JSON-ready results out. Every table and column name is resolved against the
table's metadata and every value is a bound parameter, so a model can never
pass SQL. Problems a model can fix raise :class:`ToolInputError`.

Rows come in time order - ``first``, ``latest``, ``change``, Rank's ties,
listed and contributing rows - with an undated round in its place in the
history (:mod:`~langgraph_adamm.analytic.placement`): after the dated round
before it, or first when none is. A filter on ``time`` keeps an undated round
its dated neighbours place inside the range; the rows it cannot place are
left out and counted (``unplaced_rows``, ``note``).

One module because the four operators are one contract: they share the
argument models' checks, the name resolution with its "did you mean", the
row-order and time-filter rules above and the result shapes, and a change to
any of these must reach all four at once. The SQL pieces they build from live
apart (:mod:`~langgraph_adamm.analytic.predicates`,
:mod:`~langgraph_adamm.analytic.expressions`, :mod:`~langgraph_adamm.analytic.sampled`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from langgraph_adamm.analytic import sampled
from langgraph_adamm.analytic.coverage import unread_note, unread_rounds
from langgraph_adamm.analytic.expressions import (
    Col,
    common_units,
    compile_expression,
    expression_columns,
    expression_unit,
    parse_expression,
)
from langgraph_adamm.analytic.groups import group_key_sql, grouped
from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.analytic.placement import Placement, placement_of
from langgraph_adamm.analytic.predicates import (
    ColumnFilter,
    compile_filter,
    resolve_column,
    resolve_table,
    round_time_condition,
)
from langgraph_adamm.analytic.tables import (
    NUMERIC_TYPES,
    TYPE_LABELS,
    Column,
    TableSchema,
)
from langgraph_adamm.analytic.units import affine
from langgraph_adamm.errors import ToolInputError
from langgraph_adamm.schemas import KeyValues, WireModel
from langgraph_adamm.storage.database import quote_ident, value_errors

ComputeOperator = Literal[
    "count", "sum", "avg", "min", "max", "median", "first", "latest", "change"
]
MAX_RESULT_BUDGET = 1000
VALUE_KEY = "_value"
"""Key of an expression's value in returned rows (no column name starts with _)."""


class LookupArgs(WireModel):
    """Rows whose columns equal the given key values."""

    model_config = ConfigDict(extra="forbid")
    table: str
    key_values: KeyValues = Field(min_length=1)
    result_budget: int = Field(default=10, ge=1, le=MAX_RESULT_BUDGET)


class FilterArgs(WireModel):
    """Rows that satisfy every filter."""

    model_config = ConfigDict(extra="forbid")
    table: str
    column_filters: list[ColumnFilter] = Field(default_factory=list)
    result_budget: int = Field(default=10, ge=1, le=MAX_RESULT_BUDGET)


_GROUP_BY_TEXT = (
    "one value per group: a column (e.g. 'cafe') or a time bucket of the time "
    "column: 'day', 'week' (Monday-Sunday), 'month', 'year'"
)


class ComputeArgs(WireModel):
    """An aggregate of an expression over the (optionally filtered) rows."""

    model_config = ConfigDict(extra="forbid")
    table: str
    operator: ComputeOperator
    target_column_expression: str | None = None
    optional_column_filters: list[ColumnFilter] = Field(default_factory=list)
    group_by: str | None = Field(default=None, description=_GROUP_BY_TEXT)
    order: Literal["desc", "asc"] | None = Field(
        default=None,
        description="with group_by: groups by value (desc/asc); default: by group",
    )
    result_budget: int = Field(
        default=10,
        ge=1,
        le=MAX_RESULT_BUDGET,
        description="with group_by: the most groups returned (each costs 1)",
    )


class RankArgs(WireModel):
    """The top or bottom rows by an expression, or groups by an aggregate."""

    model_config = ConfigDict(extra="forbid")
    table: str
    target_column_expression: str | None = None
    """Required, except when groups are ranked by their count."""
    order: Literal["desc", "asc"] = "desc"
    optional_column_filters: list[ColumnFilter] = Field(default_factory=list)
    result_budget: int = Field(default=10, ge=1, le=MAX_RESULT_BUDGET)
    group_by: str | None = Field(
        default=None, description="rank groups instead of rows: " + _GROUP_BY_TEXT
    )
    operator: Literal["count", "sum", "avg", "min", "max", "median"] = Field(
        default="sum", description="with group_by: the aggregate groups are ranked by"
    )


def _unplaced_note(rows: int) -> str | None:
    if not rows:
        return None
    return (
        f"{rows} row{'s' if rows != 1 else ''} of undated rounds left out: the "
        "dated rounds around them lie on both sides of a time bound, so they "
        "may or may not fall in the time range."
    )


class RowsResult(BaseModel):
    """Rows returned by Lookup, Filter or Rank."""

    table: str
    rows: list[dict[str, Any]]
    row_count: int | None = None
    """Rows that matched in all (Lookup, Filter); may exceed ``len(rows)``."""
    truncated: bool = False
    group_by: str | None = None
    """Set when Rank ranked groups: each row is a group (``group``, ``value``,
    ``row_count``, ``sources``), ranked by ``operator`` of the expression."""
    operator: str | None = None
    unit: str | None = None
    unplaced_rows: int = 0
    """Rows of undated rounds a time filter could neither keep nor exclude
    (their dated neighbours lie on both sides of a bound): left out."""
    note: str | None = None
    """Says so when ``unplaced_rows`` is not 0."""
    unread_rounds: list[str] = []
    """Rounds in range that look like the table's records but gave it no row
    (:mod:`~langgraph_adamm.analytic.coverage`): the value may miss them."""


class ComputeResult(BaseModel):
    """A computed value with the rows it came from."""

    table: str
    operator: str
    expression: str | None
    value: Any
    unit: str | None = None
    row_count: int
    """Rows that contributed (non-null expression after the filters)."""
    contributing_rows: list[dict[str, Any]]
    truncated: bool = False
    group_by: str | None = None
    """Set for a grouped Compute: ``groups`` holds one value per group and
    ``value`` is None."""
    groups: list[dict[str, Any]] | None = None
    """``group``, ``value``, ``row_count`` and ``sources`` (round ids) per group."""
    group_count: int | None = None
    """Groups in all; more than ``len(groups)`` when the result budget cut them."""
    unplaced_rows: int = 0
    """Rows of undated rounds a time filter could neither keep nor exclude
    (their dated neighbours lie on both sides of a bound): left out."""
    note: str | None = None
    """Says so when ``unplaced_rows`` is not 0."""
    unread_rounds: list[str] = []
    """Rounds in range that look like the table's records but gave it no row
    (:mod:`~langgraph_adamm.analytic.coverage`): the value may miss them."""


def _validate(model: type[BaseModel], args: Any) -> Any:
    if isinstance(args, model):
        return args
    try:
        return model.model_validate(args)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
            for e in exc.errors()[:5]
        )
        raise ToolInputError(
            f"Invalid {model.__name__} arguments: {problems}."
        ) from None


def _jsonable(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):  # PostgreSQL's avg of integers
        return float(value)
    return value


@dataclass(frozen=True)
class _Target:
    """A compiled target expression."""

    sql: str
    params: list[Any]
    sql_type: str
    column: Column | None
    """The column when the expression is one plain column, else None."""
    unit: str | None = None
    """The unit of the expression's values (None: a count or dimensionless)."""


class _Query:
    """A table plus WHERE clauses under construction."""

    def __init__(self, memory: AnalyticMemory, table_name: str) -> None:
        self.memory = memory
        self.table: TableSchema = resolve_table(memory.tables, table_name)
        self.source = memory.qualified(self.table)
        self.where: list[str] = []
        self.params: list[Any] = []
        self._untimed: list[tuple[str, list[Any]]] = []
        """The clauses of filters on anything but the round's time."""
        self._outside: set[int] = set()
        self._unsure: set[int] = set()
        """Runs of undated rows a time filter excluded, or could not decide."""
        self._placement: Placement | None = None

    @property
    def placement(self) -> Placement:
        """Where the table's undated rows lie (see ``placement``), read once."""
        if self._placement is None:
            self._placement = placement_of(
                self.memory.db, self.memory.user_id, self.source
            )
        return self._placement

    def time_order(self, descending: bool = False) -> tuple[str, list[Any]]:
        """ORDER BY terms for time order, undated rows in their place."""
        return self.placement.order_sql(descending)

    def add_filters(self, filters: list[ColumnFilter]) -> None:
        for flt in filters:
            sql, params = compile_filter(self.table, flt)
            condition = round_time_condition(self.table, flt)
            if condition is None:
                self._untimed.append((sql, params))
            elif self.placement.runs:
                decided = self.placement.decisions(condition)
                kept = [i for i, d in enumerate(decided) if d]
                if kept:
                    kept_sql, kept_params = self.placement.rows_sql(kept)
                    sql, params = f"({sql} OR {kept_sql})", params + kept_params
                self._outside.update(i for i, d in enumerate(decided) if d is False)
                self._unsure.update(i for i, d in enumerate(decided) if d is None)
            self.where.append(sql)
            self.params.extend(params)

    def unplaced(
        self, extra: Sequence[str] = (), extra_params: Sequence[Any] = ()
    ) -> int:
        """Rows left out because a time filter could not place their round.

        Those of undated runs that no filter excluded and one could not decide,
        that pass every other filter and ``extra``.
        """
        runs = self._unsure - self._outside
        if not runs:
            return 0
        runs_sql, runs_params = self.placement.rows_sql(sorted(runs))
        clauses = [c for c, _ in self._untimed] + list(extra) + [runs_sql]
        params = [p for _, ps in self._untimed for p in ps]
        return self.count(
            f" WHERE {' AND '.join(clauses)}",
            params + list(extra_params) + runs_params,
        )

    def expression(self, text: str, *, numeric_only: bool = False) -> _Target:
        """A target expression compiled against this table."""
        tree = parse_expression(text)
        cols = {n: resolve_column(self.table, n) for n in expression_columns(tree)}
        if not cols:
            raise ToolInputError(
                f"The expression {text!r} must use at least one column."
            )
        plain = isinstance(tree, Col)
        for col in cols.values():
            if (not plain or numeric_only) and col.sql_type not in NUMERIC_TYPES:
                raise ToolInputError(
                    f"Column {col.name} is {TYPE_LABELS[col.sql_type]}; "
                    + (
                        "this operator needs a number."
                        if plain
                        else "arithmetic needs numeric columns."
                    )
                )
        params: list[Any] = []
        if plain:
            sql = compile_expression(tree, lambda n: quote_ident(cols[n].name), params)
            column = next(iter(cols.values()))
            return _Target(sql, params, column.sql_type, column, column.unit)
        # Arithmetic in DOUBLE (integer products must not overflow), with the
        # columns of one dimension converted to one unit first.
        stored = {n: c.unit for n, c in cols.items()}
        target_units = common_units(stored)
        unit = expression_unit(tree, target_units)

        def column_sql(n: str) -> str:
            a, b = affine(stored[n], target_units[n])
            cast = f"CAST({quote_ident(cols[n].name)} AS DOUBLE)"
            if (a, b) == (1.0, 0.0):
                return cast
            params.extend([a, b])  # bound, in the order the SQL reads them
            return f"({cast} * CAST(? AS DOUBLE) + CAST(? AS DOUBLE))"

        sql = compile_expression(tree, column_sql, params)
        return _Target(sql, params, "DOUBLE", None, unit)

    def where_sql(self, extra: Sequence[str] = ()) -> str:
        clauses = self.where + list(extra)
        return f" WHERE {' AND '.join(clauses)}" if clauses else ""

    def rows_in_time_order(
        self,
        where: str,
        params: list[Any],
        limit: int,
        *,
        descending: bool = False,
        lead: tuple[str, list[Any]] = ("", []),
        rest: str = "",
        value_sql: str | None = None,
        value_params: list[Any] | None = None,
    ) -> list[dict[str, Any]]:
        """The first ``limit`` rows of ``where`` by ``lead``, time, then ``rest``.

        Time order puts undated rows in their place (see ``placement``). When
        some come after a dated row, the dated rows are read in their own order
        (from an index on PostgreSQL) and the few undated ones by their place,
        and SQL merges the two short lists.
        """
        cols = [quote_ident(c.name) for c in self.table.all_columns]
        names = [c.name for c in self.table.all_columns]
        if value_sql:
            cols.append(f"{value_sql} AS __value")
            names.append(VALUE_KEY)
        select = f"SELECT {', '.join(cols)} FROM {self.source}"
        lead_sql, lead_params = lead
        head, tail = (
            (f"{lead_sql}, " if lead_sql else ""),
            (f", {rest}" if rest else ""),
        )
        vp = value_params or []
        order, order_params = self.placement.order_sql(descending)
        if not self.placement.placed:
            sql = f"{select}{where} ORDER BY {head}{order}{tail} LIMIT ?"
            run_params = vp + params + lead_params + order_params + [limit]
        else:
            dated, _ = Placement().order_sql(descending)
            sep = " AND " if where else " WHERE "
            sql = (
                f'SELECT * FROM (({select}{where}{sep}"time" IS NOT NULL '
                f"ORDER BY {head}{dated}{tail} LIMIT ?) UNION ALL "
                f'({select}{where}{sep}"time" IS NULL '
                f"ORDER BY {head}{order}{tail} LIMIT ?)) AS r "
                f"ORDER BY {head}{order}{tail} LIMIT ?"
            )
            run_params = (
                (vp + params + lead_params + [limit])
                + (vp + params + lead_params + order_params + [limit])
                + (lead_params + order_params + [limit])
            )
        rows = self.run(sql, run_params)
        return [
            {n: _jsonable(v) for n, v in zip(names, row, strict=True)} for row in rows
        ]

    def run(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        """Run a compiled query; a failure the model's values caused is reported."""
        try:
            return self.memory.db.fetchall(sql, params)
        except value_errors() as exc:
            raise ToolInputError(
                f"The values given do not fit table {self.table.table_name}: "
                f"{str(exc).splitlines()[0][:200]}"
            ) from None

    def matching(self, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many rows pass the filters, and the first ``limit`` of them."""
        where = self.where_sql()
        rows = self.rows_in_time_order(where, self.params, limit)
        return self.count(where, self.params), rows

    def count(self, where: str, params: list[Any]) -> int:
        return int(self.run(f"SELECT count(*) FROM {self.source}{where}", params)[0][0])


def lookup(memory: AnalyticMemory, args: LookupArgs | dict[str, Any]) -> RowsResult:
    """Rows matching every key value (Lookup)."""
    a: LookupArgs = _validate(LookupArgs, args)
    filters = [ColumnFilter(column=k, op="=", value=v) for k, v in a.key_values.items()]
    return _filter_rows(memory, a.table, filters, a.result_budget)


def filter_rows(
    memory: AnalyticMemory, args: FilterArgs | dict[str, Any]
) -> RowsResult:
    """Rows satisfying every column filter (Filter)."""
    a: FilterArgs = _validate(FilterArgs, args)
    return _filter_rows(memory, a.table, a.column_filters, a.result_budget)


def _filter_rows(
    memory: AnalyticMemory, table: str, filters: list[ColumnFilter], budget: int
) -> RowsResult:
    q = _Query(memory, table)
    q.add_filters(filters)
    total, rows = q.matching(budget)
    unplaced = q.unplaced()
    return RowsResult(
        table=q.table.table_name,
        rows=rows,
        row_count=total,
        truncated=total > len(rows),
        unplaced_rows=unplaced,
        note=_unplaced_note(unplaced),
    )


def _covered(
    memory: AnalyticMemory, result: Any, filters: list[Any], target: str | None
) -> Any:
    """The result with the lookalike rounds in its range that gave no row."""
    table = resolve_table(memory.tables, result.table)
    column = table.column(target) if target else None
    extreme = None
    if (
        isinstance(result, ComputeResult)
        and result.operator in ("max", "min")
        and isinstance(result.value, (int, float))
        and column is not None
        and result.unit == column.unit
    ):  # an unread number below the highest cannot change it
        extreme = (result.operator, float(result.value))
    unread = unread_rounds(memory, table, filters, target, extreme)
    if unread:
        result.unread_rounds = unread
        said = unread_note(table.table_name, unread)
        result.note = f"{result.note} {said}" if result.note else said
    return result


def rank(memory: AnalyticMemory, args: RankArgs | dict[str, Any]) -> RowsResult:
    """Rows or groups ranked (Rank), with the lookalike rounds it may miss."""
    a: RankArgs = _validate(RankArgs, args)
    return _covered(
        memory, _rank(memory, a), a.optional_column_filters, a.target_column_expression
    )


def _rank(memory: AnalyticMemory, args: RankArgs | dict[str, Any]) -> RowsResult:
    """The highest (desc) or lowest (asc) rows by an expression (Rank)."""
    a: RankArgs = _validate(RankArgs, args)
    q = _Query(memory, a.table)
    q.add_filters(a.optional_column_filters)
    if a.group_by is not None:
        return _rank_groups(q, a)
    if a.target_column_expression is None:
        raise ToolInputError(
            "Rank needs a target_column_expression (only groups ranked by count "
            "go without one)."
        )
    target = q.expression(a.target_column_expression)
    expr, expr_params = target.sql, target.params
    if target.sql_type == "BOOLEAN":
        raise ToolInputError("Rank needs a number, timestamp or text expression.")
    where = q.where_sql([f"{expr} IS NOT NULL"])
    params = q.params + expr_params
    direction = "DESC" if a.order == "desc" else "ASC"
    # ties go by time, then every column breaks them (records of one round
    # share time and order): one answer, whatever plan or bound produced it
    rest = ", ".join(
        f"{quote_ident(c.name)} ASC NULLS LAST"
        for c in q.table.all_columns
        if c.name not in ("time", "order")
    )
    plain = target.column is not None
    unplaced = q.unplaced([f"{expr} IS NOT NULL"], expr_params)

    def ranked(where: str, params: list[Any]) -> list[dict[str, Any]]:
        return q.rows_in_time_order(
            where,
            params,
            a.result_budget,
            lead=(f"{expr} {direction}", expr_params),
            rest=rest,
            value_sql=None if plain else expr,
            value_params=None if plain else expr_params,
        )

    def result(rows: list[dict[str, Any]]) -> RowsResult:
        return RowsResult(
            table=q.table.table_name,
            rows=rows,
            unplaced_rows=unplaced,
            note=_unplaced_note(unplaced),
        )

    # a large PostgreSQL table: sort only the rows a sampled bound keeps
    bound = sampled.rank_bound(
        q,
        expr,
        expr_params,
        target.sql_type,
        where,
        params,
        a.order == "desc",
        a.result_budget,
    )
    if bound is not None:
        rows = ranked(f"{where} AND {bound[0]}", params + bound[1])
        if len(rows) == a.result_budget:
            return result(rows)
        sampled.log.debug("Rank on %s: the sampled bound kept too few", q.source)
    return result(ranked(where, params))


def _group_target(q: _Query, operator: str, expression: str | None) -> _Target | None:
    if expression is None or not expression.strip():
        if operator != "count":
            raise ToolInputError(
                f"Operator {operator} needs a target_column_expression."
            )
        return None
    return q.expression(expression, numeric_only=operator != "count")


def _groups_of(
    q: _Query,
    operator: str,
    expression: str | None,
    group_by: str,
    order: Literal["desc", "asc"] | None,
    budget: int,
) -> tuple[str, list[dict[str, Any]], int, bool, str | None, int]:
    """Grouped values with their label, count, cut flag, unit and unplaced rows."""
    target = _group_target(q, operator, expression)
    label, groups, total, cut = grouped(q, operator, target, group_by, order, budget)
    unit = target.unit if target is not None and operator != "count" else None
    key_sql, _ = group_key_sql(q, group_by)
    extra, extra_params = [f"{key_sql} IS NOT NULL"], []
    if target is not None:
        extra.append(f"{target.sql} IS NOT NULL")
        extra_params = list(target.params)
    return label, groups, total, cut, unit, q.unplaced(extra, extra_params)


def _rank_groups(q: _Query, a: RankArgs) -> RowsResult:
    assert a.group_by is not None
    label, groups, total, cut, unit, unplaced = _groups_of(
        q, a.operator, a.target_column_expression, a.group_by, a.order, a.result_budget
    )
    return RowsResult(
        table=q.table.table_name,
        rows=groups,
        row_count=total,
        truncated=cut,
        group_by=label,
        operator=a.operator,
        unit=unit,
        unplaced_rows=unplaced,
        note=_unplaced_note(unplaced),
    )


def _compute_groups(q: _Query, a: ComputeArgs) -> ComputeResult:
    assert a.group_by is not None
    label, groups, total, cut, unit, unplaced = _groups_of(
        q, a.operator, a.target_column_expression, a.group_by, a.order, a.result_budget
    )
    return ComputeResult(
        table=q.table.table_name,
        operator=a.operator,
        expression=a.target_column_expression,
        value=None,
        unit=unit,
        row_count=sum(g["row_count"] for g in groups),
        contributing_rows=[
            {"group": g["group"], "sources": g["sources"]} for g in groups
        ],
        truncated=cut,
        group_by=label,
        groups=groups,
        group_count=total,
        unplaced_rows=unplaced,
        note=_unplaced_note(unplaced),
    )


def compute(
    memory: AnalyticMemory, args: ComputeArgs | dict[str, Any]
) -> ComputeResult:
    """An exact aggregate over every matching row (Compute).

    The result names the rounds in its range that look like the table's
    records but gave it no row (``unread_rounds``).
    """
    a: ComputeArgs = _validate(ComputeArgs, args)
    return _covered(
        memory,
        _compute(memory, a),
        a.optional_column_filters,
        a.target_column_expression,
    )


def _compute(
    memory: AnalyticMemory, args: ComputeArgs | dict[str, Any]
) -> ComputeResult:
    """An exact aggregate over every matching row."""
    a: ComputeArgs = _validate(ComputeArgs, args)
    q = _Query(memory, a.table)
    q.add_filters(a.optional_column_filters)
    if a.group_by is not None:
        return _compute_groups(q, a)
    limit = memory.config.max_contributing_rows
    op = a.operator
    if a.target_column_expression is None or not a.target_column_expression.strip():
        if op != "count":
            raise ToolInputError(f"Operator {op} needs a target_column_expression.")
        total, rows = q.matching(limit)
        unplaced = q.unplaced()
        return ComputeResult(
            table=q.table.table_name,
            operator=op,
            expression=None,
            value=total,
            row_count=total,
            contributing_rows=rows,
            truncated=total > len(rows),
            unplaced_rows=unplaced,
            note=_unplaced_note(unplaced),
        )
    numeric_only = op in ("sum", "avg", "median", "change")
    target = q.expression(a.target_column_expression, numeric_only=numeric_only)
    expr, ep, sql_type = target.sql, target.params, target.sql_type
    if op in ("min", "max") and sql_type == "BOOLEAN":
        raise ToolInputError(f"{op} needs a number, timestamp or text expression.")
    unit = target.unit
    where = q.where_sql([f"{expr} IS NOT NULL"])
    params = q.params + ep
    value_sql = None if target.column else expr
    value_params = None if target.column else ep
    unplaced = q.unplaced([f"{expr} IS NOT NULL"], ep)

    if op in ("first", "latest", "change"):
        first, last = (
            q.rows_in_time_order(
                where, params, 1, descending=d, value_sql=expr, value_params=ep
            )
            if op in (wanted, "change")
            else []
            for d, wanted in ((False, "first"), (True, "latest"))
        )
        total = q.count(where, params)
        if op == "first":
            value, rows = (first[0][VALUE_KEY] if first else None), first
        elif op == "latest":
            value, rows = (last[0][VALUE_KEY] if last else None), last
        else:
            value = (last[0][VALUE_KEY] - first[0][VALUE_KEY]) if first else None
            rows = first + (last if last and last != first else [])
        if value_sql is None:
            for r in rows:
                r.pop(VALUE_KEY, None)
        return ComputeResult(
            table=q.table.table_name,
            operator=op,
            expression=a.target_column_expression,
            value=value,
            unit=unit,
            row_count=total,
            contributing_rows=rows,
            unplaced_rows=unplaced,
            note=_unplaced_note(unplaced),
        )

    agg = {
        "count": f"count({expr})",
        "sum": f"sum({expr})",
        "avg": f"avg({expr})",
        "min": f"min({expr})",
        "max": f"max({expr})",
        "median": f"percentile_cont(0.5) WITHIN GROUP (ORDER BY {expr})",
    }[op]
    # a large PostgreSQL table: the median from a sampled window, one scan
    found = sampled.median(q, expr, ep, where, params) if op == "median" else None
    if found is None:
        value, total = q.run(
            f"SELECT {agg}, count(*) FROM {q.source}{where}", ep + params
        )[0]
    else:
        value, total = found
    total = int(total)
    if op in ("min", "max") and value is not None:
        rows = q.rows_in_time_order(
            q.where_sql([f"{expr} IS NOT NULL", f"{expr} = ?"]),
            params + ep + [value],
            limit,
            value_sql=value_sql,
            value_params=value_params,
        )
    else:
        rows = q.rows_in_time_order(
            where, params, limit, value_sql=value_sql, value_params=value_params
        )
    if op == "sum" and sql_type == "BIGINT" and value is not None:
        value = int(value)
    if op == "count":
        unit = None
    return ComputeResult(
        table=q.table.table_name,
        operator=op,
        expression=a.target_column_expression,
        value=_jsonable(value),
        unit=unit,
        row_count=total,
        contributing_rows=rows,
        truncated=len(rows) < total and op not in ("min", "max"),
        unplaced_rows=unplaced,
        note=_unplaced_note(unplaced),
    )
