"""Planner, progressive instantiation and reader driven by scripted chat models."""

import json

import pytest
from conftest import structured

from langgraph_adamm.graphs import create_query_graph


def j(obj) -> str:
    return json.dumps(obj)


def plan(*steps):
    return j({"steps": [{"goal": g, "tool": t} for g, t in steps]})


AVG_SLEEP = {
    "table": "sleep_log",
    "operator": "avg",
    "target_column_expression": "total_sleep",
}
READER = j({"answer": "About 6.69 hours on average.", "evidence": ["S1:1", "Z9:9"]})


def run(memory, model, question="What was my average total sleep?", **options):
    options.setdefault("forms", False)  # the free planner (forms: test_form_fill)
    graph = create_query_graph(
        memory, model=model, rules_first=False, **options
    ).compile()
    return graph.invoke({"question": question, "question_time": "2026-03-30T21:00"})


def test_valid_plan_instantiated_progressively(sample_memory):
    model = structured(
        [
            plan(("find the first sleep log", "event_locate"), ("average", "compute")),
            j({"query_content": "sleep dashboard", "result_budget": 2}),
            j(AVG_SLEEP),
            READER,
        ]
    )
    out = run(sample_memory, model)
    assert [s["tool"] for s in out["steps"]] == ["event_locate", "compute"]
    assert out["value"] == pytest.approx(6.689285714285715) and out["unit"] == "h"
    assert out["answer"] == "About 6.69 hours on average."
    assert out["evidence"] == ["S1:1"]  # an id no tool returned is dropped
    # step 2 was instantiated after step 1 ran, seeing its results
    assert "step 1: event_locate" in model.prompts[2]
    assert sum(s["cost"] for s in out["steps"]) <= 10


def test_unknown_table_goes_back_to_the_model_once(sample_memory):
    model = structured(
        [
            plan(("average total sleep", "compute")),
            j({**AVG_SLEEP, "table": "slep_log"}),
            j(AVG_SLEEP),
            READER,
        ]
    )
    out = run(sample_memory, model)
    assert out["value"] == pytest.approx(6.689285714285715)
    assert "Did you mean 'sleep_log'" in model.prompts[2]
    assert any("sent back for repair" in n for n in out["notes"])


def test_a_second_bad_call_is_reported_not_raised(sample_memory):
    model = structured(
        [
            plan(("average", "compute")),
            j({**AVG_SLEEP, "table": "slep_log"}),
            j({**AVG_SLEEP, "table": "still_wrong"}),
            j({"answer": "I could not compute it.", "evidence": []}),
        ]
    )
    out = run(sample_memory, model)
    assert out["steps"][0]["error"].startswith("Unknown table 'still_wrong'")
    assert out["value"] is None and out["answer"] == "I could not compute it."


def test_malformed_output_is_retried_then_answered(sample_memory):
    model = structured(["not json", j({"steps": []}), j({"steps": [{"tool": "sql"}]})])
    out = run(sample_memory, model)
    assert "not a valid plan after 3 attempts" in out["answer"]
    assert out["value"] is None and out["steps"] == []
    assert len(model.prompts) == 3 and "not valid" in model.prompts[1]


def test_malformed_arguments_and_reader_fall_back_cleanly(sample_memory):
    model = structured(
        [
            plan(("average", "compute")),
            "{",
            j({"table": "sleep_log"}),
            j({"operator": "avg"}),
            "no json",
            "still none",
            "nope",
        ]
    )
    out = run(sample_memory, model)
    assert "no valid arguments" in out["steps"][0]["error"]
    assert any("reader's output was invalid" in n for n in out["notes"])
    assert out["answer"]  # the template reading, never an exception


def test_plan_over_the_limits_is_cut_to_fit(sample_memory):
    five = plan(*[("look", "semantic_match")] * 5)
    model = structured(
        [
            five,
            j({"query_content": "sleep", "result_budget": 50}),
            j({"query_content": "sleep", "result_budget": 50}),
            j({"query_content": "workout", "result_budget": 1}),
            READER,
        ]
    )
    out = run(sample_memory, model)
    assert len(out["plan"]) == 3 and any("cut from 5 to 3" in n for n in out["notes"])
    assert (
        "only 10 of the shared budget" in model.prompts[2]
        or "only 10" in (model.prompts[2])
    )
    assert out["steps"][0]["arguments"]["result_budget"] == 10  # cut to fit
    assert sum(s["cost"] for s in out["steps"]) <= 10
    # the budget is spent after step 1: the loop ends before step 3
    assert len(out["steps"]) <= 2


def test_without_progressive_execution_all_arguments_come_first(sample_memory):
    model = structured(
        [
            plan(("find sleep logs", "semantic_match"), ("average", "compute")),
            j({"query_content": "sleep", "result_budget": 3}),
            j(AVG_SLEEP),
            READER,
        ]
    )
    out = run(sample_memory, model, progressive=False)
    assert [s["tool"] for s in out["steps"]] == ["semantic_match", "compute"]
    assert all("before any tool runs" in p for p in model.prompts[1:3])
    assert out["value"] == pytest.approx(6.689285714285715)


def test_switched_off_memory_is_not_offered(sample_memory):
    model = structured(
        [plan(("average", "compute")), j({"answer": "no", "evidence": []})]
    )
    out = run(sample_memory, model, analytic=False)
    assert "- compute:" not in model.prompts[0].split("Tools:")[1]
    assert "no available tool" in out["answer"]


def test_a_question_the_rules_read_whole_never_reaches_the_model(sample_memory):
    model = structured(["not json at all"] * 5)  # a model that only errs
    graph = create_query_graph(sample_memory, model=model).compile()
    out = graph.invoke(
        {
            "question": "What was my average total sleep?",
            "question_time": "2026-03-30T21:00",
        }
    )
    assert model.prompts == []  # never asked
    assert out["planned_by"] == "rules"
    offline = (
        create_query_graph(sample_memory)
        .compile()
        .invoke(
            {
                "question": "What was my average total sleep?",
                "question_time": "2026-03-30T21:00",
            }
        )
    )
    assert out["value"] == offline["value"] and out["value"] is not None
    assert any("model was not asked" in n for n in out["notes"])


def test_what_the_rules_cannot_read_goes_to_the_model_and_is_said(sample_memory):
    question = "What was my average total sleep on the beach?"
    rules = (
        create_query_graph(sample_memory)
        .compile()
        .invoke({"question": question, "question_time": "2026-03-30T21:00"})
    )
    assert rules["value"] is None and rules["unresolved"]  # 'beach' unread
    model = structured([plan(("average sleep", "compute")), j(AVG_SLEEP), READER])
    graph = create_query_graph(sample_memory, model=model, forms=False).compile()
    out = graph.invoke({"question": question, "question_time": "2026-03-30T21:00"})
    assert out["planned_by"] == "model" and len(model.prompts) == 3
    assert out["value"] is not None
    # the model's figure is said to be the model's reading, with what the
    # rules could not use
    assert "model's reading" in out["answer"] and "beach" in out["answer"]
