"""Reading tool results: the answer's value, unit and evidence, and the template reader.

The value reported beside an answer is taken from the tool results, never from
model text: a computed scalar, the top ranked row's date or named column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langgraph_adamm.analytic.coverage import unread_note
from langgraph_adamm.analytic.values import convert_units, convertible
from langgraph_adamm.tools.names import (
    COMBINE,
    COMPUTE,
    EVENT_LOCATE,
    FILTER,
    LOOKUP,
    RANK,
)

_OPERATOR_TEXT = {
    "avg": "The average {expr}",
    "sum": "The total {expr}",
    "count": "The number of matching records",
    "min": "The lowest {expr}",
    "max": "The highest {expr}",
    "median": "The median {expr}",
    "first": "The first recorded {expr}",
    "latest": "The latest {expr}",
    "change": "The change in {expr} (latest minus first)",
}
MAX_CITED = 12


@dataclass
class Reading:
    """What the reader reports."""

    answer: str
    value: Any = None
    unit: str | None = None
    evidence: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    """Parts of the question no step could use (then ``value`` is None)."""


def fmt(value: Any) -> str:
    """A number as people read it (no binary noise), anything else as text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return (
            f"{value:.4f}".rstrip("0").rstrip(".")
            if abs(value) < 1e15
            else f"{value:g}"
        )
    return str(value)


def _words(name: str | None) -> str:
    return (name or "").replace("_", " ")


def _cite(ids: list[str]) -> str:
    shown = ", ".join(ids[:MAX_CITED])
    more = f" and {len(ids) - MAX_CITED} more" if len(ids) > MAX_CITED else ""
    return f"rounds {shown}{more}" if len(ids) > 1 else f"round {shown}"


def _filters_text(args: dict[str, Any]) -> str:
    parts = []
    for f in args.get("optional_column_filters") or args.get("column_filters") or []:
        col, op, val = f.get("column"), f.get("op", "="), f.get("value")
        if col == "time" and op == "between" and isinstance(val, list):
            parts.append(f"from {val[0]} to {val[1]}")
        elif op == "=":
            parts.append(f"{_words(col)} = {fmt(val)}")
        else:
            parts.append(f"{_words(col)} {op} {fmt(val)}")
    return f" ({'; '.join(parts)})" if parts else ""


def produced_nothing(step: dict[str, Any]) -> bool:
    """Whether an executed step failed or matched no record.

    A count of 0 is an answer, not nothing.
    """
    result = step.get("result") or {}
    if step.get("error"):
        return True
    if step["tool"] == COMPUTE:
        return result.get("operator") != "count" and not result.get("row_count")
    if step["tool"] in (RANK, FILTER, LOOKUP):
        return not result.get("rows")
    return not result.get("units")


def select_value(
    steps: list[dict[str, Any]],
    answer_form: str = "value",
    answer_column: str | None = None,
    output_unit: str | None = None,
) -> tuple[Any, str | None, dict[str, Any] | None]:
    """The answer's value and unit from the last successful analytic step."""
    for step in reversed(steps):
        if step.get("error"):
            continue
        result = step.get("result") or {}
        if step["tool"] == COMPUTE:
            value, unit = result.get("value"), result.get("unit")
            if (
                output_unit
                and isinstance(value, (int, float))
                and not isinstance(value, bool)
                and unit
                and output_unit != unit
                and convertible(unit, output_unit)
            ):
                value, unit = (
                    convert_units(float(value), unit, output_unit),
                    output_unit,
                )
            return value, unit, step
        if step["tool"] == RANK:
            rows = result.get("rows") or []
            if not rows:
                return None, None, step
            top = rows[0]
            if answer_form == "column" and answer_column:
                return top.get(answer_column), None, step
            when = top.get("time")
            return (str(when)[:10] if when else None), None, step
    return None, None, None


