"""Words that choose the measure: the verb of money, better and worse, long, how many.

Two memories written here. A translator's: invoices sent (amount, client,
terms) and business expenses (category, cost); "what did I spend" is the
expenses, whichever table the word "amount" would suit. A diary of headaches,
swims and meditation: worse pain is more pain; "how many lengths" counts
lengths swum, not the minutes of a meditation whose column is named length;
the total of a medicine is its dose, the one mass its records hold. Expected
values are computed here from the records the test wrote.
"""

from datetime import date, timedelta

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict

START = date(2026, 3, 2)  # a Monday
NOW = "2026-06-28T21:00:00"
CLIENTS = ["Orbis Games", "Halden Press", "Vermeer Legal"]
CATEGORIES = ["books", "train", "lunch", "software"]
TRIGGERS = ["weather", "stress", "screens"]
POOLS = ["Moss Side Baths", "Aquatics Centre"]
STYLES = ["body scan", "breathing"]


def _history(user, rounds):
    sessions = [
        {
            "session_id": f"S{i + 1}",
            "date": str(d),
            "rounds": [{"time": f"{d}T19:00:00", "user": text, "assistant": "Noted."}],
        }
        for i, (d, text) in enumerate(sorted(rounds))
    ]
    return history_from_dict({"user_id": user, "sessions": sessions})


INVOICES = [
    (START + timedelta(days=9 * i), CLIENTS[i % 3], 800.0 + 97 * i, 14 + 15 * (i % 3))
    for i in range(12)
]
EXPENSES = [
    (
        START + timedelta(days=1 + 3 * i),
        CATEGORIES[i % 4],
        round(9.5 + (i * 7.3) % 31, 2),
    )
    for i in range(36)
]


def money_history():
    rounds = [
        (d, f"Invoice sent - Client: {c} | Amount: €{a:.2f} | Terms: {t} days")
        for d, c, a, t in INVOICES
    ] + [
        (d, f"Business expense - Category: {c} | Cost: €{a:.2f}")
        for d, c, a in EXPENSES
    ]
    return _history("translator", rounds)


PAIN = [
    (START + timedelta(days=4 * i), TRIGGERS[i % 3], [8, 5, 6][i % 3] + (i % 2))
    for i in range(27)
]
SWIMS = [
    (
        START + timedelta(days=1 + 5 * i),
        POOLS[i % 2],
        30 + (i * 11) % 45,
        25 + (i * 7) % 40,
    )
    for i in range(22)
]
SITS = [
    (START + timedelta(days=2 + 4 * i), STYLES[i % 2], 10 + (i * 3) % 15)
    for i in range(26)
]


MEDS = [
    (
        START + timedelta(days=3 + 3 * i),
        ["sumatriptan", "ibuprofen"][i % 2],
        [50, 400][i % 2] * (1 + i % 3),
        30 + (i * 13) % 60,
    )
    for i in range(30)
]


def diary_history():
    rounds = (
        [(d, f"Headache log - Pain: {p} | Trigger: {t}") for d, t, p in PAIN]
        + [
            (d, f"Swim - Pool: {p} | Lengths: {n} | Time: {m} min")
            for d, p, n, m in SWIMS
        ]
        + [(d, f"Meditation - Style: {s} | Length: {m} min") for d, s, m in SITS]
        + [
            (d, f"Meds - Medication: {n} | Dose: {g} mg | Relief: {r} min")
            for d, n, g, r in MEDS
        ]
    )
    return _history("diarist", rounds)


@pytest.fixture(scope="module")
def money():
    m = Memory(":memory:", user_id="translator")
    m.ingest(money_history())
    yield m
    m.close()


@pytest.fixture(scope="module")
def diary():
    m = Memory(":memory:", user_id="diarist")
    m.ingest(diary_history())
    yield m
    m.close()


def ask(mem, question):
    return mem.ask(question, question_time=NOW)


