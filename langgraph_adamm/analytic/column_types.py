"""Column-type inference and cell casting for induced tables.

The statistics of a column's values
(:class:`~langgraph_adamm.analytic.column_stats.ColumnStats`) lead to a
decision - SQL type, canonical unit, how bare numbers and clock readings are
read (:func:`decide_column`) - and under it each observation becomes a cell
(:func:`cell`). Plain functions on plain data, no database.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from langgraph_adamm.analytic.column_stats import (
    ColumnStats,
    NumberStats,
    ambiguous_separator,
    scaled_log,
)
from langgraph_adamm.analytic.extraction.base import Observation
from langgraph_adamm.analytic.units import (
    convert_units,
    convertible,
    dimension,
    everyday_units,
    has_offset,
)

SqlType = Literal["DOUBLE", "BIGINT", "TIMESTAMP", "BOOLEAN", "VARCHAR"]
NUMERIC_TYPES: frozenset[str] = frozenset({"DOUBLE", "BIGINT"})
TYPE_LABELS: dict[str, str] = {
    "DOUBLE": "number",
    "BIGINT": "integer",
    "TIMESTAMP": "timestamp",
    "BOOLEAN": "boolean",
    "VARCHAR": "text",
}


_DURATION_NAME_RE = re.compile(
    r"duration|elapsed|moving|sleep|deep|rem|light|awake|length|spent|active|"
    r"time|total|workout|session|pace|lap|split|nap|race|finish"
)
_TIME_OF_DAY_RE = re.compile(
    r"bed|wake|woke|start|end|alarm|clock|sunrise|sunset|arriv|depart|lights|"
    r"_at$|^at_"
)
_SLEEP_NAME_RE = re.compile(r"sleep|nap|deep|rem|light|awake|bed|fast|shift|work")
_BAND = 4.0
"""A bare number is read in the column's unit when, so read, it lies within
this factor of the range of the values written with a unit (checked only in
dimensions where people leave more than one unit unwritten: durations, masses,
lengths, temperatures, volumes)."""
_UNIT_MATCH = math.log(4.0)
"""A unit is a plausible reading of a column's bare numbers when their typical
value, so read, is within this factor of the typical value written with units."""


@dataclass(frozen=True)
class ColumnDecision:
    """A column's SQL type and canonical unit, and how its bare numbers read."""

    sql_type: SqlType
    unit: str | None = None
    bare_unit: str | None = None
    """The unit bare numbers are read in; None leaves them unitless (a column
    without units) or unreadable (a column with units where no reading fits)."""
    band: tuple[float, float] | None = None
    """The plausible range, in ``unit``, for a bare number so read."""
    clock_reading: str | None = None
    """How ``A:BB`` readings are durations: ``"h:mm"`` or ``"m:ss"``; None when
    they are times of day."""
    alt_reading: str = ""
    """The separators that read the other way in this column: "." ("14.854" is
    14854), "," ("12,345" is 12.345), both, or none."""


def _dimension_of(unit: str) -> str:
    return str(dimension(unit))


