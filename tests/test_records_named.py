"""Questions that name the records, not the measured quantity.

"How many naps" counts nap records although a nap-length column exists; "how
much milk" sums the volume of feeds whose kind is milk; "where does she nap
most often" groups by the place column; "by what percent ... from the first
to the latest" is a percentage change, not a difference. Expected values are
computed here from the records the test wrote.
"""

from collections import Counter
from datetime import date, timedelta

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict

START = date(2026, 5, 4)
DAYS = [START + timedelta(days=i) for i in range(56)]
PLACES = ["cot", "pram", "sling", "pram", "cot", "pram"]
NOW = "2026-06-28T22:00:00"


def feed(i: int) -> tuple[str, int, int]:
    return ("formula" if i % 3 else "expressed", 100 + (i * 7) % 60, 10 + i % 9)


def naps(i: int) -> list[tuple[str, int]]:
    # more naps in May than in June
    count = 2 if DAYS[i].month == 5 else 1
    return [(PLACES[(i + k) % 6], 40 + (i * 13 + k * 17) % 70) for k in range(count)]


WEIGHTS = {i: round(4.2 + 0.1 * i, 2) for i in range(0, 56, 7)}


def build_history():
    sessions = []
    for i, d in enumerate(DAYS):
        milk, amount, minutes = feed(i)
        rounds = [
            {
                "time": f"{d}T08:00:00",
                "user": f"Feed | Milk: {milk} | Amount: {amount} ml | Duration: "
                f"{minutes} min",
                "assistant": "Logged.",
            }
        ]
        for k, (place, length) in enumerate(naps(i)):
            rounds.append(
                {
                    "time": f"{d}T{12 + 3 * k}:00:00",
                    "user": f"Nap - Place: {place}, Nap length: {length} min",
                    "assistant": "Sweet dreams.",
                }
            )
        if i in WEIGHTS:
            rounds.append(
                {
                    "time": f"{d}T18:00:00",
                    "user": f"Weigh-in. Weight: {WEIGHTS[i]} kg, "
                    f"Height: {55 + i / 10} cm",
                    "assistant": "Growing well.",
                }
            )
        rounds.append(
            {"time": f"{d}T20:00:00", "user": "Long day.", "assistant": "Rest up."}
        )
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    return history_from_dict({"user_id": "b", "sessions": sessions})


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="b")
    m.ingest(build_history())
    yield m
    m.close()


def ask(mem, question):
    return mem.ask(question, question_time=NOW)


def all_naps():
    return [(DAYS[i], p, n) for i in range(len(DAYS)) for p, n in naps(i)]


def test_how_many_naps_counts_the_records_not_their_minutes(mem):
    out = ask(mem, "How many naps did she have in May?")
    assert out["value"] == sum(1 for d, _, _ in all_naps() if d.month == 5)
    assert out["steps"][0]["arguments"]["operator"] == "count"


def test_the_month_with_the_most_naps_counts_them(mem):
    out = ask(mem, "Which month did she have the most naps?")
    assert out["value"] == "2026-05-01"
    assert out["steps"][0]["arguments"]["operator"] == "count"


def test_how_much_milk_sums_the_volume_of_the_feeds(mem):
    out = ask(mem, "How much milk did she drink in June?")
    want = sum(feed(i)[1] for i, d in enumerate(DAYS) if d.month == 6)
    assert out["value"] == want and out["unit"] == "mL"


def test_where_most_often_groups_by_the_place(mem):
    out = ask(mem, "Where does she nap most often?")
    counts = Counter(p for _, p, _ in all_naps()).most_common()
    assert counts[0][1] > counts[1][1]
    assert out["value"] == counts[0][0]


def test_the_place_she_naps_most_names_a_top_group(mem):
    out = ask(mem, "What's her total nap time in the place she naps most?")
    top = Counter(p for _, p, _ in all_naps()).most_common(1)[0][0]
    assert out["value"] == sum(n for _, p, n in all_naps() if p == top)
    assert [s["tool"] for s in out["steps"]] == ["rank", "compute"]


def test_a_change_asked_in_percent_is_a_percentage_change(mem):
    out = ask(
        mem,
        "By what percent has her weight gone up from the first weigh-in "
        "to the latest one?",
    )
    first, last = WEIGHTS[min(WEIGHTS)], WEIGHTS[max(WEIGHTS)]
    assert out["value"] == pytest.approx((last - first) / first * 100)
    assert [s["tool"] for s in out["steps"]] == ["compute", "compute", "combine"]
    # asked as an amount, it stays latest minus first, in kg
    out = ask(mem, "How much has her weight gone up since the first weigh-in?")
    assert out["value"] == pytest.approx(last - first) and out["unit"] == "kg"