def test_money_spent_is_the_expenses_not_the_invoices(money):
    lo, hi = date(2026, 4, 6), date(2026, 4, 19)
    out = ask(money, "What did I spend between the 6th and the 19th of April?")
    assert out["unresolved"] == []
    assert out["value"] == pytest.approx(
        sum(a for d, _, a in EXPENSES if lo <= d <= hi)
    )
    out = ask(money, "How much have I spent in the past fortnight?")
    lo = date(2026, 6, 15)
    assert out["value"] == pytest.approx(sum(a for d, _, a in EXPENSES if d >= lo))


def test_money_over_days_with_no_operator_word_is_a_total(money):
    lo, hi = date(2026, 4, 6), date(2026, 4, 12)
    out = ask(money, "What did I pay for books in April?")
    assert out["value"] == pytest.approx(
        sum(a for d, c, a in EXPENSES if c == "books" and d.month == 4)
    )
    out = ask(
        money, "What did my expenses come to during the week of the 6th of April?"
    )
    assert out["unresolved"] == []
    assert out["value"] == pytest.approx(
        sum(a for d, _, a in EXPENSES if lo <= d <= hi)
    )


def _avg(trigger):
    values = [p for _, t, p in PAIN if t == trigger]
    return sum(values) / len(values)


def test_worse_pain_is_more_pain(diary):
    assert _avg("weather") > _avg("stress")
    out = ask(
        diary, "Is my pain worse when the trigger is weather than when it's stress?"
    )
    assert out["unresolved"] == []
    assert out["value"] is True
    out = ask(
        diary, "Is my pain better when the trigger is weather than when it's stress?"
    )
    assert out["value"] is False
    out = ask(diary, "Which trigger makes my pain worse, weather or stress?")
    assert str(out["value"]).lower() == "weather"


def test_the_worst_pain_is_the_highest(diary):
    june = [p for d, _, p in PAIN if d.month == 6]
    out = ask(diary, "What was my worst pain score in June?")
    assert out["value"] == max(june)
    out = ask(diary, "What was my best pain score in June?")
    assert out["value"] == min(june)


def test_better_of_a_measure_that_says_no_way_is_reported(diary):
    out = ask(diary, "Were my lengths better in May than in April?")
    assert any("better" in u for u in out["unresolved"])


def test_how_many_lengths_counts_lengths_not_minutes(diary):
    day, _, lengths, _ = SWIMS[5]
    out = ask(diary, f"How many lengths did I do on {day.day} {day:%B}?")
    assert out["value"] == lengths
    assert out["unit"] in (None, "")


def test_the_total_of_a_substance_is_its_amount(diary):
    def dose(month):
        return sum(g for d, n, g, _ in MEDS if n == "sumatriptan" and d.month == month)

    out = ask(diary, "How much sumatriptan did I take in April?")
    assert out["value"] == dose(4)
    assert out["unit"] == "mg"
    out = ask(
        diary, "What's the difference in total sumatriptan between March and April?"
    )
    assert abs(out["value"]) == abs(dose(3) - dose(4))
    assert out["unresolved"] == []
    times = ask(diary, "How many times did I take sumatriptan in April?")
    assert times["value"] == sum(
        1 for d, n, _, _ in MEDS if n == "sumatriptan" and d.month == 4
    )


def _spent_by(key):
    out = {}
    for d, _, a in EXPENSES:
        out[key(d)] = out.get(key(d), 0.0) + a
    return out


def test_which_week_did_i_spend_the_most_is_a_week_of_expenses(money):
    weeks = _spent_by(lambda d: d - timedelta(days=d.weekday()))
    top = max(weeks, key=weeks.get)
    out = ask(money, "Which week did I spend the most? Give the Monday's date.")
    assert out["unresolved"] == []
    assert str(out["value"])[:10] == top.isoformat()


def test_months_listed_one_after_another_are_their_span(money):
    months = _spent_by(lambda d: d.month)
    out = ask(
        money, "Across March, April and May, which month did I spend the least in?"
    )
    assert out["unresolved"] == []
    low = min((3, 4, 5), key=months.get)
    assert str(out["value"])[:7] == f"2026-{low:02d}"
    out = ask(money, "How much did I spend in March and April?")
    assert out["value"] == pytest.approx(months[3] + months[4])
    # months apart are no span: April would be counted that was not asked
    out = ask(money, "How much did I spend in March and May?")
    assert out["value"] is None or out["unresolved"]


