"""Model-driven planning: the planner, progressive instantiation and the reader.

Each is one structured-output call validated by pydantic and retried a bounded
number of times with the validation error shown to the model; a call that never
validates returns the errors instead of raising, so the graph can end in an
answer that says what went wrong.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from langgraph_adamm.chat import parse_output, structured_runnable

M = TypeVar("M", bound=BaseModel)
ToolLiteral = Literal[
    "lookup", "filter", "compute", "rank", "semantic_match", "event_locate", "combine"
]


class PlanStep(BaseModel):
    """One abstract step: an information goal and the tool that serves it."""

    goal: str = Field(min_length=1, max_length=500)
    tool: ToolLiteral


class PlanOutput(BaseModel):
    """The planner's abstract plan."""

    steps: list[PlanStep] = Field(min_length=1, max_length=10)


class ReaderOutput(BaseModel):
    """The reader's answer."""

    answer: str = Field(min_length=1, max_length=4000)
    evidence: list[str] = Field(default_factory=list, max_length=50)
    """Round ids the answer rests on (must come from the tool results)."""


def _retry_prompt(prompt: str, errors: list[str]) -> str:
    if not errors:
        return prompt
    return (
        f"{prompt}\n\nYour previous output was not valid: {errors[-1]}\n"
        "Return output that matches the schema exactly."
    )


def _short_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "output"
        return f"{loc}: {first['msg']}"[:300]
    return f"{type(exc).__name__}: {exc}"[:300]


def call_structured(
    model: Any, schema: type[M], prompt: str, attempts: int = 3
) -> tuple[M | None, list[str]]:
    """One validated structured call, retried at most ``attempts`` times in all."""
    runnable = structured_runnable(model, schema)
    errors: list[str] = []
    for _ in range(max(1, attempts)):
        try:
            return parse_output(
                runnable.invoke(_retry_prompt(prompt, errors)), schema
            ), errors
        except Exception as exc:  # noqa: BLE001 - shown to the model, then reported
            errors.append(_short_error(exc))
    return None, errors
