"""Group-wise aggregates: one value per group of rows (beyond AdaMM's four tools).

"Which cafe costs me the most overall", "which drink do I order most often" and
"my average sleep per week" need an aggregate per group, not per row. Compute
and Rank take a ``group_by``: a column of the table, or a time bucket of the
``time`` column (``day``, ``week`` - Monday to Sunday - ``month``, ``year``).
The group key is a quoted, resolved identifier or a bucket from a fixed list;
every value is a bound parameter, as for every operator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from langgraph_adamm.errors import ToolInputError
from langgraph_adamm.storage.database import quote_ident

if TYPE_CHECKING:
    from langgraph_adamm.analytic.operators import _Query, _Target

TIME_BUCKETS: tuple[str, ...] = ("day", "week", "month", "year")
"""``group_by`` values that bucket the ``time`` column instead of naming a column.
A bucket word always means the bucket; weeks run Monday to Sunday on both engines
(``date_trunc('week', ...)``), a group's key is the bucket's first day."""
GROUP_OPERATORS = frozenset({"count", "sum", "avg", "min", "max", "median"})
SOURCES_PER_GROUP = 20
"""Round ids kept per returned group as its evidence."""


def group_key_sql(q: _Query, group_by: str) -> tuple[str, str]:
    """The SQL of a group key and its label (a column name or ``time:<bucket>``)."""
    key = group_by.strip().lower() if isinstance(group_by, str) else ""
    if key in TIME_BUCKETS:
        # the bucket is a word from a fixed list, never text a caller wrote
        return f"CAST(date_trunc('{key}', \"time\") AS DATE)", f"time:{key}"
    from langgraph_adamm.analytic.predicates import resolve_column

    col = resolve_column(q.table, group_by)
    if col.sql_type == "TIMESTAMP":
        raise ToolInputError(
            f"Group by a time bucket ({', '.join(TIME_BUCKETS)}), not by the "
            f"timestamps of {col.name}."
        )
    return quote_ident(col.name), col.name


def _aggregate_sql(operator: str, expr: str | None) -> str:
    if operator == "count":
        return f"count({expr})" if expr else "count(*)"
    if expr is None:
        raise ToolInputError(f"Operator {operator} needs a target_column_expression.")
    return {
        "sum": f"sum({expr})",
        "avg": f"avg({expr})",
        "min": f"min({expr})",
        "max": f"max({expr})",
        "median": f"percentile_cont(0.5) WITHIN GROUP (ORDER BY {expr})",
    }[operator]


def grouped(
    q: _Query,
    operator: str,
    target: _Target | None,
    group_by: str,
    order: Literal["desc", "asc"] | None,
    limit: int,
) -> tuple[str, list[dict[str, Any]], int, bool]:
    """One aggregate per group, ordered, at most ``limit`` groups.

    Args:
        q: The query with its filters added.
        operator: count, sum, avg, min, max or median.
        target: The compiled expression (None: count rows).
        group_by: A column name or a time bucket.
        order: ``desc``/``asc`` by value; None: by group key ascending (the
            natural order of time buckets).
        limit: The most groups returned.

    Returns:
        The group label, the groups (``group``, ``value``, ``row_count``,
        ``sources``), how many groups there are in all, and whether the list was
        cut.
    """
    from langgraph_adamm.analytic.operators import _jsonable

    if operator not in GROUP_OPERATORS:
        raise ToolInputError(
            f"group_by works with {', '.join(sorted(GROUP_OPERATORS))}; not with "
            f"{operator} (ask for the rows with filter or rank instead)."
        )
    key_sql, label = group_key_sql(q, group_by)
    expr = target.sql if target is not None else None
    eparams = list(target.params) if target is not None else []
    agg = _aggregate_sql(operator, expr)
    extra = [f"{key_sql} IS NOT NULL"] + ([f"{expr} IS NOT NULL"] if expr else [])
    where = q.where_sql(extra)
    # parameters in the order the SQL reads them: select list, WHERE, ORDER BY
    where_params = q.params + eparams
    if order is None:
        order_sql = "g ASC"
        order_params: list[Any] = []
    else:
        direction = "DESC" if order == "desc" else "ASC"
        order_sql = f"{agg} {direction}, g ASC"
        order_params = list(eparams)
    sql = (
        f"SELECT {key_sql} AS g, {agg}, count(*) FROM {q.source}{where} "
        f"GROUP BY g ORDER BY {order_sql}"
    )
    rows = q.run(sql, eparams + where_params + order_params)
    total = len(rows)
    kept = rows[:limit]
    groups = [
        {
            "group": _jsonable(g),
            "value": _jsonable(v) if operator != "count" else int(v),
            "row_count": int(n),
            "sources": [],
        }
        for g, v, n in kept
    ]
    if target is not None and target.sql_type == "BIGINT" and operator == "sum":
        for g in groups:
            g["value"] = int(g["value"])
    _attach_sources(q, key_sql, where, where_params, [g for g, _, _ in kept], groups)
    return label, groups, total, total > len(kept)


def _attach_sources(
    q: _Query,
    key_sql: str,
    where: str,
    params: list[Any],
    keys: list[Any],
    groups: list[dict[str, Any]],
) -> None:
    """The round ids of each returned group (its evidence), in time order."""
    if not groups:
        return
    marks = ", ".join("?" for _ in keys)
    order, order_params = q.time_order()
    # the keys are bound as the database returned them
    sql = (
        f"SELECT {key_sql}, source FROM {q.source}{where} "
        f"AND {key_sql} IN ({marks}) ORDER BY {order}"
    )
    by_key = dict(zip(keys, groups, strict=True))
    for key, source in q.run(sql, params + keys + order_params):
        group = by_key.get(key)
        if group is not None and len(group["sources"]) < SOURCES_PER_GROUP:
            if source not in group["sources"]:
                group["sources"].append(source)
