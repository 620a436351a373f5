"""Questions beyond one operation: anchored periods, comparisons, groups, dates.

One two-month memory of sleep and coffee records with two life events told in
chat; every expected value is computed here from the records the test wrote.
"""

import json
from datetime import date, timedelta

import pytest
from conftest import structured

from langgraph_adamm import Memory, ToolInputError
from langgraph_adamm.graphs import create_query_graph
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.planning.anchors import find_anchors
from langgraph_adamm.planning.steps import (
    ReferenceError_,
    resolve_arguments,
)

START = date(2026, 3, 1)
MOVE = date(2026, 3, 20)
JOB = date(2026, 4, 13)
CAFES = ["Blue Door", "Nero", "Luna"]
DRINKS = ["latte", "flat white", "espresso", "latte"]
NOW = "2026-04-30T22:00:00"


def day_records(i: int):
    d = START + timedelta(days=i)
    sleep = round(6.0 + (i * 7 % 11) / 5, 1)
    cafe = CAFES[i % 3]
    drink = DRINKS[i % 4]
    price = round(2.5 + (i * 5 % 9) / 4, 2)
    return d, sleep, cafe, drink, price


RECORDS = [
    day_records(i) for i in range(61) if START + timedelta(days=i) not in (MOVE, JOB)
]


def build_history():
    sessions = []
    for i in range(61):
        d = START + timedelta(days=i)
        if d == MOVE:
            rounds = [
                {
                    "time": f"{d}T18:00:00",
                    "user": "Finally got the keys! We spent the whole day hauling "
                    "boxes into the new flat.",
                    "assistant": "Congratulations on the new home!",
                }
            ]
        elif d == JOB:
            rounds = [
                {
                    "time": f"{d}T19:00:00",
                    "user": "First day at the new job today, my new colleagues "
                    "seem nice.",
                    "assistant": "A great start!",
                }
            ]
        else:
            _, sleep, cafe, drink, price = day_records(i)
            rounds = [
                {
                    "time": f"{d}T07:30:00",
                    "user": f"Sleep dashboard. Total sleep: {sleep} h, deep sleep: "
                    f"{round(sleep / 6, 1)} h",
                    "assistant": "Noted.",
                },
                {
                    "time": f"{d}T09:00:00",
                    "user": f"coffee - cafe: {cafe} | drink: {drink} | "
                    f"price: {price} EUR",
                    "assistant": "Logged.",
                },
                {
                    "time": f"{d}T20:00:00",
                    "user": ["Made pasta tonight.", "Grim weather.", "Film night."][
                        i % 3
                    ],
                    "assistant": "Sounds nice.",
                },
            ]
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    return history_from_dict({"user_id": "c", "sessions": sessions})


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="c")
    m.ingest(build_history())
    yield m
    m.close()


def ask(mem, question):
    return mem.ask(question, question_time=NOW)


def prices(pred):
    return [p for d, _, c, k, p in RECORDS if pred(d, c, k)]


def sleeps(pred):
    return [s for d, s, *_ in RECORDS if pred(d)]


# -- anchored periods ------------------------------------------------------------
def test_since_an_event_bounds_the_total_and_names_the_event(mem):
    out = ask(mem, "How much have I spent on coffee since we moved into the new flat?")
    want = sum(prices(lambda d, c, k: d >= MOVE))
    assert out["value"] == pytest.approx(want) and out["unit"] == "EUR"
    assert [s["tool"] for s in out["steps"]] == ["event_locate", "compute"]
    # the reference was resolved after EventLocate ran: the step shows the day
    flt = out["steps"][1]["arguments"]["optional_column_filters"][0]
    assert flt["value"] == [MOVE.isoformat(), NOW]
    assert out["steps"][1]["references"] == {"$1.day": MOVE.isoformat()}
    assert "anchored on 2026-03-20" in out["answer"] and "S20:1" in out["answer"]
    assert out["unresolved"] == []


