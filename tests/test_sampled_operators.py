"""Rank and median narrowed by a page sample equal the plain queries (PostgreSQL).

On a large PostgreSQL table, Rank sorts only the rows a sampled bound keeps
and the median is read from a sampled window (``analytic/sampled.py``). The
threshold is lowered here so a 30,000-row table takes that path; every answer
is compared with the plain query's on the same table: rows in order, values,
counts. Values include ties (integer columns), NULLs, values that drift with
the table's page order, and filters the sample barely sees.
"""

from __future__ import annotations

import itertools
import logging
from pathlib import Path
from typing import Any

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.analytic import sampled
from tools.datasets.synthetic_history import generate

ROWS = 30_000
RANKED = [
    "total_sleep - deep_sleep",
    "resting_hr",
    "sleep_score",
    "deep_sleep",
    "total_sleep * 3 - 2",  # numbers in an expression are bound parameters
]


@pytest.fixture(scope="module")
def big(
    engine: str,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
):
    if engine != "postgres":
        pytest.skip("PostgreSQL only: runs with --engine postgres")
    url = str(request.getfixturevalue("postgres_server").create_database())
    request.getfixturevalue("count_postgres")(request.node.nodeid, 1)
    hist, _ = generate(seed=3, days=30).write(tmp_path_factory.mktemp("h") / "h")
    m = Memory(url, user_id="synth", retrieval=False)
    m.ingest(hist)
    table = next(t for t in m.tables if "total_sleep" in t.attributes)
    source = m.analytic.qualified(table)
    more = ROWS - m.analytic.row_count(table)
    m.db.execute("SELECT setseed(0.25)")
    # sleep_score drifts with insertion order (so with the page order);
    # resting_hr has few distinct values; some values are missing
    m.db.execute(
        f"INSERT INTO {source} "
        '("source", "order", "time", total_sleep, deep_sleep, resting_hr, '
        "sleep_score) SELECT 'B:' || i, 100000 + i, "
        "TIMESTAMP '2020-01-01' + make_interval(mins => i * 37), "
        "CASE WHEN i % 97 = 0 THEN NULL "
        "ELSE round((5 + random() * 3.5)::numeric, 1) END, "
        "round((0.5 + random() * 1.5)::numeric, 1), "
        "CASE WHEN i % 89 = 0 THEN NULL ELSE 50 + (random() * 16)::BIGINT END, "
        "60 + (i * 35) / ? + (random() * 3)::BIGINT "
        "FROM generate_series(0, ? - 1) AS t(i)",
        [more, more],
    )
    # records that share a round: same time and order, tied values
    m.db.execute(
        f"INSERT INTO {source} "
        '("source", "order", "time", total_sleep, deep_sleep, resting_hr, '
        "sleep_score) SELECT 'P:' || (i / 2), 200000 + i / 2, "
        "TIMESTAMP '2023-01-01' + make_interval(hours => i / 2), "
        "round((5 + random() * 3.5)::numeric, 1), 1.0, 50 + (i / 2) % 3, 77 "
        "FROM generate_series(0, 1999) AS t(i)"
    )
    m.db.execute(f"ANALYZE {source}")
    yield m, table.table_name
    m.close()


