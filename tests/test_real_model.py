"""The scripted scenarios against a real model; run only when OPENAI_API_KEY is set."""

import os

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.cli import matches_gold
from langgraph_adamm.graphs import create_query_graph

pytestmark = pytest.mark.skipif(
    not os.environ.get("OPENAI_API_KEY"), reason="OPENAI_API_KEY is not set"
)
MODEL = os.environ.get("ADAMM_TEST_MODEL", "openai:gpt-4.1-nano")


@pytest.fixture
def model():
    from langgraph_adamm.chat import resolve_chat_model

    return resolve_chat_model(MODEL)


def test_planner_instantiation_and_reader(sample_db, model):
    with Memory(sample_db, user_id="demo") as mem:
        graph = create_query_graph(mem, model=model).compile()
        out = graph.invoke(
            {
                "question": "What was my average total sleep between 2026-03-01 and "
                "2026-03-30?",
                "question_time": "2026-03-30T21:00",
            }
        )
    assert matches_gold(out, {"value": 6.689285714285715, "unit": "h"}), out
    assert out["steps"] and all(s["cost"] >= 0 for s in out["steps"])
    assert sum(s["cost"] for s in out["steps"]) <= 10


def test_misspelled_table_in_the_question_is_repaired(sample_db, model):
    with Memory(sample_db, user_id="demo") as mem:
        graph = create_query_graph(mem, model=model).compile()
        out = graph.invoke({"question": "Use the slep_log table: highest resting HR?"})
    assert out["value"] == 66, out


def test_agent_with_memory_tools(sample_db, model):
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage

    with Memory(sample_db, user_id="demo") as mem:
        agent = create_agent(model, tools=mem.tools())
        result = agent.invoke(
            {"messages": [HumanMessage("How much did I spend on food in total?")]}
        )
    assert "141.99" in result["messages"][-1].content
