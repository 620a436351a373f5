"""A kind's optional attributes are columns of its table, not kinds of their own.

Volunteering shifts are logged with the site and hours, and with the parcels
packed on a packing shift or the kilos sorted on a sorting shift; an export
adds a date. AdaMM's induction keeps ``{site, hours}`` and makes what the
export adds a schema of its own; here parcels, kilos and the date are
optional columns of the one shift table, null where a shift does not state
them.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict

START = date(2026, 1, 5)
SITES = ["Cabra", "Finglas", "Ballymun"]


def shift(i: int) -> tuple[date, str, dict]:
    day = START + timedelta(days=2 * i)
    site = SITES[i % 3]
    hours = 3 + (i % 3) * 0.5
    if i % 2:
        truth = {"site": site, "hours": hours, "parcels": 30 + i}
        if i % 5 == 0:
            text = f"date,site,hours,parcels\n{day},{site},{hours:g},{30 + i}"
        else:
            text = f"Site: {site}\nHours: {hours:g}\nParcels: {30 + i}"
    else:
        truth = {"site": site, "hours": hours, "sorted": 200 + 10 * i}
        if i % 4 == 0:
            text = f"date,site,hours,kg_sorted\n{day},{site},{hours:g},{200 + 10 * i}"
        else:
            text = f"Site: {site}\nHours: {hours:g}\nSorted: {200 + 10 * i} kg"
    return day, text, truth


SHIFTS = [shift(i) for i in range(24)]


def history(days=None):
    """One session a day, one round each: the shifts, or ``days``' records."""
    return history_from_dict(
        {
            "user_id": "u",
            "sessions": [
                {
                    "session_id": f"S{i}",
                    "date": str(day),
                    "rounds": [
                        {"time": f"{day}T20:00:00", "user": text, "assistant": "ok"}
                    ],
                }
                for i, (day, text, _) in enumerate(SHIFTS if days is None else days)
            ],
        }
    )


def shift_tables(m):
    return [t for t in m.analytic.tables if "hours" in t.column_attributes]


def kilos(table):
    """The kilos column: the labels "Sorted" and "kg_sorted" are one attribute."""
    (name,) = [a for a in table.column_attributes if a.endswith("sorted")]
    return name


def total(m, table, column, operator="sum"):
    return m.compute(
        {
            "table": table.table_name,
            "operator": operator,
            "target_column_expression": column,
            "optional_column_filters": [],
        }
    ).value


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="u", retrieval=False)
    m.ingest(history())
    yield m
    m.close()


def test_one_table_holds_every_shift_and_both_measures(mem):
    (table,) = shift_tables(mem)
    assert "parcels" in table.column_attributes and kilos(table)
    assert table.attributes == frozenset({"site", "hours"})
    assert mem.analytic.row_count(table) == len(SHIFTS)
    parcels = [t["parcels"] for _, _, t in SHIFTS if "parcels" in t]
    assert total(mem, table, "parcels") == sum(parcels)
    assert total(mem, table, "parcels", "avg") == pytest.approx(
        sum(parcels) / len(parcels)
    )
    assert total(mem, table, "hours") == sum(t["hours"] for _, _, t in SHIFTS)
    assert total(mem, table, kilos(table)) == sum(
        t["sorted"] for _, _, t in SHIFTS if "sorted" in t
    )


def test_without_optional_columns_the_measures_are_lost_or_split():
    m = Memory(
        ":memory:",
        user_id="u",
        retrieval=False,
        config=AdaMMConfig(optional_columns=False),
    )
    try:
        m.ingest(history())
        tables = shift_tables(m)
        assert not any("parcels" in t.column_attributes for t in tables)
    finally:
        m.close()


def test_one_round_at_a_time_builds_the_same_table(mem):
    m = Memory(":memory:", user_id="u", retrieval=False)
    try:
        for session in history().sessions:
            m.ingest(
                history_from_dict(
                    {
                        "user_id": "u",
                        "sessions": [
                            {
                                "session_id": session.session_id,
                                "date": str(session.rounds[0].time.date()),
                                "rounds": [
                                    {
                                        "time": session.rounds[0].time.isoformat(),
                                        "user": session.rounds[0].user,
                                        "assistant": "ok",
                                    }
                                ],
                            }
                        ],
                    }
                )
            )
        (one,) = shift_tables(m)
        (bulk,) = shift_tables(mem)
        assert one.column_attributes == bulk.column_attributes
        assert total(m, one, "parcels") == total(mem, bulk, "parcels")
        assert total(m, one, kilos(one)) == total(mem, bulk, kilos(bulk))
    finally:
        m.close()


