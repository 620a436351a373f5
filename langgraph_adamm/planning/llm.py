"""What the model-driven planner, instantiation and reader return.

Each is one call through :class:`langgraph_adamm.chat.StructuredModel`: validated
by these models, retried a bounded number of times with the validation error
shown to the model, and a call that never validates comes back as a record of
its errors, so the graph can end in an answer that says what went wrong.
"""

from __future__ import annotations

from pydantic import Field

from langgraph_adamm.schemas import WireModel
from langgraph_adamm.tools.names import StepName

ToolLiteral = StepName
"""A plan step's tool (the registry: :mod:`langgraph_adamm.tools.names`)."""


class PlanStep(WireModel):
    """One abstract step: an information goal and the tool that serves it."""

    goal: str = Field(min_length=1, max_length=500)
    tool: ToolLiteral


class PlanOutput(WireModel):
    """The planner's abstract plan."""

    steps: list[PlanStep] = Field(min_length=1, max_length=10)


class ReaderOutput(WireModel):
    """The reader's answer."""

    answer: str = Field(min_length=1, max_length=4000)
    evidence: list[str] = Field(default_factory=list, max_length=50)
    """Round ids the answer rests on (must come from the tool results)."""
