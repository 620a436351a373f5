"""What a question asks of its answer, checked against the plan made for it.

Accounting (:mod:`.accounting`) sorts the words a plan left; these checks read
the question as a whole against the plan's last analytic step: a name asked
for and a number given ("which cafe did I ..."), two things compared and no
step comparing ("higher at A than at B"), a quantity of one kind answered by a
column of another ("weight" from a distance; "how many kg" or "in kg" from a
column in km). Each finding is an ``unresolved`` entry.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from langgraph_adamm.analytic.units import (
    CURRENCIES,
    dimension,
    spelled_unit,
    unknown_unit,
)
from langgraph_adamm.analytic.values import convertible
from langgraph_adamm.planning.context import TableCard
from langgraph_adamm.planning.dates import MONTHS as MONTH_NUMBERS
from langgraph_adamm.planning.question_words import CALENDAR
from langgraph_adamm.planning.text import STOPWORDS, stem, words
from langgraph_adamm.tools.names import COMBINE, COMPUTE, RANK

_ASKS_TEXT_RE = re.compile(
    r"^(?:where|who|whom)\b|\b(?:where|who)\s+(?:did|do|does|have|has|was|is|were)\b"
    r"|\b(?:which|what)\s+(?!(?:was|is|were|are|did|do|does|has|have|had|i|we|my|"
    r"the|kind|type|sort|time|day|date|days|week|weeks|month|months|year|night|"
    r"weekday|percent|percentage|share|proportion|fraction)\b)[a-z]+\s+"
    r"(?:did|do|does|have|has|had|was|is|were|gets?|got|brings?|costs?)\b"
)
"""A question that asks for a name, a place or a kind ("where did I", "which
cafe do I"), not a number."""


def kind_asked(q: str, drafts: list[dict[str, Any]], answer_form: str) -> list[str]:
    """A question asking for a name answered with a number is not answered."""
    if answer_form != "value":
        return []
    last = next((d for d in reversed(drafts) if d.get("tool") in (COMPUTE, RANK)), None)
    if last is None or (last.get("arguments") or {}).get("group_by"):
        return []
    m = _ASKS_TEXT_RE.search(q)
    if m is None:
        return []
    target = str((last.get("arguments") or {}).get("target_column_expression"))
    asked = words(m.group(0))
    if (
        len(asked) > 1
        and asked[0] in ("which", "what")
        and stem(asked[1]) in {stem(w) for w in words(target)}
    ):
        return []  # "what FG did ...": the number the plan gives is the FG
    return [f"'{m.group(0).strip()}' (asks for a name, not the number the plan gives)"]


_THAN_RE = re.compile(
    r"\b(?:more|less|fewer|higher|lower|longer|shorter|bigger|smaller|faster|"
    r"slower|heavier|lighter|better|worse|further|farther|cheaper|pricier|"
    r"greater|warmer|colder)\b.*\bthan\b"
    # "more than 10 km", "longer than an hour": a condition, no second side
    r"(?!\s+(?:about\s+|around\s+|roughly\s+)?(?:[\d$€£]|an?\s|one\b|two\b|"
    r"three\b|four\b|five\b|six\b|seven\b|eight\b|nine\b|ten\b|half\b))"
)


_TIMES_AS_RE = re.compile(
    r"(?P<cue>\b(?:how\s+many\s+times|twice|(?:three|four|five|ten)\s+times)\s+as\s+"
    r"(?:many|much|often|far|long))\b.*?\s+as\s+\S"
)
"""A ratio asked: "how many times as many fish from A as from B", "twice as far"."""


def comparison_asked(q: str, drafts: list[dict[str, Any]]) -> list[str]:
    """Two things compared ("higher at A than at B") with no step comparing."""
    if any(d.get("tool") == COMBINE for d in drafts):
        return []
    m = _THAN_RE.search(q)
    if m is not None:
        return [f"'{m.group(0).strip()}' (a comparison no step of the plan makes)"]
    m = _TIMES_AS_RE.search(q)
    if m is not None:
        return [f"'{m.group('cue')} ... as' (a ratio no step of the plan makes)"]
    return []


_DIMENSION_WORDS: dict[str, str] = {
    **dict.fromkeys(
        "weight weigh weighed weighs heavy heavier heaviest kilos".split(), "[mass]"
    ),
    **dict.fromkeys(
        "distance far further farther furthest kilometres kilometers miles".split(),
        "[length]",
    ),
    **dict.fromkeys("duration minutes hours".split(), "[time]"),
    **dict.fromkeys("temperature warmest coldest hottest".split(), "[temperature]"),
    **dict.fromkeys(
        "cheapest cheaper dearest dearer priciest pricier expensive price".split(),
        "[currency]",
    ),
}
"""Words that name what kind of quantity is asked."""


def _dimension_name(dim: str) -> str:
    """A dimension in words: "[length] ** 3" -> "a volume"."""
    names = {
        "[length] ** 3": "a volume",
        "[length] ** 2": "an area",
        "[currency]": "an amount of money",
    }
    return names.get(dim) or "a " + dim.strip("[]")


def _unit_dimension(word: str) -> str | None:
    """The dimension of a unit the question names ("kg": mass), if it has one."""
    # "s" of "Mam's", "has" (ha), "month" (a bucket, not a unit asked)
    if len(word) < 2 or word in STOPWORDS or stem(word) in CALENDAR:
        return None
    unit = spelled_unit(word)  # as people write units: "dad" is no deca-day
    if unit is None or "/" in unit:
        return None
    dim = "[currency]" if unit in CURRENCIES else dimension(unit)
    return dim if dim in _ASKED_DIMENSIONS else None


_ASKED_DIMENSIONS = frozenset(
    {"[length]", "[mass]", "[time]", "[temperature]", "[length] ** 3", "[currency]"}
)
"""Dimensions a unit word asks for; a counted noun ("steps") is none."""


_LONG_RE = re.compile(
    r"\bhow\s+long\b(?!\s+(?:ago|since|has\s+it\s+been))|\blongest\b|\bshortest\b"
)
"""Words that ask for a duration or a length ("how long was I out", "longest")."""
_EXTREMES = frozenset({"max", "min"})
_DIMENSION_NAMES = frozenset(
    "duration time length distance dist hours hrs minutes mins elapsed long sleep "
    "km miles metres meters".split()
)
"""Column name words that say what a column without a unit measures."""


def dimension_asked(
    rest: str,
    drafts: list[dict[str, Any]],
    cards: list[TableCard],
    asked_unit: str | None = None,
) -> list[str]:
    """A quantity asked of one kind answered by a column of another.

    Asked by a word ("weight"), a unit ("how many kg") or the unit to answer
    in ("in kg").
    """
    out: list[str] = []
    for d in drafts:
        args = d.get("arguments") or {}
        target = args.get("target_column_expression")
        if d.get("tool") not in (COMPUTE, RANK) or args.get("operator") == "count":
            continue
        card = next((c for c in cards if c.name == args.get("table")), None)
        col = (
            card.column(target)
            if card is not None and isinstance(target, str)
            else None
        )
        if col is None:
            continue
        have = (
            "[currency]"
            if col.unit in CURRENCIES
            else (dimension(col.unit) if col.unit else None)
        )
        ratio = "/" in str(col.unit) or "/" in str(target)
        said = words(rest)
        per = {b for a, b in zip(said, said[1:], strict=False) if a == "per"}
        what = f"{col.unit}" if col.unit else "no unit"
        named = set(words(col.name))
        if (
            asked_unit is not None
            and not ratio
            and (
                not convertible(col.unit, asked_unit)
                or (
                    not col.unit
                    and _unit_dimension(asked_unit) in ("[length]", "[time]")
                    and not named & _DIMENSION_NAMES
                )
            )
        ):
            # "in centimetres" of a count: no figure of it is a length (a
            # price written without its currency may still be asked "in euros")
            out.append(
                f"'in {asked_unit}' (a unit {col.name}, in {what}, cannot be given in)"
            )
            continue
        long = _LONG_RE.search(rest)
        if (
            long is not None
            and have not in ("[length]", "[time]")
            and not ratio
            and not named & _DIMENSION_NAMES
            and (long.group(0).startswith("how") or args.get("operator") in _EXTREMES)
        ):
            out.append(
                f"'{long.group(0)}' (asks for a duration or a length; {col.name} is "
                f"in {what})"
            )
            continue
        for word in said:
            want = _DIMENSION_WORDS.get(word) or (
                None if ratio or word in per else _unit_dimension(word)
            )
            if want == "[currency]" and (
                have is None or ratio or unknown_unit(col.unit)
            ):
                continue  # a price without its currency, per litre, in "kr"
            if want is not None and want != have:
                out.append(
                    f"'{word}' (asks for {_dimension_name(want)}; {col.name} is in "
                    f"{what})"
                )
                break
    return out


_MONTH_WORD_RE = re.compile(
    r"(?:\b(?:in|of|or|and|since|before|after|until|till|between|from|to|during|"
    r"through|last|this|next|early|late|mid|whole|all)|,)\s+(?:early\s+|late\s+|mid-?)?"
    r"(January|February|March|April|May|June|July|August|September|October|"
    r"November|December)\b(?!(?-i:\s+[A-Z]))",
    re.I,
)
"""A month as a period: after a word that opens one ("in May", "April or May"),
not "May I ...", and not the first word of a name ("the March Hare")."""


def months_asked(question: str, drafts: list[dict[str, Any]]) -> list[str]:
    """A month the question names that no step's period covers.

    "Did I walk further in April or May?" read as April alone states April's
    figure as the answer; the May no step covers is reported. Only plans whose
    periods are all dates are checked (an event's day is known only when the
    steps run), and "may" only written as a name ("May").
    """
    named = [
        m.group(1)
        for m in _MONTH_WORD_RE.finditer(question)
        if m.group(1).lower() != "may" or m.group(1) == "May"
    ]
    if not named:
        return []
    covered: set[int] = set()
    for d in drafts:
        for f in (d.get("arguments") or {}).get("optional_column_filters") or []:
            if f.get("column") != "time":
                continue
            value = f.get("value")
            ends = value if isinstance(value, list) else [value]
            if any(not isinstance(v, str) or v.startswith("$") for v in ends):
                return []
            try:
                days = [date.fromisoformat(v[:10]) for v in ends]
            except ValueError:
                return []
            try:
                if f.get("op") == "between" and len(days) == 2:
                    first, last = days
                elif f.get("op") in ("<=", "<"):
                    first, last = date(days[0].year - 1, days[0].month, 1), days[0]
                elif f.get("op") in (">=", ">"):
                    first, last = days[0], date(days[0].year + 1, days[0].month, 1)
                else:
                    first = last = days[0]
            except ValueError:  # year 1 or 9999: every month
                return []
            month = date(first.year, first.month, 1)
            while month <= last and len(covered) < 12:
                covered.add(month.month)
                month = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    if not covered and not any((d.get("arguments") or {}).get("table") for d in drafts):
        return []
    return [
        f"'{name}' (a month no step's period covers)"
        for name in dict.fromkeys(named)
        if MONTH_NUMBERS[name.lower()] not in covered
    ]


__all__ = ["comparison_asked", "dimension_asked", "kind_asked", "months_asked"]