def test_forgetting_the_rounds_that_state_an_optional_attribute(tmp_path):
    m = Memory(str(tmp_path / "m.duckdb"), user_id="u", retrieval=False)
    try:
        m.ingest(history())
        sorting = [f"S{i}:1" for i, (_, _, t) in enumerate(SHIFTS) if "sorted" in t]
        m.forget(sorting)
        (table,) = shift_tables(m)
        assert not any(a.endswith("sorted") for a in table.column_attributes)
        assert m.analytic.row_count(table) == len(SHIFTS) - len(sorting)
        parcels = sum(t["parcels"] for _, _, t in SHIFTS if "parcels" in t)
        assert total(m, table, "parcels") == parcels
    finally:
        m.close()


def trip(i: int) -> tuple[date, str, int | None]:
    """A fishing trip: an app's export now and then (with the catch count and
    its date), otherwise a line with spot, duration, biggest fish and species.
    The first exports are trips with no fish, which state no biggest fish."""
    day = START + timedelta(days=i)
    spot = SITES[i % 3]
    if i % 4 == 1:
        fish = 0 if i < 10 else 1 + i % 5
        lines = [f"Spot: {spot}", f"Date: {day}", "Duration (h): 4", f"Catches: {fish}"]
        if fish:
            lines += [f"Biggest catch (kg): {1 + i % 3}.5", "Species: Pike"]
        return day, "\n".join(lines), fish
    return (
        day,
        f"Trip - Spot: {spot}, Duration (h): 3, Biggest catch (kg): 1.2, "
        "Species: Perch",
        None,
    )


def test_a_schema_found_early_joins_the_kind_it_turns_out_to_belong_to():
    # {catches, date} was a schema of its own while few exports had been
    # seen (the fishless first ones state no biggest catch); once it is
    # owned by the trips it is their optional columns: one trip, one row
    trips = [trip(i) for i in range(48)]
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(trips))
        tables = m.describe_tables()
        assert len(tables) == 1, [t["table"] for t in tables]
        cols = {c["name"] for c in tables[0]["columns"]}
        assert {"catches", "spot", "duration"} <= cols, cols
        assert tables[0]["rows"] == len(trips)
        got = m.compute(
            {
                "table": tables[0]["table"],
                "operator": "sum",
                "target_column_expression": "catches",
            }
        )
        assert got.value == sum(f for _, _, f in trips if f)


def _trips_with(extra: dict[int, str]) -> list[tuple[date, str, int | None]]:
    return [(trip(i)[0], extra[i], None) if i in extra else trip(i) for i in range(48)]


def _column_total(m, column: str) -> float:
    total = 0.0
    for t in m.describe_tables():
        if column in {c["name"] for c in t["columns"]}:
            got = m.compute(
                {
                    "table": t["table"],
                    "operator": "sum",
                    "target_column_expression": column,
                }
            )
            total += got.value or 0
    return total


def test_no_record_of_a_part_is_lost():
    # catches stated alone (no spot, no duration) are no trips' records: the
    # trips do not own the part, and every catch is still in some table
    extra = {
        4: "Export\nDate: 2026-01-09\nCatches: 4",
        8: "Export\nCatches: 5",
        12: "Export\nDate: 2026-01-17\nCatches: 6",
    }
    trips = _trips_with(extra)
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(trips))
        assert _column_total(m, "catches") == sum(f for _, _, f in trips if f) + 15


@pytest.mark.parametrize("batch", [1, 7])
def test_folding_gives_the_same_tables_in_any_batching(batch):
    trips = [trip(i) for i in range(48)]
    with Memory(
        ":memory:",
        user_id="u",
        retrieval=False,
        config=AdaMMConfig(ingest_batch_size=batch),
    ) as m:
        m.ingest(history(trips))
        (table,) = m.describe_tables()
        assert table["rows"] == len(trips)
        assert _column_total(m, "catches") == sum(f for _, _, f in trips if f)
        comps = m.analytic.catalog.components
        assert all(len(set(c)) == len(c) for c in comps.values())