def decide_column(
    stats: ColumnStats, fraction: float, name: str = ""
) -> ColumnDecision:
    """The type and unit of a column from its statistics.

    A type wins when at least ``fraction`` of the values parse as it. A numeric
    column's unit is the most common unit of its most common dimension; values of
    another dimension are never mixed in (they are reported). Bare numbers are
    read in whichever unit of that dimension (seen in the column or commonly
    left unwritten) puts them closest to the values written with units, within a
    factor of 4; a bare number that, so read, lies outside the written values'
    range (widened by a factor of 2) is reported rather than guessed.
    ``H:MM`` readings count as durations in minutes when the column holds other
    durations or its name says it is one; otherwise they are times of day.
    """
    total = sum(stats.kinds.values())
    if not total:
        return ColumnDecision("VARCHAR")
    alt_reading = ""
    if stats.ambiguous:
        alt_reading = _alt_reading(stats)
        stats = _resolved(stats, alt_reading)
    by_dim: Counter[str] = Counter()
    for unit, st in stats.units.items():
        by_dim[_dimension_of(unit)] += st.n
    time_dim = _dimension_of("min")
    clock_duration = (
        stats.clocks.n > 0
        and not _TIME_OF_DAY_RE.search(name)
        and (
            by_dim.get(time_dim, 0) > 0
            or (
                stats.clocks.n >= max(by_dim.values(), default=0)
                and bool(_DURATION_NAME_RE.search(name))
            )
        )
    )
    clock_reading = _clock_reading(stats, name) if clock_duration else None
    numeric = stats.kinds["integer"] + stats.kinds["number"]
    if clock_duration:
        numeric += stats.clocks.n
        by_dim[time_dim] += stats.clocks.n
    if numeric / total < fraction:
        if stats.kinds["boolean"] / total >= fraction:
            return ColumnDecision("BOOLEAN")
        if stats.kinds["timestamp"] / total >= fraction:
            return ColumnDecision("TIMESTAMP")
        return ColumnDecision("VARCHAR")
    if not by_dim:
        integer = stats.bare.whole and not stats.bare.big
        return ColumnDecision(
            "BIGINT" if integer else "DOUBLE", alt_reading=alt_reading
        )
    dim = min(by_dim, key=lambda d: (-by_dim[d], d))
    in_dim = {u: st for u, st in stats.units.items() if _dimension_of(u) == dim}
    if clock_duration and dim == time_dim:
        clocks = _scaled(stats.clocks, 1 / 60 if clock_reading == "m:ss" else 1.0)
        in_dim = {**in_dim, "min": _merge(in_dim.get("min"), clocks)}
    written = min(in_dim, key=lambda u: (-in_dim[u].n, u))
    bare_unit: str | None = None
    if stats.bare.n:
        if not everyday_units(dim) and len(in_dim) == 1:
            bare_unit = written  # one unit, no other reading: "3,77" among EUR
        else:
            bare_unit = _bare_reading(stats.bare, in_dim, written, dim)
    # The column's unit: the most common reading, counting bare numbers too.
    counts = {u: st.n for u, st in in_dim.items()}
    if bare_unit is not None:
        counts[bare_unit] = counts.get(bare_unit, 0) + stats.bare.n
    unit = min(counts, key=lambda u: (-counts[u], u))
    parts = dict(in_dim)
    if bare_unit is not None:
        parts = {**parts, f"bare:{bare_unit}": stats.bare}
    integer = True
    for key, st in parts.items():
        factor = convert_units(1.0, key.removeprefix("bare:"), unit)
        if not st.whole or st.big or not float(factor).is_integer():
            integer = False
    band: tuple[float, float] | None = None
    written_units = {u: st for u, st in stats.units.items() if u in in_dim}
    misreadable = stats.bare.n or (clock_reading and dim == time_dim)
    if misreadable and everyday_units(dim) and written_units:
        # A bare number or clock reading could be misread here.
        if stats.bare.n:
            integer = False  # each bare number is read in the unit that fits it
        low = min(convert_units(st.low, u, unit) for u, st in written_units.items())
        high = max(convert_units(st.high, u, unit) for u, st in written_units.items())
        band = (
            round(low / _BAND if low > 0 else -math.inf, 9),
            round(high * _BAND if high > 0 else high / _BAND, 9),
        )
    return ColumnDecision(
        "BIGINT" if integer else "DOUBLE",
        unit,
        bare_unit,
        band,
        clock_reading,
        alt_reading,
    )


def _alt_reading(stats: ColumnStats) -> str:
    """The separators that read the other way: "", ".", "," or ".,".

    "14.854" read the other way is 14854. A dot reads as thousands only in a
    column whose unambiguous numbers are all whole (steps, calories), and a
    comma as a decimal only in a column that writes unmistakable decimal commas;
    then the reading whose typical value is nearer the column's unambiguous
    numbers of the same unit wins. Otherwise numbers read as written (a dot is a
    decimal point, a comma groups thousands).
    """
    out = ""
    for sep in ".,":
        if _votes(stats, sep) > 0:
            out += sep
    return out


