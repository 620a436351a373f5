"""The query graph's three model calls as plain functions on plain data.

For the planner, the instantiation of a step and the reader: the prompt built
from the graph state, and the state update its :class:`CallRecord` becomes.
The nodes (:mod:`langgraph_adamm.graphs.query_nodes`) only make the call, sync
or async, between the two. :data:`STEP_MODELS` and :data:`STEP_DESCRIPTIONS`
say what a plan step may be: the six memory tools (from the registry,
:mod:`langgraph_adamm.tools.names`) and the combine step.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from langgraph_adamm.chat import CallRecord, TemplatePrompt
from langgraph_adamm.planning.llm import PlanOutput, ReaderOutput
from langgraph_adamm.planning.reader import compose_read, select_value
from langgraph_adamm.planning.steps import (
    CombineArgs,
    ReferenceError_,
    resolve_arguments,
)
from langgraph_adamm.tools.calls import ARG_MODELS, TOOL_DESCRIPTIONS
from langgraph_adamm.tools.names import COMBINE, SEMANTIC_MATCH

STEP_MODELS: dict[str, Any] = {**ARG_MODELS, COMBINE: CombineArgs}
STEP_DESCRIPTIONS: dict[str, str] = {
    **TOOL_DESCRIPTIONS,
    COMBINE: (
        "Combine: arithmetic over two earlier steps' values, computed in code - "
        "difference (left - right), ratio, percent_change (from left to right), "
        "share (left as a percentage of right), "
        "greater / less (a yes/no comparison). Arguments: operation, left and "
        "right as step references '$1', '$2'. Costs nothing of the budget. Use "
        "it for 'more in April than in March', 'how much more', 'by what "
        "percent'; never do the arithmetic yourself."
    ),
}
"""What a plan step may be: the six memory tools and the combine step."""


def results_text(steps: list[dict[str, Any]], limit: int = 6000) -> str:
    """The executed steps as the instantiation and reader prompts show them."""
    if not steps:
        return "(none yet)"
    parts = []
    for i, s in enumerate(steps, 1):
        body = (
            f"error: {s['error']}"
            if s.get("error")
            else json.dumps(s.get("result"), default=str, ensure_ascii=False)
        )
        parts.append(
            f"step {i}: {s['tool']}({json.dumps(s.get('arguments'), default=str)})\n"
            f"  summary: {s.get('summary', '')}\n"
            f"  result: {body[: limit // max(1, len(steps))]}"
        )
    return "\n".join(parts)


def plan_text(plan: list[dict[str, Any]]) -> str:
    """The abstract plan, one numbered ``goal [tool]`` line a step."""
    return "\n".join(f"{i}. {p['goal']} [{p['tool']}]" for i, p in enumerate(plan, 1))


def resolved(call: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A call with its references to earlier steps replaced by their results."""
    if call.get("error") or call.get("tool") == COMBINE:
        return call
    try:
        arguments, references = resolve_arguments(call.get("arguments"), steps)
    except ReferenceError_ as exc:
        return call | {"error": f"a reference could not be resolved: {exc}"}
    if not references:
        return call
    return call | {"arguments": arguments, "references": references}


# -- planner ---------------------------------------------------------------------
def planner_prompt(
    template: str,
    state: Mapping[str, Any],
    allowed: Callable[[str], bool],
    max_steps: int,
) -> TemplatePrompt:
    """The planner's prompt: the question, the planning context, the tools."""
    return TemplatePrompt(
        template,
        {
            "question": state["question"],
            "question_time": state["now"],
            "context": state.get("context_text", ""),
            "tools": "\n".join(
                f"- {name}: {desc}"
                for name, desc in STEP_DESCRIPTIONS.items()
                if allowed(name)
            ),
            "max_steps": max_steps,
        },
        trim=("context",),
    )


def planned(
    record: CallRecord, allowed: Callable[[str], bool], max_steps: int
) -> dict[str, Any]:
    """The plan node's update from the planner's call (the notes it adds)."""
    notes: list[str] = []
    if record.trimmed:
        notes.append(f"planner: {record.trimmed}")
    if not record.ok:
        return {
            "failure": f"The planner's output was not a valid plan after "
            f"{record.attempts} attempts: {record.last_error}",
            "notes": notes,
        }
    out: PlanOutput = record.value
    steps = [s.model_dump() for s in out.steps if allowed(s.tool)]
    if len(steps) < len(out.steps):
        notes.append("plan steps using a switched-off memory were dropped")
    if len(steps) > max_steps:
        notes.append(f"plan cut from {len(steps)} to {max_steps} steps")
        steps = steps[:max_steps]
    if not steps:
        return {"failure": "The plan uses no available tool.", "notes": notes}
    return {"plan": steps, "notes": notes}


