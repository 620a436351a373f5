"""The query graph offline: rule planner, tool execution under the budget, reader."""

import asyncio
import json
from importlib import resources

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.cli import matches_gold
from langgraph_adamm.graphs import create_query_graph
from langgraph_adamm.history import read_questions

NOW = "2026-03-30T21:00:00"


def sample_questions():
    path = resources.files("langgraph_adamm") / "data" / "sample_questions.jsonl"
    with resources.as_file(path) as p:
        return read_questions(p)


def test_sample_questions_are_answered_exactly(sample_memory):
    for q in sample_questions():
        out = sample_memory.ask(q.question, question_time=q.question_time)
        assert matches_gold(out, q.extra["gold"]), (q.question, out["answer"])
        assert out["evidence"] and set(out["evidence"]) <= set(
            r for s in out["steps"] for r in s["evidence"]
        )
        assert out["plan"] and len(out["plan"]) <= 3
        json.dumps(out)  # JSON-ready for servers and checkpointers


def test_answer_states_value_unit_and_rounds(sample_memory):
    out = sample_memory.ask("What was my highest resting heart rate?")
    assert out["value"] == 66 and out["unit"] == "bpm"
    assert "66 bpm" in out["answer"] and "S5:5" in out["answer"]
    assert out["steps"][0]["tool"] == "compute" and out["steps"][0]["cost"] == 1


def test_relative_dates_use_question_time(sample_memory):
    week = sample_memory.ask(
        "avg deep sleep last week?", question_time="2026-03-18T09:00"
    )
    between = sample_memory.ask(
        "average deep sleep between 2026-03-09 and 2026-03-15", question_time=NOW
    )
    assert week["value"] == pytest.approx(between["value"])
    assert week["evidence"] == between["evidence"]


@pytest.mark.parametrize("question", ["", "   ", None])
def test_empty_question_gets_an_answer_not_an_exception(sample_memory, question):
    out = sample_memory.ask(question)
    assert "empty" in out["answer"] and out["value"] is None and out["steps"] == []


def test_too_long_question_and_bad_time(sample_memory):
    assert "limit" in sample_memory.ask("x" * 5000)["answer"]
    out = sample_memory.ask("average deep sleep", question_time="next tuesday-ish")
    assert "question_time" in out["answer"] and out["value"] is None


def test_unknown_user_and_empty_memory(sample_memory):
    out = sample_memory.ask("average deep sleep?", user_id="nobody")
    assert "nobody" in out["answer"] and out["value"] is None
    assert not sample_memory.has_user("nobody")  # asking created nothing
    with Memory(":memory:", user_id="fresh", retrieval=False) as empty:
        out = empty.ask("what was my average sleep?")
        assert "empty" in out["answer"] and out["value"] is None


def test_nonsense_question_is_answered_from_retrieval(sample_memory):
    out = sample_memory.ask("purple elephants quantum banjo?")
    assert [s["tool"] for s in out["plan"]] == ["semantic_match"]
    assert out["value"] is None and "closest memories" in out["answer"]
    assert out["steps"][0]["cost"] <= 10


def test_no_rows_falls_back_to_retrieval_within_the_budget(sample_memory):
    out = sample_memory.ask("average deep sleep in January 2026", question_time=NOW)
    tools = [s["tool"] for s in out["plan"]]
    assert tools == ["compute", "semantic_match"]
    assert sum(s["cost"] for s in out["steps"]) <= 10
    assert out["steps"][1]["arguments"]["result_budget"] == 9  # 10 minus compute


def test_budget_is_shared_and_no_step_exceeds_what_is_left(sample_db):
    config = AdaMMConfig(shared_budget=3)
    with Memory(sample_db, user_id="demo", config=config) as mem:
        out = mem.ask("tell me about the hiking trip")
        assert sum(s["cost"] for s in out["steps"]) <= 3
        assert out["steps"][0]["arguments"]["result_budget"] <= 3


def test_user_namespace_from_config(sample_db):
    with Memory(sample_db, user_id="demo") as mem:
        graph = create_query_graph(mem).compile()
        question = {"question": "What was my average deep sleep?"}
        own = graph.invoke(question)
        other = graph.invoke(question, config={"configurable": {"user_id": "other"}})
        assert other["value"] == pytest.approx((2 + 2.5 + 2.2 + 2.1 + 2.4) / 5)
        assert own["value"] != pytest.approx(other["value"])
        # the input's user_id wins over the configuration's
        again = graph.invoke({**question, "user_id": "other"})
        assert again["value"] == pytest.approx(other["value"])
        # a server without auth sends "", which means "not given"
        blank = graph.invoke(question, config={"configurable": {"user_id": ""}})
        assert blank["value"] == pytest.approx(own["value"])


def test_graph_takes_its_memory_from_config(sample_db):
    graph = create_query_graph().compile()
    with Memory(sample_db, user_id="demo") as mem:
        out = graph.invoke(
            {"question": "What was my latest resting heart rate?"},
            config={"configurable": {"memory": mem}},
        )
    assert out["value"] == 51


def test_async_ask_matches_sync(sample_memory):
    question = "How much did I spend on food in total?"
    sync = sample_memory.ask(question)
    result = asyncio.run(sample_memory.aask(question))
    assert result["value"] == sync["value"] == pytest.approx(141.99)


def test_ablation_switches(sample_memory):
    q = "What was my average total sleep between 2026-03-01 and 2026-03-30?"
    no_analytic = sample_memory.ask(q, analytic=False)
    assert {s["tool"] for s in no_analytic["plan"]} <= {
        "semantic_match",
        "event_locate",
    }
    assert no_analytic["value"] is None
    whole = sample_memory.ask(q, planning_context=False)
    assert whole["value"] == pytest.approx(6.689285714285715)
    assert any("whole memory metadata" in n for n in whole["notes"])
    upfront = sample_memory.ask(q, progressive=False)
    assert upfront["value"] == pytest.approx(6.689285714285715)
    no_retrieval = sample_memory.ask("purple elephants quantum banjo?", retrieval=False)
    assert (
        no_retrieval["steps"] == []
        and "retrieval memory is off" in no_retrieval["answer"]
    )


def test_token_only_context_is_said_in_the_plan(sample_db):
    with Memory(sample_db, user_id="demo", retrieval=False) as mem:
        out = mem.ask("What was my highest resting heart rate?")
    assert out["value"] == 66
    assert any("token similarity only" in n for n in out["notes"])


def test_rerank_stage_runs_before_the_reader(sample_memory):
    seen = []

    def rerank(question, steps):
        seen.append((question, len(steps)))
        return steps

    graph = create_query_graph(sample_memory, rerank=rerank).compile()
    out = graph.invoke({"question": "What was my highest resting heart rate?"})
    assert out["value"] == 66 and seen == [
        ("What was my highest resting heart rate?", 1)
    ]
