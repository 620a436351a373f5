"""The execute step of the query graph: one tool call under the shared budget.

A call that a model can fix (bad arguments, over the budget) goes back to
instantiation once; without a model it is cut to fit. Every other failure is
recorded as the step's error, so the reader can say what went wrong.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from langgraph_adamm.errors import AdaMMError, ToolInputError
from langgraph_adamm.graphs.graph_memory import QueryMemory
from langgraph_adamm.planning.context import CachedEmbed
from langgraph_adamm.planning.event_anchor import anchor_unit, read_whole, unheard_name
from langgraph_adamm.planning.reader import produced_nothing
from langgraph_adamm.planning.steps import CombineArgs, combine
from langgraph_adamm.tools.calls import (
    fit_to_budget,
    requested_units,
    run_tool,
    validate_arguments,
)
from langgraph_adamm.tools.names import (
    ANALYTIC_TOOLS,
    COMBINE,
    EVENT_LOCATE,
    SEMANTIC_MATCH,
)

logger = logging.getLogger("langgraph_adamm.graphs.query")


def execute_step(
    mem: QueryMemory,
    state: Mapping[str, Any],
    *,
    with_model: bool,
    retrieval: bool,
    embed: Callable[[], CachedEmbed | None],
) -> dict[str, Any]:
    """The execute node's update: the step the instantiated call became.

    Args:
        mem: The user's memory the call reads.
        state: The query graph's state (``call``, ``steps``, ``budget_left``...).
        with_model: A model instantiates the calls: a call over the budget or
            with bad arguments is sent back once for repair (without one it is
            cut to fit).
        retrieval: Retrieval memory may serve the fallback step.
        embed: The text encoder's cache (for an EventLocate's anchor).
    """
    call = state.get("call") or {}
    tool = call.get("tool", "")
    steps = list(state.get("steps") or [])
    notes: list[str] = []
    left = state["budget_left"]
    repairs = state.get("repairs", 0)
    max_steps = mem.config.max_steps
    switches = {"with_model": with_model, "retrieval": retrieval}
    record: dict[str, Any] = {"tool": tool, "arguments": call.get("arguments")}
    if call.get("references"):
        record["references"] = call["references"]
    if call.get("about"):
        record["about"] = call["about"]
    if call.get("error"):
        record.update(error=f"no valid arguments: {call['error']}", cost=0)
        return _after(state, record, notes, left, max_steps, **switches)
    if tool == COMBINE:
        try:
            combine_args = CombineArgs.model_validate(call.get("arguments"))
        except ValidationError as exc:
            record.update(error=f"invalid combine arguments: {exc.errors()[0]['msg']}")
            return _after(
                state, record | {"cost": 0}, notes, left, max_steps, **switches
            )
        return _after(
            state, combine(combine_args, steps), notes, left, max_steps, **switches
        )
    try:
        args = validate_arguments(tool, call.get("arguments"))
        over = requested_units(tool, args) > left
        if over and (not with_model or repairs >= 1):
            # offline, or already sent back once: cut the call to fit
            args = fit_to_budget(tool, args, left)
            notes.append(f"step {len(steps) + 1}: result_budget cut to {left}")
        outcome = run_tool(mem, tool, args, budget_left=left)
    except ToolInputError as exc:
        if with_model and repairs < 1:
            notes.append(f"step {len(steps) + 1}: sent back for repair: {exc}")
            return {"repair": str(exc), "repairs": repairs + 1, "notes": notes}
        record.update(error=str(exc)[:500], cost=0)
        return _after(state, record, notes, left, max_steps, **switches)
    except AdaMMError as exc:
        record.update(error=str(exc)[:500], cost=0)
        return _after(state, record, notes, left, max_steps, **switches)
    except Exception as exc:  # noqa: BLE001 - reported in the answer, logged
        logger.exception("tool %s failed", tool)
        record.update(
            error=f"internal error in {tool}: {type(exc).__name__}: {exc}"[:500],
            cost=0,
        )
        return _after(state, record, notes, left, max_steps, **switches)
    done = outcome.to_dict()
    for key in ("references", "about", "frame", "names"):
        if call.get(key):
            done[key] = call[key]
    if tool == EVENT_LOCATE:
        found = [u.get("unit_id") for u in (done.get("result") or {}).get("units", [])]
        words_of = getattr(mem, "record_words", None)
        memory_words = words_of(None) if words_of is not None else None
        anchor = anchor_unit(
            done,
            embed(),
            mem.record_rounds(found),
            memory_words.share if memory_words is not None else None,
            unheard_name(done.get("names") or (), memory_words),
            memory_words.share
            if memory_words is not None and read_whole(memory_words)
            else None,
        )
        done["anchor"] = (
            {
                k: anchor.get(k)
                for k in ("unit_id", "time", "score", "content", "dated_by")
                if k != "dated_by" or anchor.get(k)
            }
            if anchor
            else None
        )
    return _after(state, done, notes, left - outcome.cost, max_steps, **switches)


def _after(
    state: Mapping[str, Any],
    step: dict[str, Any],
    notes: list[str],
    left: int,
    max_steps: int,
    *,
    with_model: bool,
    retrieval: bool,
) -> dict[str, Any]:
    """The execute node's update: the new step, and a retrieval fallback."""
    plan = list(state["plan"])
    if (
        not with_model
        and len(plan) == 1
        and step["tool"] in ANALYTIC_TOOLS
        and produced_nothing(step)
        and retrieval
        and len(plan) < max_steps
        and left > 0
    ):
        plan.append(
            {
                "goal": "recall related memories (the table gave no answer)",
                "tool": SEMANTIC_MATCH,
            }
        )
        notes.append("the analytic step found nothing; falling back to retrieval")
    return {
        "steps": [step],
        "plan": plan,
        "notes": notes,
        "budget_left": left,
        "repair": None,
        "repairs": 0,
        "call": None,
    }