# -- instantiation ---------------------------------------------------------------
def instantiation_prompt(
    prompts: Mapping[str, str],
    state: Mapping[str, Any],
    index: int,
    steps: list[dict[str, Any]],
    repair: str | None,
    *,
    budget: int,
    progressive: bool,
) -> tuple[str, TemplatePrompt]:
    """The tool of plan step ``index`` and the prompt that asks its arguments."""
    step = state["plan"][index]
    tool = step["tool"]
    return tool, TemplatePrompt(
        prompts["instantiate"],
        {
            "question": state["question"],
            "question_time": state["now"],
            "plan": plan_text(state["plan"]),
            "results": results_text(steps)
            if progressive
            else "(none: all arguments are chosen before any tool runs)",
            "context": state.get("context_text", ""),
            "step": index + 1,
            "goal": step["goal"],
            "tool": tool,
            "tool_description": STEP_DESCRIPTIONS[tool],
            "budget": budget,
            "budget_left": state["budget_left"] if progressive else budget,
            "repair": prompts["repair"].format(error=repair) if repair else "",
        },
        trim=("context", "results"),
    )


def instantiated(tool: str, record: CallRecord) -> dict[str, Any]:
    """A call from the instantiation model's record (its error when invalid)."""
    if not record.ok:
        return {"tool": tool, "arguments": None, "error": record.last_error}
    args = record.value
    return {
        "tool": tool,
        "arguments": args.model_dump(mode="json", exclude_none=True),
    }


# -- reader ----------------------------------------------------------------------
def template_reading(state: Mapping[str, Any]) -> dict[str, Any]:
    """The read node's update without a model: the template reading.

    It leaves ``steps`` and ``notes`` as they are (they accumulate).
    """
    plan = state.get("plan") or []
    steps = state.get("steps") or []
    base: dict[str, Any] = {"question": state.get("question", ""), "plan": plan}
    if state.get("failure"):
        return base | {
            "answer": state["failure"],
            "value": None,
            "unit": None,
            "evidence": [],
            "unresolved": list(state.get("unresolved") or []),
        }
    # a step the budget left unrun: what it was for is not in the answer
    unrun = [
        f"step {i} ({p['goal']}: the shared budget was spent before it ran)"
        for i, p in enumerate(plan[len(steps) :], len(steps) + 1)
        if p["tool"] != SEMANTIC_MATCH
    ]
    reading = compose_read(
        state["question"],
        steps,
        unresolved=list(state.get("unresolved") or []) + unrun,
        answer_form=state.get("answer_form", "value"),
        answer_column=state.get("answer_column"),
        output_unit=state.get("output_unit"),
        subjects=list(state.get("subjects") or []),
    )
    return base | {
        "answer": reading.answer,
        "value": reading.value,
        "unit": reading.unit,
        "evidence": reading.evidence,
        "unresolved": reading.unresolved,
    }


def reader_prompt(
    template: str, state: Mapping[str, Any], reading: Mapping[str, Any]
) -> TemplatePrompt:
    """The reader's prompt: the plan, the tool results, what stayed unresolved."""
    return TemplatePrompt(
        template,
        {
            "question": state["question"],
            "question_time": state.get("now", ""),
            "results": plan_text(reading["plan"])
            + "\n"
            + results_text(state.get("steps") or []),
            "unresolved": "; ".join(reading["unresolved"]) or "none",
        },
        trim=("results",),
    )


def read_answer(
    state: Mapping[str, Any], reading: dict[str, Any], record: CallRecord
) -> dict[str, Any]:
    """The read node's update from the reader's call over the template reading.

    The value comes from the tool results, never from the model's text.
    """
    if not record.ok:
        return reading | {
            "notes": [
                f"the reader's output was invalid ({record.last_error}); the "
                "answer is the template reading of the tool results"
            ]
        }
    answer: ReaderOutput = record.value
    steps = state.get("steps") or []
    known = set(reading["evidence"])
    cited = [r for r in answer.evidence if r in known]
    if reading["unresolved"]:
        value, unit = None, None
    elif steps and steps[-1].get("tool") == COMBINE or reading["value"] is not None:
        value, unit = reading["value"], reading["unit"]
    else:
        value, unit, _ = select_value(steps)
    return reading | {
        "answer": answer.answer,
        "evidence": cited or reading["evidence"],
        "value": value,
        "unit": unit,
    }


def model_reading(out: dict[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """A model-planned answer with a value says what the rules could not use."""
    left = state.get("rules_left") or []
    if left and out.get("value") is not None:
        # the rules and the model read the question differently: said so
        out["answer"] = (
            f"{out['answer']} (This is the model's reading: the rules could "
            f"not use {'; '.join(left)}.)"
        )
    return out
