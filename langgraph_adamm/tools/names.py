"""The registry of the six memory tool names (AdaMM App. B) and the combine step.

Every other module reads the names from here: the tool implementations
(:mod:`langgraph_adamm.tools.calls`), the LangChain tools and their titles
(:mod:`langgraph_adamm.tools.langchain`), the planner's output model and rules
(:mod:`langgraph_adamm.planning`) and the query graph. A name is spelled once,
in the ``Literal`` types below; the constants and tuples are read off them.
This module imports nothing of the package, so any layer may read it.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

AnalyticToolName = Literal["lookup", "filter", "compute", "rank"]
"""The analytic memory's operators, over the induced tables."""
RetrievalToolName = Literal["semantic_match", "event_locate"]
"""The retrieval memory's operators, over events, episodes and topics."""
ToolName = Literal[AnalyticToolName, RetrievalToolName]
"""A memory tool's key (what plans, steps and arguments models are keyed by)."""
StepName = Literal[ToolName, "combine"]
"""What a plan step may be: a memory tool, or arithmetic over earlier steps."""

LOOKUP: Final = "lookup"
FILTER: Final = "filter"
COMPUTE: Final = "compute"
RANK: Final = "rank"
SEMANTIC_MATCH: Final = "semantic_match"
EVENT_LOCATE: Final = "event_locate"
COMBINE: Final = "combine"
"""The combine step: computed in code, costs nothing, not a memory tool."""

ANALYTIC_TOOL_NAMES: Final[tuple[AnalyticToolName, ...]] = get_args(AnalyticToolName)
RETRIEVAL_TOOL_NAMES: Final[tuple[RetrievalToolName, ...]] = get_args(RetrievalToolName)
TOOL_NAMES: Final[tuple[ToolName, ...]] = ANALYTIC_TOOL_NAMES + RETRIEVAL_TOOL_NAMES
"""The six tools in the paper's order: Lookup, Filter, Compute, Rank,
SemanticMatch, EventLocate."""
STEP_NAMES: Final[tuple[StepName, ...]] = (*TOOL_NAMES, COMBINE)

ANALYTIC_TOOLS: Final[frozenset[str]] = frozenset(ANALYTIC_TOOL_NAMES)
RETRIEVAL_TOOLS: Final[frozenset[str]] = frozenset(RETRIEVAL_TOOL_NAMES)


def tool_title(name: str) -> str:
    """The tool's name as the paper writes it (``event_locate`` -> ``EventLocate``).

    LangChain agents see the tools under these names.
    """
    return "".join(part.capitalize() for part in name.split("_"))


TOOL_TITLES: Final[dict[str, str]] = {name: tool_title(name) for name in TOOL_NAMES}
"""Tool names as the paper writes them (what a model sees)."""
