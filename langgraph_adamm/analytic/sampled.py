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
  window's values (counting those equal to either end instead, when the
  sample says many rows share them); the middle ranks are read
  from it whenever the counts place them inside, and otherwise by a top-N
  query past the window's nearer end (as deep as the sample was wrong).

When the sample misjudges (a filter it barely saw, values that drift with the
table's page order), a check catches it and another query answers: results
never depend on the sample, only the time taken does. DuckDB reads columns
and sorts in parallel, and smaller tables are cheap either way: both take the
plain query. Every value is a bound parameter, as everywhere else.
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
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
TIED_SHARE = 0.15
"""Past this share of the sample inside the window (ties at its ends), the
ends are counted rather than collected."""

_SAMPLE = " TABLESAMPLE SYSTEM (CAST(? AS DOUBLE)) REPEATABLE (0)"
_BOUND_TYPES = frozenset({"DOUBLE", "BIGINT"})


def sample_percent(q: _Query) -> float | None:
    """The percentage of pages to sample, or None for the plain query."""
    # the planner's estimate: None where the engine keeps none, or none yet
    estimate = q.memory.db.estimated_rows(q.source)
    if estimate is None or estimate < SAMPLED_ABOVE:
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

    None when the sample says too little (too few matching rows, or a window
    end that is not a finite number); past the window the value is read by
    :func:`_value_at`.

    Equals ``percentile_cont(0.5) WITHIN GROUP (ORDER BY expr)`` over the
    rows of ``where`` (which must exclude NULL values of ``expr``).
    """
    percent = sample_percent(q)
    if percent is None:
        return None
    with q.memory.db.snapshot():  # its queries' counts must agree
        return _median(q, expr, expr_params, where, params, percent)


def _median(
    q: _Query,
    expr: str,
    expr_params: list[Any],
    where: str,
    params: list[Any],
    percent: float,
) -> tuple[float | None, int] | None:
    value = f"CAST({expr} AS DOUBLE)"
    ep = expr_params
    ((drawn,),) = q.run(
        f"SELECT array_agg({value}) FROM {q.source}{_SAMPLE}{where}",
        ep + [percent] + params,
    )
    sample = sorted(drawn or [])
    if len(sample) < MIN_SAMPLE:
        log.debug("median on %s: the sample held too few rows", q.source)
        return None
    last = len(sample) - 1
    low = sample[math.floor((0.5 - WINDOW) * last)]
    high = sample[math.ceil((0.5 + WINDOW) * last)]
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    share = (bisect_right(sample, high) - bisect_left(sample, low)) / len(sample)
    if share <= TIED_SHARE:
        # the window's values, ends included, in one array
        (total, below, inner), *_ = q.run(
            f"SELECT count(*), count(*) FILTER (WHERE {value} < ?), "
            f"array_agg({value}) FILTER (WHERE {value} BETWEEN ? AND ?) "
            f"FROM {q.source}{where}",
            ep + [low] + ep + ep + [low, high] + params,
        )
        ends = (0, 0)
    else:
        # values shared by many rows (a column of few values): the window's
        # ends are counted, not collected, and never travel as an array
        (total, below, at_low, at_high, inner), *_ = q.run(
            f"SELECT count(*), count(*) FILTER (WHERE {value} < ?), "
            f"count(*) FILTER (WHERE {value} = ?), "
            f"count(*) FILTER (WHERE {value} = ?), "
            f"array_agg({value}) FILTER (WHERE {value} > ? AND {value} < ?) "
            f"FROM {q.source}{where}",
            ep + [low] + ep + [low] + ep + [high] + ep + ep + [low] + ep + [high]
            + params,
        )  # fmt: skip
        ends = (int(at_low), 0 if high == low else int(at_high))
    total = int(total)
    if total == 0:
        return None, 0
    window = Window(int(below), ends, sorted(inner or []), (low, high))
    # percentile_cont(0.5): the values at ranks floor and ceil of (n - 1) / 2
    # (from 0), interpolated as PostgreSQL's float8 lerp does
    middle = 0.5 * (total - 1)
    first, second = (
        _value_at(q, value, ep, where, params, window, rank)
        for rank in (math.floor(middle), math.ceil(middle))
    )
    return interpolate(first, second, middle - math.floor(middle)), total


def _value_at(
    q: _Query,
    value: str,
    ep: list[Any],
    where: str,
    params: list[Any],
    window: Window,
    rank: int,
) -> float:
    """The value at ``rank`` (from 0): from the window, or read past its end.

    The sample misjudged where the middle lies (values that drift with the
    page order do that): a top-N query beyond the nearer end, as long as the
    distance from that end, finds it without sorting every value.
    """
    found = window.at(rank)
    if found is not None:
        return found
    low, high = window.bounds
    if rank < window.below:
        side, bound, order, skip = "<", low, "DESC", window.below - 1 - rank
    else:
        side, bound, order, skip = ">", high, "ASC", rank - window.below - window.size
    log.debug("median on %s: %d values past the sampled window", q.source, skip + 1)
    clause = f"{where} AND {value} {side} ?"
    (row,) = q.run(
        f"SELECT {value} FROM {q.source}{clause} ORDER BY {value} {order} "
        "OFFSET ? LIMIT 1",
        ep + params + ep + [bound] + ep + [skip],
    )
    return float(row[0])


@dataclass
class Window:
    """Sorted values between two ends, the ends' values counted, not listed.

    ``below`` values come before ``bounds[0]``; ``ends`` counts the values
    equal to each bound (the second 0 when the bounds are one value);
    ``inner`` holds the values strictly between, sorted.
    """

    below: int
    ends: tuple[int, int]
    inner: list[float]
    bounds: tuple[float, float]

    @property
    def size(self) -> int:
        """How many values the window holds."""
        return self.ends[0] + len(self.inner) + self.ends[1]

    def at(self, rank: int) -> float | None:
        """The value at a rank (from 0) of the whole order, None outside."""
        i = rank - self.below
        (n_low, n_high), (low, high) = self.ends, self.bounds
        if i < 0:
            return None
        if i < n_low:
            return low
        i -= n_low
        if i < len(self.inner):
            return self.inner[i]
        i -= len(self.inner)
        return high if i < n_high else None


def interpolate(low: float, high: float, fraction: float) -> float:
    """Between two neighbouring values, as PostgreSQL's float8 lerp computes it."""
    return low if fraction == 0 else low + fraction * (high - low)
