"""The plan node's form step: a model fills a question form, code builds the plan.

Where the rules could not read a question whole and analytic memory is on,
the model is asked for a :class:`~langgraph_adamm.planning.form_fill.FormFill`
rather than a free plan; :func:`~langgraph_adamm.planning.form_fill.build_filled`
checks its slots against the catalogue and builds the steps. A slot naming
what the tables do not hold goes back to the model once, with what was wrong;
a form that still fails, or output that never validates, leaves the rules'
own reading standing (a model never makes the answer worse than the rules'
caveated one by failing).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from datetime import date, datetime
from functools import partial
from typing import Any

from langgraph_adamm.chat import TemplatePrompt
from langgraph_adamm.graphs.runnables import Work, model_work
from langgraph_adamm.history import parse_time
from langgraph_adamm.planning.context import PlanningContext
from langgraph_adamm.planning.form_fill import (
    FilledPlan,
    FillErrors,
    FormFill,
    build_filled,
    catalogue_text,
)
from langgraph_adamm.tools.names import COMPUTE, RANK

FORM_TRIES = 2
"""The model's fill and one repair."""


def form_prompt(
    prompts: Mapping[str, str],
    state: Mapping[str, Any],
    context: PlanningContext,
    error: str | None = None,
) -> TemplatePrompt:
    """The form's prompt: the question, today, the tables; a repair note."""
    return TemplatePrompt(
        prompts["form"],
        {
            "question": state["question"],
            "question_time": state["now"],
            "catalogue": catalogue_text(context),
            "repair": prompts["form_repair"].format(error=error) if error else "",
        },
        trim=("catalogue",),
    )


def _readings(drafts: Any) -> set[tuple[str, str]]:
    """(table, operator of measure) of each analytic step of a plan."""
    return {
        (
            str(d["arguments"].get("table")),
            f"{d['arguments'].get('operator', 'rank')} of "
            + str(d["arguments"].get("target_column_expression") or "records"),
        )
        for d in drafts or []
        if d.get("tool") in (COMPUTE, RANK) and isinstance(d.get("arguments"), dict)
    }


def _said(readings: set[tuple[str, str]]) -> str:
    return ", ".join(f"{measure} in {table}" for table, measure in sorted(readings))


def form_planned(filled: FilledPlan, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The plan node's update from a filled form (the steps built in code).

    Where the rules read the question as another table or measure than the
    model did, neither is stated as fact: the difference is reported.
    """
    out = filled.composed
    unresolved = list(out.unresolved)
    ours, theirs = _readings(out.drafts), _readings(rules.get("drafts"))
    if ours and theirs and not ours & theirs:
        unresolved.append(
            f"what is measured (the rules read {_said(theirs)}; the model read "
            f"{_said(ours)})"
        )
    return {
        "plan": out.plan,
        "drafts": out.drafts,
        "answer_form": out.answer_form,
        "answer_column": None,
        "output_unit": None,
        "unresolved": unresolved,
        "subjects": list(out.subjects),
        "planned_by": "form",
        "notes": [f"question form ({out.form}) filled by the model, its plan built"],
    }


def _built(
    fill: FormFill,
    question: str,
    now: datetime | date,
    context: Callable[[], PlanningContext],
    composer: Callable[[], Any],
) -> FilledPlan | FillErrors:
    try:
        return build_filled(fill, question, now, context(), composer())
    except FillErrors as exc:
        return exc


def fill_form(
    chat: Any,
    prompts: Mapping[str, str],
    state: Mapping[str, Any],
    rules: dict[str, Any],
    *,
    shown: Callable[[], PlanningContext],
    every: Callable[[], PlanningContext],
    composer: Callable[[], Any],
    allowed: Callable[[str], bool],
    attempts: int,
) -> Generator[Work, Any, dict[str, Any] | None]:
    """The plan node's update: the model's filled form, else the rules' plan.

    ``shown()``: the tables the prompt shows (None is returned when there are
    none: nothing to fill); ``every()``: the context the slots are checked
    against (every table); ``composer()``: the rules' composer (its event
    steps and word accounting). Each is built in a :class:`Work` (it embeds).
    """
    question, now = state["question"], parse_time(state["now"])
    context = yield Work(shown)
    if not context.table_cards:
        return None
    error: str | None = None
    for _ in range(FORM_TRIES):
        record = yield model_work(
            chat,
            "form",
            FormFill,
            form_prompt(prompts, state, context, error),
            attempts=attempts,
        )
        if not record.ok:
            error = f"its output never validated ({record.last_error})"
            break
        built = yield Work(
            partial(_built, record.value, question, now, every, composer)
        )
        if isinstance(built, FillErrors):
            error = str(built)
            continue
        tools = sorted({d["tool"] for d in built.composed.drafts})
        if not tools:
            error = "it built no step: " + "; ".join(built.composed.unresolved)
            break
        if all(allowed(t) for t in tools):
            return form_planned(built, rules)
        error = f"its plan needs a memory that is off ({', '.join(tools)})"
        break
    # the rules' own reading stands where the model's form did not
    return rules | {
        "planned_by": "rules",
        "notes": [f"the model's question form was not used: {error}"]
        + list(rules.get("notes", [])),
    }
