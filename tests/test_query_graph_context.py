"""The query graph in LangGraph's idioms: run context, reducers, async nodes."""

import asyncio
import json
from typing import Any

import pytest
from conftest import RecordingModel
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_adamm import Memory
from langgraph_adamm.graphs import create_query_graph
from langgraph_adamm.graphs.run_context import AdaMMContext
from langgraph_adamm.graphs.state import appended, replaced

OTHER_AVG = (2 + 2.5 + 2.2 + 2.1 + 2.4) / 5
AVG_SLEEP = {
    "table": "sleep_log",
    "operator": "avg",
    "target_column_expression": "total_sleep",
}
READER = json.dumps({"answer": "About 6.69 hours on average.", "evidence": ["S1:1"]})
QUESTION = {"question": "What was my average deep sleep?"}


def test_appended_extends_and_replaced_starts_over():
    assert appended(None, ["a"]) == ["a"]
    assert appended(["a"], ["b", "c"]) == ["a", "b", "c"]
    assert appended(["a"], []) == ["a"]
    assert appended(["a", "b"], replaced(["z"])) == ["z"]
    assert appended(["a"], replaced([])) == []


def test_run_context_gives_the_memory_and_the_user(sample_db):
    graph = create_query_graph().compile()
    with Memory(sample_db, user_id="demo") as mem:
        by_config = graph.invoke(
            {"question": "What was my latest resting heart rate?"},
            config={"configurable": {"memory": mem}},
        )
        by_context = graph.invoke(
            {"question": "What was my latest resting heart rate?"},
            context=AdaMMContext(memory=mem),
        )
        other = graph.invoke(
            QUESTION, context=AdaMMContext(memory=mem, user_id="other")
        )
        # the input's user_id wins over the run context's
        own = graph.invoke(
            {**QUESTION, "user_id": "demo"},
            context=AdaMMContext(memory=mem, user_id="other"),
        )
    assert by_context["value"] == by_config["value"] == 51
    assert other["value"] == pytest.approx(OTHER_AVG)
    assert own["value"] != pytest.approx(OTHER_AVG)


def test_context_user_over_configurable_user(sample_memory):
    graph = create_query_graph(sample_memory).compile()
    out = graph.invoke(
        QUESTION,
        config={"configurable": {"user_id": "nobody"}},
        context=AdaMMContext(user_id="other"),
    )
    assert out["value"] == pytest.approx(OTHER_AVG)


def test_a_checkpointed_thread_starts_each_question_over(sample_memory):
    fresh = create_query_graph(sample_memory).compile()
    graph = create_query_graph(sample_memory).compile(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "t1"}}
    first_q = {"question": "average deep sleep in January 2026"}  # two steps
    second_q = {"question": "What was my highest resting heart rate?"}
    first = graph.invoke(first_q, thread)
    second = graph.invoke(second_q, thread)
    assert first == fresh.invoke(first_q)
    assert second == fresh.invoke(second_q)
    assert [s["tool"] for s in second["steps"]] == ["compute"]
    assert graph.get_state(thread).values["steps"] == second["steps"]


class AsyncRecordingModel(RecordingModel):
    """Records which calls came through the async path (``ainvoke``)."""

    async_calls: int = 0

    async def _agenerate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Any:  # type: ignore[override]
        self.async_calls += 1
        return self._generate(messages, stop=stop, run_manager=None, **kw)


def script() -> list[str]:
    plan = {"steps": [{"goal": "average total sleep", "tool": "compute"}]}
    return [json.dumps(plan), json.dumps(AVG_SLEEP), READER]


def test_ainvoke_awaits_the_model_calls(sample_memory):
    question = {"question": "What was my average total sleep?"}
    sync_model = AsyncRecordingModel(messages=iter(script()), prompts=[])
    sync = create_query_graph(
        sample_memory, model=sync_model, rules_first=False
    ).compile()
    expected = sync.invoke(question)
    assert sync_model.async_calls == 0

    model = AsyncRecordingModel(messages=iter(script()), prompts=[])
    graph = create_query_graph(sample_memory, model=model, rules_first=False).compile()
    out = asyncio.run(graph.ainvoke(question))
    # planner, instantiation and reader: each awaited, none run in a thread
    assert model.async_calls == 3
    assert out == expected
    assert model.prompts == sync_model.prompts


def test_ainvoke_awaits_up_front_instantiation(sample_memory):
    question = {"question": "What was my average total sleep?"}
    sync_model = AsyncRecordingModel(messages=iter(script()), prompts=[])
    expected = (
        create_query_graph(
            sample_memory, model=sync_model, progressive=False, rules_first=False
        )
        .compile()
        .invoke(question)
    )
    model = AsyncRecordingModel(messages=iter(script()), prompts=[])
    graph = create_query_graph(
        sample_memory, model=model, progressive=False, rules_first=False
    )
    out = asyncio.run(graph.compile().ainvoke(question))
    assert model.async_calls == 3 and out == expected
