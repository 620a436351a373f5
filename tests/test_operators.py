import pytest

from langgraph_adamm import AdaMMConfig, Memory, ToolInputError
from tests.conftest import history

# day, steps, weight, mood, ran  (None = not reported that day)
DAYS = [
    (1, 5000, "70 kg", "good", "yes"),
    (2, 8000, "71.5 kg", "tired", "no"),
    (3, 12000, "72000 g", "good", "yes"),
    (4, 3000, "69 kg", "so-so", "no"),
    (5, 10000, None, "great", "yes"),
    (6, 7000, "70.5 kg", None, "no"),
    (7, 9000, "68.5 kg", "good", None),
    (8, None, "69.5 kg", "tired", "yes"),
]


def day_round(d, steps, weight, mood, ran):
    parts = [
        f"{k}: {v}"
        for k, v in (("steps", steps), ("weight", weight), ("mood", mood), ("ran", ran))
        if v is not None
    ]
    return {
        "round_id": f"D{d}",
        "time": f"2026-03-{d:02d}T07:00:00",
        "user": ", ".join(parts),
    }


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="u", config=AdaMMConfig(max_contributing_rows=3))
    m.ingest(history([day_round(*d) for d in DAYS]))
    yield m
    m.close()


@pytest.fixture(scope="module")
def table(mem):
    (t,) = mem.tables
    assert {c.name: c.sql_type for c in t.columns} == {
        "steps": "BIGINT",
        "weight": "DOUBLE",
        "mood": "VARCHAR",
        "ran": "BOOLEAN",
    }
    assert t.column("weight").unit == "kg"
    return t.table_name


def sources(res):
    return [r["source"] for r in res.rows]


def test_lookup(mem, table):
    res = mem.lookup({"table": table, "key_values": {"mood": "GOOD"}})
    assert sources(res) == ["D1", "D3", "D7"] and res.row_count == 3
    assert res.rows[1]["weight"] == 72.0  # 72000 g in the kg column
    res = mem.lookup(
        {
            "table": table,
            "key_values": {"mood": "good", "ran": True},
            "result_budget": 1,
        }
    )
    assert sources(res) == ["D1"] and res.row_count == 2 and res.truncated


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        ({"column": "steps", "op": ">", "value": 8000}, ["D3", "D5", "D7"]),
        ({"column": "steps", "op": "≤", "value": "8000"}, ["D1", "D2", "D4", "D6"]),
        (
            {"column": "steps", "op": "between", "value": [5000, 9000]},
            ["D1", "D2", "D6", "D7"],
        ),
        ({"column": "weight", "op": "<", "value": "70000 g"}, ["D4", "D7", "D8"]),
        ({"column": "mood", "op": "!=", "value": "good"}, ["D2", "D4", "D5", "D8"]),
        (
            {"column": "mood", "op": "in", "value": ["tired", "so-so"]},
            ["D2", "D4", "D8"],
        ),
        ({"column": "mood", "op": "contains", "value": "-"}, ["D4"]),
        ({"column": "mood", "op": "=", "value": None}, ["D6"]),
        (
            {"column": "weight", "op": "!=", "value": None},
            ["D1", "D2", "D3", "D4", "D6", "D7", "D8"],
        ),
        ({"column": "ran", "op": "=", "value": "no"}, ["D2", "D4", "D6"]),
        ({"column": "time", "op": "=", "value": "2026-03-03"}, ["D3"]),
        (
            {"column": "time", "op": "between", "value": ["2026-03-02", "2026-03-04"]},
            ["D2", "D3", "D4"],
        ),
        ({"column": "time", "op": "<=", "value": "March 2, 2026"}, ["D1", "D2"]),
        ({"column": "time", "op": ">", "value": "2026-03-07"}, ["D8"]),
        ({"column": "time", "op": ">=", "value": "2026-03-07T07:00:00"}, ["D7", "D8"]),
        ({"column": "source", "op": "=", "value": "D5"}, ["D5"]),
    ],
)
def test_filter(mem, table, flt, expected):
    res = mem.filter({"table": table, "column_filters": [flt], "result_budget": 10})
    assert sources(res) == expected and res.row_count == len(expected)


@pytest.mark.parametrize(
    ("operator", "expr", "filters", "value", "count"),
    [
        ("count", None, [], 8, 8),
        ("count", "weight", [], 7, 7),
        ("count", None, [{"column": "ran", "value": True}], 4, 4),
        ("sum", "steps", [], 54000, 7),
        ("avg", "weight", [], (70 + 71.5 + 72 + 69 + 70.5 + 68.5 + 69.5) / 7, 7),
        ("min", "weight", [], 68.5, 7),
        ("max", "steps", [], 12000, 7),
        ("median", "steps", [], 8000.0, 7),
        ("median", "weight", [{"column": "mood", "value": "good"}], 70.0, 3),
        ("first", "weight", [], 70.0, 7),
        ("latest", "steps", [], 9000, 7),
        ("latest", "mood", [], "tired", 7),
        ("change", "weight", [], 69.5 - 70.0, 7),
        ("max", "mood", [], "tired", 7),
        ("max", "time", [], "2026-03-08T07:00:00", 8),
        (
            "avg",
            "steps / 1000",
            [{"column": "time", "op": "<", "value": "2026-03-03"}],
            6.5,
            2,
        ),
        (
            "sum",
            "weight * 2 + 1",
            [{"column": "mood", "value": "tired"}],
            71.5 * 2 + 1 + 69.5 * 2 + 1,
            2,
        ),
        (
            "avg",
            "(steps - 1000) / weight",
            [{"column": "source", "value": "D1"}],
            4000 / 70,
            1,
        ),
        ("sum", "steps", [{"column": "steps", "op": ">", "value": 1e9}], None, 0),
    ],
)
def test_compute(mem, table, operator, expr, filters, value, count):
    res = mem.compute(
        {
            "table": table,
            "operator": operator,
            "target_column_expression": expr,
            "optional_column_filters": filters,
        }
    )
    assert res.row_count == count
    if isinstance(value, float):
        assert res.value == pytest.approx(value, rel=1e-12)
    else:
        assert res.value == value


