"""Column statistics: what a column's values say about its type and unit.

:class:`ColumnStats` is kept incrementally as rows are appended and taken back
exactly as rows are forgotten, so that a column's decision
(:func:`~langgraph_adamm.analytic.column_types.decide_column`) never needs all
its values read again. Every field depends only on the multiset of values.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from langgraph_adamm.analytic.extraction.base import Observation

_COMMA_DECIMAL_RE = re.compile(r"\d,\d{1,2}(?!\d)|\d\.\d{3},\d")
"""A comma that may be a decimal separator ("3,5") or a thousands one."""

_LOG_SCALE = 2**32
"""Logarithms are summed as integers in units of 1/2**32, so that a sum depends
only on the multiset of numbers (never on their order) and removing a number
gives exactly the sum of the rest."""


def scaled_log(x: float) -> int:
    """The logarithm of a positive number, in integer units of 1/2**32."""
    return round(math.log(x) * _LOG_SCALE)


def ambiguous_separator(text: str) -> str:
    """The separator of an ambiguous number ("14.854" -> ".", "12,345" -> ",")."""
    return "." if re.search(r"\d\.\d{3}(?!\d)", text) else ","


@dataclass
class NumberStats:
    """Running statistics of one kind of number (one unit, or bare).

    Every field is a function of the multiset of numbers counted, and
    :meth:`remove` takes one back exactly, except when the last copy of the
    lowest or highest number goes (the next one is not kept).
    """

    n: int = 0
    positive: int = 0
    log_units: int = 0
    """Sum of the positive numbers' logarithms, in units of 1/2**32."""
    low: float = math.inf
    high: float = -math.inf
    n_low: int = 0
    """How many counted numbers equal ``low`` (and ``n_high``, ``high``)."""
    n_high: int = 0
    fractional: int = 0
    """Numbers that are not whole."""
    bigs: int = 0
    """Numbers of magnitude 2**62 or more (beyond a BIGINT's exact range)."""

    @property
    def sum_log(self) -> float:
        """Sum of the positive numbers' natural logarithms."""
        return self.log_units / _LOG_SCALE

    @property
    def whole(self) -> bool:
        """Whether every number counted is whole."""
        return not self.fractional

    @property
    def big(self) -> bool:
        """Whether a number of magnitude 2**62 or more was counted."""
        return self.bigs > 0

    def add(self, x: float) -> None:
        """Count one number (an infinite one counts as big, not in the logs)."""
        self.n += 1
        if x > 0 and math.isfinite(x):
            self.positive += 1
            self.log_units += scaled_log(x)
        if x < self.low:
            self.low, self.n_low = x, 1
        elif x == self.low:
            self.n_low += 1
        if x > self.high:
            self.high, self.n_high = x, 1
        elif x == self.high:
            self.n_high += 1
        if not float(x).is_integer():
            self.fractional += 1
        if abs(x) >= 2**62:
            self.bigs += 1

    def remove(self, x: float) -> bool:
        """Take back one counted number; False when the result is not known.

        It is not known when the number was the last copy of the lowest or the
        highest while others remain (or was never counted): the caller then
        counts the remaining numbers again.
        """
        if self.n <= 0 or not self.low <= x <= self.high:
            return False
        self.n -= 1
        if x > 0 and math.isfinite(x):
            self.positive -= 1
            self.log_units -= scaled_log(x)
        if not float(x).is_integer():
            self.fractional -= 1
        if abs(x) >= 2**62:
            self.bigs -= 1
        if not self.n:
            fresh = NumberStats()
            ok = (self.positive, self.log_units, self.fractional, self.bigs) == (
                0,
                0,
                0,
                0,
            )
            self.__dict__.update(fresh.__dict__)
            return ok
        known = True
        if x == self.low:
            self.n_low -= 1
            known = self.n_low > 0
        if x == self.high:
            self.n_high -= 1
            known = known and self.n_high > 0
        return known

    def mean_log(self) -> float | None:
        """The mean natural logarithm of the positive numbers, if any."""
        return round(self.sum_log / self.positive, 9) if self.positive else None


