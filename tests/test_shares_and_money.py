"""A share of a total, money in and money out, and values named by some words.

A three-month memory of a market stall: market days (market, takings, pitch
fee) and supply orders (supplier, amount). Expected values are computed here
from the records the test wrote.
"""

from datetime import date, timedelta

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.planning.matching import values_named

START = date(2026, 5, 2)  # a Saturday
NOW = "2026-07-30T10:00:00"
MARKETS = ["Marlay Park Saturday Market", "Docklands Sunday Market"]


def _days():
    out = []
    for week in range(12):
        for n, market in enumerate(MARKETS):
            day = START + timedelta(days=7 * week + n)
            takings = round(180 + (week * 37 + n * 55) % 140 + 0.5 * n, 2)
            out.append((day, market, takings, 30 + 5 * n))
    return out


DAYS = _days()
ORDERS = [
    (
        START + timedelta(days=3 + 9 * i),
        ["Candle Shack", "Print Pal"][i % 2],
        20.0 + 7 * i,
    )
    for i in range(9)
]


def build_history():
    sessions = []
    rounds = [
        (d, f"Market day wrap-up\nMarket: {m} | Takings: €{t:.2f} | Pitch fee: €{f}")
        for d, m, t, f in DAYS
    ] + [(d, f"Supplies order - Supplier: {s}, Amount: €{a:.2f}") for d, s, a in ORDERS]
    for i, (d, text) in enumerate(sorted(rounds)):
        sessions.append(
            {
                "session_id": f"S{i + 1}",
                "date": str(d),
                "rounds": [
                    {"time": f"{d}T18:00:00", "user": text, "assistant": "Logged."}
                ],
            }
        )
    return history_from_dict({"user_id": "stall", "sessions": sessions})


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="stall")
    m.ingest(build_history())
    yield m
    m.close()


def ask(mem, question):
    return mem.ask(question, question_time=NOW)


def takings(market=None, month=None):
    return sum(
        t
        for d, m, t, _ in DAYS
        if (market is None or m == market) and (month is None or d.month == month)
    )


def test_a_share_of_a_total_is_the_part_over_the_whole(mem):
    out = ask(mem, "What percentage of my takings came from the Saturday market?")
    assert out["unresolved"] == []
    assert out["value"] == pytest.approx(100 * takings(MARKETS[0]) / takings())
    assert out["unit"] == "%"
    tools = [s["tool"] for s in out["steps"]]
    assert tools == ["compute", "compute", "combine"]


def test_a_share_of_a_value_no_row_holds_gives_no_number(mem):
    out = ask(mem, "What share of my takings came from the Howth market?")
    assert out["value"] is None
    assert "%" not in out["answer"]


def test_a_stray_word_in_a_share_is_reported(mem):
    out = ask(
        mem,
        "What percentage of my takings came from the Saturday market on rainy days?",
    )
    assert out["value"] is None
    assert any("rainy" in u for u in out["unresolved"])


def test_money_taken_in_is_not_money_spent(mem):
    out = ask(mem, "How much did I earn in June?")
    assert out["value"] == pytest.approx(takings(month=6))
    spent = ask(mem, "How much did I spend on supplies in June?")
    assert spent["value"] == pytest.approx(sum(a for d, _, a in ORDERS if d.month == 6))


def test_values_named_by_some_of_their_words(mem):
    out = ask(mem, "How much more did I make at Marlay than at Docklands in June?")
    assert out["unresolved"] == []
    # "how much more" is the size of the difference, whichever side is larger
    assert abs(out["value"]) == pytest.approx(
        abs(takings(MARKETS[0], 6) - takings(MARKETS[1], 6))
    )


def test_what_was_the_highest_asks_a_value(mem):
    out = ask(mem, "What was the highest takings in June?")
    assert out["value"] == pytest.approx(max(t for d, _, t, _ in DAYS if d.month == 6))


def test_a_first_name_also_names_the_person_written_in_full():
    values = ("Marek", "Sinéad", "Marek Nowak", "Sinéad Roche", "Cafe Luna")
    assert values_named("how much have i paid marek in total?", values) == [
        "Marek",
        "Marek Nowak",
    ]
    # the full name names one value; a lowercase kind names no person
    assert values_named("what did i pay marek nowak?", values) == ["Marek Nowak"]
    assert values_named("tea at cafe luna", ("cafe", "Cafe Luna")) == ["Cafe Luna"]