def _votes(stats: ColumnStats, sep: str) -> float:
    votes = 0.0
    for (unit, s), (read, other) in stats.ambiguous.items():
        if s != sep:
            continue
        plain = stats.units.get(unit) if unit else stats.bare
        if sep == "." and (plain is None or not plain.whole):
            continue  # "14.854" is 14854 only among whole numbers (steps, kcal)
        if sep == "," and not stats.comma_decimals:
            continue  # "1,500" is 1.5 only where the column writes decimal commas
        ref, a, b = (
            plain.mean_log() if plain else None,
            read.mean_log(),
            other.mean_log(),
        )
        if ref is None or a is None or b is None:
            continue
        votes += read.n * (1 if abs(b - ref) < abs(a - ref) else -1)
    return votes


def _resolved(stats: ColumnStats, alt: str) -> ColumnStats:
    """The statistics with ambiguous numbers read as decided."""
    units = dict(stats.units)
    bare = stats.bare
    for (unit, sep), (read, other) in stats.ambiguous.items():
        chosen = other if sep in alt else read
        if unit:
            units[unit] = _merge(units.get(unit), chosen)
        else:
            bare = _merge(bare, chosen)
    return ColumnStats(stats.kinds, units, bare, stats.clocks, {}, stats.comma_decimals)


def _bare_reading(
    bare: NumberStats, in_dim: dict[str, NumberStats], unit: str, dim: str
) -> str | None:
    """The unit bare numbers are read in.

    When most values carry a unit, a bare number most likely omits the usual
    one: the column's unit, if the bare numbers' typical value so read is within
    a factor of 4 of the written values'. Otherwise (or when bare numbers are
    most of the column) the unit that puts them closest, compared by geometric
    means, within a factor of 4; None when no unit fits.
    """
    bare_log = bare.mean_log()
    positives = sum(st.positive for st in in_dim.values())
    if not positives or bare_log is None:
        return None
    written = sum(st.n for st in in_dim.values())
    if any(has_offset(u) for u in in_dim):
        # Temperatures: no magnitude to compare on a ratio scale; a bare
        # reading takes the column's unit (and the plausible range decides).
        return unit
    reference = (
        sum(
            st.sum_log + st.positive * math.log(convert_units(1.0, u, unit))
            for u, st in in_dim.items()
            if st.positive
        )
        / positives
    )
    if written > bare.n and abs(bare_log - reference) <= _UNIT_MATCH:
        return unit
    best: tuple[float, str] | None = None
    for cand in sorted(set(in_dim) | set(everyday_units(dim))):
        if not convertible(cand, unit):
            continue
        factor = convert_units(1.0, cand, unit)
        if factor <= 0:
            continue
        gap = abs(bare_log + math.log(factor) - reference)
        if gap <= _UNIT_MATCH and (best is None or gap < best[0] - 1e-9):
            best = (gap, cand)
    return best[1] if best else None


def _clock_reading(stats: ColumnStats, name: str) -> str:
    """Whether a duration column's ``A:BB`` readings are h:mm or m:ss.

    A first part of 24 or more is minutes ("52:40" for a 10 km run); otherwise
    the reading nearer the column's durations written with units wins, and
    without any, sleep-like names read h:mm and the rest m:ss (lap, race and
    puzzle times).
    """
    if stats.clocks.high >= 24 * 60:
        return "m:ss"
    written = {
        u: st
        for u, st in stats.units.items()
        if st.positive and convertible(u, "min") and u != "%"
    }
    clocks = stats.clocks.mean_log()
    if written and clocks is not None:
        reference = sum(
            st.sum_log + st.positive * math.log(convert_units(1.0, u, "min"))
            for u, st in written.items()
        ) / sum(st.positive for st in written.values())
        as_hm = abs(clocks - reference)
        as_ms = abs(clocks - math.log(60) - reference)
        return "h:mm" if as_hm <= as_ms else "m:ss"
    return "h:mm" if _SLEEP_NAME_RE.search(name) else "m:ss"