def test_money_invoiced_is_the_invoices(money):
    out = ask(money, "How much did I invoice in April?")
    assert out["unresolved"] == []
    assert out["value"] == pytest.approx(
        sum(a for d, _, a, _ in INVOICES if d.month == 4)
    )


def test_longest_swim_is_its_duration_not_its_lengths(diary):
    may = [m for d, _, _, m in SWIMS if d.month == 5]
    out = ask(diary, "What was my longest swim in May?")
    assert out["value"] == max(may)
    assert out["unit"] == "min"


CLAY = [
    (
        START + timedelta(days=4 * i),
        ["stoneware", "porcelain"][i % 2],
        5 + 2.5 * (i % 4),
    )
    for i in range(20)
]


def test_how_much_of_a_thing_bought_is_its_amount_not_its_price():
    rounds = [
        (d, f"Clay order - Type: {t} | Weight: {w} kg | Price: €{w * 2.46:.2f}")
        for d, t, w in CLAY
    ]
    with Memory(":memory:", user_id="potter") as m:
        m.ingest(_history("potter", rounds))
        out = ask(m, "How much porcelain did I buy in April?")
        assert out["unit"] == "kg"
        assert out["value"] == pytest.approx(
            sum(w for d, t, w in CLAY if t == "porcelain" and d.month == 4)
        )


SALES = [
    (
        START + timedelta(days=2 + 4 * i),
        ["studio shop", "wholesale", "commission"][i % 3],
        3 + i % 5,
        60 + 17 * i,
    )
    for i in range(18)
]


def test_money_earned_is_the_amount_of_a_table_named_for_sales():
    # the amount column is "total": only the table's name says it is money in
    rounds = [
        (d, f'{{"sold_via": "{via}", "items": {n}, "total": "{t} EUR"}}')
        for d, via, n, t in SALES
    ] + [
        (d, f"Clay order - Type: {t} | Weight: {w} kg | Price: €{w * 2.46:.2f}")
        for d, t, w in CLAY
    ]
    with Memory(":memory:", user_id="potter") as m:
        m.ingest(_history("potter", rounds))
        may = sum(t for d, _, _, t in SALES if d.month == 5)
        march = sum(t for d, _, _, t in SALES if d.month == 3)
        out = ask(m, "How much did I earn from sales in May?")
        assert (out["value"], out["unit"]) == (pytest.approx(may), "EUR")
        out = ask(m, "How much more did I earn from sales in May than in March?")
        assert out["value"] == pytest.approx(may - march)
        # money spent is still the clay, never the takings
        out = ask(m, "How much did I spend on clay in April?")
        assert out["value"] == pytest.approx(
            sum(round(w * 2.46, 2) for d, _, w in CLAY if d.month == 4)
        )


def test_a_word_names_the_column_whose_values_are_of_its_kind():
    import numpy as np

    from langgraph_adamm.planning.context import ColumnCard
    from langgraph_adamm.planning.matching import column_of_kind

    near = {
        "tradesperson": [1.0, 0.0],
        "plumber": [0.9, 0.44],
        "roofer": [0.8, 0.6],
        "weather": [0.0, -1.0],
    }

    def vec(texts):
        rows = [near.get(t, [0.0, 1.0]) for t in texts]
        return np.array([r / np.linalg.norm(r) for r in np.array(rows)])

    who = ColumnCard("who", "VARCHAR", values=("plumber", "roofer"))
    job = ColumnCard("job", "VARCHAR", values=("fixed the shed door", "new tap"))
    assert column_of_kind("tradesperson", [job, who], vec) is who
    # near no column's values by the floor, or near two alike: none
    assert column_of_kind("weather", [job, who], vec) is None
    twin = ColumnCard("crew", "VARCHAR", values=("roofer", "plumber"))
    assert column_of_kind("tradesperson", [who, twin], vec) is None
    assert column_of_kind("tradesperson", [who], lambda texts: None) is None


