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
from langgraph_adamm.planning.cues import names_in
from langgraph_adamm.planning.forms import ComposedPlan, Form, PartReader
from langgraph_adamm.planning.measure_words import amount_of_money
from langgraph_adamm.planning.rule_planner import RulePlan

_HOW_FAR_RE = re.compile(r"\bhow\s+(?:far|long|much\s+time)\b")
_REFERRING_RE = re.compile(r"\b(?:her|his|its|their|she|he|they)\b")
"""A pronoun outside the event phrase: "since Bertha was repaired, her ..."."""


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
    filters += _referred(question, rest, anchors, call.arguments, context)
    reader.analytic_step(
        out, call, filters, "", f" ({'; '.join(a.text for a in anchors)})"
    )
    out.answer_form, out.answer_column = call.answer, call.answer_column
    out.output_unit = call.output_unit
    out.notes.extend(plan.notes)
    return plan


def _referred(
    question: str,
    rest: str,
    anchors: list[Any],
    arguments: dict[str, Any],
    context: PlanningContext,
) -> list[dict[str, Any]]:
    """Filters for a name in an event phrase that a pronoun of the rest refers to.

    "Since Bertha was repaired, what's her average firing time?": Bertha is a
    kiln of the firings read, and "her" says the measure is hers - the event's
    name is the step's value filter too. Only a name a text column of the
    step's table holds, on a column no filter of the step uses yet.
    """
    if not _REFERRING_RE.search(rest):
        return []
    card = context.table(arguments.get("table", ""))
    if card is None:
        return []
    taken = {f.get("column") for f in arguments.get("optional_column_filters") or []}
    events = " ".join(a.text.lower() for a in anchors)
    out: list[dict[str, Any]] = []
    for name in names_in(question):
        if name.lower() not in events:
            continue
        for col in card.columns:
            if col.name in taken or col.numeric:
                continue
            held = [v for v in col.values if v.lower() == name.lower()]
            if held:
                out.append({"column": col.name, "op": "=", "value": held[0]})
                taken.add(col.name)
                break
    return out


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