def _scaled(st: NumberStats, factor: float) -> NumberStats:
    if factor == 1.0:
        return st
    out = NumberStats()
    out.n, out.positive = st.n, st.positive
    out.log_units = st.log_units + st.positive * scaled_log(factor)
    out.low, out.high = st.low * factor, st.high * factor
    out.fractional = max(st.n, 1)  # not whole
    return out


def _merge(a: NumberStats | None, b: NumberStats) -> NumberStats:
    if a is None:
        return b
    out = NumberStats()
    out.n, out.positive = a.n + b.n, a.positive + b.positive
    out.log_units = a.log_units + b.log_units
    out.low, out.high = min(a.low, b.low), max(a.high, b.high)
    out.fractional, out.bigs = a.fractional + b.fractional, a.bigs + b.bigs
    return out


def cell(decision: ColumnDecision, obs: Observation) -> tuple[Any, str | None]:
    """An observation cast to its column: (value, None), or (None, why not)."""
    value = obs.value
    sql_type = decision.sql_type
    if sql_type in NUMERIC_TYPES:
        number_read = value.number
        if value.alt is not None and (
            ambiguous_separator(value.text) in decision.alt_reading
        ):
            number_read = value.alt
        if value.kind == "clock" and value.text.count(":") == 1:
            if decision.clock_reading is None:
                return None, f"a time of day, not a number: {value.text[:40]!r}"
            if number_read is not None:
                number_read = _clock_minutes(number_read, decision)
        if number_read is None:
            return None, f"not a number: {value.text[:40]!r}"
        unit = value.unit
        if value.kind != "clock" and unit is None and decision.unit is not None:
            unit = _bare_unit_for(number_read, decision)
            if unit is None:
                return None, f"no unit, and none fits: {value.text[:40]!r}"
        if not convertible(unit, decision.unit) or (
            decision.unit is None and unit is not None
        ):
            return None, f"unit {unit} does not fit {decision.unit or 'no unit'}"
        number = convert_units(number_read, unit, decision.unit)
        if value.unit is None and unit is not None and decision.band is not None:
            low, high = decision.band
            if not low <= number <= high:
                return None, (
                    f"bare number {value.text[:20]!r} read as {unit} is outside "
                    f"the range of the values written with units"
                )
        if sql_type == "BIGINT":
            whole = float(number).is_integer() and abs(number) < 2**62
            return (int(number) if whole else float(number)), None
        return float(number), None
    if sql_type == "BOOLEAN":
        if value.boolean is None:
            return None, f"not a yes/no value: {value.text[:40]!r}"
        return value.boolean, None
    if sql_type == "TIMESTAMP":
        if value.timestamp is None:
            return None, f"not a date: {value.text[:40]!r}"
        return value.timestamp, None
    return value.text, None


def _clock_minutes(hm_minutes: float, decision: ColumnDecision) -> float:
    """A clock reading in minutes.

    The column's reading, or the other one when only that lands in the range of
    the durations written with units.
    """
    first, second = hm_minutes / 60, hm_minutes  # m:ss, h:mm
    if decision.clock_reading == "h:mm":
        first, second = second, first
    if decision.band is not None and decision.unit is not None:
        low, high = decision.band
        as_first = convert_units(first, "min", decision.unit)
        as_second = convert_units(second, "min", decision.unit)
        if not low <= as_first <= high and low <= as_second <= high:
            return second
    return first


def _bare_unit_for(number: float, decision: ColumnDecision) -> str | None:
    """The unit a bare number is read in.

    The column's reading of bare numbers when it lands in the plausible range,
    else the first everyday unit of the dimension that does ("10k" in a km
    column is 10 km).
    """
    if decision.unit is None or decision.band is None:
        return decision.bare_unit
    low, high = decision.band
    options = ([decision.bare_unit] if decision.bare_unit else []) + [
        u for u in everyday_units(dimension(decision.unit)) if u != decision.bare_unit
    ]
    for unit in options:
        if low <= convert_units(number, unit, decision.unit) <= high:
            return unit
    return decision.bare_unit  # outside the range: reported by the caller
