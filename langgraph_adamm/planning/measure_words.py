"""Words that choose the measure and its aggregate once a table is in view.

"What did I spend" is money out; worse pain is more pain; "how many lengths"
counts lengths, not the minutes of a column named length; money over days with
no operator word adds up; "the total sumatriptan" is its dose. Each rule reads
a column's names or unit against the question's words, so a new phrasing of
the same meaning is a word in one of the lists here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph_adamm.analytic.units import CURRENCIES, dimension, is_volume
from langgraph_adamm.analytic.values import convertible
from langgraph_adamm.planning.context import ColumnCard, TableCard
from langgraph_adamm.planning.intent import Intent, unit_of
from langgraph_adamm.planning.matching import (
    QuestionTokens,
    column_naming,
    higher_is_better,
    naming_score,
)
from langgraph_adamm.planning.text import stem, words

_TIME_STEMS = frozenset(
    {"time", "hour", "minute", "min", "h", "day", "week", "long", "while"}
)
"""Stems that make "spent" a matter of time ("spent the most time reading")."""


def counts_things(unit: str | None) -> bool:
    """Whether a column with this unit counts things ("steps", "loaves", none).

    "How many steps" asks for the steps column's total; "how many naps" names
    the records, and a nap-length column in minutes is no number of naps.
    """
    return unit is None or dimension(unit) == f"[{unit}]"


def names_whole(noun: str, column: str) -> bool:
    """Whether a counted noun names every word of a column ("active minutes")."""
    have = {stem(w) for w in words(noun)}
    return all(stem(w) in have for w in words(column))


def names_a_word(noun: str, column: str) -> bool:
    """Whether a counted noun says a whole word of a column ("items": items_sold).

    "Painkillers" is no word of ``pain``: a column its noun only begins with
    is no quantity of what the question counts.
    """
    have = {stem(w) for w in words(noun)}
    return any(stem(w) in have for w in words(column))


def count_labels(table: TableCard | None, column: ColumnCard) -> set[str]:
    """What a count column counts: the stems its table's counts were written with.

    ``loaded`` written "14 pieces" counts pieces, and so does ``lost`` beside
    it: the things a table's unitless columns count are one kind of thing,
    named by their labels' last words or a plural column name (``pieces``).
    """
    if column.unit is not None or not column.numeric:
        return set()
    out: set[str] = set()
    for c in table.columns if table is not None else [column]:
        if c.unit is not None or not c.numeric:
            continue
        out |= {stem(words(label)[-1]) for label in c.labels if words(label)}
        last = words(c.name)[-1] if words(c.name) else ""
        if len(last) > 3 and last.endswith("s") and not last.endswith("ss"):
            out.add(stem(last))
    return out


def names_unit(noun: str, unit: str | None) -> bool:
    """Whether a counted noun names a unit of the column ("active minutes": min).

    "How many lengths" over a column of minutes named "length" asks for the
    lengths swum, not the minutes: the noun does not say minutes.
    """
    if unit is None:
        return True
    found = [unit_of(w) for w in words(noun)]
    return any(u is not None and convertible(u, unit) for u in found)


_PRICE_RE = re.compile(r"(?:^|_)(?:price|prices|rate|per|unit|each)(?:_|$)")


def substance_amount(unit: str | None) -> bool:
    """Whether a column's unit measures an amount of a substance: a volume or a mass."""
    return is_volume(unit) or dimension(unit) == "[mass]"


def amount_of_money(table: TableCard, target: str) -> bool:
    """Whether a column is an amount of money that adds up (not a price)."""
    column = table.column(target)
    return (
        column is not None
        and column.unit in CURRENCIES
        and not _PRICE_RE.search(target)
    )


