"""The rule planner on tables it has never seen (no names known in advance)."""

from datetime import datetime

import pytest

from langgraph_adamm.planning.context import ColumnCard, PlanningContext, TableCard
from langgraph_adamm.planning.rule_planner import RulePlanner, read_intent

NOW = datetime(2026, 6, 14, 23, 0)

BP = TableCard(
    "diastolic_pulse_systolic_log",
    "Recurring records of diastolic (mmHg), pulse (bpm), systolic (mmHg).",
    40,
    (
        ColumnCard("systolic", "BIGINT", "mmHg", low=110, high=145),
        ColumnCard("diastolic", "BIGINT", "mmHg", low=70, high=95),
        ColumnCard("pulse", "BIGINT", "bpm", low=55, high=80),
    ),
)
FUEL = TableCard(
    "litres_odometer_price_station_log",
    "Recurring records of litres, odometer (km), price (EUR), station.",
    12,
    (
        ColumnCard("station", "VARCHAR", values=("Shell", "Aral", "Total Energies")),
        ColumnCard("litres", "DOUBLE", low=30, high=55),
        ColumnCard("price", "DOUBLE", "EUR", low=50, high=90),
        ColumnCard("odometer", "BIGINT", "km", low=48000, high=50000),
    ),
)
READING = TableCard(
    "book_minutes_pages_log",
    "Recurring records of book, minutes (min), pages.",
    30,
    (
        ColumnCard("book", "VARCHAR", values=("Dune", "Middlemarch")),
        ColumnCard("pages", "BIGINT", low=5, high=80),
        ColumnCard("minutes", "BIGINT", "min", low=10, high=120),
    ),
)
WEIGHT = TableCard(
    "body_fat_weight_log",
    "Recurring records of body_fat (%), weight (kg).",
    40,
    (
        ColumnCard("weight", "DOUBLE", "kg", low=70, high=74),
        ColumnCard("body_fat", "DOUBLE", "%", low=18, high=22),
    ),
)
CONTEXT = PlanningContext(
    tuple((t, 0.0) for t in (BP, FUEL, READING, WEIGHT)), (), "token"
)


def plan(question: str):
    return RulePlanner().plan(question, NOW, CONTEXT)


def filters_of(call) -> dict:
    return {
        (f["column"], f["op"]): f["value"]
        for f in call.arguments["optional_column_filters"]
    }


def test_average_in_a_month():
    call = plan("What was my average systolic pressure in May?").analytic
    assert call is not None and call.tool == "compute"
    assert call.arguments["table"] == BP.name
    assert call.arguments["operator"] == "avg"
    assert call.arguments["target_column_expression"] == "systolic"
    assert filters_of(call)[("time", "between")] == ["2026-05-01", "2026-05-31"]


def test_count_with_categorical_and_value_conditions():
    call = plan("how many fill-ups at Shell cost more than 60 EUR?").analytic
    assert call is not None and call.arguments["operator"] == "count"
    assert call.arguments["table"] == FUEL.name
    f = filters_of(call)
    assert f[("station", "=")] == "Shell"
    assert ("price", ">") in f and "target_column_expression" not in call.arguments


def test_which_day_is_a_rank_returning_the_date():
    call = plan("Which day had my highest diastolic reading?").analytic
    assert call is not None and call.tool == "rank" and call.answer == "date"
    assert call.arguments["target_column_expression"] == "diastolic"
    assert call.arguments["order"] == "desc" and call.arguments["result_budget"] == 1


def test_which_column_is_a_rank_returning_that_column():
    call = plan("which book had the longest reading session in minutes?").analytic
    assert call is not None and call.tool == "rank"
    assert call.answer == "column" and call.answer_column == "book"
    assert call.arguments["target_column_expression"] == "minutes"


def test_sum_since_a_day_of_this_month():
    call = plan("total litres since the 3rd").analytic
    assert call is not None and call.arguments["operator"] == "sum"
    assert call.arguments["target_column_expression"] == "litres"
    # a range that ends today ends at the question's time
    assert filters_of(call)[("time", "between")] == [
        "2026-06-03",
        "2026-06-14T23:00:00",
    ]


def test_latest_and_change_between_two_dates():
    latest = plan("what's my current weight").analytic
    assert latest is not None and latest.arguments["operator"] == "latest"
    assert latest.arguments["target_column_expression"] == "weight"
    change = plan("how did my weight change between May 3 and May 20?").analytic
    assert change is not None and change.arguments["operator"] == "change"
    assert filters_of(change)[("time", "between")] == ["2026-05-03", "2026-05-20"]


def test_ratio_of_two_columns_with_a_value_filter():
    call = plan("on average how many pages per minute did I read in Dune").analytic
    assert call is not None and call.arguments["operator"] == "avg"
    assert call.arguments["target_column_expression"] == "pages / minutes"
    assert filters_of(call)[("book", "=")] == "Dune"


def test_value_condition_goes_to_the_column_of_its_unit():
    call = plan("number of days with body fat under 20%").analytic
    assert call is not None and call.arguments["operator"] == "count"
    assert filters_of(call)[("body_fat", "<")] == 20.0


@pytest.mark.parametrize(
    ("question", "tool"),
    [
        ("when did I meet Anna for coffee?", "event_locate"),
        ("what did you recommend for my knee?", "semantic_match"),
        ("xyzzy plugh", "semantic_match"),
    ],
)
def test_questions_without_an_analytic_form_go_to_retrieval(question, tool):
    decided = plan(question)
    assert decided.analytic is None and decided.retrieval_tool == tool


def test_nothing_to_map_goes_to_retrieval_with_a_note():
    decided = plan("average number of dragons slain in May")
    assert decided.analytic is None and decided.notes


def test_intent_reads_count_versus_quantity():
    assert read_intent("how many km did i drive", NOW).operator == "sum"
    assert read_intent("how many hours did I sleep on average", NOW).operator == "avg"
    counted = read_intent("number of days with pulse above 70", NOW)
    assert counted.operator == "count" and counted.count_noun == "days"
    assert counted.conditions[0].op == ">" and counted.conditions[0].number == 70
