"""Rank and median over large PostgreSQL tables, narrowed by a page sample.

PostgreSQL stores rows, so an operator over a whole induced table reads every
row, and two operators also sort what they read: Rank by an expression (a
top-N sort fed a copy of every row) and the median (a sort of every matching
value in one process: ordered-set aggregates do not run in parallel). On a
large table both are answered exactly from one parallel scan when a small
sample of pages (``TABLESAMPLE SYSTEM``, about :data:`SAMPLE_ROWS` rows) says
where the answer lies:

- **Rank**: the sample's m-th best value is a bound ``t``. The rows with
  ``expr <= t`` (ascending) contain the first k rows of the whole order
  whenever there are at least k of them, so the top-N sort sees only those.
- **Median**: the sample's quantiles ``0.5 +- WINDOW`` bound a window. One scan
  counts the matching rows and those below the window and returns the
  window's values; the middle ranks are read from it whenever the counts
  place them inside.

When the sample misjudges (a filter it barely saw, values that drift with the
table's page order), the check fails and the plain query answers: results
never depend on the sample, only the time taken does. DuckDB reads columns
and sorts in parallel, and smaller tables are cheap either way: both take the
plain query. Every value is a bound parameter, as everywhere else.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langgraph_adamm.analytic.operators import _Query

log = logging.getLogger(__name__)

SAMPLED_ABOVE = 100_000
"""Tables estimated to hold fewer rows than this take the plain query."""
SAMPLE_ROWS = 10_000
"""About how many rows the page sample reads."""
WINDOW = 0.03
"""The median's window: the sample's quantiles 0.5 - WINDOW to 0.5 + WINDOW."""
MIN_SAMPLE = 200
"""Fewer sampled matching rows than this say too little about the median."""

_SAMPLE = " TABLESAMPLE SYSTEM (CAST(? AS DOUBLE)) REPEATABLE (0)"
_BOUND_TYPES = frozenset({"DOUBLE", "BIGINT"})


def sample_percent(q: _Query) -> float | None:
    """The percentage of pages to sample, or None for the plain query."""
    db = q.memory.db
    if db.engine != "postgres":
        return None
    rows = db.fetchall(
        "SELECT reltuples FROM pg_class WHERE oid = to_regclass(?)", [q.source]
    )
    # reltuples is the planner's estimate (-1 before the first ANALYZE)
    estimate = float(rows[0][0]) if rows and rows[0][0] is not None else -1.0
    if estimate <= 0 or estimate < SAMPLED_ABOVE:
        return None
    return min(100.0, 100.0 * SAMPLE_ROWS / estimate)


def rank_bound(
    q: _Query,
    expr: str,
    expr_params: list[Any],
    sql_type: str,
    where: str,
    params: list[Any],
    descending: bool,
    k: int,
) -> tuple[str, list[Any]] | None:
    """A predicate that keeps the first ``k`` rows of a Rank, or None.

    ``where``/``params`` are the Rank's own clause. The caller must check that
    the narrowed query still returned ``k`` rows and run the plain one if not.
    """
    if sql_type not in _BOUND_TYPES:
        return None
    percent = sample_percent(q)
    if percent is None:
        return None
    # the bound's expected rank in the whole table is about m / fraction,
    # at least 4k: a sample this unlucky is rare, and only costs time
    m = max(3, math.ceil(4 * k * percent / 100))
    direction = "DESC" if descending else "ASC"
    sample = q.run(
        f"SELECT {expr} FROM {q.source}{_SAMPLE}{where} "
        f"ORDER BY {expr} {direction} LIMIT ?",
        expr_params + [percent] + params + expr_params + [m],
    )
    if len(sample) < m:
        log.debug("Rank on %s: the sample held too few rows", q.source)
        return None
    bound = sample[-1][0]
    op = ">=" if descending else "<="
    return f"{expr} {op} CAST(? AS {sql_type})", expr_params + [bound]


def median(
    q: _Query, expr: str, expr_params: list[Any], where: str, params: list[Any]
) -> tuple[float | None, int] | None:
    """The exact median and the row count, or None for the plain query.

    Equals ``percentile_cont(0.5) WITHIN GROUP (ORDER BY expr)`` over the
    rows of ``where`` (which must exclude NULL values of ``expr``).
    """
    percent = sample_percent(q)
    if percent is None:
        return None
    value = f"CAST({expr} AS DOUBLE)"
    ep = expr_params
    (bounds, sampled), *_ = q.run(
        f"SELECT percentile_disc(ARRAY[CAST(? AS DOUBLE), CAST(? AS DOUBLE)]) "
        f"WITHIN GROUP (ORDER BY {value}), count(*) FROM {q.source}{_SAMPLE}{where}",
        [0.5 - WINDOW, 0.5 + WINDOW] + ep + [percent] + params,
    )
    if sampled < MIN_SAMPLE or not bounds or not all(map(math.isfinite, bounds)):
        log.debug("median on %s: the sample held too few rows", q.source)
        return None
    low, high = bounds
    (total, below, window), *_ = q.run(
        f"SELECT count(*), count(*) FILTER (WHERE {value} < ?), "
        f"array_agg({value}) FILTER (WHERE {value} BETWEEN ? AND ?) "
        f"FROM {q.source}{where}",
        ep + [low] + ep + ep + [low, high] + params,
    )
    total, below = int(total), int(below)
    if total == 0:
        return None, 0
    # percentile_cont(0.5): the values at ranks floor and ceil of (n - 1) / 2
    # (from 0), interpolated as PostgreSQL's float8 lerp does
    middle = 0.5 * (total - 1)
    first, second = math.floor(middle), math.ceil(middle)
    values = sorted(window or [])
    if first < below or second >= below + len(values):
        log.debug("median on %s: outside the sampled window", q.source)
        return None
    return interpolate(
        values[first - below], values[second - below], middle - first
    ), total


def interpolate(low: float, high: float, fraction: float) -> float:
    """Between two neighbouring values, as PostgreSQL's float8 lerp computes it."""
    return low if fraction == 0 else low + fraction * (high - low)