def template_read(
    question: str,
    steps: list[dict[str, Any]],
    *,
    answer_form: str = "value",
    answer_column: str | None = None,
    output_unit: str | None = None,
) -> Reading:
    """The offline reader.

    It states the computed value with its unit and evidence, or quotes the best
    retrieved memories.
    """
    evidence = list(dict.fromkeys(r for s in steps for r in s.get("evidence") or []))
    value, unit, step = select_value(steps, answer_form, answer_column, output_unit)
    if step is not None:
        result = step.get("result") or {}
        args = step.get("arguments") or {}
        table = result.get("table", args.get("table", ""))
        ev = step.get("evidence") or []
        if step["tool"] == COMPUTE:
            rows = result.get("row_count", 0)
            if not rows and result.get("operator") != "count":
                return Reading(
                    f"No records in {table}{_filters_text(args)} match, so there is "
                    "nothing to compute.",
                    None,
                    None,
                    evidence,
                )
            head = _OPERATOR_TEXT.get(result.get("operator", ""), "The value of {expr}")
            text = head.format(expr=_words(result.get("expression")) or "value")
            unit_text = f" {unit}" if unit else ""
            return Reading(
                f"{text}{_filters_text(args)} is {fmt(value)}{unit_text}, computed "
                f"over {rows} record{'s' if rows != 1 else ''} of {table} "
                f"({_cite(ev)}).",
                value,
                unit,
                evidence,
            )
        rows = result.get("rows") or []
        if not rows:
            return Reading(
                f"No records in {table}{_filters_text(args)} match.",
                None,
                None,
                evidence,
            )
        top = rows[0]
        expr = args.get("target_column_expression", "")
        shown = top.get(expr, top.get("_value"))
        word = "highest" if args.get("order", "desc") == "desc" else "lowest"
        day = str(top.get("time") or "")[:10]
        if answer_form == "column" and answer_column:
            text = (
                f"{_words(answer_column).capitalize()} {fmt(value)} had the {word} "
                f"{_words(expr)} ({fmt(shown)}, on {day}, round {top.get('source')})."
            )
        else:
            text = (
                f"The {word} {_words(expr)} ({fmt(shown)}) was on "
                f"{day or 'an undated round'} "
                f"(round {top.get('source')})."
            )
        return Reading(text, value, None, evidence)
    units = [
        u
        for s in steps
        if not s.get("error")
        for u in (s.get("result") or {}).get("units", [])
    ]
    if units:
        lines = []
        for u in units[:3]:
            content = " ".join(str(u.get("content", "")).split())[:240]
            when = f"{str(u.get('time'))[:16]}, " if u.get("time") else ""
            lines.append(
                f"- ({when}{u.get('unit_id')}, score {u.get('score', 0):.2f}) {content}"
            )
        return Reading(
            "No analytic table answers this exactly; the closest memories are:\n"
            + "\n".join(lines),
            None,
            None,
            evidence,
        )
    errors = [s["error"] for s in steps if s.get("error")]
    if errors:
        return Reading(
            f"I could not answer from memory: {errors[-1]}", None, None, evidence
        )
    return Reading(
        "I found nothing in memory that answers this question.", None, None, evidence
    )