def money_over_days(intent: Intent, table: TableCard, target: str) -> bool:
    """Whether a question with no operator word asks the money of days in all.

    "What did I take during the week of the 14th" over takings is the week's
    takings, not its latest record; a price ("the price of flour in March")
    does not add up.
    """
    dr = intent.date_range
    return (
        intent.answer == "value"
        and dr is not None
        and dr.start != dr.end
        and amount_of_money(table, target)
    )


def wants_more(word: str, names: Sequence[str]) -> bool | None:
    """Whether "better"/"best" or "worse"/"worst" asks for more of a measure.

    Worse pain is more pain, a worse score a lower one (by the column's
    names: :func:`~.matching.higher_is_better`); None where the names say
    neither way.
    """
    better = higher_is_better(names)
    return None if better is None else (word in ("better", "best")) == better


def judged_operator(intent: Intent, op: str, target: str) -> str:
    """Max or min as "best"/"worst" ask of this column: the worst pain is the most.

    Where the column's names say which way is better (:func:`wants_more`)
    "best" and "worst" follow it; any other keeps the plain reading (best:
    max).
    """
    word = next((w for o, w in intent.operators if o == op), "")
    if op not in ("max", "min") or word not in ("best", "worst"):
        return op
    more = wants_more(word, [target])
    return op if more is None else ("max" if more else "min")


_BUCKET_RE = re.compile(r"\b(?:which|what|each|per|every|a)\s+(?:day|week|month)s?\b")
"""A calendar word that names a bucket ("which week did I spend the most")."""


def spent_time(text: str) -> bool:
    """Whether "spent" is a matter of time: "spent the most time reading".

    "Which week did I spend the most" spends money: its week is a bucket.
    """
    return bool(set(QuestionTokens.of(_BUCKET_RE.sub(" ", text)).stems) & _TIME_STEMS)


_LONG_WORDS = frozenset("long longer longest short shorter shortest".split())
_EXTENTS = ("[time]", "[length]")


def long_measure(
    said: Sequence[str], numeric: Sequence[ColumnCard], target: str
) -> str:
    """The column "longest"/"shorter" measures: a duration or a length.

    "My longest swim" read as the most lengths (a count) is the swim's
    minutes where the table holds one duration or length and no other; a
    target that is one already, or a table with several, is left as it is.
    """
    if not _LONG_WORDS & set(said):
        return target
    column = next((c for c in numeric if c.name == target), None)
    if column is None or (column.unit and dimension(column.unit) in _EXTENTS):
        return target
    extents = [c for c in numeric if c.unit and dimension(c.unit) in _EXTENTS]
    return extents[0].name if len(extents) == 1 else target


def counted_quantity(
    noun: str, q: QuestionTokens, numeric: list[ColumnCard], table: TableCard
) -> ColumnCard | None:
    """The numeric column a counted noun asks the quantity of, if any.

    "How many steps": the ``steps`` column's total, not the records; "how
    many pieces has Pip lost": what the table's counts count (pieces), in the
    count column the question names by its own word (``lost``). A noun that
    only begins a column's name ("painkillers" for ``pain``) asks no quantity
    of it; a column with a unit is asked for only by a noun that names it
    whole and says its unit ("active minutes").
    """
    said = QuestionTokens.of(noun)
    counting = set(said.stems)
    of_kind = [
        c
        for c in numeric
        if counting & count_labels(table, c) and naming_score(q, c.name) >= 0.5
    ]
    named = of_kind or [c for c in numeric if column_naming(said, c) >= 0.5]
    if not named:
        return None
    col = named[0]
    if counts_things(col.unit) and (
        names_a_word(noun, col.name) or counting & count_labels(table, col)
    ):
        return col
    if names_whole(noun, col.name) and names_unit(noun, col.unit):
        return col
    return None


__all__ = [
    "wants_more",
    "long_measure",
    "count_labels",
    "counted_quantity",
    "counts_things",
    "names_a_word",
    "names_whole",
    "judged_operator",
    "money_over_days",
    "names_unit",
    "spent_time",
    "substance_amount",
]
