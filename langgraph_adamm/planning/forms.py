"""Question forms: what each asks for, the slots it fills, and the plan it builds.

A form is a kind of question the offline planner reads as a whole - a share of
a total, two sides compared, a group ranked, a period bounded by an event. Each
declares its slots (what it fills from the question: the measure and its
operator, the table, value filters, periods, events, the group, the answer
column), a cue (a question without it is not of this form), an example, and
the function that fills the slots and builds the plan steps, with step
references, combine and ``group_by``. The forms are tried in the order of
:data:`~langgraph_adamm.planning.form_registry.FORMS`; the first that fills
its slots reads the question. Adding a form is one entry there and its test.

A form's function reads the parts of a question through a :class:`PartReader`
(the composer): it never imports the composer, and the composer knows the
forms only through the registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from langgraph_adamm.planning.anchors import Anchor
from langgraph_adamm.planning.context import PlanningContext
from langgraph_adamm.planning.dates import DateRange
from langgraph_adamm.planning.rule_planner import AnalyticCall, RulePlan, RulePlanner


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
    subjects: list[str] = field(default_factory=list)
    composed: bool = False
    form: str | None = None
    """The name of the form that read the question (None: a single step)."""
    read: list[str] = field(default_factory=list)
    """Words a form read that no step holds ("main" of "who is my main
    client"): accounted for as read."""
    names: list[str] = field(default_factory=list)
    """The question's capitalised names ("Clontarf"): an event step carries
    those its phrase holds, and anchors nowhere if no round holds them."""


class PartReader(Protocol):
    """What a form reads a question's parts with (the composer provides it)."""

    planner: RulePlanner

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
        """The single-operator plan for a part of a question."""
        ...

    def check_rest(
        self,
        question: str,
        rest: str,
        plan: RulePlan,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> None:
        """Report the period words and names a part's plan leaves unused."""
        ...

    def locate_steps(self, out: ComposedPlan, anchor: Anchor) -> int:
        """EventLocate steps for an anchor's events; the number of the first."""
        ...

    def analytic_step(
        self,
        out: ComposedPlan,
        call: AnalyticCall,
        extra_filters: list[dict[str, Any]],
        about: str,
        goal_suffix: str = "",
    ) -> int:
        """The analytic step of a call with more filters; its step number."""
        ...


ComposeForm = Callable[
    [PartReader, str, str, "datetime | date", PlanningContext, ComposedPlan],
    "RulePlan | None",
]
"""(reader, question, normalised question, now, context, out) -> the plan or None."""


def any_of(*patterns: re.Pattern[str]) -> re.Pattern[str]:
    """One cue from several patterns (their group names dropped)."""
    return re.compile(
        "|".join(
            f"(?:{re.sub(r'[(][?]P<[a-z0-9_]+>', '(?:', p.pattern)})" for p in patterns
        )
    )


@dataclass(frozen=True)
class Form:
    """A question form: its slots, its cue, an example, and how it is filled."""

    name: str
    slots: tuple[str, ...]
    """What the form fills from the question, in the words the plan shows."""
    example: str
    """A question of this form, as people ask it."""
    cue: re.Pattern[str]
    """Words a question of this form holds; without them the form is not tried."""
    compose: ComposeForm

    def read(
        self,
        reader: PartReader,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        """The plan when this form reads the question (``out`` filled), else None."""
        if not self.cue.search(q):
            return None
        plan = self.compose(reader, question, q, now, context, out)
        if plan is not None:
            out.form = self.name
        return plan


__all__ = ["ComposeForm", "ComposedPlan", "Form", "PartReader", "any_of"]