def _unit_text(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def _side_text(step: dict[str, Any]) -> str:
    """What one side of a comparison measured, in words."""
    result = step.get("result") or {}
    args = step.get("arguments") or {}
    head = _OPERATOR_TEXT.get(result.get("operator", ""), "The value of {expr}")
    text = head.format(expr=_words(result.get("expression")) or "value")
    return f"{text[0].lower()}{text[1:]}{_filters_text(args)}"


def _combine_read(step: dict[str, Any], steps: list[dict[str, Any]]) -> Reading:
    result = step["result"]
    op = result["operation"]
    left, right = result["left"], result["right"]
    sides = []
    for side in (left, right):
        n = int(str(side["step"]).lstrip("$").split(".")[0])
        done = steps[n - 1]
        rows = (done.get("result") or {}).get("row_count")
        sides.append(
            f"{_side_text(done)} is {fmt(side['value'])}{_unit_text(side['unit'])}"
            + (
                f" over {rows} record{'s' if rows != 1 else ''}"
                if rows is not None
                else ""
            )
        )
    both = f"{sides[0]}; {sides[1]}"
    value, unit = result["value"], result.get("unit")
    if op in ("greater", "less"):
        if result.get("equal"):
            text = f"No - they are equal: {both}."
        else:
            text = f"{'Yes' if value else 'No'}: {both}."
    elif op == "difference":
        text = f"The difference is {fmt(value)}{_unit_text(unit)} ({both})."
    elif op == "ratio":
        text = f"The ratio is {fmt(value)} ({both})."
    elif op == "share":
        text = f"The share is {fmt(value)}% ({both})."
    else:
        text = f"The change is {fmt(value)}% ({both})."
    ev = step.get("evidence") or []
    if ev:
        text += f" Evidence: {_cite(ev)}."
    return Reading(text, value, unit, list(ev))


def _groups_read(step: dict[str, Any], answer_form: str) -> Reading:
    result = step.get("result") or {}
    groups = result.get("groups") or result.get("rows") or []
    label = str(result.get("group_by") or "")
    what = label.split(":", 1)[1] if label.startswith("time:") else _words(label)
    unit = result.get("unit")
    op = result.get("operator", "")
    expr = _words((step.get("arguments") or {}).get("target_column_expression"))
    measure = "number of records" if op == "count" else f"{op} of {expr}"
    ev = list(step.get("evidence") or [])
    table = result.get("table", "")
    if not groups:
        return Reading(
            f"No records in {table}{_filters_text(step.get('arguments') or {})} "
            "match, so there are no groups to compare.",
            None,
            None,
            ev,
        )
    shown = "; ".join(
        f"{fmt(g['group'])}: {fmt(g['value'])}{_unit_text(unit)} "
        f"({g['row_count']} record{'s' if g['row_count'] != 1 else ''})"
        for g in groups[:10]
    )
    filters = _filters_text(step.get("arguments") or {})
    if answer_form == "list":
        more = result.get("group_count") or len(groups)
        cut = f" (the first {len(groups)} of {more})" if more > len(groups) else ""
        return Reading(
            f"The {measure} per {what}{filters}{cut}: {shown}.", None, unit, ev
        )
    top = groups[0]
    if len(groups) > 1 and groups[1]["value"] == top["value"]:
        return Reading(
            f"There is a tie for the {what} by {measure}{filters}: {shown}.",
            None,
            None,
            ev,
        )
    word = (
        "highest"
        if (step.get("arguments") or {}).get("order", "desc") == "desc"
        else "lowest"
    )
    text = (
        f"{_words(what).capitalize()} {fmt(top['group'])} has the {word} {measure}"
        f"{filters}: {fmt(top['value'])}{_unit_text(unit)} over {top['row_count']} "
        f"record{'s' if top['row_count'] != 1 else ''} (next: "
        + (
            f"{fmt(groups[1]['group'])} with "
            f"{fmt(groups[1]['value'])}{_unit_text(unit)}"
            if len(groups) > 1
            else "none"
        )
        + f"; {_cite(top.get('sources') or ev)})."
    )
    if answer_form == "value":
        return Reading(text, top["value"], unit, ev)
    return Reading(text, top["group"], None, ev)


def _anchor_text(steps: list[dict[str, Any]]) -> str:
    """Which event rounds the periods were anchored on."""
    parts = []
    for s in steps:
        if s.get("tool") != EVENT_LOCATE or not s.get("anchor"):
            continue
        a = s["anchor"]
        content = " ".join(str(a.get("content") or "").split())
        content = content if len(content) <= 90 else content[:87] + "..."
        # the event as the question named it; a model's step: what it searched
        name = (
            s.get("about") or f"'{(s.get('arguments') or {}).get('query_content', '')}'"
        )
        dated = f", dated back by {a['dated_by']}" if a.get("dated_by") else ""
        parts.append(
            f"{name} anchored on "
            f'{str(a.get("time"))[:10]} ({a.get("unit_id")}: "{content}"{dated})'
        )
    return f" Periods: {'; '.join(parts)}." if parts else ""


def unresolved_parts(unresolved: list[str], steps: list[dict[str, Any]]) -> list[str]:
    """The parts of a question no step could use, from planning and execution."""
    parts = list(unresolved)
    for s in steps:
        about = s.get("about")  # the part of the question a drafted step serves
        if not about:
            continue
        if s.get("tool") == EVENT_LOCATE and not s.get("anchor"):
            why = s.get("anchor_unsure") or "no convincing match in memory"
            parts.append(f"{about} ({why})")
        elif s.get("error") and "reference" in str(s.get("error")):
            parts.append(f"{about} (it rests on a step that found nothing)")
    for s in steps:
        unplaced = (s.get("result") or {}).get("unplaced_rows") or 0
        if unplaced:
            # Undated records whose dated neighbours lie on both sides of a
            # time bound: they may or may not belong, so no figure is exact.
            parts.append(
                f"{unplaced} undated record{'s' if unplaced != 1 else ''} of "
                f"{(s.get('result') or {}).get('table', 'a table')} that may fall "
                "on either side of the dates asked about"
            )
        unread = (s.get("result") or {}).get("unread_rounds") or []
        if unread:
            # rounds written like the table's records that gave it no row: a
            # total over the rows read is no total (analytic/coverage.py)
            parts.append(
                unread_note((s.get("result") or {}).get("table", "a table"), unread)
            )
    return list(dict.fromkeys(parts))


def compose_read(
    question: str,
    steps: list[dict[str, Any]],
    *,
    unresolved: list[str] | None = None,
    answer_form: str = "value",
    answer_column: str | None = None,
    output_unit: str | None = None,
    subjects: list[str] | None = None,
) -> Reading:
    """The offline reading of a plan, composed or not, that accounts for every part.

    ``subjects``: names of the question read as whom the records are about,
    said in the answer.

    A part of the question that no step could use is named, and the value is
    withheld (None): the text may show the figure computed without that part,
    marked as such, but never as the answer.
    """
    last = next((s for s in reversed(steps) if s.get("tool") != EVENT_LOCATE), None)
    if last is not None and last.get("tool") == COMBINE and not last.get("error"):
        reading = _combine_read(last, steps)
    elif (
        last is not None
        and not last.get("error")
        and (last.get("result") or {}).get("group_by")
    ):
        reading = _groups_read(last, answer_form)
    elif last is not None and last.get("tool") == COMBINE:
        reading = Reading(
            f"I could not compare: {last['error']}.",
            None,
            None,
            list(dict.fromkeys(r for s in steps for r in s.get("evidence") or [])),
        )
    else:
        reading = template_read(
            question,
            steps,
            answer_form=answer_form,
            answer_column=answer_column,
            output_unit=output_unit,
        )
    reading.answer += _anchor_text(steps)
    for name in subjects or ():
        reading.answer += f" I read '{name}' as whose records these are."
    parts = unresolved_parts(unresolved or [], steps)
    if parts:
        figure = (
            f" Without {'them' if len(parts) > 1 else 'it'}, the tools gave: "
            f"{reading.answer}"
            if reading.value is not None
            else f" {reading.answer}"
        )
        reading = Reading(
            f"I can't answer this exactly: I could not use {'; '.join(parts)}."
            + figure,
            None,
            None,
            reading.evidence,
            parts,
        )
    return reading
