"""A model fills question forms; the forms build the plans in code.

A scripted model stands in for the chat model. The memory is two months of a
dog's walks (distance, minutes, park) and the day the family moved; expected
values are computed here from the records written.
"""

import asyncio
import json
from datetime import date, timedelta

import pytest
from conftest import structured

from langgraph_adamm import Memory
from langgraph_adamm.graphs import create_query_graph
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.planning.form_fill import FormFill
from langgraph_adamm.schemas import strict_violations

START = date(2026, 4, 1)
NOW = "2026-05-31T22:00:00"
PARKS = ["Riverside", "Hill Park"]
MOVED = START + timedelta(days=30)  # May 1st


def walk(i):
    return (START + timedelta(days=i), round(2.0 + (i * 7 % 9) / 4, 2), PARKS[i % 2])


WALKS = [walk(i) for i in range(61)]


@pytest.fixture(scope="module")
def mem():
    sessions = []
    for i, (d, km, park) in enumerate(WALKS):
        rounds = [
            {
                "time": f"{d}T08:00:00",
                "user": f"Walk log - distance: {km} km, park: {park}.",
                "assistant": "Good walk!",
            }
        ]
        if d == MOVED:
            rounds.append(
                {
                    "time": f"{d}T20:00:00",
                    "user": "We finally moved into the new flat today, boxes "
                    "everywhere.",
                    "assistant": "Congratulations on the move!",
                }
            )
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    m = Memory(":memory:", user_id="owner")
    m.ingest(history_from_dict({"user_id": "owner", "sessions": sessions}))
    yield m
    m.close()


@pytest.fixture(scope="module")
def table(mem):
    return next(t.table_name for t in mem.tables if t.column("park"))


def j(obj):
    return json.dumps(obj)


def ask(mem, model, question, *, rules_first=False, run_async=False):
    graph = create_query_graph(mem, model=model, rules_first=rules_first).compile()
    state = {"question": question, "question_time": NOW}
    if run_async:
        return asyncio.run(graph.ainvoke(state))
    return graph.invoke(state)


def kms(rows):
    return [km for _, km, _ in rows]


def may(rows):
    return [r for r in rows if r[0].month == 5]


def test_the_form_is_a_strict_schema():
    assert strict_violations(FormFill.model_json_schema()) == []


def test_a_value_form_builds_the_plan_and_no_step_is_asked_of_the_model(mem, table):
    question = "How far did I walk at Riverside in May?"
    fill = {
        "form": "value",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "measure_span": "how far",
        "filters": [{"column": "park", "value": "Riverside", "span": "Riverside"}],
        "period": {"start": "2026-05-01", "end": "2026-05-31", "span": "in May"},
    }
    model = structured([j(fill)])
    out = ask(mem, model, question)
    want = sum(km for _, km, park in may(WALKS) if park == "Riverside")
    assert out["value"] == pytest.approx(want)
    assert out["unresolved"] == []
    assert len(model.prompts) == 1  # the form only: steps are built, not asked
    assert any("filled by the model" in n for n in out["notes"])
    assert f"table {table}" in model.prompts[0] and "Riverside" in model.prompts[0]


def test_the_sync_and_async_paths_agree(mem, table):
    fill = {
        "form": "value",
        "table": table,
        "operator": "avg",
        "measure": "distance",
        "period": {"start": "2026-04-01", "end": "2026-04-30", "span": "in April"},
    }
    question = "What was my average walk distance in April?"
    sync = ask(mem, structured([j(fill)]), question)
    done = ask(mem, structured([j(fill)]), question, run_async=True)
    april = [km for d, km, _ in WALKS if d.month == 4]
    assert sync["value"] == done["value"] == pytest.approx(sum(april) / len(april))


def test_an_unknown_table_or_column_goes_back_once(mem, table):
    good = {
        "form": "value",
        "table": table,
        "operator": "max",
        "measure": "distance",
        "measure_span": "longest",
    }
    model = structured([j({**good, "measure": "length"}), j(good)])
    out = ask(mem, model, "What was my longest walk?")
    assert out["value"] == pytest.approx(max(kms(WALKS)))
    assert "'length' is no column" in model.prompts[1]
    assert "distance" in model.prompts[1]  # the columns it may use


