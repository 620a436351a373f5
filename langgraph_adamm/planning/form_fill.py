"""A model fills a question form; the form builds the plan in code.

A small model writes free-form plans badly (it drops the event a period is
bounded by, it does the arithmetic itself) but fills a small, fixed form
well. Where the rules could not read a question whole, the model is asked for
a :class:`FormFill`: which form the question is (a value over records, two
sides compared, the top or bottom group, a share of a total, or not about the
records at all) and its slots - table, measure and operator, value filters,
a period, an event that bounds the period, a group, the second side. Every
slot names the span of the question it came from.

:func:`build_filled` checks the slots against the catalogue and builds the
same steps the rules' forms build (step references, ``combine``,
``group_by``):

* a table, column or group the catalogue does not hold is an error the model
  is shown once to repair (:class:`FillErrors`);
* a filter value no row of its column holds is *not* repaired - the model
  would swap in a value the question did not ask for - but reported, and the
  answer gives no number;
* a span the question does not hold, or a filter's span that does not name
  its value (a word of the value in it), is reported, and so is every content
  word no slot used (the planner's word accounting,
  :mod:`langgraph_adamm.planning.accounting`, run over the built steps with
  the period and event spans set aside).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

from pydantic import Field

from langgraph_adamm.planning.accounting import said_parts
from langgraph_adamm.planning.anchors import Anchor, anchor_filters, find_anchors
from langgraph_adamm.planning.context import ColumnCard, PlanningContext, TableCard
from langgraph_adamm.planning.cues import names_in
from langgraph_adamm.planning.dates import find_date_ranges
from langgraph_adamm.planning.forms import ComposedPlan
from langgraph_adamm.planning.text import STOPWORDS, fold_accents, words
from langgraph_adamm.schemas import WireModel
from langgraph_adamm.tools.names import COMBINE, COMPUTE, RANK, SEMANTIC_MATCH

FormName = Literal["value", "compare", "top_group", "share", "not_records"]
Operator = Literal["sum", "avg", "count", "min", "max", "median", "latest", "first"]
Combine = Literal["difference", "ratio", "percent_change", "greater", "less"]
GROUP_BUCKETS = ("day", "week", "month", "year")
"""Groups by the time column, as ``group_by`` takes them."""
CATALOGUE_TABLES = 4
"""Tables the prompt shows, best first by the planning context's scores."""
CATALOGUE_VALUES = 8
"""Values the prompt shows of a text column, most frequent first."""


class SlotFilter(WireModel):
    """A condition on a text column: ``column = value``."""

    column: str = Field(max_length=100)
    value: str = Field(max_length=200)
    span: str = Field(max_length=200, description="the question's words for it")


class SlotPeriod(WireModel):
    """A period by its first and last day."""

    start: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    end: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    span: str = Field(max_length=200, description="the question's words for it")


class SlotEvent(WireModel):
    """An event that bounds the period: "since I moved", "before the trip"."""

    relation: Literal["since", "before", "on"]
    event: str = Field(min_length=1, max_length=200, description="the event itself")
    span: str = Field(max_length=200, description="the question's words for it")


class SlotSide(WireModel):
    """The second side of a comparison: what differs from the first."""

    filter: SlotFilter | None = None
    period: SlotPeriod | None = None


class FormFill(WireModel):
    """The question's form and its slots, each with the span it came from."""

    form: FormName
    table: str | None = Field(default=None, max_length=100)
    operator: Operator | None = None
    measure: str | None = Field(
        default=None, max_length=100, description="the column measured (not count)"
    )
    measure_span: str | None = Field(default=None, max_length=200)
    filters: list[SlotFilter] = Field(default_factory=list, max_length=4)
    period: SlotPeriod | None = None
    event: SlotEvent | None = None
    group: str | None = Field(
        default=None, max_length=100, description="a column, or day/week/month/year"
    )
    group_span: str | None = Field(default=None, max_length=200)
    bottom: bool = Field(default=False, description="top_group: the lowest group")
    other: SlotSide | None = Field(default=None, description="compare: side two")
    combine: Combine | None = Field(default=None, description="compare: how")
    part: SlotFilter | None = Field(default=None, description="share: the part")