@pytest.fixture
def lowered(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> dict[str, list[Any]]:
    """Sample ~5% of pages from 1,000 rows up; record what the sample decided."""
    caplog.set_level(logging.DEBUG, logger=sampled.__name__)
    monkeypatch.setattr(sampled, "SAMPLED_ABOVE", 1_000)
    monkeypatch.setattr(sampled, "SAMPLE_ROWS", 1_500)
    seen: dict[str, list[Any]] = {"bound": [], "median": []}
    for name, key in (("rank_bound", "bound"), ("median", "median")):
        real = getattr(sampled, name)

        def record(*args: Any, _real: Any = real, _key: str = key) -> Any:
            out = _real(*args)
            if sampled.SAMPLED_ABOVE == 1_000:  # not inside plain()
                seen[_key].append(out)
            return out

        monkeypatch.setattr(sampled, name, record)
    return seen


def plain(call: Any) -> Any:
    saved = sampled.SAMPLED_ABOVE
    sampled.SAMPLED_ABOVE = 10**15
    try:
        return call()
    finally:
        sampled.SAMPLED_ABOVE = saved


FILTERS: list[list[dict[str, Any]]] = [
    [],
    [{"column": "resting_hr", "op": ">", "value": 60}],
    [{"column": "time", "op": "between", "value": ["2020-06-01", "2021-03-01"]}],
    # a sliver at the end of the page order: the sample sees few or none
    [{"column": "time", "op": ">=", "value": "2022-02-07"}],
]


@pytest.mark.parametrize("flt", FILTERS, ids=["all", "hr>60", "months", "sliver"])
def test_rank_with_a_sampled_bound_equals_the_plain_rank(
    big, lowered, flt, caplog: pytest.LogCaptureFixture
) -> None:
    m, table = big
    for expression, order, budget in itertools.product(
        RANKED,
        ["asc", "desc"],
        [1, 10, 37],
    ):
        args = {
            "table": table,
            "target_column_expression": expression,
            "order": order,
            "result_budget": budget,
            "optional_column_filters": flt,
        }
        got = m.rank(args).model_dump()
        want = plain(lambda a=args: m.rank(a)).model_dump()
        assert got == want, (expression, order, budget)
        assert len(got["rows"]) == budget
    bounded = [b for b in lowered["bound"] if b is not None]
    if flt and flt[0]["column"] == "time" and flt[0]["op"] == ">=":
        assert len(bounded) < len(lowered["bound"])  # too few sampled: plain
    else:
        assert len(bounded) == len(lowered["bound"]) == 2 * 3 * len(RANKED)
        # and every bound kept enough rows: the narrowed query answered
        assert "kept too few" not in caplog.text


@pytest.mark.parametrize("counted", [False, True], ids=["collected", "counted"])
@pytest.mark.parametrize("flt", FILTERS, ids=["all", "hr>60", "months", "sliver"])
def test_median_from_a_sampled_window_equals_percentile_cont(
    big, lowered, flt, counted, monkeypatch: pytest.MonkeyPatch
) -> None:
    m, table = big
    if counted:  # the window's ends counted, whatever the sample's ties
        monkeypatch.setattr(sampled, "TIED_SHARE", 0.0)
    for expression in [
        "deep_sleep / total_sleep",
        "resting_hr",
        "sleep_score",
        "total_sleep * 60 - deep_sleep",
        "resting_hr * 0 + 5",  # one value: the window's ends are counted
    ]:
        args = {
            "table": table,
            "operator": "median",
            "target_column_expression": expression,
            "optional_column_filters": flt,
        }
        got = m.compute(args).model_dump()
        want = plain(lambda a=args: m.compute(a)).model_dump()
        assert got == want, expression
        assert got["row_count"] > 0
    answered = [a for a in lowered["median"] if a is not None]
    if flt and flt[0]["op"] == ">=":
        assert not answered  # too few sampled rows: the plain query answered
    else:
        assert len(answered) >= 3


def test_a_median_outside_the_sampled_window_is_read_past_it(
    big, lowered, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    m, table = big
    monkeypatch.setattr(sampled, "WINDOW", 0.0)  # one sampled value: a miss
    for expression, flt in itertools.product(
        # the last rows, at the end of the page order, are low (or, negated,
        # high): a sample that misses their pages is biased either way
        [
            "deep_sleep / total_sleep",
            "total_sleep - deep_sleep",
            "sleep_score",
            "0 - resting_hr",
            "0 - deep_sleep / total_sleep",
        ],
        [[], [{"column": "resting_hr", "op": "<=", "value": 57}]],
    ):
        args = {
            "table": table,
            "operator": "median",
            "target_column_expression": expression,
            "optional_column_filters": flt,
        }
        assert (
            m.compute(args).model_dump()
            == plain(lambda a=args: m.compute(a)).model_dump()
        )
    assert "past the sampled window" in caplog.text
    assert None not in lowered["median"]


def test_even_and_odd_counts_interpolate_as_postgresql_does(big, lowered) -> None:
    m, table = big
    for bound in range(55, 66):  # row counts of both parities
        args = {
            "table": table,
            "operator": "median",
            "target_column_expression": "deep_sleep / total_sleep + resting_hr",
            "optional_column_filters": [
                {"column": "resting_hr", "op": "<=", "value": bound}
            ],
        }
        got = m.compute(args)
        want = plain(lambda a=args: m.compute(a))
        assert got.value == want.value and got.row_count == want.row_count
    counts = {v[1] % 2 for v in lowered["median"] if v is not None}
    assert counts == {0, 1}


def test_small_tables_and_duckdb_take_the_plain_query(tmp_path: Path) -> None:
    hist, _ = generate(seed=3, days=10).write(tmp_path / "h")
    with Memory(str(tmp_path / "m.duckdb"), user_id="synth", retrieval=False) as m:
        m.ingest(hist)
        table = next(t for t in m.tables if "total_sleep" in t.attributes)
        from langgraph_adamm.analytic.operators import _Query

        assert sampled.sample_percent(_Query(m.analytic, table.table_name)) is None


def test_a_bound_that_keeps_too_few_rows_is_not_trusted(
    big, lowered, monkeypatch: pytest.MonkeyPatch
) -> None:
    m, table = big
    # as if the sample had seen only the very best rows: the bound keeps none
    monkeypatch.setattr(sampled, "rank_bound", lambda *a: ("1 = 0", []))
    args = {
        "table": table,
        "target_column_expression": "total_sleep - deep_sleep",
        "order": "asc",
        "result_budget": 10,
    }
    got = m.rank(args)
    assert len(got.rows) == 10
    monkeypatch.undo()
    assert got.model_dump() == plain(lambda: m.rank(args)).model_dump()


def test_interpolation_rounds_as_postgresql_does(big) -> None:
    m, _ = big
    # pairs where (x + y) / 2 and x + (y - x) / 2 differ in the last bit
    for x, y in [(0.1, 0.7), (0.6, 6.6), (-2.3, 1e-9), (1e300, 1.7e308)]:
        (want,) = m.db.fetchall(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) "
            "FROM (VALUES (CAST(? AS DOUBLE)), (CAST(? AS DOUBLE))) AS t(v)",
            [x, y],
        )[0]
        assert sampled.interpolate(x, y, 0.5) == want


def test_records_sharing_a_round_rank_in_one_order(big, lowered) -> None:
    m, table = big
    flt = [{"column": "time", "op": ">=", "value": "2023-01-01"}]
    for order, budget in itertools.product(["asc", "desc"], [1, 2, 5, 40, 999]):
        args = {
            "table": table,
            "target_column_expression": "resting_hr",
            "order": order,
            "result_budget": budget,
            "optional_column_filters": flt,
        }
        unfiltered = {**args, "optional_column_filters": []}
        got = m.rank(args).model_dump()
        assert got == plain(lambda a=args: m.rank(a)).model_dump()
        assert m.rank(unfiltered) == plain(lambda a=unfiltered: m.rank(a))


def test_a_budget_past_the_matching_rows_is_answered_plainly(
    big, lowered, caplog: pytest.LogCaptureFixture
) -> None:
    m, table = big
    args = {
        "table": table,
        "target_column_expression": "total_sleep",
        "order": "desc",
        "result_budget": 1000,
        "optional_column_filters": [{"column": "resting_hr", "op": ">=", "value": 66}],
    }
    got = m.rank(args).model_dump()
    assert got == plain(lambda: m.rank(args)).model_dump()
    assert 0 < len(got["rows"]) < 1000
    assert "too few" in caplog.text  # sampled rows, or rows the bound kept


def test_a_table_under_the_threshold_takes_the_plain_query(big) -> None:
    from langgraph_adamm.analytic.operators import _Query

    m, table = big
    assert sampled.SAMPLED_ABOVE > ROWS + 2000
    assert sampled.sample_percent(_Query(m.analytic, table)) is None


def test_window_ranks() -> None:
    w = sampled.Window(below=10, ends=(2, 3), inner=[1.5, 1.7], bounds=(1.0, 2.0))
    got = [w.at(r) for r in range(9, 19)]
    assert got == [None, 1.0, 1.0, 1.5, 1.7, 2.0, 2.0, 2.0, None, None]
    one = sampled.Window(below=0, ends=(4, 0), inner=[], bounds=(3.0, 3.0))
    assert [one.at(r) for r in range(5)] == [3.0, 3.0, 3.0, 3.0, None]


def test_values_past_either_end_of_the_window_are_read_at_their_rank(big) -> None:
    from langgraph_adamm.analytic.operators import _Query

    m, table = big
    q = _Query(m.analytic, table)
    cols = ("total_sleep", "resting_hr", "sleep_score")
    value = " + ".join(
        f'CAST("{c}" AS DOUBLE) * {w}'
        for c, w in zip(cols, (7, 0.3, 1e-3), strict=True)
    )
    where = " WHERE " + " AND ".join(f'"{c}" IS NOT NULL' for c in cols)
    ordered = [
        r[0] for r in m.db.fetchall(f"SELECT {value} FROM {q.source}{where} ORDER BY 1")
    ]
    n = len(ordered)
    low, high = ordered[n // 3], ordered[2 * n // 3]
    below = ordered.index(low)
    ends = (ordered.count(low), ordered.count(high))
    window = sampled.Window(
        below, ends, [v for v in ordered if low < v < high], (low, high)
    )
    assert below + window.size == n - ordered[::-1].index(high)
    past = below + window.size
    ranks = [0, 1, 2, below - 3, below - 2, below - 1, past, past + 1, past + 2, n - 1]
    for rank in ranks + list(range(5, n, n // 23)):
        got = sampled._value_at(q, value, [], where, [], window, rank)
        assert got == ordered[rank], rank