def test_a_form_that_never_holds_leaves_the_rules_reading(mem):
    bad = {"form": "value", "table": "no_such_table", "operator": "sum"}
    model = structured([j(bad), j(bad)])
    question = "How far did I walk on the beach in May?"
    out = ask(mem, model, question)
    offline = (
        create_query_graph(mem)
        .compile()
        .invoke({"question": question, "question_time": NOW})
    )
    assert out["planned_by"] == "rules"
    assert out["value"] == offline["value"] and out["value"] is None
    assert any("form was not used" in n for n in out["notes"])


def test_a_value_no_row_holds_is_reported_not_swapped(mem, table):
    fill = {
        "form": "value",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "filters": [{"column": "park", "value": "Beach", "span": "on the beach"}],
        "period": {"start": "2026-05-01", "end": "2026-05-31", "span": "in May"},
    }
    model = structured([j(fill)])
    out = ask(mem, model, "How far did I walk on the beach in May?")
    assert len(model.prompts) == 1  # no repair: a repair would swap the value
    assert out["value"] is None
    assert any("Beach" in u for u in out["unresolved"])


def test_a_word_no_slot_used_withholds_the_figure(mem, table):
    # the model leaves "muddy" out: the accounting of words reports it
    fill = {
        "form": "value",
        "table": table,
        "operator": "avg",
        "measure": "distance",
        "period": {"start": "2026-05-01", "end": "2026-05-31", "span": "in May"},
    }
    out = ask(mem, structured([j(fill)]), "How long were my muddy walks in May?")
    assert out["value"] is None
    assert any("muddy" in u for u in out["unresolved"])


def test_a_value_its_span_does_not_name_is_reported(mem, table):
    # "after we moved" is in the question, but it names no park
    fill = {
        "form": "value",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "filters": [{"column": "park", "value": "Riverside", "span": "after we moved"}],
    }
    out = ask(mem, structured([j(fill)]), "How far did I walk after we moved?")
    assert out["value"] is None
    assert any("does not name it" in u for u in out["unresolved"])


def test_a_span_the_question_does_not_say_is_reported(mem, table):
    fill = {
        "form": "value",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "period": {"start": "2026-05-01", "end": "2026-05-31", "span": "in June"},
    }
    out = ask(mem, structured([j(fill)]), "How far did I walk in total?")
    assert out["value"] is None
    assert any("does not say" in u for u in out["unresolved"])


def test_a_comparison_builds_two_steps_and_a_combine(mem, table):
    fill = {
        "form": "compare",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "period": {"start": "2026-05-01", "end": "2026-05-31", "span": "in May"},
        "other": {
            "period": {"start": "2026-04-01", "end": "2026-04-30", "span": "April"}
        },
        "combine": "difference",
    }
    question = "How much further did I walk in May than in April?"
    out = ask(mem, structured([j(fill)]), question)
    april = sum(km for d, km, _ in WALKS if d.month == 4)
    assert [s["tool"] for s in out["steps"]] == ["compute", "compute", "combine"]
    assert out["value"] == pytest.approx(sum(kms(may(WALKS))) - april)


def test_an_event_bounds_the_period_by_the_day_it_is_found(mem, table):
    fill = {
        "form": "value",
        "table": table,
        "operator": "count",
        "event": {
            "relation": "since",
            "event": "we moved into the new flat",
            "span": "since we moved",
        },
    }
    out = ask(mem, structured([j(fill)]), "How many walks since we moved?")
    assert [s["tool"] for s in out["steps"]] == ["event_locate", "compute"]
    assert out["value"] == len([d for d, _, _ in WALKS if d >= MOVED])


def test_the_top_group(mem, table):
    fill = {
        "form": "top_group",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "group": "park",
        "group_span": "which park",
    }
    out = ask(mem, structured([j(fill)]), "Which park did I walk furthest in?")
    totals = {p: sum(km for _, km, park in WALKS if park == p) for p in PARKS}
    assert out["steps"][0]["tool"] == "rank"
    assert max(totals, key=totals.get) in out["answer"]


