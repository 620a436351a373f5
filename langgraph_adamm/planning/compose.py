"""The offline planner's reading of a whole question, by question forms.

A question is read in parts before any part is mapped onto a table. Each kind
of question that needs more than one step is a form of
:mod:`.form_registry` (its slots, cue, example and plan builder beside it):
either of two values, a share of a total, two sides compared, a measure of the
top group, groups ranked, a period an event bounds. The :class:`Composer` tries
them in order, the first that fills its slots reads the question; whatever no
form reads is the single-operator question the rule planner maps (a change in
percent becomes first, latest and a combine).

The composer is what the forms read parts with (:class:`~.forms.PartReader`):
a part mapped onto a table, EventLocate steps for an anchor's events, the
analytic step with more filters, the period words and names a part leaves.
After planning, every word of the question is accounted for
(:mod:`.accounting`): what no step used is returned in ``unresolved``.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime
from typing import Any

from langgraph_adamm.planning.accounting import WordAccount
from langgraph_adamm.planning.anchors import (
    ANCHOR_BUDGET,
    Anchor,
    find_anchors,
)
from langgraph_adamm.planning.comparisons import (
    PERCENT_RE,
)
from langgraph_adamm.planning.context import PlanningContext
from langgraph_adamm.planning.cues import (
    OPERATOR_STEMS,
    measure_words,
    names_in,
    names_table,
    unused_names,
)
from langgraph_adamm.planning.dates import (
    DateRange,
    fix_month_spelling,
    unread_period,
)
from langgraph_adamm.planning.events import frame_named, frame_of, telling_query
from langgraph_adamm.planning.form_registry import FORMS
from langgraph_adamm.planning.forms import ComposedPlan
from langgraph_adamm.planning.kind_words import KindWords, RecordWordsOf
from langgraph_adamm.planning.question_words import is_scaffolding
from langgraph_adamm.planning.rule_planner import (
    AnalyticCall,
    RulePlan,
    RulePlanner,
    read_intent,
)
from langgraph_adamm.planning.text import (
    STOPWORDS,
    fold_accents,
    respell_cues,
    stem,
    words,
)
from langgraph_adamm.tools.names import COMBINE, COMPUTE, EVENT_LOCATE

_TAIL_UNIT_RE = re.compile(
    r"^\s*(?:and\s+)?(?:just\s+)?(?:in|as)\s+(?P<unit>[a-z%$€£]+)"
    r"(?:\s+(?:please|pls|plz|thanks|ta))?\s*[.!?]*\s*$",
    re.I,
)
_TAIL_LABEL_RE = re.compile(
    r"^\s*(?:and\s+)?(?:just\s+|please\s+)?"
    r"(?:(?:give|tell|show|send)(?:\s+me)?\s+|answer\s+with\s+|as\s+|"
    r"i(?:\s+want|'d\s+like|\s+need)\s+)?(?:just\s+)?"
    r"(?:the\s+)?(?:monday|monday's|mondays|week's\s+monday|start|first\s+day|"
    r"date|month|month's\s+name|name\s+of\s+the\s+month)"
    r"(?:'s)?(?:\s+(?:date|of\s+(?:the|that)\s+week))?"
    r"(?:\s+(?:please|pls|plz|thanks))?\s*[.!?]*\s*$",
    re.I,
)


def answer_format_read(question: str) -> str:
    """A question without the sentence after it that says how to answer.

    "Which week did I play most? Give me the Monday's date": a week is
    answered with its Monday's date anyway. "... at the board? in hours pls":
    the unit moves into the question ("..., in hours?"), where it is read.
    Any other second sentence stays.
    """
    head, mark, tail = question.partition("?")
    if not mark or not tail.strip():
        return question
    unit = _TAIL_UNIT_RE.match(tail)
    if unit is not None:
        return f"{head.rstrip()}, in {unit.group('unit')}?"
    if _TAIL_LABEL_RE.match(tail):
        return head + mark
    return question


_PERIOD_POSSESSIVE_RE = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|"
    r"november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"day|week|weekend|month|year|yesterday|today|tonight)['\u2019]s\b",
    re.IGNORECASE,
)


def period_possessives_read(question: str) -> str:
    """Periods named in the possessive read as the periods themselves.

    "March's rent takings and April's", "last week's spending": the period
    is the month or week named ("March rent takings and April").
    """
    return _PERIOD_POSSESSIVE_RE.sub(r"\1", question)


class Composer:
    """Reads a question in parts and composes the steps that answer it."""

    def __init__(
        self, planner: RulePlanner, record_words: RecordWordsOf | None = None
    ) -> None:
        self.planner = planner
        self.accounts = WordAccount(record_words, planner.synonyms)
        self.kinds = KindWords(record_words)
        if planner.kinds is None:
            planner.kinds = self.kinds

    def map_part(
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
        """The plan for a question; the single-operator plan when nothing composes.

        Every word the plan left is then accounted for (:mod:`.accounting`):
        a name the records are about is read as their subject, a content word
        no step used is reported in ``unresolved``.
        """
        question = respell_cues(question, self.kinds.said_in_memory)
        question = period_possessives_read(answer_format_read(question))
        out, plan = self._compose(question, now, context)
        drafts, form, column = out.drafts, out.answer_form, out.answer_column
        if not out.composed and plan.analytic is not None:
            drafts = [
                {"tool": plan.analytic.tool, "arguments": plan.analytic.arguments}
            ]
            form, column = plan.analytic.answer, plan.analytic.answer_column
        if column and drafts:  # the text answered with is a column read too
            last = drafts[-1]
            drafts = drafts[:-1] + [
                dict(last, arguments=dict(last["arguments"], answer_column=column))
            ]
        if drafts:
            self.account(question, drafts, now, context, out, form)
        return out, plan

    def account(
        self,
        question: str,
        drafts: list[dict[str, Any]],
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
        answer_form: str,
    ) -> None:
        """Sort the words ``drafts`` left: subjects, and parts reported unused."""
        form = [
            w
            for d in drafts
            if d.get("tool") == COMBINE
            and str((d.get("arguments") or {}).get("operation", ""))
            in ("percent_change", "share")
            for w in ("percent", "percentage", "share", "proportion")
        ] + out.read
        q = fix_month_spelling(fold_accents(question))
        found = self.accounts.account(q, drafts, now, context, form, answer_form)
        for name in found.subjects:
            out.unresolved = [
                u for u in out.unresolved if not u.startswith(f"'{name}'")
            ]
            out.subjects.append(name)
        said = " ".join(out.unresolved).lower()
        for entry in found.left_out:
            word = entry.split("'")[1]
            if word.lower() not in said:
                out.unresolved.append(entry)

    def _compose(
        self, question: str, now: datetime | date, context: PlanningContext
    ) -> tuple[ComposedPlan, RulePlan]:
        q = " ".join(fix_month_spelling(fold_accents(question)).lower().split())
        out = ComposedPlan(names=names_in(fold_accents(question)))
        composed = None
        for form in FORMS:
            composed = form.read(self, question, q, now, context, out)
            if composed is not None:
                break
        if composed is not None:
            out.composed = True
            return out, composed
        out = ComposedPlan()
        single = self.planner.plan(question, now, context)
        if self._percent_of_change(single, q, out):
            self.check_rest(question, q, single, context, out)
            out.composed, out.form = True, "a change in percent"
            return out, single
        if single.analytic is not None:
            self.check_rest(question, q, single, context, out)
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
            or call.tool != COMPUTE
            or call.arguments.get("operator") != "change"
            or not PERCENT_RE.search(q)
        ):
            return False
        for op in ("first", "latest"):
            self.analytic_step(
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
            {"goal": "percent change from step 1 to step 2", "tool": COMBINE}
        )
        out.drafts.append(
            {
                "tool": COMBINE,
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
    def locate_steps(self, out: ComposedPlan, anchor: Anchor) -> int:
        """EventLocate steps for an anchor's events; the number of the first."""
        first = len(out.drafts) + 1
        for i, event in enumerate(anchor.events):
            frame = frame_named(anchor.frames[i]) if anchor.frames else frame_of(event)
            about = f"the event '{event}'"
            if anchor.frames:  # a stretch: its start, then its end
                about = f"the {'start' if i == 0 else 'end'} of '{event}'"
            goal = f"when: {about}"
            out.plan.append({"goal": goal, "tool": EVENT_LOCATE})
            draft: dict[str, Any] = {
                "tool": EVENT_LOCATE,
                "arguments": {
                    "query_content": telling_query(event, frame),
                    "result_budget": ANCHOR_BUDGET,
                },
                "about": about,
            }
            if frame is not None:
                draft["frame"] = frame.name
            held = set(words(event))
            names = [n for n in out.names if set(words(n.lower())) <= held]
            if names:
                draft["names"] = names
            out.drafts.append(draft)
        return first

    def analytic_step(
        self,
        out: ComposedPlan,
        call: AnalyticCall,
        extra_filters: list[dict[str, Any]],
        about: str,
        goal_suffix: str = "",
    ) -> int:
        """The analytic step of a call with more filters; its step number."""
        args = dict(call.arguments)
        args["optional_column_filters"] = (
            list(args.get("optional_column_filters") or []) + extra_filters
        )
        out.plan.append({"goal": call.goal + goal_suffix, "tool": call.tool})
        out.drafts.append({"tool": call.tool, "arguments": args, "about": about})
        return len(out.drafts)

    def check_rest(
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
                content = [
                    w
                    for w in words(left)
                    if w not in STOPWORDS and stem(w) not in OPERATOR_STEMS
                ]
                # "how much did I study", "did I meditate more": the word the
                # records are called by names the table, whose one number the
                # plan read; what else is said only asks
                table = call.arguments["table"]
                kind = {w for w in content if self.kinds.names_kind(w, table)}
                if kind:
                    content = [
                        w for w in content if w not in kind and not is_scaffolding(w)
                    ]
                elif not content and len(context.table_cards) > 1:
                    # "what was my highest in November?" of several tables
                    out.unresolved.append(
                        "what is measured (the question names no quantity and "
                        f"nothing of {table})"
                    )
                measure = " ".join(content)
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
