"""One registry of the tool names: every module that spells them agrees with it."""

from typing import get_args

from langgraph_adamm.graphs.model_calls import STEP_DESCRIPTIONS, STEP_MODELS
from langgraph_adamm.planning.llm import PlanStep
from langgraph_adamm.tools import calls, names
from langgraph_adamm.tools.langchain import TOOL_TITLES


def test_the_tools_are_keyed_by_the_registry():
    assert names.TOOL_NAMES == (
        "lookup",
        "filter",
        "compute",
        "rank",
        "semantic_match",
        "event_locate",
    )
    assert tuple(calls.ARG_MODELS) == tuple(calls.TOOL_DESCRIPTIONS) == names.TOOL_NAMES
    assert calls.TOOL_NAMES == names.TOOL_NAMES
    assert calls.ANALYTIC_TOOLS | calls.RETRIEVAL_TOOLS == set(names.TOOL_NAMES)
    assert get_args(calls.ToolName) == names.TOOL_NAMES
    assert tuple(STEP_MODELS) == tuple(STEP_DESCRIPTIONS) == names.STEP_NAMES


def test_titles_are_the_papers_names():
    assert list(TOOL_TITLES.values()) == [
        "Lookup",
        "Filter",
        "Compute",
        "Rank",
        "SemanticMatch",
        "EventLocate",
    ]
    assert list(TOOL_TITLES) == list(names.TOOL_NAMES)


def test_the_planner_may_name_exactly_the_plan_steps():
    tool = PlanStep.model_fields["tool"].annotation
    assert set(get_args(tool)) == set(names.STEP_NAMES)
