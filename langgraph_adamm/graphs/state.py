"""Typed state of the query graph, JSON-ready for checkpointers and Studio.

``steps`` and ``notes`` accumulate through the :func:`appended` reducer: a node
returns only what it adds, and :func:`replaced` starts a field over (a new
question on a checkpointed thread, a rerank that reorders the steps).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeVar

from typing_extensions import TypedDict

T = TypeVar("T")


class Replacement(TypedDict):
    """An update that replaces an accumulating field instead of extending it."""

    replace: list[Any]


def replaced(values: Iterable[T]) -> Replacement:
    """The update that makes an accumulating field ``values`` (JSON-ready)."""
    return {"replace": list(values)}


def appended(current: list[T] | None, update: list[T] | Replacement | None) -> list[T]:
    """Reducer of ``steps`` and ``notes``: extend, or start over on :func:`replaced`.

    A plain dict marks the replacement (rather than LangGraph's ``Overwrite``,
    which langgraph 0.6 and 1.0 lack), so that a checkpointer stores it as JSON.
    """
    if isinstance(update, dict):
        return list(update["replace"])
    return [*(current or []), *(update or [])]


class QueryInput(TypedDict, total=False):
    """What a caller gives the query graph."""

    question: str
    question_time: str | None
    """ISO date-time that "now" means for relative dates; default: the time of the
    memory's last round."""
    user_id: str | None
    """The namespace; default ``config["configurable"]["user_id"]``, then the
    memory's own."""


class QueryOutput(TypedDict, total=False):
    """What the query graph returns."""

    question: str
    answer: str
    value: Any
    """The computed scalar, the top ranked row's date or named column, or None."""
    unit: str | None
    evidence: list[str]
    """Round ids the answer rests on."""
    plan: list[dict[str, Any]]
    """Abstract steps: ``goal`` and ``tool``."""
    steps: Annotated[list[dict[str, Any]], appended]
    """Executed calls: tool, arguments, result, cost, evidence, summary, error."""
    notes: Annotated[list[str], appended]
    """How the answer was reached (scoring used, fallbacks, repairs, cuts)."""
    unresolved: list[str]
    """Parts of the question no step could use (a period phrase not understood,
    an event with no convincing match, a name no column holds). When not empty,
    ``value`` is None: the answer says what it could not use."""
    subjects: list[str]
    """Names in the question read as whom the records are about ("Biscuit" in a
    memory of a dog's walks); the answer says so."""
    planned_by: str
    """"rules", "form" or "model": with a model configured, a question the rules
    read whole (every word accounted for) is planned by the rules and the model
    is not asked; otherwise the model fills a question form whose plan is built
    in code ("form"), or, with ``forms=False``, writes the plan ("model")."""


class QueryState(QueryInput, QueryOutput, total=False):
    """Everything the nodes share."""

    now: str
    context: dict[str, Any]
    context_text: str
    drafts: list[dict[str, Any]]
    """Tool calls chosen before execution (rule planner; non-progressive mode)."""
    answer_form: str
    answer_column: str | None
    output_unit: str | None
    call: dict[str, Any] | None
    repair: str | None
    repairs: int
    budget_left: int
    failure: str | None
    rules_left: list[str]
    """What the rules could not use, where the model planned instead."""
