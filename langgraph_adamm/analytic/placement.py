"""Where an undated round sits in time: between the dated rounds around it.

A round without a time (an export without timestamps, a session without a
date) keeps its place in the history, and the operators read that place as
its time:

- **Order.** Rows are ordered by their place, then by history position
  (``"order"``). A dated row's place is its time; an undated row's is the time
  of the last dated round before it in the history, and it comes after that
  round; with no dated round before it, it comes before every dated row. A
  history whose dated rounds are in time order is read in history order: an
  undated session that opens it holds the ``first`` record, one at its end
  the ``latest``. Where dated rounds are out of time order (a history
  ingested after a later one), time orders the dated rows and each undated
  round follows the dated round before it.
- **Time filters.** An undated round lies between its dated neighbours in the
  history (a missing one is unbounded). It is inside a time range when both
  neighbours are, outside when both lie on the same side of it, and
  otherwise undecidable: such rows are left out and counted, so a result can
  say so.

The neighbours are those of the whole history (``adamm_rounds``), not only of
a table's rows, and are looked up per query (:func:`placement_of`), so that
rounds ingested or forgotten since move them. A table without undated rows
costs one lookup for them; one with a few looks near them in the history;
past :data:`PROBED_POSITIONS`, one query places them all.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.rounds import (
    DatedRound,
    dated_neighbour,
    dated_rounds_near,
    has_dated_rounds,
    undated_runs,
)

UNDATED_ROWS = 'SELECT "order" FROM {source} WHERE "time" IS NULL'
PROBED_POSITIONS = 64
"""Up to this many undated rounds in a table, their neighbours are looked up
near them (one query), and further only for a run that has none that near;
past it, one query finds them all."""
NEAR = 32
"""How many positions around an undated round the first lookup covers."""


@dataclass(frozen=True)
class Span:
    """A stretch of time; a missing end is unbounded."""

    low: datetime | None = None
    high: datetime | None = None
    low_open: bool = False
    """Whether ``low`` itself is excluded."""
    high_open: bool = False

    def side(self, t: datetime | None, unbounded: int) -> int:
        """-1 below, 0 inside, 1 above; ``t`` None is ``unbounded`` (-1 or 1)."""
        if t is None:
            bounded = self.low if unbounded < 0 else self.high
            return unbounded if bounded is not None else 0
        if self.low is not None and (t < self.low or (self.low_open and t == self.low)):
            return -1
        if self.high is not None and (
            t > self.high or (self.high_open and t == self.high)
        ):
            return 1
        return 0

    def sql(self, column: str) -> tuple[str, list[Any]]:
        """The span as a predicate on ``column`` (a quoted identifier)."""
        if self.low is not None and self.low == self.high:
            return f"{column} = CAST(? AS TIMESTAMP)", [self.low]
        parts, params = [], []
        if self.low is not None:
            op = ">" if self.low_open else ">="
            parts.append(f"{column} {op} CAST(? AS TIMESTAMP)")
            params.append(self.low)
        if self.high is not None:
            op = "<" if self.high_open else "<="
            parts.append(f"{column} {op} CAST(? AS TIMESTAMP)")
            params.append(self.high)
        # a filter bounds every span it makes on at least one side
        return (parts[0] if len(parts) == 1 else f"({' AND '.join(parts)})"), params


@dataclass(frozen=True)
class TimeCondition:
    """A filter on a timestamp column: inside any of the spans (or none)."""

    spans: tuple[Span, ...]
    negated: bool = False

    def sql(self, column: str) -> tuple[str, list[Any]]:
        """The condition as a predicate on ``column`` (a quoted identifier)."""
        parts = [s.sql(column) for s in self.spans]
        params = [p for _, ps in parts for p in ps]
        sql = " OR ".join(p for p, _ in parts)
        sql = sql if len(parts) == 1 else f"({sql})"
        return (f"NOT {sql}" if self.negated else sql), params

    def decide(self, since: datetime | None, until: datetime | None) -> bool | None:
        """Whether a round between dated neighbours at these times meets it.

        None when the neighbours do not decide it: a bound falls between them.
        """
        sides = [(s.side(since, -1), s.side(until, 1)) for s in self.spans]
        if any(a == b == 0 for a, b in sides):
            inside: bool | None = True
        elif all(a == b != 0 for a, b in sides):
            inside = False
        else:
            return None
        return (not inside) if self.negated else inside


@dataclass(frozen=True)
class Run:
    """Undated rows of a table that lie between the same two dated rounds."""

    first: int
    """The lowest history position of the run's rows."""
    last: int
    since: datetime | None
    """The time of the dated round before them (None: there is none)."""
    until: datetime | None
    """The time of the dated round after them (None: none, so far)."""