GIGS = [
    (
        START + timedelta(days=3 + 5 * i),
        ["The Crown", "Mulligan's"][i % 2],
        150 + 25 * i,
    )
    for i in range(16)
]


def test_money_earned_from_records_the_question_names_is_their_amount():
    # "fee" says nothing of its direction; "from gigs" chooses the table
    hurt = date(2026, 4, 7)
    rounds = (
        [
            (d, f'{{"gig": "{venue}", "fee": "{fee}.00 EUR", "travel_km": 24}}')
            for d, venue, fee in GIGS
        ]
        + [(hurt, "Hurt my hand today, caught it in the van door.")]
        + [
            (d, f"Clay order - Type: {t} | Weight: {w} kg | Price: €{w * 2.46:.2f}")
            for d, t, w in CLAY
        ]
    )
    with Memory(":memory:", user_id="player") as m:
        m.ingest(_history("player", rounds))
        fees = {k: sum(f for d, _, f in GIGS if d.month == k) for k in (3, 4)}
        out = ask(m, "How much did I earn from gigs in March?")
        assert (out["value"], out["unit"]) == (pytest.approx(fees[3]), "EUR")
        out = ask(m, "What's the difference between March's gig takings and April's?")
        assert abs(out["value"]) == pytest.approx(fees[4] - fees[3])
        # a period an event bounds: the money of its days in all
        out = ask(m, "What did I earn from gigs before I hurt my hand?")
        assert out["value"] == pytest.approx(sum(f for d, _, f in GIGS if d < hurt))
        # no word chooses the gigs: clay bought is no money earned
        out = ask(m, "How much did I earn in the clay orders in April?")
        assert out["value"] is None


def test_a_plural_of_an_ing_noun_names_what_its_singular_names():
    from langgraph_adamm.planning.matching import QuestionTokens, naming_score
    from langgraph_adamm.planning.text import stem

    for word in ("firings", "earnings", "readings", "takings", "paintings"):
        assert stem(word) == stem(word[:-1]), word
    q = QuestionTokens.of("How many firings did I do in March?")
    assert naming_score(q, "firing_log") > 0
    assert stem("things") == "thing" and stem("earnings") == stem("earn")


KILN_MARCH = [
    (date(2026, 3, 2 + i), ["Pip", "Bertha"][i % 2], 12 + i % 5, 1) for i in range(20)
]
KILN_APRIL = [
    (date(2026, 4, 3 + 4 * i), ["Pip", "Bertha"][i % 2], 30, 2) for i in range(5)
]


def test_what_a_tables_counts_count_adds_up_in_the_column_the_question_names():
    # "pieces" is what the firings count; "lost" names which count: a total
    # of lost pieces, not the number of firings nor their average
    rounds = [
        (d, f"Firing log - Kiln: {k} | {n} pieces | Lost: {lost}")
        for d, k, n, lost in KILN_MARCH + KILN_APRIL
    ]
    with Memory(":memory:", user_id="potter") as m:
        m.ingest(_history("potter", rounds))
        out = ask(m, "How many pieces has Pip lost in total?")
        pip = sum(lost for _, k, _, lost in KILN_MARCH + KILN_APRIL if k == "Pip")
        assert out["value"] == pip and not out["unresolved"]
        # 20 lost in March over 20 firings, 10 in April over 5: more in March,
        # though April's firings lost more each
        out = ask(m, "Did I lose more pieces in March than in April?")
        assert out["value"] is True, out["answer"]


def test_a_word_a_column_name_only_begins_is_no_quantity_of_it(diary):
    # "painkillers" begins with "pain": the pain scores are no painkillers
    out = ask(diary, "How many painkillers did I take in April?")
    april = [d for d, *_ in MEDS if d.month == 4]
    assert out["value"] == len(april) or (out["value"] is None or out["unresolved"])
    assert out["value"] != sum(p for d, _, p in PAIN if d.month == 4)


