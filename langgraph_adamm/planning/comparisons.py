"""Compositions of two sides compared: one analytic step per side, then a combine.

"more in April than in March", "difference between A and B", "did it go up
from A to B", "higher at X than at Y", "A or B": each side is a period, an
event or a value of a column; the combine step is computed in code.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime, timedelta
from typing import Any

from langgraph_adamm.planning.anchors import (
    PRONOUN_EVENT,
    Anchor,
    anchor_filters,
    find_anchors,
)
from langgraph_adamm.planning.context import ColumnCard, PlanningContext
from langgraph_adamm.planning.cues import (
    AVG_CUES,
    COMPARE_WORDS,
    COUNT_CUES,
    LESS_WORDS,
    SUM_CUES,
    column_of,
    measure_operator,
)
from langgraph_adamm.planning.dates import (
    PHRASE_PROBE_DAY,
    DateRange,
    find_date_range,
    find_date_ranges,
)
from langgraph_adamm.planning.forms import ComposedPlan, Form, PartReader, any_of
from langgraph_adamm.planning.measure_words import wants_more
from langgraph_adamm.planning.rule_planner import RulePlan
from langgraph_adamm.tools.names import COMBINE, COMPUTE, EVENT_LOCATE, RANK

_THAN_RE = re.compile(
    rf"\b(?P<cmp>{COMPARE_WORDS})\b(?P<mid>.*?)\b(?:than|then)\b(?P<b>.*)$"
)
_UP_RE = re.compile(
    r"\b(?:go(?:ne)?|went|gone)\s+up\b|\bincreas\w*|\brise\b|\brose\b|\bgrow\w*|"
    r"\bimprov\w*|\bclimb\w*"
)
_DOWN_RE = re.compile(
    r"\b(?:go(?:ne)?|went)\s+down\b|\bdecreas\w*|\bdrop\w*|\bfall\b|\bfell\b|"
    r"\bdeclin\w*|\bshrank\b|\breduc\w*"
)
PERCENT_RE = re.compile(r"\bper\s*cent(?:age)?\b|\bpercent(?:age)?\b|%")
_FROM_TO_RE = re.compile(r"\bfrom\s+(?P<a>.+?)\s+(?:to|until|till)\s+(?P<b>.+?)$")
_BETWEEN_RE = re.compile(r"\bdifference\b.*?\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)$")
_VS_RE = re.compile(
    r"(?P<a>.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(?P<b>.+?)$"
)
_TIMES_AS_RE = re.compile(
    r"\bhow\s+many\s+times\s+as\s+(?P<q>many|much)\b(?P<mid>.*?)\s+as\s+(?P<b>.+)$"
)
"""A ratio of two sides: "how many times as many fish from A as from B"."""
_TIMES_HEAD_RE = re.compile(r"\bhow\s+many\s+times\s*$")
"""Before a comparative: "how many times more ... than ..." is a ratio too."""
_TIMES_AS_CUE_RE = re.compile(r"\bhow\s+many\s+times\s+as\s+(many|much)\b")
_TIMES_MORE_RE = re.compile(r"\bhow\s+many\s+times\s+more\b")
_SIDE_PREFIX = re.compile(r"^(?:in|during|over|on|at|for|from|between|the|of)\s+")


def _whole_date(side: str, now: datetime | date) -> DateRange | None:
    """The date range a comparison's side is, when the side is a date as a whole.

    A side may be written bare ("March", "the 14th of March", "last week"):
    it is read as it stands, then as "in ..." and "on ...".
    """
    text = _SIDE_PREFIX.sub("", _SIDE_PREFIX.sub("", side.strip()))
    for candidate in (side, "in " + text, "on " + text):
        dr = find_date_range(candidate, now)
        if dr is not None and len(dr.text) >= len(candidate) - 6:
            return dr
    return None


def _period_sides(a: str, b: str) -> tuple[str, str, str]:
    """Two sides cut to their period phrases, and the measure words they held.

    "my total km ridden in July" and "in June" are the periods "in July" and
    "in June" of the measure "my total km ridden".
    """
    inside = []
    sides = []
    for side in (a, b):
        if _whole_date(side, PHRASE_PROBE_DAY) is not None:
            sides.append(side)  # "the 14th of March" as a whole, not "of March"
            continue
        found = find_date_ranges(side, PHRASE_PROBE_DAY, limit=1)
        # a period opening the side bare: "March rent takings" ("in March")
        probe = "in " + _SIDE_PREFIX.sub("", side.strip())
        opening = find_date_ranges(probe, PHRASE_PROBE_DAY, limit=1)
        anchors, rest = find_anchors(side)
        if not found and opening and probe.startswith(opening[0].text):
            inside.append(probe[len(opening[0].text) :])
            sides.append(opening[0].text)
        elif found and found[0].text.strip() != side.strip():
            inside.append(side.replace(found[0].text, " "))
            sides.append(found[0].text)
        elif anchors and anchors[0].text.strip() != side.strip():
            inside.append(rest)
            sides.append(anchors[0].text)
        else:
            sides.append(side)
    return sides[0], sides[1], " ".join(inside)


def _first_side(head: str, mid: str) -> tuple[str, str]:
    """(measure text, side A) of the words between a comparison's cue and its B.

    Side A is the period or event anchor they hold, the rest joins the
    measure; with neither, all of them are side A ("more at Blue Door than at
    Nero", "as many fish from Lough Mask as ...": categorical, read by the
    mapper).
    """
    ranges = find_date_ranges(mid, date(2000, 1, 1))
    anchors, _ = find_anchors(mid)
    side = ranges[0].text if ranges else anchors[0].text if anchors else ""
    if not side:
        return " ".join(head.split()), mid.strip()
    return " ".join((head + " " + mid.replace(side, " ")).split()), side.strip()


def read_sides(q: str) -> tuple[str, str, str, str] | None:
    """(measure text, side A, side B, how) of a comparison, or None."""
    m = _THAN_RE.search(q)
    if m is not None:
        head = q[: m.start()]
        cmp_word = m.group("cmp")
        how = "less" if cmp_word in LESS_WORDS else "greater"
        if re.search(r"\bhow\s+(?:much|many)\s*$", head) or re.search(
            r"\bhow\s+(?:much|many)\s+$", head + " "
        ):
            how = "difference_less" if how == "less" else "difference"
        elif (
            _TIMES_HEAD_RE.search(head)
            and how == "greater"
            and not re.match(r"\s*(?:about\s+|around\s+)?[\d$€£]", m.group("b"))
        ):  # "how many times more than 5 km did I run" is a count
            how = "ratio"
            head = _TIMES_HEAD_RE.sub(" how many ", head)
        measure, side_a = _first_side(head + " " + cmp_word, m.group("mid"))
        return measure, side_a, m.group("b").strip(" ?.!"), how
    m = _TIMES_AS_RE.search(q)
    if m is not None:
        head = q[: m.start()] + " how " + m.group("q")
        measure, side_a = _first_side(head, m.group("mid"))
        return measure, side_a, m.group("b").strip(" ?.!"), "ratio"
    for regex, how in ((_BETWEEN_RE, "difference"), (_VS_RE, "difference")):
        m = regex.search(q)
        if m is not None:
            measure = q[: m.start("a")]
            if regex is _BETWEEN_RE:
                measure = measure.replace("between", " ")
            a, b = m.group("a"), m.group("b").strip(" ?.!")
            a, b, inside = _period_sides(a, b)
            return " ".join((measure + " " + inside).split()), a, b, how
    m = _FROM_TO_RE.search(q)
    if m is not None and (
        _UP_RE.search(q)
        or _DOWN_RE.search(q)
        or PERCENT_RE.search(q)
        or re.search(r"\bchang\w*|\bdifference\b", q)
    ):
        if PERCENT_RE.search(q):
            how = "percent_change"
        elif _UP_RE.search(q) and re.match(r"^(?:did|has|have|was|is|were)\b", q):
            how = "up"
        elif _DOWN_RE.search(q) and re.match(r"^(?:did|has|have|was|is|were)\b", q):
            how = "down"
        else:
            how = "change"
        measure = q[: m.start()]
        a, b, inside = _period_sides(m.group("a"), m.group("b").strip(" ?.!"))
        return " ".join((measure + " " + inside).split()), a, b, how
    return None


def side_filters(
    composer: PartReader, side: str, other: str, now: datetime | date, out: ComposedPlan
) -> list[dict[str, Any]] | None:
    """Filters for one side given as a period or an event anchor; None: neither."""
    dr = _whole_date(side, now)
    if dr is not None:
        if dr.start == date(1, 1, 1):
            return [{"column": "time", "op": "<=", "value": dr.end.isoformat()}]
        return [{"column": "time", "op": "between", "value": dr.filter_value()}]
    anchors, _ = find_anchors(side)
    if not anchors:
        word = re.match(
            r"^(?:ever\s+)?(since|after|before|until)\b\s*(.*)$", side.strip()
        )
        if word is None:
            return None
        event = word.group(2).strip(" ?.!")
        if event in PRONOUN_EVENT:
            others, _ = find_anchors(other)
            if not others:
                return None
            event = others[0].events[0]
        anchors = [
            Anchor(
                "before"
                if word.group(1) == "before"
                else "until"
                if word.group(1) == "until"
                else "since",
                [event],
                side,
            )
        ]
    anchor = anchors[0]
    if anchor.kind == "span":
        return None
    if anchor.events[0] in PRONOUN_EVENT:  # "... than in the week before it"
        others, _ = find_anchors(other)
        if not others or others[0].events[0] in PRONOUN_EVENT:
            return None
        anchor.events = list(others[0].events)
    # one event located once serves both sides ("before vs after the move")
    for i, d in enumerate(out.drafts, 1):
        if (
            d["tool"] == EVENT_LOCATE
            and d["arguments"]["query_content"] in anchor.events
        ):
            if len(anchor.events) == 1:
                return anchor_filters(anchor, i, now)
    first = composer.locate_steps(out, anchor)
    return anchor_filters(anchor, first, now)


def compose_either(
    composer: PartReader,
    question: str,
    q: str,
    now: datetime | date,
    context: PlanningContext,
    out: ComposedPlan,
) -> RulePlan | None:
    """Which of two values of one column wins ("more at A or B?").

    "Did I spend more at Pizza Nostra or Golden Wok", "which have I studied
    more, pharmacology or biochemistry": a grouped Rank over just those two
    values, answered with the winner's name.
    """
    if not re.search(r"\bor\b", q) or not re.search(
        rf"\b(?:{COMPARE_WORDS}|most|least)\b", q
    ):
        return None
    months = _two_months(q, now)
    plan = composer.map_part(
        q, now, context, values_only=True, date_range=None if months else True
    )
    if plan.analytic is None:
        plan = composer.map_part(q, now, context, values_only=True, operator="sum")
    analytic = plan.analytic
    if analytic is None:
        return None
    filters = list(analytic.arguments.get("optional_column_filters") or [])
    pair = [
        f
        for f in filters
        if f.get("op") == "in"
        and isinstance(f.get("value"), list)
        and len(f["value"]) == 2
    ]
    if months is not None:  # "higher in October or November": the two months
        filters = [f for f in filters if f.get("column") != "time"]
        filters.append(
            {
                "column": "time",
                "op": "between",
                "value": [months[0].isoformat(), months[1].isoformat()],
            }
        )
        pair = [{"column": "month", "value": ["the first month", "the second"]}]
    if not pair:
        return None
    card = context.table(analytic.arguments["table"])
    target = analytic.arguments.get("target_column_expression")
    column = card.column(target) if card is not None and target else None
    op = measure_operator(q, column, column is None, card)
    less = bool(re.search(rf"\b(?:{'|'.join(sorted(LESS_WORDS))}|least)\b", q))
    judged = _judged(q, column, op, out)
    if judged is not None:
        less = not judged
    args: dict[str, Any] = {
        "table": analytic.arguments["table"],
        "group_by": pair[0]["column"],
        "operator": op,
        "order": "asc" if less else "desc",
        "optional_column_filters": filters,
        "result_budget": 2,
    }
    if op != "count" and target:
        args["target_column_expression"] = target
    values = " or ".join(str(v) for v in pair[0]["value"])
    out.plan.append({"goal": f"which of {values} by {op}", "tool": RANK})
    out.drafts.append({"tool": RANK, "arguments": args})
    out.answer_form = "group"
    composer.check_rest(
        question, _MONTH_RE.sub(" ", q) if months else q, plan, context, out
    )
    out.notes.extend(plan.notes)
    return plan


_MONTH_RE = re.compile(
    r"(?:\b(?:in|or|and)\s+)?\b(january|february|march|april|may|june|july|august|september|"
    r"october|november|december)\b"
)


def _two_months(q: str, now: datetime | date) -> tuple[date, date] | None:
    """The first and last day of two whole, adjacent months a question names.

    "Was it higher in October or November": grouped by month over just those
    two, the winner is the answer. Months apart would let a month between
    them win, so only adjacent ones.
    """
    if re.search(r"\d", q):
        return None  # "October 2023", "the 3rd of May": read by the sides' dates
    named = [
        m.group(1)
        for m in _MONTH_RE.finditer(q)
        if m.group(1) != "may" or m.group(0) != "may"  # "in/or May", no modal
    ]
    found = [find_date_range(f"in {name}", now) for name in dict.fromkeys(named)]
    ranges = [r for r in found if r is not None]
    if len(ranges) != 2:
        return None
    a, b = sorted(ranges, key=lambda r: r.start)
    for r in (a, b):
        after = r.end + timedelta(days=1)
        if r.start.day != 1 or after.day != 1 or r.start.month != r.end.month:
            return None
    if a.end + timedelta(days=1) != b.start:
        return None
    return a.start, b.end


_JUDGED_RE = re.compile(r"\b(better|worse|best|worst)\b")


def _judged(
    q: str, column: ColumnCard | None, op: str, out: ComposedPlan
) -> bool | None:
    """Whether "better"/"worse" asks for more (None: the question says neither).

    Worse pain is more pain, a worse score a lower one (see
    :func:`~.matching.higher_is_better`). Where the measure does not say which
    way is better (a count, a distance), the word is reported as not
    understood and the side that wins is given with the caveat.
    """
    m = _JUDGED_RE.search(q)
    if m is None:
        return None
    word = m.group(1)
    more = (
        wants_more(word, column.names) if column is not None and op != "count" else None
    )
    if more is None:
        measured = column.name if column is not None else "a count of records"
        out.unresolved.append(
            f"'{word}' (whether more {measured} is better or worse is not known)"
        )
        return None
    return more


def compose_comparison(
    composer: PartReader,
    question: str,
    q: str,
    now: datetime | date,
    context: PlanningContext,
    out: ComposedPlan,
) -> RulePlan | None:
    """One analytic step per side of a comparison, then the combine step."""
    sides = read_sides(q)
    if sides is None:
        return None
    measure, side_a, side_b, how = sides
    if how == "ratio":  # the measure is read as "how much"/"how many" reads it
        q = _TIMES_AS_CUE_RE.sub(r"how \1", _TIMES_MORE_RE.sub("how much more", q))
    whole = measure + " " + side_a + " " + side_b
    probe = composer.map_part(whole, now, context, operator="avg", date_range=None)
    if probe.analytic is None:
        probe = composer.map_part(
            whole, now, context, operator="count", date_range=None
        )
    if probe.analytic is None or probe.analytic.tool != COMPUTE:
        return None
    column = column_of(probe, context)
    counted = column is None or probe.analytic.arguments["operator"] == "count"
    op = measure_operator(
        q,
        column,
        counted and not AVG_CUES.search(q),
        context.table(probe.analytic.arguments["table"]),
    )
    if op == "count" and SUM_CUES.search(measure) and not COUNT_CUES.search(q):
        # "the difference in total sumatriptan": a value's total is its
        # amount (the one mass or volume its records hold), not its records
        summed = composer.map_part(whole, now, context, operator="sum", date_range=None)
        if column_of(summed, context) is not None:
            op = "sum"
        else:
            out.unresolved.append("'total' (no column to add up is named)")
    base = composer.map_part(measure, now, context, operator=op, date_range=None)
    if base.analytic is None:
        base = composer.map_part(
            measure + " " + side_a + " " + side_b,
            now,
            context,
            operator=op,
            date_range=None,
        )
        if base.analytic is None:
            return None
    saved = (list(out.plan), list(out.drafts))
    days = [_whole_date(side, now) for side in (side_a, side_b)]
    if how in ("change", "up", "down") and all(
        d is not None and d.start == d.end for d in days
    ):
        # "how did my score change from the 14th to the 2nd": the change
        # (latest minus first) over that range, one step
        return None
    fa = side_filters(composer, side_a, side_b, now, out)
    fb = side_filters(composer, side_b, side_a, now, out) if fa is not None else None
    base_filters = list(base.analytic.arguments.get("optional_column_filters") or [])
    if fa is None or fb is None:
        out.plan, out.drafts = saved
        # two values of one column: "higher at Blue Door than at Nero"
        both = composer.map_part(
            measure + " " + side_a + " " + side_b, now, context, operator=op
        )
        if both.analytic is None:
            return None
        split = [
            f
            for f in both.analytic.arguments.get("optional_column_filters") or []
            if f.get("op") == "in"
            and isinstance(f.get("value"), list)
            and len(f["value"]) == 2
        ]
        if not split:
            return None
        flt = split[0]
        values = sorted(
            flt["value"],
            key=lambda v: q.find(str(v).lower()) if str(v).lower() in q else 1 << 20,
        )
        base = both
        base_filters = [
            f
            for f in both.analytic.arguments["optional_column_filters"]
            if f is not flt
        ]
        fa = [{"column": flt["column"], "op": "=", "value": values[0]}]
        fb = [{"column": flt["column"], "op": "=", "value": values[1]}]
    call = base.analytic
    assert call is not None
    no_sides = dataclasses.replace(
        call, arguments=dict(call.arguments, optional_column_filters=base_filters)
    )
    if how in ("greater", "less"):
        judged = _judged(q, column_of(base, context), op, out)
        if judged is not None:
            how = "greater" if judged else "less"
    i = composer.analytic_step(out, no_sides, fa, f"'{side_a}'", f" [{side_a}]")
    j = composer.analytic_step(out, no_sides, fb, f"'{side_b}'", f" [{side_b}]")
    operation, left, right = {
        "greater": ("greater", i, j),
        "less": ("less", i, j),
        "difference": ("difference", i, j),
        "difference_less": ("difference", j, i),
        "up": ("greater", j, i),
        "down": ("less", j, i),
        "change": ("difference", j, i),
        "percent_change": ("percent_change", i, j),
        "ratio": ("ratio", i, j),
    }[how]
    out.plan.append(
        {"goal": f"{operation} of steps {left} and {right}", "tool": COMBINE}
    )
    out.drafts.append(
        {
            "tool": COMBINE,
            "arguments": {
                "operation": operation,
                "left": f"${left}",
                "right": f"${right}",
            },
        }
    )
    rest = measure
    composer.check_rest(question, rest, base, context, out)
    out.notes.extend(base.notes)
    measured = call.arguments.get("target_column_expression") or "records"
    out.notes.append(f"compared with {op} of {measured}")
    return base


EITHER = Form(
    "either of two values",
    ("measure", "operator", "table", "column", "the two values", "period"),
    "Did I spend more at Pizza Nostra or Golden Wok overall?",
    re.compile(r"\bor\b"),
    compose_either,
)
"""Which of two values of one column wins: a grouped Rank over just those two."""
COMPARISON = Form(
    "two sides compared",
    ("measure", "operator", "table", "side A", "side B", "how compared"),
    "How much more did I spend on coffee in March than in February?",
    any_of(_THAN_RE, _BETWEEN_RE, _VS_RE, _FROM_TO_RE, _TIMES_AS_RE),
    compose_comparison,
)
"""One step per side (a period, an event or a value), then a combine step."""
