"""The offline planner's compositions: plans whose steps feed each other.

A question is read in parts before any part is mapped onto a table:

- **event anchors** - "since we moved", "between the move and the new job", "in
  the week before the surgery", "the first run after I hurt my knee": an
  EventLocate step for the event phrase, then the analytic step bounded by the
  day of the event it found (a ``$n.day`` reference);
- **two sides compared** - "more in April than in March", "difference between
  A and B", "did it go up from A to B", "higher at X than at Y": one analytic
  step per side and a combine step computed in code;
- **groups** - "which cafe do I spend the most at in total", "which week did I
  sleep least on average", "per week": a grouped Rank or Compute;
- whatever is left is the single-operator question the rule planner maps.

Bounds anchored on an event use the event's calendar day, as date phrases do:
"since/after E" starts on E's day, "before E" ends the day before it, "until E"
on it, "between E1 and E2" runs from E1's day to E2's day, "the week before E"
is the 7 days before E's day and "the N days/weeks after E" the days after it.
Every part the planner could not use is returned in ``unresolved``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from langgraph_adamm.analytic.units import CURRENCIES, is_volume
from langgraph_adamm.planning.anchors import (
    ANCHOR_BUDGET,
    PRONOUN_EVENT,
    Anchor,
    anchor_filters,
    find_anchors,
    has_span,
)
from langgraph_adamm.planning.context import PlanningContext
from langgraph_adamm.planning.cues import (
    AVG_CUES,
    COMPARE_WORDS,
    COUNT_CUES,
    LEAST_RE,
    LESS_WORDS,
    MONEY_VERBS,
    MOST_RE,
    OPERATOR_STEMS,
    SUM_CUES,
    amount_words,
    column_of,
    measure_operator,
    measure_words,
    names_table,
    unused_names,
)
from langgraph_adamm.planning.dates import (
    PHRASE_PROBE_DAY,
    DateRange,
    find_date_range,
    find_date_ranges,
    fix_month_spelling,
    unread_period,
)
from langgraph_adamm.planning.events import frame_named, frame_of, telling_query
from langgraph_adamm.planning.rules import (
    AnalyticCall,
    RulePlan,
    RulePlanner,
    read_intent,
)
from langgraph_adamm.planning.text import STOPWORDS, fold_accents, stem, words

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
_PERCENT_RE = re.compile(r"\bper\s*cent(?:age)?\b|\bpercent(?:age)?\b|%")
_FROM_TO_RE = re.compile(r"\bfrom\s+(?P<a>.+?)\s+(?:to|until|till)\s+(?P<b>.+?)$")
_BETWEEN_RE = re.compile(r"\bdifference\b.*?\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)$")
_VS_RE = re.compile(
    r"(?P<a>.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(?P<b>.+?)$"
)
_SIDE_PREFIX = re.compile(r"^(?:in|during|over|on|at|for|from|between|the|of)\s+")
_GROUP_WHICH_RE = re.compile(
    r"\b(?:which|what)\s+(?:(?:was|were|is)\s+(?:the\s+|my\s+)?)?(?P<noun>[a-z]+)"
    r"(?:\s+(?P<noun2>[a-z]+))?"
)
_WHERE_RE = re.compile(r"\s*where\b")
_HOW_FAR_RE = re.compile(r"\bhow\s+(?:far|long|much\s+time)\b")
_PLACES = frozenset(
    stem(w)
    for w in "place location spot venue shop store cafe restaurant bar pub market "
    "route trail course track pool gym station stop branch site room park".split()
)
"""Column words that name where a record happened ("where do I ... most")."""
_GROUP_EACH_RE = re.compile(
    r"\b(?:per|each|every|by|for\s+each)\s+(?P<noun>day|week|month|year|[a-z]+)\b"
)
_SUPERLATIVE_NOUN_RE = re.compile(
    r"\b(?:my|the)\s+(?:most|least)\s+(?:expensive|visited|frequent|used|"
    r"popular|common)\s+(?P<noun>[a-z]+)|\b(?:my|the)\s+(?:priciest|cheapest|"
    r"favou?rite|busiest|usual)\s+(?P<noun2>[a-z]+)"
)
BUCKETS = {
    "day": "day",
    "date": "day",
    "week": "week",
    "month": "month",
    "year": "year",
}


@dataclass
class ComposedPlan:
    """The offline plan: abstract steps, their drafted calls, and what went unused."""

    plan: list[dict[str, Any]] = field(default_factory=list)
    drafts: list[dict[str, Any]] = field(default_factory=list)
    answer_form: str = "value"
    answer_column: str | None = None
    output_unit: str | None = None
    notes: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    composed: bool = False


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
        anchors, rest = find_anchors(side)
        if found and found[0].text.strip() != side.strip():
            inside.append(side.replace(found[0].text, " "))
            sides.append(found[0].text)
        elif anchors and anchors[0].text.strip() != side.strip():
            inside.append(rest)
            sides.append(anchors[0].text)
        else:
            sides.append(side)
    return sides[0], sides[1], " ".join(inside)


_TOP_GROUP_RE = re.compile(
    r"\b(?:at|of|on|for|in|from|with)?\s*(?:the|my)\s+(?:[a-z]+\s+)?(?P<noun>(?!(?:where|that|which)\b)[a-z]+)\s+"
    r"(?:(?:where|that|which)\s+)?(?:i|i've|i'm|we|we've|you|you've|he|he's|she|she's|"
    r"they|they've)\b(?P<rel>[^?,]*?)"
    r"\b(?P<sup>most\s+often|most\s+frequently|the\s+most|most|least\s+often|"
    r"the\s+least|least)\b(?:\s+(?:at|to|on|from|in|with))?"
)


class Composer:
    """Reads a question in parts and composes the steps that answer it."""

    def __init__(self, planner: RulePlanner) -> None:
        self.planner = planner

    def _map(
        self,
        text: str,
        now: datetime | date,
        context: PlanningContext,
        *,
        operator: str | None = None,
        date_range: DateRange | None | bool = True,
        values_only: bool = False,
    ) -> RulePlan:
        """The rule planner's single-operator plan for (a part of) a question.

        ``values_only``: map the measure, not a "which X" answer (a grouped
        question names its group apart).
        """
        intent = read_intent(text, now)
        changes: dict[str, Any] = {}
        if values_only:
            changes.update(answer="value", which_word=None)
        if date_range is not True:
            changes["date_range"] = date_range
        if operator is not None:
            changes["operator"] = operator
            changes["operators"] = ((operator, operator),)
            if operator != "count":
                changes["count_noun"] = None
        if changes:
            intent = dataclasses.replace(intent, **changes)
        return self.planner.plan_intent(intent, context)

    # -- the entry point -----------------------------------------------------------
    def compose(
        self, question: str, now: datetime | date, context: PlanningContext
    ) -> tuple[ComposedPlan, RulePlan]:
        """The plan for a question; the single-operator plan when nothing composes."""
        q = " ".join(fix_month_spelling(fold_accents(question)).lower().split())
        out = ComposedPlan()
        composed = self._either(question, q, now, context, out)
        if composed is None:
            composed = self._compare(question, q, now, context, out)
        if composed is None:
            composed = self._of_top_group(question, q, now, context, out)
        if composed is None:
            composed = self._group(question, q, now, context, out)
        if composed is None:
            composed = self._anchored(question, q, now, context, out)
        if composed is not None:
            out.composed = True
            return out, composed
        out = ComposedPlan()
        single = self.planner.plan(question, now, context)
        if self._percent_of_change(single, q, out):
            self._check_rest(question, q, single, context, out)
            out.composed = True
            return out, single
        if single.analytic is not None:
            self._check_rest(question, q, single, context, out)
            anchors, _ = find_anchors(q)
            for anchor in anchors:  # an anchor no composition could use
                why = (
                    "a period between two events, not resolved offline"
                    if anchor.kind == "span"
                    else "not used"
                )
                out.unresolved.append(f"'{anchor.text.strip()}' ({why})")
        return out, single

    # -- a change in percent -------------------------------------------------------
    def _percent_of_change(self, single: RulePlan, q: str, out: ComposedPlan) -> bool:
        """A change asked in percent: the first value, the latest, and a combine.

        "By what percent has X gone up since the first weigh-in?"

        The change operator gives latest minus first in the column's unit; asked
        in percent, the first and latest values are two steps and the combine
        step computes the percentage change from one to the other.
        """
        call = single.analytic
        if (
            call is None
            or call.tool != "compute"
            or call.arguments.get("operator") != "change"
            or not _PERCENT_RE.search(q)
        ):
            return False
        for op in ("first", "latest"):
            self._analytic_step(
                out,
                dataclasses.replace(
                    call,
                    goal=call.goal.replace("change", op, 1),
                    arguments=dict(call.arguments, operator=op),
                ),
                [],
                "",
            )
        out.plan.append(
            {"goal": "percent change from step 1 to step 2", "tool": "combine"}
        )
        out.drafts.append(
            {
                "tool": "combine",
                "arguments": {
                    "operation": "percent_change",
                    "left": "$1",
                    "right": "$2",
                },
            }
        )
        out.notes.extend(single.notes)
        return True

    # -- anchored --------------------------------------------------------------------
    def _locate_steps(self, out: ComposedPlan, anchor: Anchor) -> int:
        first = len(out.drafts) + 1
        for i, event in enumerate(anchor.events):
            frame = frame_named(anchor.frames[i]) if anchor.frames else frame_of(event)
            about = f"the event '{event}'"
            if anchor.frames:  # a stretch: its start, then its end
                about = f"the {'start' if i == 0 else 'end'} of '{event}'"
            goal = f"when: {about}"
            out.plan.append({"goal": goal, "tool": "event_locate"})
            draft: dict[str, Any] = {
                "tool": "event_locate",
                "arguments": {
                    "query_content": telling_query(event, frame),
                    "result_budget": ANCHOR_BUDGET,
                },
                "about": about,
            }
            if frame is not None:
                draft["frame"] = frame.name
            out.drafts.append(draft)
        return first

    def _analytic_step(
        self,
        out: ComposedPlan,
        call: AnalyticCall,
        extra_filters: list[dict[str, Any]],
        about: str,
        goal_suffix: str = "",
    ) -> int:
        args = dict(call.arguments)
        args["optional_column_filters"] = (
            list(args.get("optional_column_filters") or []) + extra_filters
        )
        out.plan.append({"goal": call.goal + goal_suffix, "tool": call.tool})
        out.drafts.append({"tool": call.tool, "arguments": args, "about": about})
        return len(out.drafts)

    def _anchored(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        anchors, rest = find_anchors(q)
        if not anchors or has_span(anchors):
            return None
        plan = self._map(rest, now, context)
        if plan.intent.operator is None and _HOW_FAR_RE.search(rest):
            # "how far did I run in the week before ...": the distance in all,
            # as with a period told by dates
            plan = self._map(rest, now, context, operator="sum")
        if plan.analytic is None and plan.intent.operator is None:
            # "what was my pulse the day after ...": the value in that period
            plan = self._map(rest, now, context, operator="latest")
        if plan.analytic is None:
            return None
        self._check_rest(question, rest, plan, context, out)
        filters: list[dict[str, Any]] = []
        for anchor in anchors:
            first = self._locate_steps(out, anchor)
            filters += anchor_filters(anchor, first, now)
        call = plan.analytic
        self._analytic_step(
            out, call, filters, "", f" ({'; '.join(a.text for a in anchors)})"
        )
        out.answer_form, out.answer_column = call.answer, call.answer_column
        out.output_unit = call.output_unit
        out.notes.extend(plan.notes)
        return plan

    def _check_rest(
        self,
        question: str,
        rest: str,
        plan: RulePlan,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> None:
        """Report the period words and names the plan leaves unused."""
        left = rest
        for anchor in find_anchors(question.lower())[0]:
            question = re.sub(re.escape(anchor.text.strip()), " ", question, flags=re.I)
        if plan.intent.date_range is not None:
            left = left.replace(plan.intent.date_range.text.lower(), " ")
        call = plan.analytic
        if (
            call is not None
            and call.target_guessed
            and call.arguments.get("operator") != "count"
        ):
            measure = measure_words(left, call.arguments["table"], context)
            if not measure and not names_table(left, question, call, context):
                measure = " ".join(
                    w
                    for w in words(left)
                    if w not in STOPWORDS and stem(w) not in OPERATOR_STEMS
                )
            if measure:
                out.unresolved.append(
                    f"the quantity '{measure}' (no column of "
                    f"{call.arguments['table']} is named so)"
                )
        period = unread_period(left)
        if period is not None:
            out.unresolved.append(f"the period '{period}' (not understood)")
        for name in unused_names(question, plan, context):
            if f"'{name}'" not in " ".join(out.unresolved):
                out.unresolved.append(
                    f"'{name}' (no column value of the table matches it)"
                )

    # -- compared ------------------------------------------------------------------
    def _sides(self, q: str) -> tuple[str, str, str, str] | None:
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
            mid, b = m.group("mid"), m.group("b")
            ranges = find_date_ranges(mid, date(2000, 1, 1))
            anchors, _ = find_anchors(mid)
            side_a = ""
            if ranges:
                side_a = ranges[0].text
            elif anchors:
                side_a = anchors[0].text
            measure = head + " " + cmp_word + " " + mid.replace(side_a, " ")
            if not side_a:
                # "more at Blue Door than at Nero": categorical, read by the mapper
                side_a = mid
                measure = head + " " + cmp_word
            return " ".join(measure.split()), side_a.strip(), b.strip(" ?.!"), how
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
            or _PERCENT_RE.search(q)
            or re.search(r"\bchang\w*|\bdifference\b", q)
        ):
            if _PERCENT_RE.search(q):
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

    def _side_filters(
        self, side: str, other: str, now: datetime | date, out: ComposedPlan
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
                d["tool"] == "event_locate"
                and d["arguments"]["query_content"] in anchor.events
            ):
                if len(anchor.events) == 1:
                    return anchor_filters(anchor, i, now)
        first = self._locate_steps(out, anchor)
        return anchor_filters(anchor, first, now)

    def _either(
        self,
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
        plan = self._map(q, now, context, values_only=True)
        if plan.analytic is None:
            plan = self._map(q, now, context, values_only=True, operator="sum")
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
        if not pair:
            return None
        card = context.table(analytic.arguments["table"])
        target = analytic.arguments.get("target_column_expression")
        column = card.column(target) if card is not None and target else None
        op = measure_operator(q, column, column is None)
        less = bool(re.search(rf"\b(?:{'|'.join(sorted(LESS_WORDS))}|least)\b", q))
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
        out.plan.append({"goal": f"which of {values} by {op}", "tool": "rank"})
        out.drafts.append({"tool": "rank", "arguments": args})
        out.answer_form = "group"
        self._check_rest(question, q, plan, context, out)
        out.notes.extend(plan.notes)
        return plan

    def _compare(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        sides = self._sides(q)
        if sides is None:
            return None
        measure, side_a, side_b, how = sides
        whole = measure + " " + side_a + " " + side_b
        probe = self._map(whole, now, context, operator="avg", date_range=None)
        if probe.analytic is None:
            probe = self._map(whole, now, context, operator="count", date_range=None)
        if probe.analytic is None or probe.analytic.tool != "compute":
            return None
        column = column_of(probe, context)
        counted = column is None or probe.analytic.arguments["operator"] == "count"
        op = measure_operator(q, column, counted and not AVG_CUES.search(q))
        base = self._map(measure, now, context, operator=op, date_range=None)
        if base.analytic is None:
            base = self._map(
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
        fa = self._side_filters(side_a, side_b, now, out)
        fb = self._side_filters(side_b, side_a, now, out) if fa is not None else None
        base_filters = list(
            base.analytic.arguments.get("optional_column_filters") or []
        )
        if fa is None or fb is None:
            out.plan, out.drafts = saved
            # two values of one column: "higher at Blue Door than at Nero"
            both = self._map(
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
                key=lambda v: (
                    q.find(str(v).lower()) if str(v).lower() in q else 1 << 20
                ),
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
        i = self._analytic_step(out, no_sides, fa, f"'{side_a}'", f" [{side_a}]")
        j = self._analytic_step(out, no_sides, fb, f"'{side_b}'", f" [{side_b}]")
        operation, left, right = {
            "greater": ("greater", i, j),
            "less": ("less", i, j),
            "difference": ("difference", i, j),
            "difference_less": ("difference", j, i),
            "up": ("greater", j, i),
            "down": ("less", j, i),
            "change": ("difference", j, i),
            "percent_change": ("percent_change", i, j),
        }[how]
        out.plan.append(
            {"goal": f"{operation} of steps {left} and {right}", "tool": "combine"}
        )
        out.drafts.append(
            {
                "tool": "combine",
                "arguments": {
                    "operation": operation,
                    "left": f"${left}",
                    "right": f"${right}",
                },
            }
        )
        rest = measure
        self._check_rest(question, rest, base, context, out)
        out.notes.extend(base.notes)
        measured = call.arguments.get("target_column_expression") or "records"
        out.notes.append(f"compared with {op} of {measured}")
        return base

    # -- a measure of the top group ------------------------------------------------
    def _of_top_group(
        self,
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
        m = _TOP_GROUP_RE.search(q)
        if m is None:
            return None
        rest = " ".join((q[: m.start()] + " " + q[m.end() :]).split())
        anchors, bare = find_anchors(rest)
        if has_span(anchors):
            return None
        plan = self._map(bare, now, context)
        if plan.analytic is None or plan.analytic.tool != "compute":
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
            col = self.planner.column_named(
                noun, [c for c in card.columns if c.sql_type == "VARCHAR"]
            )
        if col is None:
            return None
        rel = m.group("rel")
        money = bool(set(words(rel)) & MONEY_VERBS) or "spent the most" in m.group(0)
        money_cols = [
            c.name for c in card.columns if c.numeric and c.unit in CURRENCIES
        ]
        op, target = ("sum", money_cols[0]) if money and money_cols else ("count", None)
        extra: list[dict[str, Any]] = []
        for anchor in anchors:
            first = self._locate_steps(out, anchor)
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
            {"goal": f"the {col.name} by {op} of {target or 'rows'}", "tool": "rank"}
        )
        out.drafts.append(
            {"tool": "rank", "arguments": rank_args, "about": f"'{m.group(0).strip()}'"}
        )
        group_step = len(out.drafts)
        call = plan.analytic
        self._analytic_step(
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
        self._check_rest(question, bare, plan, context, out)
        out.notes.extend(plan.notes)
        return plan

    # -- grouped ---------------------------------------------------------------------
    def _group(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        which = _GROUP_WHICH_RE.search(q)
        each = _GROUP_EACH_RE.search(q)
        superlative = _SUPERLATIVE_NOUN_RE.search(q)
        anchors, rest = find_anchors(q)
        if has_span(anchors):
            return None
        noun = None
        form = "group"
        aggregate = bool(
            SUM_CUES.search(q)
            or AVG_CUES.search(q)
            or COUNT_CUES.search(q)
            or set(words(q)) & MONEY_VERBS
            or amount_words(q)
        )
        where = _WHERE_RE.match(q)
        if where is not None and (MOST_RE.search(q) or LEAST_RE.search(q)):
            noun = "place"  # "where do I run most often": the place column
        elif which is not None and (MOST_RE.search(q) or LEAST_RE.search(q)):
            noun = which.group("noun")
            if not aggregate and noun not in ("week", "month", "year"):
                # "which cafe made my most caffeinated drink", "which day had the
                # highest X": one record, the Rank of rows as before
                return None
        elif superlative is not None:
            noun = superlative.group("noun") or superlative.group("noun2")
            form = "value"
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
        plan = self._map(rest, now, context, values_only=True)
        if plan.analytic is None:
            plan = self._map(rest, now, context, values_only=True, operator="sum")
        if plan.analytic is None:
            plan = self._map(rest, now, context, values_only=True, operator="count")
        analytic = plan.analytic
        if analytic is None:
            return None
        card = context.table(analytic.arguments["table"])
        if card is None:
            return None
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
        ]
        if noun in BUCKETS:
            group_by = BUCKETS[noun]
        elif named:
            group_by = named[0]
        elif where is not None:
            places = [c.name for c in texts if set(map(stem, words(c.name))) & _PLACES]
            if len(places) != 1:
                return None
            group_by = places[0]
        else:
            col = self.planner.column_named(noun, texts)
            if col is None:
                return None
            group_by = col.name
        target = analytic.arguments.get("target_column_expression")
        column = card.column(target) if target else None
        counted = bool(
            re.search(
                r"\b(?:order|ordered|buy|bought|visit|visited|go|went|drink|drank)\b",
                q,
            )
        ) and not (set(words(q)) & MONEY_VERBS)
        if column is not None and is_volume(column.unit):
            counted = False  # "the week she drank the most milk": a volume
        op = measure_operator(q, column, counted or column is None)
        filters = [
            f
            for f in analytic.arguments.get("optional_column_filters") or []
            if f.get("column") != group_by
        ]
        extra: list[dict[str, Any]] = []
        for anchor in anchors:
            first = self._locate_steps(out, anchor)
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
            tool = "compute"
        else:  # the top group, and the next one to show a tie
            tool = "rank"
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
        self._check_rest(question, rest, plan, context, out)
        out.notes.extend(plan.notes)
        return plan