def test_compute_returns_contributing_rows(mem, table):
    res = mem.compute(
        {"table": table, "operator": "max", "target_column_expression": "weight"}
    )
    assert res.unit == "kg"
    assert [r["source"] for r in res.contributing_rows] == ["D3"]
    res = mem.compute(
        {"table": table, "operator": "avg", "target_column_expression": "steps"}
    )
    assert len(res.contributing_rows) == 3 and res.truncated  # max_contributing_rows=3
    res = mem.compute(
        {"table": table, "operator": "change", "target_column_expression": "weight"}
    )
    assert [r["source"] for r in res.contributing_rows] == ["D1", "D8"]
    res = mem.compute(
        {"table": table, "operator": "avg", "target_column_expression": "steps / 1000"}
    )
    assert res.unit is None and res.contributing_rows[0]["_value"] == 5.0


def test_rank(mem, table):
    res = mem.rank(
        {"table": table, "target_column_expression": "steps", "result_budget": 2}
    )
    assert sources(res) == ["D3", "D5"]
    res = mem.rank(
        {
            "table": table,
            "target_column_expression": "weight",
            "order": "asc",
            "result_budget": 2,
            "optional_column_filters": [{"column": "ran", "op": "!=", "value": True}],
        }
    )
    assert sources(res) == ["D4", "D6"]
    res = mem.rank(
        {
            "table": table,
            "target_column_expression": "steps / weight",
            "result_budget": 1,
        }
    )
    assert sources(res) == ["D3"] and res.rows[0]["_value"] == pytest.approx(12000 / 72)
    res = mem.rank(
        {
            "table": table,
            "target_column_expression": "mood",
            "order": "asc",
            "result_budget": 2,
        }
    )
    assert [r["mood"] for r in res.rows] == ["good", "good"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            ("compute", {"operator": "avg", "target_column_expression": "mood"}),
            "needs a number",
        ),
        (
            (
                "compute",
                {"operator": "sum", "target_column_expression": "steps + mood"},
            ),
            "arithmetic needs numeric",
        ),
        (("compute", {"operator": "avg"}), "needs a target_column_expression"),
        (
            ("compute", {"operator": "mode", "target_column_expression": "steps"}),
            "operator",
        ),
        (
            (
                "filter",
                {
                    "column_filters": [
                        {"column": "steps", "op": "contains", "value": "1"}
                    ]
                },
            ),
            "text columns",
        ),
        (
            (
                "filter",
                {"column_filters": [{"column": "ran", "op": ">", "value": True}]},
            ),
            "boolean",
        ),
        (
            ("filter", {"column_filters": [{"column": "steps", "value": "lots"}]}),
            "holds integer values",
        ),
        (
            ("filter", {"column_filters": [{"column": "weight", "value": "5 h"}]}),
            "unit is kg",
        ),
        (
            (
                "filter",
                {"column_filters": [{"column": "time", "value": "last tuesday"}]},
            ),
            "ISO date",
        ),
        (
            (
                "filter",
                {
                    "column_filters": [
                        {"column": "steps", "op": "between", "value": [1]}
                    ]
                },
            ),
            r"\[low, high\]",
        ),
        (
            (
                "filter",
                {"column_filters": [{"column": "steps", "op": "like", "value": 1}]},
            ),
            "Unknown operator",
        ),
        (
            ("filter", {"column_filters": [{"column": "stesp", "value": 1}]}),
            "Did you mean 'steps'",
        ),
        (("rank", {"target_column_expression": "ran"}), "number, timestamp or text"),
        (("lookup", {"key_values": {}}), "key_values"),
        (("filter", {"result_budget": 0}), "result_budget"),
    ],
)
def test_model_fixable_errors(mem, table, call, message):
    op, args = call
    fn = {
        "compute": mem.compute,
        "filter": mem.filter,
        "rank": mem.rank,
        "lookup": mem.lookup,
    }[op]
    with pytest.raises(ToolInputError, match=message):
        fn({"table": table, **args})


def test_table_names_resolve_with_suggestions(mem, table):
    assert mem.filter({"table": table.upper()}).table == table
    with pytest.raises(ToolInputError, match=f"Did you mean '{table}'"):
        mem.filter({"table": table[:-1] + "x"})
    with pytest.raises(ToolInputError, match="Available tables"):
        mem.filter({"table": "nothing_like_it"})
