"""The share of a total: the part a value of a column names, over the whole.

"What percentage of my fuel money went to Top Oil?", "what share of Dad's
walking distance was on the canal loop?", "what proportion of my market days
were at Marlay?": the question without its share words reads as the part (a
total, or a count where no measure is named, filtered by the value it names);
the whole is the same step without that value's filter; a combine step
computes the part as a percentage of the whole, in code.

A question that names no value of a column has no part to take, and a question
bounded by an event is left to the forms that anchor events: neither composes
here, and what the question asked is reported as before.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from langgraph_adamm.planning.anchors import find_anchors
from langgraph_adamm.planning.context import PlanningContext
from langgraph_adamm.planning.forms import ComposedPlan, Form, PartReader
from langgraph_adamm.planning.rule_planner import RulePlan
from langgraph_adamm.tools.names import COMBINE, COMPUTE

SHARE_RE = re.compile(
    r"\b(?:(?:what|which|how\s+much\s+of\s+a)\s+)?(?:per\s*cent(?:age)?|percent(?:age)?|"
    r"share|proportion|fraction)\s+of\s+(?:the\s+)?(?:total\s+)?"
)
"""The share words; what follows them is the whole, then the part."""
_ASKED_RE = re.compile(r"^(?:what|which|how\s+much\s+of\s+a)\b")


def compose_share(
    composer: PartReader,
    question: str,
    q: str,
    now: datetime | date,
    context: PlanningContext,
    out: ComposedPlan,
) -> RulePlan | None:
    """The part, the whole and the share of one in the other, or None."""
    m = SHARE_RE.search(q)
    if m is None or not _ASKED_RE.match(m.group(0)):
        return None  # "the share price", "a percentage change": no share asked
    if find_anchors(q)[0]:
        return None
    part_text = " ".join(f"how much {q[: m.start()]} {q[m.end() :]}".split())
    plan = composer.map_part(part_text, now, context, operator="sum")
    if plan.analytic is not None and plan.analytic.target_guessed:
        # "what percentage of my walks were on the canal": no measure, records
        plan = composer.map_part(part_text, now, context, operator="count")
    call = plan.analytic
    if call is None or call.tool != COMPUTE:
        return None
    filters = list(call.arguments.get("optional_column_filters") or [])
    named = [
        f for f in filters if f.get("column") != "time" and f.get("op") in ("=", "in")
    ]
    if not named:
        return None
    composer.check_rest(question, part_text, plan, context, out)
    part_args = dict(call.arguments)
    whole_args = dict(
        call.arguments, optional_column_filters=[f for f in filters if f not in named]
    )
    what = "values" if call.arguments.get("operator") == "count" else "total"
    which = ", ".join(f"{f['column']} {f['op']} {f['value']}" for f in named)
    out.plan += [
        {"goal": f"the part: {call.goal} ({which})", "tool": COMPUTE},
        {"goal": f"the whole: the same {what} without {which}", "tool": COMPUTE},
        {"goal": "the part as a percentage of the whole", "tool": COMBINE},
    ]
    out.drafts += [
        {"tool": COMPUTE, "arguments": part_args, "about": ""},
        {"tool": COMPUTE, "arguments": whole_args, "about": ""},
        {
            "tool": COMBINE,
            "arguments": {"operation": "share", "left": "$1", "right": "$2"},
            "about": "",
        },
    ]
    out.answer_form = "value"
    out.notes.extend(plan.notes)
    return plan


__all__ = ["SHARE_RE", "compose_share"]


SHARE = Form(
    "a share of a total",
    ("measure", "operator", "table", "the part's values", "period"),
    "What percentage of my fuel money went to Top Oil?",
    SHARE_RE,
    compose_share,
)
"""The part a named value filters over the same step without it, in percent."""
