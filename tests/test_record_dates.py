"""Records told late are dated by the day they are about."""

from __future__ import annotations

from datetime import date, timedelta

from conftest import one_a_day

from langgraph_adamm import Memory

START = date(2026, 3, 2)


def _swims():
    out = []
    for i in range(12):
        day = START + timedelta(days=i)
        if i == 5:  # told on the 8th day, about the 7th
            text = "Forgot to log yesterday's swim: Pool: Eastside | Distance: 1.5 km"
        elif i == 9:  # an export pasted later, its own date two days back
            text = "Swim export\nDate: 2026-03-09\nPool: Eastside\nDistance: 1.1 km"
        elif i == 10:  # "yesterday" outside the record's sentence
            text = "Yesterday was a wash. Swim: Pool: Eastside | Distance: 1.2 km"
        elif i == 2:  # a date that is no record's day, and a comparison
            text = (
                "Swim: Pool: Eastside | Last gala: 2026-03-03 | Distance: 1.2 km, "
                "same as yesterday"
            )
        elif i == 3:  # two days back: not read as one
            text = "Day before yesterday's swim: Pool: Eastside | Distance: 1.3 km"
        else:
            text = f"Swim: Pool: Eastside | Distance: {1 + i / 10:.1f} km"
        out.append((day, text))
    return out


def test_a_record_told_late_is_dated_the_day_it_is_about():
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(one_a_day(_swims(), at="09:00:00"))
        (table,) = [
            t for t in m.analytic.tables if any(c.name == "distance" for c in t.columns)
        ]
        rows = m.db.fetchall(
            f"SELECT source, CAST(time AS DATE) FROM {m.analytic.qualified(table)} "
            'ORDER BY "order"'
        )
        days = {source: day for source, day in rows}
        assert days["S5:1"] == START + timedelta(days=4)  # "yesterday's swim"
        assert days["S9:1"] == date(2026, 3, 9)  # the export's own date
        assert days["S10:1"] == START + timedelta(days=10)  # not the record's word
        assert days["S2:1"] == START + timedelta(days=2)  # a gala's date, a comparison
        assert days["S3:1"] == START + timedelta(days=3)  # not moved by one day
        assert days["S4:1"] == START + timedelta(days=4)
        out = m.compute(
            {
                "table": table.table_name,
                "operator": "sum",
                "target_column_expression": "distance",
                "optional_column_filters": [
                    {"column": "time", "op": "=", "value": "2026-03-06"}
                ],
            }
        )
        assert out.value == 1.4 + 1.5  # the day's own swim and the late one
