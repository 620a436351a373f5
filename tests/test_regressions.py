"""Cases found in review: each once produced a wrong table, a wrong value or a crash."""

import json

import pytest

from langgraph_adamm import AdaMMConfig, Memory, ToolInputError
from langgraph_adamm.analytic.extraction import RuleExtractor
from langgraph_adamm.history import read_history
from tests.conftest import history


@pytest.mark.parametrize("batch", [1, 5, 500])
def test_overlapping_discoveries_end_in_one_table(batch):
    fields = {"a": "alpha: 1", "b": "beta: 2", "c": "gamma: 3"}
    seq = ["bc", "abc", "abc", "ac", "abc", "abc"]
    rounds = [{"user": ", ".join(fields[x] for x in s)} for s in seq]
    with Memory(
        ":memory:", user_id="u", config=AdaMMConfig(ingest_batch_size=batch)
    ) as m:
        m.ingest(history(rounds))
        assert [sorted(t.attributes) for t in m.tables] == [["alpha", "beta", "gamma"]]
        assert m.analytic.row_count(m.tables[0]) == 6
        before = [t.attributes for t in m.tables]
        m.analytic.reload()
        assert [t.attributes for t in m.tables] == before == m.analytic._patterns


def extract(text):
    return {
        o.attribute: (o.value.number, o.value.unit, o.value.kind)
        for o in RuleExtractor().extract_text(text, "r", "user")
    }


def test_thousands_separators_in_lists():
    assert extract("Steps 12,345 and calories 2,100 kcal") == {
        "steps": (12345.0, None, "integer"),
        "calories": (2100.0, "kcal", "integer"),
    }
    assert extract("Dashboard: Steps 10,000, Sleep 7 h")["steps"][0] == 10000.0


def test_values_people_write():
    assert extract("Steps: about 8000")["steps"][0] == 8000.0
    assert extract("Balance: -$20.00")["balance"] == (-20.0, "USD", "number")
    assert extract("Started: 2026-03-03T07:45:00Z")["started"][2] == "timestamp"
    assert extract("Started: 2026-03-03T09:45:00+02:00")["started"][2] == "timestamp"
    assert extract("Meeting at 7:45: discuss budget") == {}
    assert extract("Started: Mar. 3, 2026")["started"][2] == "timestamp"
    got = extract("Café: 3, 体重: 70 kg")
    assert got["cafe"][0] == 3.0
    assert [v for k, v in got.items() if k.startswith("a_")] == [
        (70.0, "kg", "integer")
    ]


def test_same_image_id_in_different_rounds(tmp_path):
    doc = {
        "sessions": [
            {
                "session_id": f"S{i}",
                "rounds": [
                    {
                        "user": "x: 1, y: 2",
                        "images": [{"image_id": "IMG_1", "caption": "z: 3"}],
                    }
                ],
            }
            for i in range(5)
        ]
    }
    p = tmp_path / "h.json"
    p.write_text(json.dumps(doc))
    with Memory(":memory:", user_id="u") as m:
        rep = m.ingest(p)
        assert rep.rounds_new == 5 and not rep.problems
        assert m.db.fetchall("SELECT count(*) FROM adamm_images") == [(5,)]


def test_huge_integer_does_not_poison_ingest(database, tmp_path):
    values = [1001, 1002, 1003, 1004, 1005, "98765432109876543210"]
    rounds = [{"user": f"order id: {v}, amount: $5"} for v in values]
    with Memory(
        database("m"), user_id="u", config=AdaMMConfig(ingest_batch_size=5)
    ) as m:
        rep = m.ingest(history(rounds))
        assert rep.rounds_processed == 6 and m.analytic.round_status() == {
            "extracted": 6
        }
        (t,) = m.tables
        assert t.column("order_id").sql_type == "DOUBLE"


def test_first_and_latest_keep_undated_rows_in_their_place():
    # R5 and R6 have no time and close the history: they list after the dated
    # rows, and R6 is the latest reading.
    rounds = [
        {
            "round_id": f"R{i}",
            "user": f"w: {i}, v: {i}",
            **({"time": f"2026-03-0{i}T08:00:00"} if i <= 4 else {}),
        }
        for i in range(1, 7)
    ]
    with Memory(":memory:", user_id="u") as m:
        m.ingest(history(rounds, date=None))
        (t,) = m.tables
        listed = [r["source"] for r in m.filter({"table": t.table_name}).rows]
        assert listed == ["R1", "R2", "R3", "R4", "R5", "R6"]
        first = m.compute(
            {
                "table": t.table_name,
                "operator": "first",
                "target_column_expression": "w",
            }
        )
        latest = m.compute(
            {
                "table": t.table_name,
                "operator": "latest",
                "target_column_expression": "w",
            }
        )
        change = m.compute(
            {
                "table": t.table_name,
                "operator": "change",
                "target_column_expression": "w",
            }
        )
        assert (first.value, latest.value, change.value) == (1, 6, 5)


