"""Steps that feed each other: references to earlier results, and the combine step.

A plan step's arguments may refer to what an earlier step returned (AdaMM §3.5:
"a time from EventLocate can bound a later Compute"). A reference is a string
``$<n>.<field>`` with ``n`` the 1-based step number and ``field`` one of

- ``day`` / ``time``: the anchored event's day or time (EventLocate), the top
  row's (Rank) or the top group's key when it is a time bucket;
- ``value``: a Compute's value, the top ranked row's value or group's value;
- ``group``: the top group's key (a grouped Rank or Compute).

A day takes an offset in days: ``$1.day-7``, ``$1.day+1``. References are
resolved after the step they name ran; the resolved arguments are what the step
shows. A reference to a step that failed or found nothing is not guessed: the
step that needs it is not run and says why.

The combine step does arithmetic over typed step results in code - difference,
ratio, percentage change, comparison - so that no model ever does it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from pydantic import ConfigDict, Field

from langgraph_adamm.analytic.values import convert_units, convertible
from langgraph_adamm.planning.event_anchor import anchor_unit
from langgraph_adamm.planning.reader import fmt
from langgraph_adamm.schemas import WireModel
from langgraph_adamm.tools.names import COMBINE, COMPUTE, EVENT_LOCATE, RANK

REFERENCE_RE = re.compile(
    r"^\$(?P<step>\d{1,2})\.(?P<field>day|time|value|group)(?P<offset>[+-]\d{1,4})?$"
)
Operation = Literal["difference", "ratio", "percent_change", "share", "greater", "less"]


class CombineArgs(WireModel):
    """Arithmetic over two earlier steps' values, done in code."""

    model_config = ConfigDict(extra="forbid")
    operation: Operation = Field(
        description="difference (left - right), ratio (left / right), "
        "percent_change ((right - left) / left * 100, from left to right), "
        "share (left / right * 100: the part left is of the whole right), "
        "greater / less (yes/no: is left greater / less than right)"
    )
    left: str = Field(pattern=r"^\$\d{1,2}(\.value)?$", description="e.g. '$1'")
    right: str = Field(pattern=r"^\$\d{1,2}(\.value)?$", description="e.g. '$2'")


class ReferenceError_(Exception):
    """A reference that cannot be resolved (kept inside this module's callers)."""


@dataclass(frozen=True)
class StepValue:
    """The typed value one executed step stands for."""

    value: Any
    unit: str | None
    evidence: tuple[str, ...]


