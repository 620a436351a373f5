"""A measure over a period an event bounds: "since we moved", "the week before E".

An EventLocate step for each event phrase, then the analytic step bounded by
the day of the event it found (a ``$n.day`` reference). Bounds anchored on an
event use the event's calendar day, as date phrases do: "since/after E" starts
on E's day, "before E" ends the day before it, "until E" on it, "between E1 and
E2" runs from E1's day to E2's day, "the week before E" is the 7 days before
E's day and "the N days/weeks after E" the days after it.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from langgraph_adamm.planning.anchors import (
    ANCHOR_CUE,
    anchor_filters,
    find_anchors,
    has_span,
)
from langgraph_adamm.planning.context import PlanningContext
from langgraph_adamm.planning.forms import ComposedPlan, Form, PartReader
from langgraph_adamm.planning.measure_words import amount_of_money
from langgraph_adamm.planning.rule_planner import RulePlan

_HOW_FAR_RE = re.compile(r"\bhow\s+(?:far|long|much\s+time)\b")


def compose_anchored(
    reader: PartReader,
    question: str,
    q: str,
    now: datetime | date,
    context: PlanningContext,
    out: ComposedPlan,
) -> RulePlan | None:
    """The located events, then the measure bounded by their days."""
    anchors, rest = find_anchors(q)
    if not anchors or has_span(anchors):
        return None
    plan = reader.map_part(rest, now, context)
    if plan.intent.operator is None and _HOW_FAR_RE.search(rest):
        # "how far did I run in the week before ...": the distance in all,
        # as with a period told by dates
        plan = reader.map_part(rest, now, context, operator="sum")
    if plan.analytic is None and plan.intent.operator is None:
        # "what was my pulse the day after ...": the value in that period
        plan = reader.map_part(rest, now, context, operator="latest")
        if _money_of_days(plan, context):
            # "what did I earn before I hurt my hand": the money of those days
            # in all, as with a period told by dates (not its latest record)
            plan = reader.map_part(rest, now, context, operator="sum")
    if plan.analytic is None:
        return None
    reader.check_rest(question, rest, plan, context, out)
    filters: list[dict[str, Any]] = []
    for anchor in anchors:
        first = reader.locate_steps(out, anchor)
        filters += anchor_filters(anchor, first, now)
    call = plan.analytic
    reader.analytic_step(
        out, call, filters, "", f" ({'; '.join(a.text for a in anchors)})"
    )
    out.answer_form, out.answer_column = call.answer, call.answer_column
    out.output_unit = call.output_unit
    out.notes.extend(plan.notes)
    return plan


def _money_of_days(plan: RulePlan, context: PlanningContext) -> bool:
    """Whether a plan takes the latest amount of money (not a price) of a period."""
    call = plan.analytic
    if call is None or call.tool != "compute":
        return False
    if call.arguments.get("operator") != "latest":
        return False
    table = context.table(str(call.arguments.get("table")))
    target = str(call.arguments.get("target_column_expression") or "")
    return table is not None and amount_of_money(table, target)


ANCHORED = Form(
    "a period an event bounds",
    ("measure", "operator", "table", "events", "bound (since/before/window/day)"),
    "How much have I spent on fuel since we moved house?",
    ANCHOR_CUE,
    compose_anchored,
)
"""A measure over the days before, after, between or on located events."""
