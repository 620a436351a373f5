"""Grouped compositions: a grouped Rank or Compute, and a measure of the top group.

"which cafe do I spend the most at in total", "which week did I sleep least on
average", "per week"; and "how much did I spend at the cafe I go to most".
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime
from typing import Any

from langgraph_adamm.analytic.units import CURRENCIES, dimension, is_volume
from langgraph_adamm.planning.anchors import (
    anchor_filters,
    find_anchors,
    has_span,
)
from langgraph_adamm.planning.context import PlanningContext, TableCard
from langgraph_adamm.planning.cues import (
    AVG_CUES,
    COUNT_CUES,
    LEAST_RE,
    MONEY_VERBS,
    MOST_RE,
    SUM_CUES,
    amount_words,
    measure_operator,
)
from langgraph_adamm.planning.dates import find_date_ranges
from langgraph_adamm.planning.forms import (
    ComposedPlan,
    Form,
    PartReader,
    any_of,
)
from langgraph_adamm.planning.rule_planner import RulePlan
from langgraph_adamm.planning.text import stem, words
from langgraph_adamm.tools.names import COMPUTE, RANK

_GROUP_WHICH_RE = re.compile(
    r"\b(?:which|what)\s+(?:(?:was|were|is)\s+(?:the\s+|my\s+)?)?(?P<noun>[a-z]+)"
    r"(?:\s+(?P<noun2>[a-z]+))?"
)
_WHERE_RE = re.compile(r"\s*(?:where|who|whom)\b")
_PLACES = frozenset(
    stem(w)
    for w in "place location spot venue shop store cafe restaurant bar pub market "
    "route trail course track pool gym station stop branch site room park".split()
    # who: the person or business a record was with
    + "payee client customer person friend merchant vendor seller recipient "
    "teacher coach doctor partner who with".split()
)
"""Column words that name where, or with whom, a record happened ("where do I
... most", "who have I paid the most")."""
_GROUP_EACH_RE = re.compile(
    r"\b(?:per|each|every|by|for\s+each)\s+(?P<noun>day|week|month|year|[a-z]+)\b"
)
_SUPERLATIVE_NOUN_RE = re.compile(
    r"\b(?:my|the)\s+(?:most|least)\s+(?:expensive|(?P<chosen>visited|frequent|"
    r"used|popular|common))\s+(?P<noun>[a-z]+)|\b(?:my|the)\s+(?:(?:priciest|"
    r"cheapest|(?P<chosen2>favou?rite|busiest|usual|top|main))\s+(?P<money>(?:"
    r"spending|expense|money)\s+)?|(?:biggest|largest)\s+(?P<money2>(?:spending|"
    r"expense|money)\s+))(?P<noun2>[a-z]+)"
)
_ASKS_WHICH_RE = re.compile(r"^\W*(?:what|which|who)\b(?!.*\bhow\s+(?:many|much)\b)")
"""A question that asks for the group itself ("what's my most common
trigger?"), not a quantity of it ("how much did I spend at my usual cafe").
Only a group chosen by how often or how much in all asks so: "what was the
priciest job" asks the price of one record."""
BUCKETS = {
    "day": "day",
    "date": "day",
    "week": "week",
    "month": "month",
    "year": "year",
}


_TOP_GROUP_RE = re.compile(
    r"\b(?:at|of|on|for|in|from|with)?\s*(?:the|my)\s+(?:[a-z]+\s+)?(?P<noun>(?!(?:where|that|which)\b)[a-z]+)\s+"
    r"(?:(?:where|that|which)\s+)?(?:i|i've|i'm|we|we've|you|you've|he|he's|she|she's|"
    r"they|they've)\b(?P<rel>[^?,]*?)"
    r"\b(?P<sup>most\s+often|most\s+frequently|the\s+most|most|least\s+often|"
    r"the\s+least|least)\b(?:\s+(?:at|to|on|from|in|with))?"
)


_TOP_NOUN_RE = re.compile(
    r"\b(?:my|the|[a-z]+'s)\s+(?P<sup>most\s+(?:frequent|common|usual|regular)|"
    r"usual|regular|favou?rite)\s+(?:[a-z]+ing\s+)?(?P<noun>[a-z]+)\b"
)
"""The top group named as a noun: "Dad's most frequent walking route", "my
usual cafe" (by how many records)."""


def compose_top_group_measure(
    composer: PartReader,
    question: str,
    q: str,
    now: datetime | date,
    context: PlanningContext,
    out: ComposedPlan,
) -> RulePlan | None:
    """The measure over the top group's rows, after the group is ranked.

    "How much have I spent at the shop I go to most often": a grouped Rank,
    then the Compute filtered by its top group (a ``$1.group`` reference).
    """
    m = _TOP_GROUP_RE.search(q) or _TOP_NOUN_RE.search(q)
    if m is None:
        return None
    rel = m.groupdict().get("rel") or ""
    rest = " ".join((q[: m.start()] + " " + q[m.end() :]).split())
    anchors, bare = find_anchors(rest)
    if has_span(anchors):
        return None
    plan = composer.map_part(bare, now, context)
    if plan.analytic is None or plan.analytic.tool != COMPUTE:
        return None
    card = context.table(plan.analytic.arguments["table"])
    if card is None:
        return None
    noun = m.group("noun")
    col = next(
        (
            c
            for c in card.columns
            if c.sql_type == "VARCHAR"
            and stem(noun) in [stem(t) for t in words(c.name)]
        ),
        None,
    )
    if col is None:  # "the place I pay most often": a synonym of a column
        col = composer.planner.column_named(
            noun, [c for c in card.columns if c.sql_type == "VARCHAR"]
        )
    if col is None:
        return None
    money = bool(set(words(rel)) & MONEY_VERBS) or "spent the most" in m.group(0)
    money_cols = [c.name for c in card.columns if c.numeric and c.unit in CURRENCIES]
    op, target = ("sum", money_cols[0]) if money and money_cols else ("count", None)
    extra: list[dict[str, Any]] = []
    for anchor in anchors:
        first = composer.locate_steps(out, anchor)
        extra += anchor_filters(anchor, first, now)
    base_filters = [
        f
        for f in plan.analytic.arguments.get("optional_column_filters") or []
        if f.get("column") != col.name
    ]
    rank_args: dict[str, Any] = {
        "table": card.name,
        "group_by": col.name,
        "operator": op,
        "order": "asc" if "least" in m.group("sup") else "desc",
        "optional_column_filters": base_filters + extra,
        "result_budget": 2,
    }
    if target:
        rank_args["target_column_expression"] = target
    out.plan.append(
        {"goal": f"the {col.name} by {op} of {target or 'rows'}", "tool": RANK}
    )
    out.drafts.append(
        {"tool": RANK, "arguments": rank_args, "about": f"'{m.group(0).strip()}'"}
    )
    group_step = len(out.drafts)
    call = plan.analytic
    composer.analytic_step(
        out,
        dataclasses.replace(
            call,
            arguments=dict(
                call.arguments, optional_column_filters=base_filters + extra
            ),
        ),
        [{"column": col.name, "op": "=", "value": f"${group_step}.group"}],
        "",
        f" (for the {col.name} of step {group_step})",
    )
    out.answer_form, out.output_unit = "value", call.output_unit
    composer.check_rest(question, bare, plan, context, out)
    out.notes.extend(plan.notes)
    return plan


def _without_dates(q: str, now: datetime | date) -> str:
    """A question without its date phrases."""
    for dr in find_date_ranges(q, now):
        q = q.replace(dr.text.lower(), " ")
    return " ".join(q.split())


def _group_column(
    composer: PartReader,
    card: TableCard,
    noun: str,
    which: re.Match[str] | None,
    form: str,
    where: re.Match[str] | None,
    loose: bool = True,
) -> str | None:
    """The column or time bucket a group noun names in a table (None: none)."""
    nouns = [noun] + (
        [which.group("noun2")]
        if form == "group" and which and which.group("noun2")
        else []
    )
    texts = [c for c in card.columns if c.sql_type == "VARCHAR"]
    named = [
        c.name
        for n in nouns
        for c in texts
        if stem(n) in [stem(t) for t in words(c.name)]
    ] + [  # "what time control": a label ``tc`` was written with, whole
        c.name
        for c in texts
        for label in c.labels
        if len(words(label)) > 1
        and [stem(t) for t in words(label)] == [stem(n) for n in nouns]
    ]
    if noun in BUCKETS:
        return BUCKETS[noun]
    if named:
        return named[0]
    if where is not None:
        places = [c.name for c in texts if set(map(stem, words(c.name))) & _PLACES]
        return places[0] if len(places) == 1 else None
    if not loose:
        return None
    col = composer.planner.column_named(noun, texts)
    return col.name if col is not None else None


def compose_grouped(
    composer: PartReader,
    question: str,
    q: str,
    now: datetime | date,
    context: PlanningContext,
    out: ComposedPlan,
) -> RulePlan | None:
    """A grouped Rank or Compute ("which week ... on average", "per month")."""
    which = _GROUP_WHICH_RE.search(q)
    each = _GROUP_EACH_RE.search(q)
    superlative = _SUPERLATIVE_NOUN_RE.search(q)
    anchors, rest = find_anchors(q)
    if has_span(anchors):
        return None
    noun = None
    form = "group"
    by_choice = False
    # "which pool do I go to most (in October)?": most of what is left
    # unsaid, how often
    how_often = re.search(r"\b(?:the\s+)?most\s*[?.!]*$", _without_dates(q, now))
    aggregate = bool(
        SUM_CUES.search(q)
        or AVG_CUES.search(q)
        or COUNT_CUES.search(q)
        or set(words(q)) & MONEY_VERBS
        or amount_words(q)
        or how_often
    )
    # a group chosen by how often or how much in all ("my most common
    # trigger", "my top expense category"), not one record's measure
    chosen = superlative is not None and bool(
        superlative.group("chosen")
        or superlative.group("chosen2")
        or superlative.group("money")
        or superlative.group("money2")
    )
    where = _WHERE_RE.match(q)
    if where is not None and (MOST_RE.search(q) or LEAST_RE.search(q)):
        noun = "place"  # "where do I run most often": the place column
    elif (
        which is not None
        and (MOST_RE.search(q) or LEAST_RE.search(q))
        # "what is my top expense category": the superlative's noun is asked
        and not (
            chosen and superlative is not None and superlative.start() < which.end()
        )
    ):
        noun = which.group("noun")
        if not aggregate and noun not in ("week", "month", "year"):
            # "which cafe made my most caffeinated drink", "which day had the
            # highest X": one record, the Rank of rows as before
            return None
    elif superlative is not None:
        noun = superlative.group("noun") or superlative.group("noun2")
        # "what's my most common trigger": the group, counted ("my top expense
        # category": added up); "what was the total at my main shop" and "what
        # was the priciest job" ask a quantity
        by_choice = bool(
            chosen
            and _ASKS_WHICH_RE.search(q)
            and not SUM_CUES.search(q)
            and not AVG_CUES.search(q)
        )
        form = "group" if by_choice else "value"
    elif (
        each is not None
        and each.group("noun") not in ("day", "night")
        # "per drink" may mean each record; "per week" and "for each cafe"
        # name groups
        and (each.group("noun") in BUCKETS or not each.group(0).startswith("per"))
    ):
        noun = each.group("noun")
        form = "list"
    if noun is None:
        return None
    # the first reading whose table holds the group: "which trail have I
    # walked most often" is no question about the one money table's maximum
    readings: dict[str | None, RulePlan] = {}

    def reading(op: str | None) -> RulePlan:  # mapped once, when first needed
        if op not in readings:
            readings[op] = composer.map_part(
                rest, now, context, values_only=True, operator=op
            )
        return readings[op]

    # a column named so first, then a synonym; the first reading that has one
    # ("which venue paid me the most" is money: never a number of records)
    operators = (None, "sum") if set(words(q)) & MONEY_VERBS else (None, "sum", "count")
    candidates = (
        (plan, card, _group_column(composer, card, noun, which, form, where, loose))
        for loose in (False, True)
        for plan in map(reading, operators)
        if plan.analytic is not None
        for card in [context.table(plan.analytic.arguments["table"])]
        if card is not None
    )
    found = next(((p, c, g) for p, c, g in candidates if g is not None), None)
    if found is None:
        return None
    plan, card, group_by = found
    analytic = plan.analytic
    if analytic is None:
        return None
    target = analytic.arguments.get("target_column_expression")
    column = card.column(target) if target else None
    counted = bool(
        re.search(
            r"\b(?:order|ordered|buy|bought|visit|visited|go|went|drink|drank)\b",
            q,
        )
        or how_often
    ) and not (set(words(q)) & MONEY_VERBS)
    if column is not None and is_volume(column.unit):
        counted = False  # "the week she drank the most milk": a volume
    op = measure_operator(q, column, counted or column is None, card)
    if by_choice:
        # "my most common trigger": how many; "my top expense category", "my
        # top category by amount": how much, where money or the measure is said
        assert superlative is not None
        money = superlative.group("money") or superlative.group("money2")
        said = {stem(w) for w in words(q)}
        named = column is not None and bool(
            {stem(w) for w in words(column.name)} & said
        )
        op = "sum" if column is not None and (money or named) else "count"
        out.read += words(superlative.group(0))
    if (
        op == "avg"
        and noun in BUCKETS
        and column is not None
        and column.unit
        and column.unit not in CURRENCIES
        and dimension(column.unit) == "[time]"
        and not AVG_CUES.search(q)
    ):  # "which week did we rehearse the longest": the week's time in all
        op = "sum"
    filters = [
        f
        for f in analytic.arguments.get("optional_column_filters") or []
        if f.get("column") != group_by
    ]
    extra: list[dict[str, Any]] = []
    for anchor in anchors:
        first = composer.locate_steps(out, anchor)
        extra += anchor_filters(anchor, first, now)
    args: dict[str, Any] = {
        "table": card.name,
        "operator": op,
        "group_by": group_by,
        "optional_column_filters": filters + extra,
    }
    if op != "count" and target:
        args["target_column_expression"] = target
    if form == "list":  # one value per group, in the groups' order
        tool = COMPUTE
    else:  # the top group, and the next one to show a tie
        tool = RANK
        less = LEAST_RE.search(q) and not MOST_RE.search(q)
        args.update(order="asc" if less else "desc", result_budget=2)
    out.plan.append(
        {
            "goal": f"{op} of {target or 'rows'} per {group_by} in {card.name}",
            "tool": tool,
        }
    )
    out.drafts.append({"tool": tool, "arguments": args})
    out.answer_form = form
    composer.check_rest(question, rest, plan, context, out)
    out.notes.extend(plan.notes)
    return plan


TOP_GROUP_MEASURE = Form(
    "a measure of the top group",
    ("group", "how the group is ranked", "measure", "operator", "period", "events"),
    "How much have I spent at the shop I go to most often?",
    any_of(_TOP_GROUP_RE, _TOP_NOUN_RE),
    compose_top_group_measure,
)
"""A grouped Rank, then the measure over its top group's rows ($1.group)."""
GROUPED = Form(
    "groups ranked or listed",
    ("group", "measure", "operator", "order", "period"),
    "Which week did I sleep the least on average?",
    any_of(_GROUP_WHICH_RE, _WHERE_RE, _SUPERLATIVE_NOUN_RE, _GROUP_EACH_RE),
    compose_grouped,
)
"""A grouped Rank (the top or bottom group) or Compute (a value per group)."""