def test_between_two_events_and_the_week_before_one(mem):
    out = ask(
        mem,
        "How many coffees did I buy between moving into the new flat and "
        "starting the new job?",
    )
    assert out["value"] == len(prices(lambda d, c, k: MOVE <= d <= JOB))
    assert [s["tool"] for s in out["steps"]] == [
        "event_locate",
        "event_locate",
        "compute",
    ]
    out = ask(
        mem,
        "What was my average total sleep in the week before we moved "
        "into the new flat?",
    )
    want = sleeps(lambda d: MOVE - timedelta(days=7) <= d <= MOVE - timedelta(days=1))
    assert out["value"] == pytest.approx(sum(want) / len(want))


def test_an_unknown_event_is_reported_and_no_number_is_stated(mem):
    out = ask(mem, "How much did I spend on coffee since my wedding?")
    assert out["value"] is None
    assert any("my wedding" in u for u in out["unresolved"])
    assert "could not use" in out["answer"]
    # the step that needed the event did not run, and says why
    assert "could not be resolved" in out["steps"][1]["error"]


# -- two sides compared ------------------------------------------------------------
def test_two_months_compared_yes_no_with_both_values(mem):
    out = ask(mem, "Did I sleep more in April than in March?")
    april = sleeps(lambda d: d.month == 4)
    march = sleeps(lambda d: d.month == 3)
    a, m = sum(april) / len(april), sum(march) / len(march)
    assert out["value"] is (a > m)
    assert [s["tool"] for s in out["steps"]] == ["compute", "compute", "combine"]
    combined = out["steps"][2]["result"]
    assert combined["left"]["value"] == pytest.approx(a)
    assert combined["right"]["value"] == pytest.approx(m)
    assert out["answer"].startswith("Yes" if a > m else "No")
    # the combined value rests on the evidence of both sides
    assert set(out["steps"][0]["evidence"]) | set(out["steps"][1]["evidence"]) >= set(
        out["evidence"]
    )


def test_how_much_more_and_percent_change(mem):
    april = sum(prices(lambda d, c, k: d.month == 4))
    march = sum(prices(lambda d, c, k: d.month == 3))
    out = ask(mem, "How much more did I spend on coffee in April than in March?")
    assert out["value"] == pytest.approx(april - march) and out["unit"] == "EUR"
    out = ask(mem, "By what percent did my coffee spending change from March to April?")
    assert out["value"] == pytest.approx((april - march) / march * 100)
    assert out["unit"] == "%"


def test_two_groups_compared(mem):
    out = ask(mem, "Is my average coffee price higher at Blue Door than at Nero?")
    bd = prices(lambda d, c, k: c == "Blue Door")
    ne = prices(lambda d, c, k: c == "Nero")
    assert out["value"] is (sum(bd) / len(bd) > sum(ne) / len(ne))


def test_how_many_times_as_much_is_a_ratio_of_the_two_sides(mem):
    april = sum(prices(lambda d, c, k: d.month == 4))
    march = sum(prices(lambda d, c, k: d.month == 3))
    out = ask(mem, "How many times as much did I spend on coffee in April as in March?")
    assert out["value"] == pytest.approx(april / march)
    assert out["steps"][-1]["arguments"]["operation"] == "ratio"
    out = ask(mem, "How many times more did I spend on coffee in April than in March?")
    assert out["value"] == pytest.approx(april / march)
    bd = prices(lambda d, c, k: c == "Blue Door")
    ne = prices(lambda d, c, k: c == "Nero")
    out = ask(mem, "How many times as many coffees did I buy at Blue Door as at Nero?")
    assert out["value"] == pytest.approx(len(bd) / len(ne))
    assert out["unresolved"] == []


def test_a_ratio_no_step_makes_is_reported_and_no_number_stated(mem):
    # the ratio of two events' sides has no plan here: no figure is stated
    out = ask(mem, "How many times as many coffees did I buy as cakes?")
    assert out["value"] is None
    assert any("times as many" in u for u in out["unresolved"])