def test_money_paid_to_me_is_money_in():
    # the rehearsal rooms are where money went: never the venue that paid
    rooms = ["Pirate Studios", "Mick's garage"]
    rounds = [
        (d, f'{{"gig": "{venue}", "fee": "{fee}.00 EUR", "travel_km": 24}}')
        for d, venue, fee in GIGS
    ] + [
        (
            START + timedelta(days=1 + 6 * i),
            f"Rehearsal - Venue: {rooms[i % 2]} | Spent: €{300 + 40 * (i % 2):.2f}",
        )
        for i in range(10)
    ]
    with Memory(":memory:", user_id="player") as m:
        m.ingest(_history("player", rounds))
        for question in (
            "Which venue paid me the most?",
            "Which venue has paid me the most overall?",
            "Which venue made me the most money?",
        ):
            out = ask(m, question)
            assert out["value"] not in rooms, out["answer"]
            assert (
                "spent" not in out["answer"]
                and "records" not in out["answer"].split(":")[0]
            )
            by_fee = {
                v: sum(f for _, w, f in GIGS if w == v)
                for v in ("The Crown", "Mulligan's")
            }
            assert out["value"] in (max(by_fee, key=by_fee.get), None)


def test_a_pronoun_refers_to_the_name_of_the_event_phrase():
    # "her" is Bertha's: the kiln named in the event is the measure's filter
    firings = [
        (
            date(2026, 3, 2) + timedelta(days=2 * i),
            ["Pip", "Bertha"][i % 2],
            300 + 20 * (i % 5),
        )
        for i in range(30)
    ]
    repair = date(2026, 3, 27)
    rounds = [(d, f"Firing log - Kiln: {k} | Time: {t} min") for d, k, t in firings] + [
        (
            repair,
            "The electrician fitted new elements in Bertha today, "
            "she was repaired at last.",
        )
    ]
    with Memory(":memory:", user_id="potter") as m:
        m.ingest(_history("potter", rounds))
        out = ask(m, "Since Bertha was repaired, what's her average firing time?")
        hers = [t for d, k, t in firings if k == "Bertha" and d >= repair]
        assert out["value"] == pytest.approx(sum(hers) / len(hers)), out["answer"]
        # without a pronoun the name stays the event's own
        out = ask(m, "Since Bertha was repaired, what's the average firing time?")
        after = [t for d, _, t in firings if d >= repair]
        assert out["value"] == pytest.approx(sum(after) / len(after)), out["answer"]


def test_the_length_of_a_trip_is_its_distance_and_a_length_column_is_itself(diary):
    trips = [
        (START + timedelta(days=3 * i), 40 + (i * 13) % 70, 35 + (i * 7) % 60)
        for i in range(25)
    ]
    rounds = [
        (d, f"Trip - Distance: {km} km | Duration: {m} min") for d, km, m in trips
    ]
    with Memory(":memory:", user_id="driver") as m:
        m.ingest(_history("driver", rounds))
        out = ask(m, "What was the average length of my trips in April?")
        april = [km for d, km, _ in trips if d.month == 4]
        assert (out["value"], out["unit"]) == (
            pytest.approx(sum(april) / len(april)),
            "km",
        )
    # a column named length is what the word names, minutes and all
    out = ask(diary, "What was the average length of my meditations in April?")
    sits = [m for d, _, m in SITS if d.month == 4]
    assert out["value"] == pytest.approx(sum(sits) / len(sits))


def test_the_week_of_the_longest_time_spent_is_the_weeks_time_in_all(diary):
    # minutes add up over a week; "on average" asks the average
    weeks: dict[date, list[int]] = {}
    for d, _, _, minutes in SWIMS:
        weeks.setdefault(d - timedelta(days=d.weekday()), []).append(minutes)
    out = ask(diary, "Which week did I swim the longest? Give me the Monday.")
    assert out["value"] == str(max(weeks, key=lambda w: sum(weeks[w])))
    out = ask(diary, "Which week were my swims longest on average? The Monday please.")
    assert out["value"] == str(max(weeks, key=lambda w: sum(weeks[w]) / len(weeks[w])))
