"""Exact answers on records as people write them: one test per failure class.

Each test quotes the failing input the class was found with (or one like it)
and asserts the value a careful reader would compute.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.analytic.extraction import RuleExtractor
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import ToolInputError
from langgraph_adamm.history import history_from_dict
from tests.conftest import history
from tools.datasets.everyday_checks import snapshot

ex = RuleExtractor()


def read(text: str) -> dict[str, Any]:
    return {
        o.attribute: (o.value.number if o.value.number is not None else o.value.text)
        for o in ex.extract_text(text, "r", "user")
    }


def units(text: str) -> dict[str, Any]:
    return {o.attribute: o.value.unit for o in ex.extract_text(text, "r", "user")}


def table_with(m: Memory, *attrs: str):
    return next(t for t in m.tables if set(attrs) <= t.attributes)


def compute(m: Memory, op: str, expr: str | None, *attrs: str, **kw: Any):
    t = table_with(m, *attrs)
    args = {"table": t.table_name, "operator": op, "target_column_expression": expr}
    args.update(kw)
    return m.compute(args)


# -- headings glued to labels --------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Sleep dashboard - Total sleep 7.1 h",
        "Sleep dashboard – Total sleep 7.1 h",
        "Sleep dashboard — Total sleep 7.1 h",
        "Sleep dashboard: Total sleep 7.1 h",
        "Sleep dashboard—Total sleep 7.1 h",
    ],
)
def test_a_heading_is_not_part_of_the_label(text):
    assert read(text) == {"total_sleep": 7.1}
    assert units(text) == {"total_sleep": "h"}


def test_a_dated_heading_adds_no_column():
    got = read("Daily glucose dashboard for Feb 03. Time in range: 82 %")
    assert got == {"time_in_range": 82.0}


# -- list markers --------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("1) Sleep: 7.5 h 2) Steps: 9000", {"sleep": 7.5, "steps": 9000.0}),
        ("2) Steps: 9000 1) Sleep: 7.5 h", {"sleep": 7.5, "steps": 9000.0}),
        ("1. Weight: 70 kg 2. Steps: 8000", {"weight": 70.0, "steps": 8000.0}),
        ("- Weight: 70 kg\n- Steps: 8000", {"weight": 70.0, "steps": 8000.0}),
        ("• Weight: 70 kg • Steps: 8000", {"weight": 70.0, "steps": 8000.0}),
        ("Opponents 3. Game: Catan", {"opponents": 3.0, "game": "Catan"}),
    ],
)
def test_list_markers_are_not_labels_or_values(text, want):
    assert read(text) == want


def test_item_order_does_not_change_the_table():
    rounds = [
        {
            "user": "1) Sleep: 7.5 h 2) Steps: 9000"
            if i % 2
            else "1) Steps: 8000 2) Sleep: 7 h"
        }
        for i in range(8)
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        assert [sorted(t.attributes) for t in m.tables] == [["sleep", "steps"]]


# -- space-separated key=value runs ---------------------------------------------
def test_space_separated_pairs():
    assert read("total_sleep=7.2h deep_sleep=1.1h score=82") == {
        "total_sleep": 7.2,
        "deep_sleep": 1.1,
        "score": 82.0,
    }
    assert read("hr_rest=54 hrv=61 spo2=97%") == {"hr_rest": 54, "hrv": 61, "spo2": 97}


# -- number forms --------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "number", "unit"),
    [
        ("Steps: 8k", 8000.0, None),
        ("Steps: 9.4k steps", 9400.0, "steps"),
        ("Amount: $1.2k", 1200.0, "USD"),
        ("Sleep: 6,8 h", 6.8, "h"),
        ("Amount: €3,50", 3.5, "EUR"),
        ("Amount: 3,50 €", 3.5, "EUR"),
        ("Weight: 81,4 kg", 81.4, "kg"),
        ("Amount: 1.234,56 EUR", 1234.56, "EUR"),
        ("Score: 85/100", 85.0, None),
        ("TIR: 82 % (target >70%)", 82.0, "%"),
        ("Glucose: 5.6 mmol/L (fasting)", 5.6, "mmol/L"),
        ("Temp: 36.8 °C", 36.8, "degC"),
        ("HR: 60-65 bpm", 62.5, "bpm"),
        ("Steps: 12 345", 12345.0, None),
    ],
)
def test_number_forms(text, number, unit):
    (obs,) = ex.extract_text(text, "r", "user")
    assert (obs.value.number, obs.value.unit) == (number, unit)


def test_ranges_scores_and_notes_are_kept():
    (hr,) = ex.extract_text("HR: 60-65 bpm", "r", "user")
    assert (hr.value.low, hr.value.high) == (60.0, 65.0)
    (score,) = ex.extract_text("Score: 85/100", "r", "user")
    assert score.value.scale == 100.0
    (g,) = ex.extract_text("Glucose: 5.6 mmol/L (fasting)", "r", "user")
    assert g.value.note == "fasting"


# -- durations ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("Sleep: 7h 05m", 425.0),
        ("Sleep: 7 h 20 min", 440.0),
        ("Sleep: 7h05", 425.0),
        ("Sleep: 7 hours and 5 minutes", 425.0),
        ("Sleep: PT7H5M", 425.0),
    ],
)
def test_durations(text, minutes):
    (obs,) = ex.extract_text(text, "r", "user")
    assert (obs.value.number, obs.value.unit) == (minutes, "min")


def test_clock_readings_next_to_other_durations():
    # "1:12" next to "72 min" and "1.2 h" in one column: all 72 minutes.
    rounds = [
        {"user": f"Deep sleep: {v}, Total sleep: 7 h"}
        for v in ["1:12", "72 min", "1.2 h", "1:12", "72 min", "1.2 h"]
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        res = compute(m, "avg", "deep_sleep", "deep_sleep")
        assert math.isclose(
            res.value if res.unit == "min" else res.value * 60, 72.0, rel_tol=1e-9
        )
        assert res.row_count == 6


def test_race_times_read_as_minutes_and_seconds():
    rounds = [
        {"user": f"Distance: {d} km, Time: {t}"}
        for d, t in [(5, "27:41"), (10, "52:40"), (5, "26:10"), (8, "44:12")]
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        res = compute(m, "max", "time_value", "time_value")
        assert res.unit == "min" and math.isclose(res.value, 52 + 40 / 60)


# -- mixed units in one column --------------------------------------------------
def test_bare_numbers_take_the_unit_that_fits():
    rounds = [{"user": f"Sleep: {v}, mood: ok"} for v in [7.5] * 8]
    rounds.append({"user": "Sleep: 408 min, mood: ok"})
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        res = compute(m, "avg", "sleep", "sleep")
        hours = res.value if res.unit == "h" else res.value / 60
        assert math.isclose(hours, (7.5 * 8 + 408 / 60) / 9, rel_tol=1e-9)


def test_k_values_sum_with_plain_ones():
    rounds = [
        {"user": f"Steps {v}, floors 3"} for v in ["8000", "12k", "9.4k", "8,500"]
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        assert compute(m, "sum", "steps", "steps").value == 8000 + 12000 + 9400 + 8500


def test_kg_next_to_lb_and_h_next_to_min():
    rounds = [{"user": f"Weight: {w} kg, fat 20%"} for w in (80, 81, 82)]
    rounds.append({"user": "Weight: 176 lb, fat 20%"})
    rounds += [
        {"user": f"Nap: {v}, mood: ok"} for v in ("1 h", "30 min", "1.5 h", "45 min")
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        w = compute(m, "avg", "weight", "weight")
        assert w.unit == "kg"
        assert math.isclose(
            w.value, (80 + 81 + 82 + 176 * 0.45359237) / 4, rel_tol=1e-9
        )
        nap = compute(m, "sum", "nap", "nap")
        minutes = nap.value if nap.unit == "min" else nap.value * 60
        assert math.isclose(minutes, 60 + 30 + 90 + 45)


def test_an_implausible_bare_number_is_reported_not_guessed():
    rounds = [{"user": f"Sleep: {v} h, mood: ok"} for v in (7, 7.5, 8, 6.5)]
    rounds.append({"user": "Sleep: 4500, mood: ok"})
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        assert compute(m, "count", "sleep", "sleep").value == 4
        (t,) = m.describe_tables()
        col = next(c for c in t["columns"] if c["name"] == "sleep")
        assert col["uncast"]["count"] == 1 and col["uncast"]["round_ids"] == ["S1:5"]


def test_incompatible_dimensions_are_never_mixed():
    rounds = [{"user": f"Dose: {v} mg, mood: ok"} for v in (5, 10, 5, 10)]
    rounds.append({"user": "Dose: 2 h, mood: ok"})
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        res = compute(m, "sum", "dose", "dose")
        assert (res.value, res.unit, res.row_count) == (30, "mg", 4)


# -- arithmetic with units -------------------------------------------------------
def test_ratios_are_dimensionless_whatever_the_stored_units():
    pairs = [(1.2, 7.2), (1.1, 6.6), (1.3, 7.8), (1.0, 6.0)]
    rounds = [{"user": f"Deep sleep: {d} h, Total sleep: {t} h"} for d, t in pairs]
    # Deep sleep in minutes, total sleep in hours: the columns' units differ.
    rounds2 = [
        {"user": f"Deep sleep: {round(d * 60)} min, Total sleep: {t} h"}
        for d, t in pairs
    ]
    for rs in (rounds, rounds2):
        with Memory(":memory:", user_id="u", retrieval=False) as m:
            m.ingest(history(rs))
            res = compute(m, "avg", "deep_sleep / total_sleep", "deep_sleep")
            assert math.isclose(res.value, 1 / 6, rel_tol=1e-9) and res.unit is None


def test_adding_a_mass_to_a_duration_is_an_error():
    rounds = [{"user": f"Weight: {w} kg, Sleep: 7 h"} for w in (80, 81, 82, 83)]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        with pytest.raises(ToolInputError, match="different things"):
            compute(m, "avg", "weight + sleep", "weight")
        res = compute(m, "avg", "weight / sleep", "weight")
        assert res.unit == "kg/h"


# -- types and rows do not depend on batching ------------------------------------
def test_one_batch_and_one_round_at_a_time_build_identical_tables():
    sessions = [
        {"session_id": f"S{i}", "date": f"2026-03-{i:02d}", "rounds": [{"user": u}]}
        for i, u in enumerate(
            ["Sleep: 7.5", "Sleep: 6.8 hrs (woke up twice)", "Sleep: 7 h 10 min"]
            + [f"Sleep: {v} h" for v in (7.2, 6.9, 8.1)]
            + ["Sleep: 408 min", "Sleep: 7,4 h", "Sleep: 7.1"],
            start=1,
        )
    ]
    for s in sessions:
        s["rounds"][0]["user"] += ", Deep: 1.2 h, Score: 80"
    data = {"user_id": "u", "sessions": sessions}
    with Memory(":memory:", user_id="u", retrieval=False) as one:
        one.ingest(history_from_dict(data))
        expected = snapshot(one)
    cfg = AdaMMConfig(ingest_batch_size=1)
    with Memory(":memory:", user_id="u", retrieval=False, config=cfg) as each:
        for s in sessions:
            each.ingest(history_from_dict({"user_id": "u", "sessions": [s]}))
        assert snapshot(each) == expected
    ((name, _, columns, rows),) = expected
    assert ("sleep", "DOUBLE", "h") in columns  # the annotated value stays a number
    assert len(rows) == 9


# -- row membership ----------------------------------------------------------------
def test_a_shared_attribute_does_not_pull_in_another_record_kind():
    runs = [(5.0, 30), (8.0, 45), (10.0, 55), (6.0, 33), (7.5, 41)]
    meditations = [(10, "calm"), (20, "ok"), (15, "calm"), (5, "tired")]
    rounds = [{"user": f"Distance: {d} km, Duration: {t} min"} for d, t in runs]
    rounds += [{"user": f"Duration: {t} min, Mood: {m}"} for t, m in meditations]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        run = compute(m, "avg", "duration", "distance", "duration")
        assert run.row_count == 5 and run.value == sum(t for _, t in runs) / 5
        low = compute(m, "min", "duration", "distance", "duration")
        assert low.value == 30
        # Meditations share only ``duration``; with these thresholds they may or
        # may not have a table of their own, and are never runs either way.
        t = table_with(m, "distance", "duration")
        rows = m.filter({"table": t.table_name, "result_budget": 100}).rows
        assert {r["source"] for r in rows} == {f"S1:{i}" for i in range(1, 6)}


# -- time order --------------------------------------------------------------------
def test_latest_and_change_keep_undated_sessions_in_their_place():
    sessions = [
        {
            "session_id": "S1",
            "date": "2026-03-01",
            "rounds": [{"user": "Weight: 80 kg, fat 22%"}],
        },
        {
            "session_id": "S2",
            "date": "2026-03-08",
            "rounds": [{"user": "Weight: 78 kg, fat 21%"}],
        },
        {"session_id": "S3", "rounds": [{"user": "Weight: 79 kg, fat 22%"}]},
        {
            "session_id": "S4",
            "date": "2026-03-15",
            "rounds": [{"user": "Weight: 75 kg, fat 20%"}],
        },
        {
            "session_id": "S5",
            "date": "2026-03-22",
            "rounds": [{"user": "Weight: 73 kg, fat 20%"}],
        },
        {"session_id": "S6", "rounds": [{"user": "Weight: 76 kg, fat 21%"}]},
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history_from_dict({"user_id": "u", "sessions": sessions}))
        # S6 closes the history: it is the latest reading, undated or not
        assert compute(m, "latest", "weight", "weight").value == 76
        assert compute(m, "first", "weight", "weight").value == 80
        assert compute(m, "change", "weight", "weight").value == 76 - 80
        t = table_with(m, "weight")
        top = m.rank({"table": t.table_name, "target_column_expression": "fat"})
        # a tie at 22%: S1 (March 1) comes before S3 (after March 8)
        assert [r["source"] for r in top.rows[:2]] == ["S1:1", "S3:1"]


# -- stable tables -------------------------------------------------------------------
def test_growing_and_merging_strand_no_round_and_keep_the_name():
    rounds = [{"user": f"Alpha: {i}, Beta: {i}, Gamma: {i}"} for i in range(1, 6)]
    rounds += [{"user": f"Delta: {i}, Epsilon: {i}"} for i in range(1, 6)]
    rounds += [
        {"user": f"Alpha: {i}, Beta: {i}, Gamma: {i}, Delta: {i}, Epsilon: {i}"}
        for i in range(1, 51)
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        before = {t.table_name for t in m.tables}
        (t,) = m.tables
        assert t.attributes == {"alpha", "beta", "gamma", "delta", "epsilon"}
        assert m.analytic.row_count(t) == 60
        assert t.table_name in before
    cfg = AdaMMConfig(ingest_batch_size=1)
    with Memory(":memory:", user_id="u", retrieval=False, config=cfg) as m:
        m.ingest(history(rounds[:10]))
        first = sorted(t.table_name for t in m.tables)
        m.ingest(history(rounds))
        (t,) = m.tables
        assert m.analytic.row_count(t) == 60
        assert t.table_name in first  # an established name survives the merge


# -- JSON arrays and multi-row tables -------------------------------------------
def test_json_arrays_and_tables_are_several_records():
    arr = '[{"amount": 4.5, "merchant": "Cafe"}, {"amount": 12, "merchant": "Deli"}]'
    table = (
        "| Date | Amount | Merchant |\n|---|---|---|\n"
        "| Mar 1 | $4.50 | Cafe |\n| Mar 2 | $12.00 | Deli |\n| Mar 3 | $3.10 | Cafe |"
    )
    rounds = [{"user": arr}, {"user": table}, {"user": arr}]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        res = compute(m, "sum", "amount", "amount", "merchant")
        assert res.row_count == 7 and math.isclose(
            res.value, 4.5 + 12 + 4.5 + 12 + 3.1 + 4.5 + 12
        )


# -- found in review -----------------------------------------------------------
def test_temperatures_in_two_scales_average_in_one():
    temps = ["37.1 °C", "36.8 °C", "98.6 °F", "37.0", "36.9 °C", "37.2 °C"]
    rounds = [{"user": f"Temp: {v}, Pulse: 60"} for v in temps]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        res = compute(m, "avg", "temp", "temp")
        assert res.unit == "degC" and math.isclose(res.value, 37.0, rel_tol=1e-9)
        hotter = compute(m, "max", "temp - 36", "temp")
        assert math.isclose(hotter.value, 1.2, rel_tol=1e-9)


def test_a_thousands_comma_among_prices_with_cents_stays_thousands():
    rounds = [
        {"user": f"Amount: {v}, Merchant: Cafe"}
        for v in ["$4.50", "$12.00", "$3.25", "$8.75", "$1,500"]
    ]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        assert compute(m, "max", "amount", "amount").value == 1500


@pytest.mark.parametrize(
    ("text", "unit"),
    [("9am", None), ("10:45 PM", None), ("1st", None), ("20 units", "units")],
)
def test_everyday_words_are_not_exotic_units(text, unit):
    from langgraph_adamm.analytic.values import parse_value

    v = parse_value(text)
    assert v.unit in (unit, None) and v.unit not in ("am", "pm", "st", "µnit")
