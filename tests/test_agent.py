"""An existing LangGraph agent uses the memory tools (langchain.agents.create_agent)."""

import asyncio
import json

import pytest
from conftest import scripted, tool_message
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from langgraph_adamm import Memory
from langgraph_adamm.tools.langchain import create_memory_tools

AVG = {"operator": "avg", "target_column_expression": "deep_sleep"}
OTHER_AVG = (2 + 2.5 + 2.2 + 2.1 + 2.4) / 5


def script():
    return scripted(
        [
            tool_message({"table": "slep_log", **AVG}, name="Compute"),
            tool_message({"table": "sleep_log", **AVG}, name="Compute"),
            AIMessage(content="Your average deep sleep was about 2.24 hours."),
        ]
    )


def check(result):
    tools = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert len(tools) == 2
    assert "Unknown table 'slep_log'" in tools[0].content
    assert "Did you mean 'sleep_log'" in tools[0].content
    assert tools[0].status == "error"
    payload = json.loads(tools[1].content)
    # the namespace came from config: user "other", not the memory's "demo"
    assert payload["value"] == pytest.approx(OTHER_AVG) and payload["unit"] == "h"
    assert result["messages"][-1].content.startswith("Your average deep sleep")


@pytest.fixture
def agent_memory(sample_db):
    mem = Memory(sample_db, user_id="demo", retrieval=False)
    yield mem
    mem.close()


def test_agent_repairs_a_misspelled_table_sync(agent_memory):
    agent = create_agent(script(), tools=create_memory_tools(agent_memory))
    result = agent.invoke(
        {"messages": [HumanMessage("What was my average deep sleep?")]},
        config={"configurable": {"user_id": "other"}},
    )
    check(result)


def test_agent_repairs_a_misspelled_table_async(agent_memory):
    agent = create_agent(script(), tools=agent_memory.tools())
    result = asyncio.run(
        agent.ainvoke(
            {"messages": [HumanMessage("What was my average deep sleep?")]},
            config={"configurable": {"user_id": "other"}},
        )
    )
    check(result)


def test_default_tool_node_survives_bad_arguments(agent_memory):
    node = ToolNode(create_memory_tools(agent_memory))
    calls = [
        {"name": "Compute", "args": {"table": "sleep_log", "operator": "bogus"}},
        {
            "name": "Filter",
            "args": {"table": "sleep_log", "column_filters": "x" * 10**6},
        },
        {
            "name": "Rank",
            "args": {"table": "sleep_log", "target_column_expression": "nope"},
        },
    ]
    msg = AIMessage(
        content="", tool_calls=[{**c, "id": f"c{i}"} for i, c in enumerate(calls)]
    )
    graph = StateGraph(MessagesState)
    graph.add_node("tools", node)
    graph.add_edge(START, "tools")
    out = graph.compile().invoke({"messages": [msg]})["messages"][1:]
    assert len(out) == 3 and all(m.status == "error" for m in out)
    assert "operator" in out[0].content
    assert all(len(m.content) < 2000 for m in out)  # no echo of a huge argument
    assert "Unknown column 'nope'" in out[2].content


def test_tools_schema_and_unknown_user(agent_memory):
    tools = {t.name: t for t in agent_memory.tools()}
    assert set(tools) == {"Lookup", "Filter", "Compute", "Rank"}  # retrieval is off
    schema = tools["Compute"].tool_call_schema.model_json_schema()
    assert {"table", "operator", "target_column_expression"} <= set(
        schema["properties"]
    )
    out = tools["Compute"].invoke(
        {"table": "sleep_log", **AVG}, config={"configurable": {"user_id": "ghost"}}
    )
    assert "No memory is stored for user 'ghost'" in out
    assert not agent_memory.has_user("ghost")


def test_retrieval_tools_when_retrieval_is_on(sample_memory):
    tools = {t.name: t for t in sample_memory.tools()}
    assert {"SemanticMatch", "EventLocate"} <= set(tools)
    out = json.loads(
        tools["EventLocate"].invoke(
            {"query_content": "pasta recipe", "result_budget": 2}
        )
    )
    assert len(out["units"]) == 2 and out["units"][0]["neighbours"]
    assert asyncio.run(tools["SemanticMatch"].ainvoke({"query_content": "sleep"}))