@dataclass(frozen=True)
class Placement:
    """A table's undated rows, grouped into runs in history order."""

    runs: tuple[Run, ...] = ()

    @property
    def placed(self) -> bool:
        """Whether some undated rows come after a dated one (else all before)."""
        return any(r.since is not None for r in self.runs)

    def order_sql(self, descending: bool = False) -> tuple[str, list[Any]]:
        """ORDER BY terms (without the keywords) that order rows by place."""
        d, nulls = ("DESC", "LAST") if descending else ("ASC", "FIRST")
        if not self.placed:
            # every undated row comes before every dated one: NULLs first
            return f'"time" {d} NULLS {nulls}, "order" {d}', []
        whens = " ".join(
            'WHEN "order" <= ? THEN CAST(? AS TIMESTAMP)' for _ in self.runs
        )
        params = [x for r in self.runs for x in (r.last, r.since)]
        return (
            f'coalesce("time", CASE {whens} END) {d} NULLS {nulls}, "order" {d}',
            params,
        )

    def decisions(self, condition: TimeCondition) -> list[bool | None]:
        """Per run: whether its rows meet a time condition (None: undecidable)."""
        return [condition.decide(r.since, r.until) for r in self.runs]

    def rows_sql(self, indexes: Sequence[int]) -> tuple[str, list[Any]]:
        """A predicate for the undated rows of the runs at these indexes."""
        runs = [self.runs[i] for i in sorted(indexes)]
        return (
            '("time" IS NULL AND ('
            + " OR ".join('"order" BETWEEN ? AND ?' for _ in runs)
            + "))",
            [x for r in runs for x in (r.first, r.last)],
        )


def placement_of(db: MemoryDatabase, user_id: str, source: str) -> Placement:
    """The undated rows of a table (``source``: its quoted, qualified name)."""
    undated = UNDATED_ROWS.format(source=source)
    orders = sorted(
        int(o)
        for (o,) in db.fetchall(
            f"SELECT DISTINCT * FROM ({undated}) q LIMIT ?", [PROBED_POSITIONS + 1]
        )
    )
    if not orders:
        return Placement()
    if len(orders) > PROBED_POSITIONS:
        if not has_dated_rounds(db, user_id):  # an export without any time
            ((lowest, highest),) = db.fetchall(
                f"SELECT min(o), max(o) FROM ({undated}) q(o)"
            )
            return Placement((Run(int(lowest), int(highest), None, None),))
        return Placement(tuple(Run(*r) for r in undated_runs(db, user_id, undated)))
    near = dated_rounds_near(db, user_id, orders, NEAR)
    near_orders = [o for o, _ in near]

    def neighbour(o: int, after: bool) -> DatedRound | None:
        # the nearest dated round is among those near, if any is that near
        i = bisect_left(near_orders, o) - (0 if after else 1)
        if 0 <= i < len(near) and abs(near[i][0] - o) <= NEAR:
            return near[i]
        return dated_neighbour(db, user_id, o, after)

    runs: list[Run] = []
    i = 0
    while i < len(orders):
        before, after = neighbour(orders[i], False), neighbour(orders[i], True)
        # every undated row up to the next dated round shares the neighbours
        j = bisect_left(orders, after[0]) if after else len(orders)
        runs.append(
            Run(
                orders[i],
                orders[j - 1],
                before[1] if before else None,
                after[1] if after else None,
            )
        )
        i = j
    return Placement(tuple(runs))