@dataclass
class ColumnStats:
    """Everything a column's type and unit are decided from, kept incrementally.

    The decision depends only on the multiset of values, never on their order or
    on how they were batched, so a table built in one batch and one built a
    round at a time are typed alike.
    """

    kinds: Counter[str] = field(default_factory=Counter)
    units: dict[str, NumberStats] = field(default_factory=dict)
    bare: NumberStats = field(default_factory=NumberStats)
    clocks: NumberStats = field(default_factory=NumberStats)
    ambiguous: dict[tuple[str, str], tuple[NumberStats, NumberStats]] = field(
        default_factory=dict
    )
    """Numbers with an ambiguous separator, per (unit or "" for bare, separator):
    (as read, the other reading)."""
    comma_decimals: int = 0
    """Values written with an unmistakable decimal comma ("6,8", "1.234,56")."""

    def add(self, obs: Observation) -> None:
        """Count one observed value."""
        v = obs.value
        if v.number is not None and _COMMA_DECIMAL_RE.search(v.text):
            self.comma_decimals += 1
        hms = v.kind == "clock" and v.text.count(":") == 2
        self.kinds["number" if hms else v.kind] += 1
        if v.number is None:
            return
        if hms:  # h:mm:ss is a duration whatever the column
            self.units.setdefault("min", NumberStats()).add(v.number)
        elif v.alt is not None:
            key = (v.unit or "", ambiguous_separator(v.text))
            read, other = self.ambiguous.setdefault(key, (NumberStats(), NumberStats()))
            read.add(v.number)
            other.add(v.alt)
        elif v.kind == "clock":
            self.clocks.add(v.number)
        elif v.unit:
            self.units.setdefault(v.unit, NumberStats()).add(v.number)
        else:
            self.bare.add(v.number)

    def remove(self, obs: Observation) -> bool:
        """Take back one value :meth:`add` counted.

        Returns False when the statistics are no longer known exactly (see
        :meth:`NumberStats.remove`): count the remaining values again then.
        """
        v = obs.value
        if v.number is not None and _COMMA_DECIMAL_RE.search(v.text):
            self.comma_decimals -= 1
        hms = v.kind == "clock" and v.text.count(":") == 2
        kind = "number" if hms else v.kind
        self.kinds[kind] -= 1
        known = self.kinds[kind] >= 0 and self.comma_decimals >= 0
        if self.kinds[kind] <= 0:
            del self.kinds[kind]
        if v.number is None:
            return known
        if hms:
            return _remove_from(self.units, "min", v.number) and known
        if v.alt is not None:
            key = (v.unit or "", ambiguous_separator(v.text))
            if key not in self.ambiguous:
                return False
            read, other = self.ambiguous[key]
            known = read.remove(v.number) & other.remove(v.alt) & known
            if not read.n:
                del self.ambiguous[key]
            return known
        if v.kind == "clock":
            return self.clocks.remove(v.number) and known
        if v.unit:
            return _remove_from(self.units, v.unit, v.number) and known
        return self.bare.remove(v.number) and known

    def to_json(self) -> str:
        """The statistics as text that :meth:`from_json` reads back exactly."""
        return json.dumps(
            {
                "format": 1,
                "kinds": dict(sorted(self.kinds.items())),
                "units": {u: _fields(st) for u, st in sorted(self.units.items())},
                "bare": _fields(self.bare),
                "clocks": _fields(self.clocks),
                "ambiguous": [
                    [unit, sep, _fields(read), _fields(other)]
                    for (unit, sep), (read, other) in sorted(self.ambiguous.items())
                ],
                "comma_decimals": self.comma_decimals,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> ColumnStats:
        """Statistics written by :meth:`to_json`.

        Raises:
            ValueError: for text that is not such statistics.
        """
        try:
            d = json.loads(text)
            if d.pop("format") != 1:
                raise ValueError("unknown format")
            return cls(
                Counter({str(k): int(n) for k, n in d["kinds"].items()}),
                {str(u): NumberStats(**st) for u, st in d["units"].items()},
                NumberStats(**d["bare"]),
                NumberStats(**d["clocks"]),
                {
                    (str(u), str(sep)): (NumberStats(**read), NumberStats(**other))
                    for u, sep, read, other in d["ambiguous"]
                },
                int(d["comma_decimals"]),
            )
        except (TypeError, KeyError, AttributeError, ValueError) as exc:
            raise ValueError(f"not column statistics: {exc}") from exc


def _fields(st: NumberStats) -> dict[str, Any]:
    return dict(st.__dict__)


def _remove_from(units: dict[str, NumberStats], unit: str, x: float) -> bool:
    st = units.get(unit)
    if st is None:
        return False
    known = st.remove(x)
    if not st.n:
        del units[unit]
    return known