# -- groups -------------------------------------------------------------------------
def test_which_group_costs_most_in_total(mem):
    out = ask(mem, "Which cafe do I spend the most at in total?")
    totals = {c: sum(prices(lambda d, cc, k, c=c: cc == c)) for c in CAFES}
    best = max(totals, key=totals.get)
    assert out["value"] == best
    step = out["steps"][0]
    assert step["tool"] == "rank" and step["arguments"]["group_by"] == "cafe"
    assert step["result"]["rows"][0]["value"] == pytest.approx(totals[best])


def test_most_often_and_per_week(mem):
    out = ask(mem, "Which drink do I order most often?")
    counts = {k: len(prices(lambda d, c, kk, k=k: kk == k)) for k in set(DRINKS)}
    assert out["value"] == max(counts, key=counts.get)
    out = ask(mem, "Which week did I sleep the least on average?")
    weeks: dict[date, list[float]] = {}
    for d, s, *_ in RECORDS:
        weeks.setdefault(d - timedelta(days=d.weekday()), []).append(s)
    worst = min(weeks, key=lambda w: sum(weeks[w]) / len(weeks[w]))
    assert out["value"] == worst.isoformat()


def test_a_measure_of_the_top_group(mem):
    out = ask(mem, "How much have I spent in total at the cafe I go to most often?")
    counts = {c: len(prices(lambda d, cc, k, c=c: cc == c)) for c in CAFES}
    top = max(counts, key=counts.get)
    assert sorted(counts.values())[-1] != sorted(counts.values())[-2]
    assert out["value"] == pytest.approx(sum(prices(lambda d, c, k: c == top)))
    assert out["steps"][1]["references"] == {"$1.group": top}


# -- date phrases and what is not understood ------------------------------------------
@pytest.mark.parametrize(
    ("phrase", "first", "last"),
    [
        ("over the first half of March", date(2026, 3, 1), date(2026, 3, 15)),
        ("in the second half of April", date(2026, 4, 16), date(2026, 4, 30)),
        ("throughout March", date(2026, 3, 1), date(2026, 3, 31)),
        ("since mid-March", date(2026, 3, 15), date(2026, 4, 30)),
        ("during the week of the 9th", date(2026, 4, 6), date(2026, 4, 12)),
        ("over the past fortnight", date(2026, 4, 17), date(2026, 4, 30)),
    ],
)
def test_date_phrases_people_use(mem, phrase, first, last):
    out = ask(mem, f"What was my average total sleep {phrase}?")
    want = sleeps(lambda d: first <= d <= last)
    assert out["value"] == pytest.approx(sum(want) / len(want)), out["answer"]


def test_unreadable_period_and_unknown_value_are_unresolved(mem):
    out = ask(mem, "What was my average total sleep over the holidays?")
    assert out["value"] is None and "over the holidays" in out["unresolved"][0]
    assert "could not use" in out["answer"]
    out = ask(mem, "How much did I spend at Starbucks?")
    assert out["value"] is None and "Starbucks" in out["unresolved"][0]


def test_a_condition_on_a_missing_column_is_unresolved(mem):
    out = ask(mem, "What was my average total sleep on days at Le Cafe Rouge?")
    assert out["value"] is None
    assert any("Le Cafe Rouge" in u for u in out["unresolved"])


# -- references -----------------------------------------------------------------------
def test_references_resolve_only_against_steps_that_ran():
    args = {
        "optional_column_filters": [{"column": "time", "op": ">=", "value": "$1.day-7"}]
    }
    with pytest.raises(ReferenceError_, match="has not run"):
        resolve_arguments(args, [])
    located = {
        "tool": "event_locate",
        "result": {
            "units": [{"unit_id": "S3:1", "time": "2026-03-05T10:00", "score": 0.8}]
        },
    }
    resolved, refs = resolve_arguments(args, [located])
    assert resolved["optional_column_filters"][0]["value"] == "2026-02-26"
    assert refs == {"$1.day-7": "2026-02-26"}
    empty = {"tool": "compute", "result": {"operator": "sum", "row_count": 0}}
    with pytest.raises(ReferenceError_, match="found nothing"):
        resolve_arguments({"x": "$1.value"}, [empty])


# -- the model path: the same plan structure from a scripted model ------------------
def _j(obj):
    return json.dumps(obj)