def test_a_reading_other_than_the_rules_is_said_not_stated(mem, table):
    # the rules read "beach" as unknown and "distance"; the model counts walks
    fill = {
        "form": "value",
        "table": table,
        "operator": "count",
        "filters": [],
    }
    out = ask(
        mem,
        structured([j(fill)]),
        "What was my average walk distance on the beach?",
        rules_first=True,
    )
    assert out["value"] is None
    assert any("what is measured" in u for u in out["unresolved"])


def test_a_share_of_the_whole(mem, table):
    fill = {
        "form": "share",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "measure_span": "walking distance",
        "part": {"column": "park", "value": "Hill Park", "span": "at Hill Park"},
        "period": {"start": "2026-05-01", "end": "2026-05-31", "span": "in May"},
    }
    question = "What share of my walking distance in May was at Hill Park?"
    out = ask(mem, structured([j(fill)]), question)
    hill = sum(km for _, km, park in may(WALKS) if park == "Hill Park")
    assert out["steps"][-1]["tool"] == "combine"
    assert out["value"] == pytest.approx(100 * hill / sum(kms(may(WALKS))))


def test_a_question_not_about_the_records_is_recalled(mem):
    out = ask(
        mem,
        structured([j({"form": "not_records"})]),
        "Where did we move to?",
    )
    assert [s["tool"] for s in out["steps"]] == ["semantic_match"]
    assert out["value"] is None


def test_a_form_that_builds_no_step_leaves_the_rules_reading(mem, table):
    # side two names a park no row holds: nothing to compare, no crash
    fill = {
        "form": "compare",
        "table": table,
        "operator": "sum",
        "measure": "distance",
        "filters": [{"column": "park", "value": "Riverside", "span": "Riverside"}],
        "other": {"filter": {"column": "park", "value": "Beach", "span": "beach"}},
        "combine": "difference",
    }
    for run_async in (False, True):
        out = ask(
            mem,
            structured([j(fill)]),
            "Did I walk further at Riverside than on the beach?",
            run_async=run_async,
        )
        assert out["planned_by"] == "rules" and out["value"] is None
        assert any("built no step" in n for n in out["notes"])


@pytest.mark.parametrize(
    "question, fill, said",
    [
        # the question's event, left out of the form
        (
            "How many walks since we moved?",
            {"form": "value", "operator": "count"},
            "no slot of the form reads it",
        ),
        # a period left out
        (
            "How many walks in April?",
            {"form": "value", "operator": "count"},
            "no slot of the form reads it",
        ),
        # a condition left out
        (
            "How many walks longer than 3 km?",
            {"form": "value", "operator": "count"},
            "no slot of the form reads it",
        ),
        # April's days under the span "in May"
        (
            "How far did I walk in May?",
            {
                "form": "value",
                "operator": "sum",
                "measure": "distance",
                "period": {
                    "start": "2026-04-01",
                    "end": "2026-04-30",
                    "span": "in May",
                },
            },
            "which says 2026-05-01..2026-05-31",
        ),
        # "since" for "before"
        (
            "How many walks before we moved?",
            {
                "form": "value",
                "operator": "count",
                "event": {
                    "relation": "since",
                    "event": "we moved",
                    "span": "before we moved",
                },
            },
            "says before",
        ),
    ],
)
def test_a_part_the_form_misread_or_left_out_gives_no_number(
    mem, table, question, fill, said
):
    out = ask(mem, structured([j({**fill, "table": table})]), question)
    assert out["value"] is None
    assert any(said in u for u in out["unresolved"]), out["unresolved"]


def test_another_operator_than_the_rules_read_is_said(mem, table):
    fill = {"form": "value", "table": table, "operator": "min", "measure": "distance"}
    out = ask(mem, structured([j(fill)]), "What was my longest walk?")
    assert out["value"] is None
    assert any("what is measured" in u for u in out["unresolved"])