class FillErrors(Exception):
    """Slots naming what the catalogue does not hold (shown to the model)."""

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = list(errors)


@dataclass
class FilledPlan:
    """The steps a filled form builds, and what of the question it left."""

    composed: ComposedPlan
    spans: list[str] = field(default_factory=list)
    """The period and event spans, set aside before the words are accounted."""


def catalogue_text(context: PlanningContext, limit: int = CATALOGUE_TABLES) -> str:
    """The tables a model may name: columns with units, text columns' values."""
    cards = [card for card, _ in context.tables][:limit] or list(
        context.table_cards[:limit]
    )
    lines = []
    for card in cards:
        lines.append(f"table {card.name} ({card.rows} rows): {card.description}")
        for col in card.columns:
            if col.name in ("source", "order"):
                continue
            unit = f" [{col.unit}]" if col.unit else ""
            values = ""
            if col.values:
                shown = ", ".join(col.values[:CATALOGUE_VALUES])
                more = " ..." if len(col.values) > CATALOGUE_VALUES else ""
                values = f" values: {shown}{more}"
            lines.append(f"  - {col.name}: {col.sql_type}{unit}{values}")
    return "\n".join(lines)


def _value_held(col: ColumnCard, value: str) -> str | None:
    """The column's own spelling of ``value`` (None: no row holds it)."""
    wanted = " ".join(value.lower().split())
    for held in col.values:
        if " ".join(held.lower().split()) == wanted:
            return held
    return None


def _names(span: str, value: str) -> bool:
    """Whether a span names a value: a word of the value stands in it.

    "on Corrib trips" names "Lough Corrib"; "after Mum went home" names no
    client, whatever the model filled in.
    """
    said = set(words(span.lower()))
    return any(w in said for w in words(value.lower()) if w not in STOPWORDS)


def _in_question(span: str | None, question: str) -> bool:
    if not span:
        return False
    folded = " ".join(question.lower().split())
    return " ".join(span.lower().split()) in folded