def _run_model(mem, model, question):
    graph = create_query_graph(
        mem, model=model, rules_first=False, forms=False
    ).compile()
    return graph.invoke({"question": question, "question_time": NOW})


READER = _j({"answer": "Here is what the tools found.", "evidence": []})


def test_model_plan_with_a_step_reference(mem):
    table = next(t.table_name for t in mem.tables if t.column("price"))
    model = structured(
        [
            _j(
                {
                    "steps": [
                        {"goal": "when we moved", "tool": "event_locate"},
                        {"goal": "coffee spend since then", "tool": "compute"},
                    ]
                }
            ),
            _j({"query_content": "we moved into the new flat", "result_budget": 3}),
            _j(
                {
                    "table": table,
                    "operator": "sum",
                    "target_column_expression": "price",
                    "optional_column_filters": [
                        {"column": "time", "op": ">=", "value": "$1.day"}
                    ],
                }
            ),
            READER,
        ]
    )
    out = _run_model(mem, model, "How much have I spent on coffee since we moved?")
    step = out["steps"][1]
    assert step["arguments"]["optional_column_filters"][0]["value"] == MOVE.isoformat()
    assert step["references"] == {"$1.day": MOVE.isoformat()}
    assert out["value"] == pytest.approx(sum(prices(lambda d, c, k: d >= MOVE)))
    # the prompts teach references, and the reader is told nothing went unused
    assert "$1.day" in model.prompts[2]
    assert "no step could use: none" in model.prompts[3]


def test_model_plan_with_group_by_and_combine(mem):
    table = next(t.table_name for t in mem.tables if t.column("price"))
    spend = {"table": table, "operator": "sum", "target_column_expression": "price"}
    model = structured(
        [
            _j(
                {
                    "steps": [
                        {"goal": "April spend", "tool": "compute"},
                        {"goal": "March spend", "tool": "compute"},
                        {"goal": "how much more", "tool": "combine"},
                    ]
                }
            ),
            _j(
                spend
                | {
                    "optional_column_filters": [
                        {
                            "column": "time",
                            "op": "between",
                            "value": ["2026-04-01", "2026-04-30"],
                        }
                    ]
                }
            ),
            _j(
                spend
                | {
                    "optional_column_filters": [
                        {
                            "column": "time",
                            "op": "between",
                            "value": ["2026-03-01", "2026-03-31"],
                        }
                    ]
                }
            ),
            _j({"operation": "difference", "left": "$1", "right": "$2"}),
            _j({"answer": "About a million euros more.", "evidence": []}),
        ]
    )
    out = _run_model(
        mem, model, "How much more did I spend on coffee in April than in March?"
    )
    april = sum(prices(lambda d, c, k: d.month == 4))
    march = sum(prices(lambda d, c, k: d.month == 3))
    # the value is the combine step's arithmetic, whatever the reader wrote
    assert out["value"] == pytest.approx(april - march) and out["unit"] == "EUR"
    assert out["steps"][2]["tool"] == "combine" and out["steps"][2]["cost"] == 0
    assert "Combine" in model.prompts[3]
    model = structured(
        [
            _j({"steps": [{"goal": "cafe totals", "tool": "rank"}]}),
            _j(spend | {"group_by": "cafe", "order": "desc", "result_budget": 3}),
            READER,
        ]
    )
    out = _run_model(mem, model, "Which cafe costs me the most overall?")
    rows = out["steps"][0]["result"]["rows"]
    assert [r["group"] for r in rows][:1] == [
        max(CAFES, key=lambda c: sum(prices(lambda d, cc, k: cc == c)))
    ]
    assert out["steps"][0]["cost"] == len(rows) == 3


