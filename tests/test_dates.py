from datetime import date, datetime

import pytest

from langgraph_adamm.planning.dates import find_date_range

NOW = datetime(2026, 4, 15, 21, 0)  # a Wednesday


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("avg sleep in March", date(2026, 3, 1), date(2026, 3, 31)),
        # a day range whose month is said once, after the second day
        ("longest session between 1 and 20 March", date(2026, 3, 1), date(2026, 3, 20)),
        ("from the 3rd to the 17th of May", date(2025, 5, 3), date(2025, 5, 17)),
        # the span's year is its month's ("in April" is this April)
        ("between 16 and 20 April", date(2026, 4, 16), date(2026, 4, 20)),
        # the second day follows the first, though its most recent one is a
        # year earlier (asked on 15 April)
        ("from 1 April to 20 April", date(2026, 4, 1), date(2026, 4, 20)),
        ("sales 1-20 March", date(2026, 3, 1), date(2026, 3, 20)),
        # a month heading the question
        ("March: what did I spend?", date(2026, 3, 1), date(2026, 3, 31)),
        ("during march 2026", date(2026, 3, 1), date(2026, 3, 31)),
        ("spent in feb?", date(2026, 2, 1), date(2026, 2, 28)),
        ("in May", date(2025, 5, 1), date(2025, 5, 31)),  # most recent May
        ("from April 6 to April 12", date(2026, 4, 6), date(2026, 4, 12)),
        ("April 6-12", date(2026, 4, 6), date(2026, 4, 12)),
        ("apr 4th to Apr 13th", date(2026, 4, 4), date(2026, 4, 13)),
        ("the 5th of March to the 9th of March", date(2026, 3, 5), date(2026, 3, 9)),
        ("between 2026-03-05 and 2026-03-19", date(2026, 3, 5), date(2026, 3, 19)),
        ("from 2026-03-28 through 2026-04-13", date(2026, 3, 28), date(2026, 4, 13)),
        ("last week", date(2026, 4, 6), date(2026, 4, 12)),
        ("this week", date(2026, 4, 13), date(2026, 4, 15)),
        ("this month", date(2026, 4, 1), date(2026, 4, 15)),
        ("last month", date(2026, 3, 1), date(2026, 3, 31)),
        ("since 2026-03-10", date(2026, 3, 10), date(2026, 4, 15)),
        ("since the 10th", date(2026, 4, 10), date(2026, 4, 15)),
        ("since the 20th", date(2026, 3, 20), date(2026, 4, 15)),
        ("yesterday", date(2026, 4, 14), date(2026, 4, 14)),
        ("in the last 7 days", date(2026, 4, 9), date(2026, 4, 15)),
        ("past two weeks", date(2026, 4, 2), date(2026, 4, 15)),
        ("on March 3rd", date(2026, 3, 3), date(2026, 3, 3)),
        ("on 3/14", date(2026, 3, 14), date(2026, 3, 14)),
        ("what did I spend on Saturday", date(2026, 4, 11), date(2026, 4, 11)),
        ("the saturday before that", date(2026, 4, 11), date(2026, 4, 11)),
    ],
)
def test_date_phrases(text, start, end):
    found = find_date_range(text.lower(), NOW)
    assert found is not None, text
    assert (found.start, found.end) == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "what about the marathon",
        "may i ask my total",
        "how many games",
        "7.5 h",
        # a weekday that names a thing: "the Saturday market", "my Sunday roast"
        "my takings at the saturday market",
        "what did my sunday roast cost",
        # two days listed are no span; a span written backwards, a decimal
        # before a dash, "may" the verb and a short month name are no span
        "what did i spend on 5 and 20 march",
        "from 30 to 2 april",
        "i paid 1.5-2 march",
        "readings of 4 to 5 may be low",
        "jan: what was my sleep",
    ],
)
def test_no_date_where_there_is_none(text):
    assert find_date_range(text, NOW) is None


def test_impossible_dates_are_not_ranges():
    assert find_date_range("on february 30", NOW) is None
