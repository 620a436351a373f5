"""Questions beyond one operation: anchored periods, comparisons, groups, dates.

One two-month memory of sleep and coffee records with two life events told in
chat; every expected value is computed here from the records the test wrote.
"""

from datetime import date, timedelta

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict
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