# -- group-by on every engine; hostile arguments never reach the database --------
def test_group_by_columns_and_buckets(mem):
    table = next(t.table_name for t in mem.tables if t.column("price"))
    res = mem.compute(
        {
            "table": table,
            "operator": "count",
            "group_by": "month",
        }
    )
    assert [(g["group"], g["value"]) for g in res.groups] == [
        ("2026-03-01", len(prices(lambda d, c, k: d.month == 3))),
        ("2026-04-01", len(prices(lambda d, c, k: d.month == 4))),
    ]
    res = mem.compute(
        {
            "table": table,
            "operator": "avg",
            "target_column_expression": "price",
            "group_by": "drink",
            "order": "asc",
            "optional_column_filters": [{"column": "cafe", "op": "=", "value": "Nero"}],
        }
    )
    want = {}
    for k in set(DRINKS):
        got = prices(lambda d, c, kk, k=k: c == "Nero" and kk == k)
        if got:
            want[k] = sum(got) / len(got)
    assert [g["group"] for g in res.groups] == sorted(want, key=lambda k: (want[k], k))
    for g in res.groups:
        assert g["value"] == pytest.approx(want[g["group"]])
        assert len(g["sources"]) == min(20, g["row_count"])
    ranked = mem.rank(
        {
            "table": table,
            "group_by": "week",
            "operator": "sum",
            "target_column_expression": "price",
            "result_budget": 1,
        }
    )
    assert len(ranked.rows) == 1 and ranked.truncated and ranked.group_by == "time:week"


@pytest.mark.parametrize(
    "evil",
    [
        "cafe; DROP TABLE adamm_rounds; --",
        "week'); DELETE FROM adamm_rounds; --",
        "time",
        "1 OR 1=1",
        "date_trunc('day', time)",
    ],
)
def test_hostile_group_by_runs_no_sql(mem, evil, monkeypatch):
    table = next(t.table_name for t in mem.tables if t.column("price"))
    executed = []
    real = mem.db.fetchall
    monkeypatch.setattr(
        mem.db,
        "fetchall",
        lambda sql, params=None: executed.append(sql) or real(sql, params),
    )
    for call in (mem.compute, mem.rank):
        with pytest.raises(ToolInputError):
            call(
                {
                    "table": table,
                    "operator": "sum",
                    "target_column_expression": "price",
                    "group_by": evil,
                }
            )
    assert executed == []
    with pytest.raises(ToolInputError):
        mem.compute(
            {
                "table": table,
                "operator": "latest",
                "target_column_expression": "price",
                "group_by": "cafe",
            }
        )
    monkeypatch.undo()
    assert mem.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0] > 0


@pytest.mark.parametrize(
    ("question", "kind", "event"),
    [
        ("which week since my wedding did i sleep the least?", "since", "my wedding"),
        ("coffees before signing up for the club", "before", "signing up for the club"),
        ("sleep in the two weeks after i started the new job", "window_after", None),
        ("steps during the renovation", "span", "the renovation"),
        ("steps during the exam period", "between", "the exam period"),
        ("mood while i was away in lisbon", "between", "i was away in lisbon"),
    ],
)
def test_anchor_phrases(question, kind, event):
    anchors, _ = find_anchors(question)
    assert [a.kind for a in anchors] == [kind]
    if event and kind == "between":  # a stretch: from its start to its end
        assert anchors[0].events == [event, event]
        assert len(anchors[0].frames) == 2
    elif event:
        assert anchors[0].events == [event]


@pytest.mark.parametrize(
    "question",
    [
        "difference between my first and latest sleep score",
        "what did i spend between the 3rd and the 17th of march",
        "total since march 5",
        "lowest weight since i started logging",
    ],
)
def test_no_anchor_where_records_dates_or_the_log_are_named(question):
    assert find_anchors(question)[0] == []


def test_a_query_is_never_a_reference():
    resolved, refs = resolve_arguments({"query_content": "$1.day"}, [])
    assert resolved == {"query_content": "$1.day"} and refs == {}


def test_an_anchored_question_without_retrieval_says_what_is_off(mem):
    out = mem.ask(
        "How much have I spent on coffee since we moved into the new flat?",
        question_time=NOW,
        retrieval=False,
    )
    assert out["value"] is None and "retrieval memory" in out["answer"]
    out = mem.ask("Which cafe do I spend the most at in total?", analytic=False)
    assert out["value"] is None
