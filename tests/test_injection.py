"""Hostile strings through every string argument: clean failure or literal match."""

import pytest

from langgraph_adamm import AdaMMConfig, Memory, ToolInputError
from tests.conftest import history

HOSTILE = [
    "x'; DROP TABLE adamm_rounds; --",
    'x"; DROP TABLE adamm_rounds; --',
    "1 OR 1=1",
    "1); DELETE FROM adamm_observations; --",
    "%",
    "_",
    "' UNION SELECT * FROM adamm_rounds --",
    "read_csv('/etc/passwd')",
    "\x00\u202e\U0001f4a5",
    "a" * 5000,
]


@pytest.fixture(scope="module")
def mem():
    rounds = [
        {"user": f"note: {n}, score: {i}"}
        for i, n in enumerate(
            ["plain", "100%", "x'; DROP TABLE adamm_rounds; --", "O'Brien", "a_b"]
        )
    ]
    m = Memory(":memory:", user_id="u", config=AdaMMConfig())
    m.ingest(history(rounds))
    yield m
    m.close()


def intact(mem):
    (t,) = mem.tables
    assert mem.analytic.row_count(t) == 5
    assert mem.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0] == 5
    return t.table_name


@pytest.mark.parametrize("evil", HOSTILE)
def test_table_argument(mem, evil):
    for fn, extra in (
        (mem.lookup, {"key_values": {"score": 1}}),
        (mem.filter, {}),
        (mem.compute, {"operator": "count"}),
        (mem.rank, {"target_column_expression": "score"}),
    ):
        with pytest.raises(ToolInputError):
            fn({"table": evil, **extra})
    intact(mem)


@pytest.mark.parametrize("evil", HOSTILE)
def test_column_arguments(mem, evil):
    table = intact(mem)
    with pytest.raises(ToolInputError):
        mem.lookup({"table": table, "key_values": {evil: 1}})
    with pytest.raises(ToolInputError):
        mem.filter({"table": table, "column_filters": [{"column": evil, "value": 1}]})
    intact(mem)


@pytest.mark.parametrize(
    "evil",
    HOSTILE
    + [
        "score) FROM x; --",
        "pg_sleep(10)",
        "score; DROP TABLE t",
        "score -- comment",
        '"score" OR 1',
        "`score`||'x'",
    ],
)
def test_expression_argument(mem, evil):
    table = intact(mem)
    with pytest.raises(ToolInputError):
        mem.compute(
            {"table": table, "operator": "sum", "target_column_expression": evil}
        )
    with pytest.raises(ToolInputError):
        mem.rank({"table": table, "target_column_expression": evil})
    intact(mem)


@pytest.mark.parametrize("evil", HOSTILE)
def test_filter_values_match_literally(mem, evil):
    table = intact(mem)
    stored = [r["note"] for r in mem.filter({"table": table}).rows]
    assert "100%" in stored and "a_b" in stored and "O'Brien" in stored
    expect_eq = sum(1 for s in stored if s.lower() == evil.lower())
    res = mem.filter(
        {"table": table, "column_filters": [{"column": "note", "value": evil}]}
    )
    assert res.row_count == expect_eq
    res = mem.filter(
        {
            "table": table,
            "column_filters": [{"column": "note", "op": "contains", "value": evil}],
        }
    )
    assert res.row_count == sum(1 for s in stored if evil.lower() in s.lower())
    res = mem.filter(
        {
            "table": table,
            "column_filters": [
                {"column": "note", "op": "in", "value": [evil, "plain"]}
            ],
        }
    )
    assert res.row_count == expect_eq + 1
    with pytest.raises(ToolInputError):  # not a number: refused, not spliced
        mem.filter(
            {"table": table, "column_filters": [{"column": "score", "value": evil}]}
        )
    intact(mem)


def test_operator_and_order_arguments(mem):
    table = intact(mem)
    with pytest.raises(ToolInputError):
        mem.filter(
            {
                "table": table,
                "column_filters": [
                    {"column": "score", "op": "= 1 OR 1=1 --", "value": 1}
                ],
            }
        )
    with pytest.raises(ToolInputError):
        mem.rank(
            {
                "table": table,
                "target_column_expression": "score",
                "order": "desc; DROP TABLE adamm_rounds",
            }
        )
    with pytest.raises(ToolInputError):
        mem.compute(
            {
                "table": table,
                "operator": "sum); DROP TABLE x; --",
                "target_column_expression": "score",
            }
        )
    intact(mem)


def test_quote_in_stored_value_is_found_literally(mem):
    table = intact(mem)
    res = mem.lookup({"table": table, "key_values": {"note": "O'Brien"}})
    assert [r["note"] for r in res.rows] == ["O'Brien"]