def test_a_column_named_value_is_kept():
    rounds = [
        {"user": f"ticker: ACME, shares: {i}, value: {100 + i}"} for i in range(1, 6)
    ]
    with Memory(":memory:", user_id="u") as m:
        m.ingest(history(rounds))
        (t,) = m.tables
        res = m.compute(
            {
                "table": t.table_name,
                "operator": "latest",
                "target_column_expression": "value",
            }
        )
        assert res.value == 105 and res.contributing_rows[0]["value"] == 105
        ranked = m.rank(
            {
                "table": t.table_name,
                "target_column_expression": "value * shares",
                "result_budget": 1,
            }
        )
        assert ranked.rows[0]["value"] == 105 and ranked.rows[0]["_value"] == 525


def test_a_stray_unit_tells_what_the_bare_numbers_mean():
    # Nine bare weights and one "150 lb": the bare numbers read as kg (as lb they
    # would sit at half the written value), so the column is in kg and the lb
    # value is converted, not dropped.
    rounds = [{"user": f"weight: {w}, mood: ok"} for w in range(71, 80)]
    rounds.append({"user": "weight: 150 lb, mood: ok"})
    with Memory(":memory:", user_id="u") as m:
        m.ingest(history(rounds))
        (t,) = m.tables
        assert t.column("weight").unit == "kg"
        res = m.compute(
            {
                "table": t.table_name,
                "operator": "avg",
                "target_column_expression": "weight",
            }
        )
        assert res.row_count == 10 and res.unit == "kg"
        assert abs(res.value - (sum(range(71, 80)) + 150 * 0.45359237) / 10) < 1e-9


def test_overflowing_arguments_are_model_errors():
    rounds = [{"user": f"steps: {10**6 + i}, floors: {i}"} for i in range(5)]
    with Memory(":memory:", user_id="u") as m:
        m.ingest(history(rounds))
        (t,) = m.tables
        res = m.compute(
            {
                "table": t.table_name,
                "operator": "max",
                "target_column_expression": "steps*steps*steps*steps",
            }
        )
        assert res.value == pytest.approx((10**6 + 4) ** 4)
        for value in (10**400, [0, 10**400]):
            op = "between" if isinstance(value, list) else ">"
            with pytest.raises(ToolInputError):
                m.filter(
                    {
                        "table": t.table_name,
                        "column_filters": [
                            {"column": "steps", "op": op, "value": value}
                        ],
                    }
                )


def test_reader_locates_odd_input(tmp_path):
    doc = {
        "user_id": "u",
        "sessions": [
            {
                "session_id": "S1",
                "rounds": [
                    {"round_id": "r1", "user": "ok"},
                    {
                        "round_id": "r2",
                        "user": "x",
                        "images": [{"path": "bad\u0000name.png"}],
                    },
                    {
                        "round_id": "r3",
                        "user": "x",
                        "time": "9999-12-31T23:59:59-12:00",
                    },
                    {"round_id": 7, "user": "x"},
                    {"round_id": "r5", "user": 5},
                ],
            }
        ],
    }
    p = tmp_path / "h.json"
    p.write_text("\ufeff" + json.dumps(doc))  # with a byte-order mark
    res = read_history(p)
    assert [r.round_id for r in res.history.rounds()] == ["r1"]
    text = "\n".join(map(str, res.problems))
    assert "rounds[1].images[0].path" in text
    assert "rounds[2].time" in text
    assert "rounds[3].round_id: expected a string" in text
    assert "rounds[4].user: expected a string" in text
    lines = tmp_path / "h.jsonl"
    lines.write_text(
        '{"session_id": "S", "user": "a", "user_id": 5}\n'
        '{"session_id": "S", "user": "b"}\n'
    )
    res = read_history(lines)
    assert "user_id" in str(res.problems[0]) and res.history.round_count == 1