class _Build:
    """One filled form's checks and steps."""

    def __init__(
        self,
        fill: FormFill,
        question: str,
        now: datetime | date,
        context: PlanningContext,
    ) -> None:
        self.fill = fill
        self.question = question
        self.now = now
        self.context = context
        self.errors: list[str] = []
        self.out = ComposedPlan(
            composed=True,
            form=f"model: {fill.form}",
            names=names_in(fold_accents(question)),
        )
        self.spans: list[str] = []

    # -- checks ------------------------------------------------------------------
    def table(self) -> TableCard | None:
        name = self.fill.table
        card = self.context.table(name) if name else None
        if card is None:
            known = ", ".join(c.name for c in self.context.table_cards[:12])
            self.errors.append(f"table {name!r} does not exist (tables: {known})")
        return card

    def column(self, card: TableCard, name: str | None, role: str) -> ColumnCard | None:
        col = card.column(name) if name else None
        if col is None:
            cols = ", ".join(c.name for c in card.columns if c.name != "source")
            self.errors.append(
                f"{role} {name!r} is no column of {card.name} (columns: {cols})"
            )
        return col

    def span(self, span: str | None, what: str) -> bool:
        if _in_question(span, self.question):
            return True
        self.out.unresolved.append(
            f"{what} (the model read it from '{span or ''}', which the question "
            "does not say)"
        )
        return False

    def value_filter(self, card: TableCard, slot: SlotFilter) -> dict[str, Any] | None:
        col = self.column(card, slot.column, "filter column")
        if col is None:
            return None
        said = f"the condition {slot.column} = {slot.value!r}"
        if not self.span(slot.span, said):
            return None
        if not _names(slot.span, slot.value):
            self.out.unresolved.append(
                f"{said} (the model read it from '{slot.span}', which does not name it)"
            )
            return None
        held = _value_held(col, slot.value)
        if held is None:
            self.out.unresolved.append(
                f"'{slot.span or slot.value}' (no row of {card.name}.{col.name} "
                f"holds {slot.value!r})"
            )
            return None
        return {"column": col.name, "op": "=", "value": held}

    def period_filter(self, slot: SlotPeriod) -> dict[str, Any] | None:
        try:
            start, end = date.fromisoformat(slot.start), date.fromisoformat(slot.end)
        except ValueError as exc:
            self.errors.append(f"period: {exc}")
            return None
        if end < start:
            self.errors.append(f"period: {slot.end} is before {slot.start}")
            return None
        said = f"the period {slot.start}..{slot.end}"
        if not self.span(slot.span, said):
            return None
        read = find_date_ranges(slot.span, self.now)
        if read and (read[0].start, read[0].end) != (start, end):
            self.out.unresolved.append(
                f"{said} (the model read it from '{slot.span}', which says "
                f"{read[0].start}..{read[0].end})"
            )
            return None
        self.spans.append(slot.span)
        return {"column": "time", "op": "between", "value": [slot.start, slot.end]}

    # -- steps -------------------------------------------------------------------
    def event_filters(self, composer: Any) -> list[dict[str, Any]]:
        slot = self.fill.event
        if slot is None:
            return []
        said = f"the event {slot.event!r}"
        if not self.span(slot.span, said):
            return []
        kind = {"since": "since", "before": "before", "on": "day"}[slot.relation]
        told = find_anchors(" ".join(slot.span.lower().split()))[0]
        if told and told[0].kind != kind and kind != "day":
            self.out.unresolved.append(
                f"{said} (the model read '{slot.relation}', but '{slot.span}' says "
                f"{told[0].kind})"
            )
            return []
        self.spans.append(slot.span)
        anchor = Anchor(kind=kind, events=[slot.event], text=slot.span)
        first = composer.locate_steps(self.out, anchor)
        return anchor_filters(anchor, first, self.now)

    def operator(self) -> str:
        """The form's operator: a count without a measure, else a sum by default."""
        fill = self.fill
        return fill.operator or ("count" if fill.measure is None else "sum")

    def measure_step(
        self,
        card: TableCard,
        filters: list[dict[str, Any]],
        about: str,
    ) -> int:
        fill, operator = self.fill, self.operator()
        args: dict[str, Any] = {
            "table": card.name,
            "operator": operator,
            "optional_column_filters": filters,
        }
        if operator != "count":
            col = self.column(card, fill.measure, "measure")
            textual = operator in ("latest", "first")  # a text value may be asked
            if col is not None and not col.numeric and not textual:
                self.errors.append(
                    f"measure {col.name!r} is not a number; {operator} needs one"
                )
            if col is not None:
                args["target_column_expression"] = col.name
                if fill.measure_span:
                    self.span(fill.measure_span, f"the measure {col.name}")
        what = args.get("target_column_expression") or "records"
        self.out.plan.append(
            {"goal": f"{operator} of {what} in {card.name}{about}", "tool": COMPUTE}
        )
        self.out.drafts.append({"tool": COMPUTE, "arguments": args, "about": about})
        return len(self.out.drafts)

    def build(self, composer: Any) -> None:
        fill = self.fill
        if fill.form == "not_records":
            self.out.plan.append(
                {"goal": "recall memories about the question", "tool": SEMANTIC_MATCH}
            )
            self.out.drafts.append(
                {
                    "tool": SEMANTIC_MATCH,
                    "arguments": {"query_content": self.question, "result_budget": 10},
                }
            )
            return
        card = self.table()
        if card is None:
            return
        filters = [f for f in (self.value_filter(card, s) for s in fill.filters) if f]
        if fill.period is not None:
            period = self.period_filter(fill.period)
            if period is not None:
                filters.append(period)
        filters += self.event_filters(composer)
        if fill.form == "value":
            self.measure_step(card, filters, "")
        elif fill.form == "top_group":
            self.group_step(card, filters)
        elif fill.form == "compare":
            self.compare_steps(card, filters)
        elif fill.form == "share":
            self.share_steps(card, filters)

    def group_step(self, card: TableCard, filters: list[dict[str, Any]]) -> None:
        fill = self.fill
        group = fill.group
        if group not in GROUP_BUCKETS:
            col = self.column(card, group, "group")
            if col is None:
                return
        if fill.group_span:
            self.span(fill.group_span, f"the group {group}")
        operator = self.operator()
        if operator in ("latest", "first"):
            self.errors.append(
                f"top_group ranks groups by sum, avg, count, min, max or median, "
                f"not {operator}"
            )
            return
        args: dict[str, Any] = {
            "table": card.name,
            "operator": operator,
            "order": "asc" if fill.bottom else "desc",
            "group_by": group,
            "optional_column_filters": filters,
            "result_budget": 2,
        }
        if args["operator"] != "count":
            col = self.column(card, fill.measure, "measure")
            if col is not None:
                args["target_column_expression"] = col.name
        self.out.plan.append(
            {
                "goal": f"{args['operator']} per {group} in {card.name}",
                "tool": RANK,
            }
        )
        self.out.drafts.append({"tool": RANK, "arguments": args})
        self.out.answer_form = "group"

    def compare_steps(self, card: TableCard, filters: list[dict[str, Any]]) -> None:
        fill = self.fill
        other = fill.other
        if other is None or (other.filter is None and other.period is None):
            self.errors.append("compare: 'other' must give side two's filter or period")
            return
        second = list(filters)
        if other.filter is not None:
            swapped = self.value_filter(card, other.filter)
            if swapped is None:
                return
            second = [f for f in second if f["column"] != swapped["column"]] + [swapped]
        if other.period is not None:
            period = self.period_filter(other.period)
            if period is None:
                return
            second = [f for f in second if f["column"] != "time"] + [period]
        left = self.measure_step(card, filters, " (side one)")
        right = self.measure_step(card, second, " (side two)")
        self.combine(fill.combine or "difference", left, right)

    def share_steps(self, card: TableCard, filters: list[dict[str, Any]]) -> None:
        part = self.fill.part
        if part is None:
            self.errors.append("share: 'part' must give the part's filter")
            return
        held = self.value_filter(card, part)
        if held is None:
            return
        left = self.measure_step(card, [*filters, held], " (the part)")
        right = self.measure_step(card, filters, " (the whole)")
        self.combine("share", left, right)

    def combine(self, operation: str, left: int, right: int) -> None:
        self.out.plan.append(
            {"goal": f"{operation} of steps {left} and {right}", "tool": COMBINE}
        )
        self.out.drafts.append(
            {
                "tool": COMBINE,
                "arguments": {
                    "operation": operation,
                    "left": f"${left}",
                    "right": f"${right}",
                },
            }
        )


