"""Undated rounds keep their place in the history.

A session without a date (an export without timestamps) lies where the
history puts it: one that opens the history holds the first record, one that
closes it the latest, one in the middle sits between its dated neighbours -
for first, latest, change, Rank's ties and the order rows are listed in. A
time filter keeps an undated round when both dated rounds around it are in
the range, drops it when both lie on one side, and otherwise says it could
not place it. Expected values are computed here from the records the test
writes.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict

Session = tuple[str, str | None, float, int]
"""(session id, date or None, weight in kg, body fat in %)."""


def memory(*histories: list[Session]) -> Memory:
    """A memory that ingested each history in turn, one record per session."""
    m = Memory(":memory:", user_id="u", retrieval=False)
    for sessions in histories:
        doc: dict[str, Any] = {"user_id": "u", "sessions": []}
        for sid, day, weight, fat in sessions:
            session: dict[str, Any] = {
                "session_id": sid,
                "rounds": [
                    {"user": f"Weight: {weight} kg, fat {fat}%"},
                    {"user": "Thanks!", "assistant": "You're welcome."},
                ],
            }
            if day is not None:
                session["date"] = day
            doc["sessions"].append(session)
        m.ingest(history_from_dict(doc))
    return m


def table(m: Memory) -> str:
    (t,) = [t for t in m.tables if {"weight", "fat"} <= t.attributes]
    return t.table_name


def compute(m: Memory, op: str, expr: str = "weight", **kw: Any) -> Any:
    args = {"table": table(m), "operator": op, "target_column_expression": expr}
    return m.compute(args | kw)


def listed(m: Memory, *filters: dict[str, Any]) -> Any:
    args = {"table": table(m), "column_filters": list(filters), "result_budget": 50}
    return m.filter(args)


def sources(rows: list[dict[str, Any]]) -> list[str]:
    return [r["source"] for r in rows]


def record(sid: str) -> str:
    return f"{sid}:1"


DATED = [
    ("S1", "2026-03-01", 80.0, 24),
    ("S2", "2026-03-08", 79.0, 23),
    ("S3", "2026-03-15", 78.0, 22),
    ("S4", "2026-03-22", 77.0, 21),
]


# -- first, latest, change --------------------------------------------------------
def test_an_undated_session_that_opens_the_history_holds_the_first_record():
    history = [("U0", None, 83.0, 25), *DATED]
    with memory(history) as m:
        first, latest = history[0], history[-1]
        got = compute(m, "first")
        assert got.value == first[2]
        assert sources(got.contributing_rows) == [record(first[0])]
        assert compute(m, "latest").value == latest[2]
        change = compute(m, "change")
        assert change.value == latest[2] - first[2]
        assert sources(change.contributing_rows) == [
            record(first[0]),
            record(latest[0]),
        ]
        assert sources(listed(m).rows) == [record(s[0]) for s in history]


def test_an_undated_session_in_the_middle_sits_between_its_neighbours():
    history = [*DATED[:2], ("U", None, 78.5, 23), *DATED[2:]]
    with memory(history) as m:
        assert sources(listed(m).rows) == [record(s[0]) for s in history]
        assert compute(m, "first").value == history[0][2]
        assert compute(m, "latest").value == history[-1][2]
        assert compute(m, "change").value == history[-1][2] - history[0][2]


def test_an_undated_session_that_closes_the_history_is_the_latest():
    history = [*DATED, ("U9", None, 75.5, 20)]
    with memory(history) as m:
        latest = compute(m, "latest")
        assert latest.value == history[-1][2]
        assert sources(latest.contributing_rows) == [record("U9")]
        assert compute(m, "change").value == history[-1][2] - history[0][2]


def test_rank_ties_go_by_place_in_time():
    # fat 23% three times: S2 (March 8), the undated U after it, S5 (March 29)
    history = [
        *DATED[:2],
        ("U", None, 78.5, 23),
        *DATED[2:],
        ("S5", "2026-03-29", 76.5, 23),
    ]
    with memory(history) as m:
        res = m.rank(
            {
                "table": table(m),
                "target_column_expression": "fat",
                "optional_column_filters": [{"column": "fat", "value": 23}],
                "result_budget": 5,
            }
        )
        tied = [s[0] for s in history if s[3] == 23]
        assert sources(res.rows) == [record(s) for s in tied]
        for order in ("desc", "asc"):  # ties go by time either way
            res = m.rank(
                {
                    "table": table(m),
                    "target_column_expression": "fat",
                    "order": order,
                    "result_budget": 10,
                }
            )
            ranked = sorted(
                range(len(history)),
                key=lambda i: (-history[i][3] if order == "desc" else history[i][3], i),
            )
            assert sources(res.rows) == [record(history[i][0]) for i in ranked]


def test_a_history_without_any_date_reads_in_history_order():
    history = [(f"U{i}", None, 80.0 - i, 20 + i % 2) for i in range(6)]
    with memory(history) as m:
        assert compute(m, "first").value == history[0][2]
        assert compute(m, "latest").value == history[-1][2]
        assert sources(listed(m).rows) == [record(s[0]) for s in history]
        res = listed(m, {"column": "time", "op": ">=", "value": "2026-03-01"})
        assert res.rows == [] and res.unplaced_rows == len(history)


def test_dated_rows_out_of_history_order_go_by_time():
    # a backfill: March 1-8 ingested after March 15-22. Dated rows follow their
    # time; the undated round follows the dated round before it in the history
    later = [*DATED[2:], ("U", None, 76.5, 21)]
    earlier = DATED[:2]
    with memory(later, earlier) as m:
        expected = [*earlier, *later]
        assert sources(listed(m).rows) == [record(s[0]) for s in expected]
        assert compute(m, "first").value == earlier[0][2]
        assert compute(m, "latest").value == later[-1][2]


# -- time filters ------------------------------------------------------------------
MIDDLE = [*DATED[:2], ("U", None, 78.5, 23), *DATED[2:]]
"""U lies between S2 (March 8) and S3 (March 15)."""


def dated_in(low: date, high: date) -> list[Session]:
    return [s for s in MIDDLE if s[1] and low <= date.fromisoformat(s[1]) <= high]


@pytest.mark.parametrize(
    ("low", "high", "with_u"),
    [
        # both neighbours inside: U is inside
        (date(2026, 3, 1), date(2026, 3, 31), True),
        (date(2026, 3, 8), date(2026, 3, 15), True),
        # both neighbours on one side: U is outside
        (date(2026, 3, 16), date(2026, 3, 31), False),
        (date(2026, 3, 1), date(2026, 3, 7), False),
    ],
)
def test_a_time_filter_places_an_undated_round_between_its_neighbours(
    low, high, with_u
):
    kept = dated_in(low, high) + ([MIDDLE[2]] if with_u else [])
    kept.sort(key=MIDDLE.index)
    between = {"column": "time", "op": "between", "value": [str(low), str(high)]}
    with memory(MIDDLE) as m:
        res = listed(m, between)
        assert sources(res.rows) == [record(s[0]) for s in kept]
        assert res.unplaced_rows == 0 and res.note is None
        total = compute(m, "sum", optional_column_filters=[between])
        assert total.value == pytest.approx(sum(s[2] for s in kept))
        assert total.row_count == len(kept) and total.unplaced_rows == 0


@pytest.mark.parametrize(
    "flt",
    [
        {"column": "time", "op": "between", "value": ["2026-03-01", "2026-03-10"]},
        {"column": "time", "op": "between", "value": ["2026-03-10", "2026-03-31"]},
        {"column": "time", "op": ">=", "value": "2026-03-10"},
        {"column": "time", "op": "<", "value": "2026-03-12"},
        {"column": "time", "op": "=", "value": "2026-03-11"},
        {"column": "time", "op": "!=", "value": "2026-03-11"},
    ],
)
def test_a_time_filter_that_cannot_place_an_undated_round_says_so(flt):
    with memory(MIDDLE) as m:
        res = listed(m, flt)
        assert "U:1" not in sources(res.rows)
        assert res.unplaced_rows == 1
        assert res.note is not None and "1 row of undated rounds" in res.note
        for op in ("count", "avg", "latest"):
            expr = None if op == "count" else "weight"
            got = compute(m, op, expr, optional_column_filters=[flt])
            assert got.unplaced_rows == 1 and got.note == res.note


def test_the_unplaced_count_respects_the_other_filters():
    flt = {"column": "time", "op": ">=", "value": "2026-03-10"}
    with memory(MIDDLE) as m:
        res = listed(m, flt, {"column": "fat", "op": "<", "value": 23})
        assert res.unplaced_rows == 0  # U's fat is 23
        res = listed(m, flt, {"column": "fat", "op": "<=", "value": 23})
        assert res.unplaced_rows == 1
        # a second filter that excludes U decides it
        res = listed(m, flt, {"column": "time", "op": ">", "value": "2026-03-20"})
        assert res.unplaced_rows == 0
        grouped = compute(m, "avg", optional_column_filters=[flt], group_by="fat")
        assert grouped.unplaced_rows == 1


def test_a_filter_for_undated_rounds_finds_them():
    with memory(MIDDLE) as m:
        res = listed(m, {"column": "time", "op": "=", "value": None})
        assert sources(res.rows) == ["U:1"] and res.unplaced_rows == 0


# -- where the neighbours come from ---------------------------------------------------
def test_one_query_places_many_undated_rounds_as_the_probes_do(monkeypatch):
    from langgraph_adamm.analytic import placement

    history = [
        ("U0", None, 83.0, 25),
        *DATED[:2],
        ("U1", None, 78.5, 23),
        ("U2", None, 78.2, 23),
        *DATED[2:],
        ("U3", None, 76.5, 20),
    ]
    with memory(history) as m:
        t = next(t for t in m.tables if t.table_name == table(m))
        source = m.analytic.qualified(t)

        def placed() -> placement.Placement:
            return placement.placement_of(m.db, m.user_id, source)

        probed = placed()
        with monkeypatch.context() as patch:
            # the probe near a position misses: the one past it finds it
            patch.setattr(placement, "NEAR", 1)
            assert placed() == probed
        monkeypatch.setattr(placement, "PROBED_POSITIONS", 0)
        assert placed() == probed
        day = [datetime.fromisoformat(s[1]) if s[1] else None for s in history]
        # U0 opens the history; U1 and U2 share S2 and S3; U3 closes it
        assert [(r.since, r.until) for r in probed.runs] == [
            (None, day[1]),
            (day[2], day[5]),
            (day[6], None),
        ]
        assert sources(listed(m).rows) == [record(s[0]) for s in history]


def test_a_forgotten_neighbour_moves_the_bound():
    flt = {"column": "time", "op": ">=", "value": "2026-03-05"}
    with memory(MIDDLE) as m:
        assert "U:1" in sources(listed(m, flt).rows)  # between March 8 and 15
        m.forget(session_id="S2")
        res = listed(m, flt)  # now between March 1 and 15
        assert "U:1" not in sources(res.rows) and res.unplaced_rows == 1


def test_an_answer_over_an_unplaced_round_withholds_its_figure():
    # U lies between March 8 and March 15: it may or may not be after the 10th.
    with memory(MIDDLE) as m:
        answer = m.ask(
            "What was my average weight from March 10 to March 31, 2026?",
            question_time="2026-04-01T12:00:00",
        )
        assert answer["value"] is None, answer["answer"]
        assert "1 undated record" in answer["answer"]
        # Where every round is placed, the figure stands.
        placed = m.ask(
            "What was my average weight from March 16 to March 31, 2026?",
            question_time="2026-04-01T12:00:00",
        )
        assert placed["value"] == pytest.approx(77.0)