def _groups(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The groups of a grouped Compute or Rank result (empty: not grouped)."""
    if result.get("groups") is not None:
        return list(result["groups"])
    return list(result.get("rows") or []) if result.get("group_by") else []


def step_value(step: dict[str, Any]) -> StepValue | None:
    """The value a step produced (None: it failed or found nothing)."""
    if step.get("error"):
        return None
    result = step.get("result") or {}
    evidence = tuple(step.get("evidence") or [])
    tool = step.get("tool")
    if tool == COMBINE:
        return StepValue(result.get("value"), result.get("unit"), evidence)
    if tool == COMPUTE and not result.get("group_by"):
        if result.get("operator") != "count" and not result.get("row_count"):
            return None
        return StepValue(result.get("value"), result.get("unit"), evidence)
    if tool in (COMPUTE, RANK):
        groups = _groups(result)
        if groups:
            return StepValue(groups[0]["value"], result.get("unit"), evidence)
        rows = result.get("rows") or []
        if rows and tool == RANK and not result.get("group_by"):
            expr = (step.get("arguments") or {}).get("target_column_expression", "")
            top = rows[0]
            return StepValue(top.get(expr, top.get("_value")), None, evidence)
    return None


def _field(step: dict[str, Any], name: str) -> Any:
    tool = step.get("tool")
    result = step.get("result") or {}
    if name in ("day", "time"):
        if tool == EVENT_LOCATE:
            unit = anchor_unit(step)
            when = unit.get("time") if unit else None
        elif tool == RANK and result.get("rows") and not result.get("group_by"):
            when = result["rows"][0].get("time")
        else:
            groups = _groups(result)
            label = str(result.get("group_by") or "")
            when = (
                groups[0].get("group") if groups and label.startswith("time:") else None
            )
        if not when:
            return None
        return str(when)[:10] if name == "day" else str(when)
    if name == "group":
        groups = _groups(result)
        if groups and len(groups) > 1 and groups[1]["value"] == groups[0]["value"]:
            raise ReferenceError_(
                f"the top groups tie ({groups[0]['group']}, {groups[1]['group']})"
            )
        return groups[0]["group"] if groups else None
    found = step_value(step)
    return None if found is None else found.value


def resolve_reference(text: str, steps: list[dict[str, Any]]) -> Any:
    """The value a reference names, or :class:`ReferenceError_` saying why not."""
    m = REFERENCE_RE.match(text.strip())
    if m is None:
        raise ReferenceError_(f"{text!r} is no reference ($<step>.<field>)")
    n = int(m.group("step"))
    if not 1 <= n <= len(steps):
        raise ReferenceError_(f"{text} names step {n}, which has not run")
    step = steps[n - 1]
    value = _field(step, m.group("field"))
    if value is None:
        what = (
            "found no convincing event"
            if step.get("tool") == EVENT_LOCATE
            else "found nothing"
        )
        raise ReferenceError_(f"step {n} ({step.get('tool')}) {what}")
    offset = m.group("offset")
    if offset:
        if m.group("field") != "day":
            raise ReferenceError_(f"{text}: only a day takes an offset in days")
        value = (date.fromisoformat(value) + timedelta(days=int(offset))).isoformat()
    return value


def is_reference(value: Any) -> bool:
    """Whether a value is a step reference string."""
    return isinstance(value, str) and REFERENCE_RE.match(value.strip()) is not None


def resolve_arguments(
    arguments: Any, steps: list[dict[str, Any]]
) -> tuple[Any, dict[str, Any]]:
    """The arguments with every reference replaced, and what each resolved to.

    Raises:
        ReferenceError_: when a reference names a step that failed or found
            nothing.
    """
    resolved: dict[str, Any] = {}

    def walk(value: Any) -> Any:
        if is_reference(value):
            got = resolve_reference(value, steps)
            resolved[value] = got
            return got
        if isinstance(value, dict):
            # a query is text to search for, never a reference ("since $1.day?")
            return {k: v if k == "query_content" else walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(arguments), resolved


def _number(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return None if math.isnan(float(v)) else float(v)


def combine(args: CombineArgs, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Run a combine step over earlier steps; the outcome as an executed step.

    The right value is converted into the left's unit when both have units of
    one dimension; values without a number, or of units that do not convert,
    give an error instead of a guess.
    """
    record: dict[str, Any] = {
        "tool": COMBINE,
        "arguments": args.model_dump(),
        "cost": 0,
        "evidence": [],
    }
    sides: list[StepValue] = []
    for ref in (args.left, args.right):
        n = int(ref.lstrip("$").split(".")[0])
        if not 1 <= n <= len(steps):
            return record | {"error": f"{ref} names step {n}, which has not run"}
        got = step_value(steps[n - 1])
        if got is None or _number(got.value) is None:
            return record | {
                "error": f"step {n} gave no number to combine"
                + (f" ({steps[n - 1]['error']})" if steps[n - 1].get("error") else "")
            }
        sides.append(got)
    left, right = sides
    a, b = float(left.value), float(right.value)
    unit = left.unit
    if left.unit != right.unit:
        if left.unit and right.unit and convertible(right.unit, left.unit):
            b = convert_units(b, right.unit, left.unit)
        elif left.unit or right.unit:
            return record | {
                "error": f"cannot combine {left.unit or 'a plain number'} with "
                f"{right.unit or 'a plain number'}"
            }
    evidence = list(dict.fromkeys(left.evidence + right.evidence))
    op = args.operation
    value: Any
    if op == "difference":
        value = a - b
    elif op == "ratio":
        if b == 0:
            return record | {"error": "the ratio's right side is 0"}
        value, unit = a / b, None
    elif op == "share":
        if b == 0:
            return record | {"error": "the share's whole is 0"}
        value, unit = a / b * 100.0, "%"
    elif op == "percent_change":
        if a == 0:
            return record | {"error": "a percentage change from 0 is undefined"}
        value, unit = (b - a) / abs(a) * 100.0, "%"
    else:
        value = a > b if op == "greater" else a < b
        unit = None
    summary = f"{op}({fmt(a)}, {fmt(b)}{' ' + left.unit if left.unit else ''})"
    return record | {
        "result": {
            "operation": op,
            "value": value,
            "unit": unit,
            "left": {"value": a, "unit": left.unit, "step": args.left},
            "right": {"value": b, "unit": left.unit, "step": args.right},
            "equal": a == b,
        },
        "evidence": evidence,
        "summary": f"{summary} = {fmt(value)}",
        "error": None,
    }