def _unread_parts(rest: str, now: datetime | date) -> list[str]:
    """Periods, events and conditions the question says and no slot read.

    The word accounting counts them as read (the rules read them from the
    question); a form that left them out must say so.
    """
    parts = said_parts(" ".join(rest.lower().split()), now)[0]
    return [
        f"the {kind} '{text}' (no slot of the form reads it)" for kind, text in parts
    ]


def build_filled(
    fill: FormFill,
    question: str,
    now: datetime | date,
    context: PlanningContext,
    composer: Any,
) -> FilledPlan:
    """The steps of a filled form, its words accounted for.

    ``composer`` is the rules' :class:`~langgraph_adamm.planning.compose.Composer`
    (its event steps and its word accounting are the rules' own).

    Raises:
        FillErrors: a slot names a table, column or group the catalogue does
            not hold, or a form lacks a slot it needs (the model may repair).
    """
    build = _Build(fill, question, now, context)
    build.build(composer)
    if build.errors:
        raise FillErrors(build.errors)
    out = build.out
    analytic = [d for d in out.drafts if d["tool"] in (COMPUTE, RANK)]
    if analytic:
        rest = question
        for span in build.spans:  # periods and events: read by the slots
            rest = re.sub(re.escape(span), " ", rest, flags=re.IGNORECASE)
        out.unresolved += _unread_parts(rest, now)
        composer.account(rest, out.drafts, now, context, out, out.answer_form)
    return FilledPlan(out, build.spans)


__all__ = [
    "FillErrors",
    "FilledPlan",
    "FormFill",
    "SlotEvent",
    "SlotFilter",
    "SlotPeriod",
    "SlotSide",
    "build_filled",
    "catalogue_text",
]
