"""Every word of a question accounted for: subjects, and parts no step used.

A two-month memory of a dog's walks and meals, logged by its owner in chat.
Every walk names the dog; expected values are computed here from the records.
"""

import dataclasses
from datetime import date, timedelta

import pytest
from conftest import one_a_day

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.planning.compose import answer_format_read
from langgraph_adamm.planning.matching import values_named
from langgraph_adamm.planning.question_words import main_verbs
from langgraph_adamm.planning.text import respell_cues, root

START = date(2026, 4, 1)
NOW = "2026-05-31T22:00:00"
PARKS = ["Riverside", "Hill Park"]


def walk(i: int) -> tuple[date, float, int, str]:
    return (
        START + timedelta(days=i),
        round(2.0 + (i * 7 % 9) / 4, 2),
        30 + i % 25,
        PARKS[i % 2],
    )


WALKS = [walk(i) for i in range(61)]


def build_history():
    sessions = []
    for i, (d, km, minutes, park) in enumerate(WALKS):
        rounds = [
            {
                "time": f"{d}T08:00:00",
                "user": f"Walk log - distance: {km} km, duration: {minutes} min, "
                f"park: {park}. Biscuit {'loved it' if i % 2 else 'was tired'}.",
                "assistant": "Good walk!",
            },
            {
                "time": f"{d}T19:00:00",
                "user": f"Dinner log - food: {120 + i % 30} g. Biscuit ate it all.",
                "assistant": "Noted.",
            },
        ]
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    return history_from_dict({"user_id": "owner", "sessions": sessions})


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="owner")
    m.ingest(build_history())
    yield m
    m.close()


def ask(mem, question):
    return mem.ask(question, question_time=NOW)


def may(rows):
    return [r for r in rows if r[0].month == 5]


def test_the_records_subject_is_read_and_said(mem):
    out = ask(mem, "How far did Biscuit walk on average in May?")
    kms = [km for _, km, _, _ in may(WALKS)]
    assert out["value"] == pytest.approx(sum(kms) / len(kms))
    assert out["unresolved"] == []
    assert out["subjects"] == ["Biscuit"]
    assert "I read 'Biscuit' as whose records these are" in out["answer"]


def test_a_name_the_records_are_not_about_is_unresolved(mem):
    out = ask(mem, "How far did Rex walk on average in May?")
    assert out["value"] is None
    assert any("Rex" in u for u in out["unresolved"])
    assert not out.get("subjects")


def test_a_name_that_is_a_value_stays_a_filter(mem):
    out = ask(mem, "How far did I walk Biscuit at Riverside in May?")
    kms = [km for _, km, _, park in may(WALKS) if park == "Riverside"]
    assert out["value"] == pytest.approx(sum(kms))
    assert out["unresolved"] == []


def test_the_subject_named_in_the_possessive_is_said_by_name(mem):
    out = ask(mem, "What was Biscuit's total walking distance in May?")
    assert out["value"] == pytest.approx(sum(km for _, km, _, _ in may(WALKS)))
    assert out["subjects"] == ["Biscuit"]


def test_a_value_named_in_the_possessive_is_the_filter(mem):
    out = ask(mem, "What was Riverside's total walking distance in May?")
    kms = [km for _, km, _, park in may(WALKS) if park == "Riverside"]
    assert out["value"] == pytest.approx(sum(kms))
    assert out["unresolved"] == []


@pytest.mark.parametrize(
    "question, word",
    [
        # a value no row holds, beside the measure
        ("How far did Biscuit walk on the beach in May?", "beach"),
        # a qualifier of the records no column holds
        ("What was the average distance of Biscuit's muddy walks in May?", "muddy"),
        # a share no step computes
        ("What share of Biscuit's walking distance in May was in the rain?", "share"),
    ],
)
def test_a_content_word_no_step_used_withholds_the_figure(mem, question, word):
    out = ask(mem, question)
    assert out["value"] is None, out["answer"]
    assert any(word in u for u in out["unresolved"]), out["unresolved"]
    assert "I can't answer this exactly" in out["answer"]


def test_scaffolding_and_the_main_verb_are_not_reported(mem):
    out = ask(
        mem, "Could you please tell me roughly how many km I've walked Biscuit in May?"
    )
    assert out["value"] == pytest.approx(sum(km for _, km, _, _ in may(WALKS)))
    assert out["unresolved"] == []
    # "all together" only asks for the total
    out = ask(mem, "How many km did I walk Biscuit in May, all together?")
    assert out["value"] == pytest.approx(sum(km for _, km, _, _ in may(WALKS)))
    assert out["unresolved"] == []


def test_roots_andmain_verbs():
    assert root("cycled") == root("cycling")
    assert root("jogged") == root("jog")
    assert root("rides") == root("ride")
    assert root("meditate") == root("meditation")
    assert main_verbs("how many loaves did i shift last week") == {"shift"}
    assert main_verbs("which market brings in the most money") == {"brings"}


def test_which_and_where_first_or_last_answer_with_the_records_text(mem):
    out = ask(mem, "Which park did I walk Biscuit at last?")
    assert out["value"] == WALKS[-1][3] and out["unresolved"] == []
    out = ask(mem, "Where did I walk Biscuit first in May?")
    assert out["value"] == may(WALKS)[0][3] and out["unresolved"] == []


def test_a_column_asked_for_but_not_read_is_reported(mem):
    # the plan reads distances; the question asks which park, as a total
    out = ask(mem, "What was the total distance of the last park I walked Biscuit in?")
    assert out["value"] is None or out["value"] == WALKS[-1][3]


def test_a_condition_written_in_words_is_read(mem):
    out = ask(mem, "How many walks in May were longer than four km?")
    assert out["value"] == sum(1 for _, km, _, _ in may(WALKS) if km > 4)
    assert out["unresolved"] == []


def test_a_number_no_step_uses_withholds_the_figure(mem):
    # "5+0" is a value (a chess time control), not "5 or more"; no row holds it
    out = ask(mem, "What was Biscuit's longest 5+0 walk in May?")
    assert out["value"] is None, out["answer"]
    assert any("'5'" in u and "number" in u for u in out["unresolved"])


def test_a_unit_the_column_cannot_be_given_in_is_reported(mem):
    out = ask(mem, "What was the total walking distance in kg in May?")
    assert out["value"] is None, out["answer"]
    assert any("'in kg'" in u for u in out["unresolved"]), out["unresolved"]


WEIGH_INS = [
    (START + timedelta(days=i), round(11.0 + i / 50, 2)) for i in range(0, 61, 5)
]


@pytest.fixture(scope="module")
def weighed():
    """The walks, and the dog's weigh-ins (a second table, without parks)."""
    history = build_history()
    sessions = list(history.sessions)
    for n, (d, kg) in enumerate(WEIGH_INS):
        sessions.append(
            history_from_dict(
                {
                    "user_id": "owner",
                    "sessions": [
                        {
                            "session_id": f"W{n + 1}",
                            "date": str(d),
                            "rounds": [
                                {
                                    "time": f"{d}T12:00:00",
                                    "user": f"Weigh-in - weight: {kg} kg, "
                                    f"collar: {30 + n % 3} cm. Biscuit sat still.",
                                    "assistant": "Noted.",
                                }
                            ],
                        }
                    ],
                }
            ).sessions[0]
        )
    m = Memory(":memory:", user_id="owner")
    sessions.sort(key=lambda s: s.rounds[0].time)
    m.ingest(dataclasses.replace(history, sessions=tuple(sessions)))
    yield m
    m.close()


def test_a_unit_of_another_kind_than_the_column_is_reported(weighed):
    out = ask(weighed, "How many kg did Biscuit walk in May?")
    assert out["value"] is None, out["answer"]


def test_a_value_of_a_column_the_plan_does_not_read_is_no_subject(weighed):
    # Riverside is a park of the walks; the weigh-ins know nothing of parks
    out = ask(weighed, "What was Biscuit's average weight at Riverside?")
    assert out["value"] is None, out["answer"]
    assert "Riverside" not in (out.get("subjects") or [])
    assert any("Riverside" in u for u in out["unresolved"]), out["unresolved"]


def test_an_amount_named_in_the_plural_over_a_period_is_a_total(mem):
    out = ask(mem, "Kilometres walked with Biscuit in May?")
    assert out["value"] == pytest.approx(sum(km for _, km, _, _ in may(WALKS)))
    assert out["unresolved"] == []


def test_an_event_naming_what_no_round_mentions_anchors_nowhere(mem):
    out = ask(mem, "How far did Biscuit walk since we joined the Kennel Club?")
    assert out["value"] is None, out["answer"]
    assert any("Kennel Club" in u for u in out["unresolved"]), out["unresolved"]


def test_which_group_most_before_a_period_counts_records(mem):
    out = ask(mem, "Which park did I walk Biscuit at most in May?")
    parks = [park for *_, park in may(WALKS)]
    assert out["value"] == max(PARKS, key=parks.count)


def test_two_adjacent_months_or_ed_answer_with_the_winner(mem):
    out = ask(mem, "Did Biscuit walk further in April or May?")
    april = sum(km for d, km, _, _ in WALKS if d.month == 4)
    may_km = sum(km for _, km, _, _ in may(WALKS))
    assert out["unresolved"] == []
    assert str(out["value"]).startswith("2026-04" if april > may_km else "2026-05")


def test_a_sentence_saying_how_to_answer_is_read_as_such():
    assert (
        answer_format_read("Which week did I walk most? Give me the Monday's date.")
        == "Which week did I walk most?"
    )
    assert (
        answer_format_read("how long did I walk at the park? in hours pls")
        == "how long did I walk at the park, in hours?"
    )
    assert answer_format_read("How far? And why?") == "How far? And why?"


def test_the_monday_asked_for_is_the_week_answered(mem):
    out = ask(
        mem,
        "Which week did I walk Biscuit furthest in total? Give me the Monday's date.",
    )
    weeks: dict[date, float] = {}
    for d, km, _, _ in WALKS:
        monday = d - timedelta(days=d.weekday())
        weeks[monday] = weeks.get(monday, 0.0) + km
    assert out["unresolved"] == []
    assert str(out["value"]).startswith(str(max(weeks, key=weeks.get)))


def test_a_month_no_step_covers_is_reported(mem):
    # read as April alone, April's figure would be stated as the answer
    out = ask(mem, "How far did Biscuit walk in April and May?")
    assert out["value"] is None or out["value"] == pytest.approx(
        sum(km for d, km, _, _ in WALKS if d.month in (4, 5))
    ), out["answer"]
    if out["value"] is None:
        assert any("'May'" in u for u in out["unresolved"]), out["unresolved"]


def test_an_amount_asked_x_wise_over_a_period_is_a_total(mem):
    out = ask(mem, "What did Biscuit clock up in May, kilometres-wise?")
    assert out["value"] == pytest.approx(sum(km for _, km, _, _ in may(WALKS)))
    assert out["unresolved"] == []


def test_review_cases_are_read_as_meant():
    from datetime import datetime

    from langgraph_adamm.planning.asked import months_asked
    from langgraph_adamm.planning.comparisons import _two_months
    from langgraph_adamm.planning.intent import read_intent

    april = [
        {
            "tool": "compute",
            "arguments": {
                "table": "walk_log",
                "optional_column_filters": [
                    {
                        "column": "time",
                        "op": "between",
                        "value": ["2026-04-01", "2026-04-30"],
                    }
                ],
            },
        }
    ]
    assert months_asked("May I know how far I walked in April?", april) == []
    assert months_asked("How often at the March Hare in April?", april) == []
    assert months_asked("How far in April, May and June?", april) == [
        "'May' (a month no step's period covers)",
        "'June' (a month no step's period covers)",
    ]
    # a year written is read by the sides' dates, not as this year's months
    assert (
        _two_months("higher in October 2023 or November 2023", datetime(2025, 3, 10))
        is None
    )
    now = datetime(2026, 6, 1)
    assert (
        read_intent("What was my pace in minutes per km in May?", now).operator is None
    )
    assert (
        read_intent("Which days in May did I walk in Hill Park?", now).operator is None
    )
    assert values_named(
        "did i see marek or anna more", ("Marek", "Marek Nowak", "Anna")
    ) == [
        "Marek",
        "Anna",
    ]


def test_the_first_record_named_by_a_column_word_is_that_record(mem):
    # "park" names the first walk's record here, not a column left unread
    out = ask(mem, "What duration did the first park I visited in May have?")
    assert out["unresolved"] == [] and out["value"] == may(WALKS)[0][2]
    # a total over a park asked by "the last park" is not such a record
    out = ask(mem, "What was the total distance of the last park I walked Biscuit in?")
    assert out["value"] is None or out["value"] == WALKS[-1][3]


def brewing_history():
    styles = ["Pale Ale", "Irish Red", "Porter", "Saison", "Kolsch", "Stout"]
    sessions = []
    for i, style in enumerate(styles):
        brew_day = START + timedelta(days=10 * i)
        bottling = brew_day + timedelta(days=14)
        sessions.append(
            {
                "session_id": f"B{i}",
                "date": str(brew_day),
                "rounds": [
                    {
                        "time": f"{brew_day}T20:00:00",
                        "user": f"Brewed today. Style: {style}, Batch: {19 + i} L, "
                        f"OG: 1.0{45 + i}",
                        "assistant": "Cheers!",
                    }
                ],
            }
        )
        sessions.append(
            {
                "session_id": f"P{i}",
                "date": str(bottling),
                "rounds": [
                    {
                        "time": f"{bottling}T20:00:00",
                        "user": f"Bottling day. Beer: {styles[-1 - i]}, "
                        f"Bottles: {40 + i}, FG: 1.01{i}",
                        "assistant": "Nice.",
                    }
                ],
            }
        )
    sessions.sort(key=lambda s: s["date"])
    return history_from_dict({"user_id": "brewer", "sessions": sessions})


def test_a_verb_only_another_tables_records_say_is_reported():
    m = Memory(":memory:", user_id="brewer", retrieval=False)
    try:
        m.ingest(brewing_history())
        out = m.ask("What was the first beer I brewed?", question_time=NOW)
        # a plan over the bottlings (the column "beer") answers another
        # question: the first beer bottled is "Stout"
        assert out["value"] in (None, "Pale Ale")
        if out["value"] is None:
            assert any("'brewed'" in u for u in out["unresolved"])
        out = m.ask("What was the first beer I bottled?", question_time=NOW)
        assert out["value"] == "Stout" and out["unresolved"] == []
    finally:
        m.close()


def test_the_top_group_named_as_a_noun_is_measured(mem):
    # "my most frequent park": the park walked most often, then its average
    top = max(PARKS, key=lambda p: sum(1 for w in WALKS if w[3] == p))
    kms = [km for _, km, _, park in WALKS if park == top]
    for question in (
        "What's the average distance of my most frequent park?",
        "How far is Biscuit's usual walking park on average, in km?",
    ):
        out = ask(mem, question)
        assert out["unresolved"] == []
        assert out["value"] == pytest.approx(sum(kms) / len(kms))


@pytest.fixture(scope="module")
def catches():
    """Fishing trips whose only number is a count of fish (no unit)."""
    sessions = [
        {
            "session_id": f"S{i + 1}",
            "date": str(START + timedelta(days=i)),
            "rounds": [
                {
                    "time": f"{START + timedelta(days=i)}T18:00:00",
                    "user": f"Catch log - fish: {i % 4}, bait: "
                    f"{['worm', 'spinner'][i % 2]}",
                    "assistant": "Tight lines!",
                }
            ],
        }
        for i in range(0, 61, 2)
    ]
    m = Memory(":memory:", user_id="owner")
    m.ingest(history_from_dict({"user_id": "owner", "sessions": sessions}))
    yield m
    m.close()


@pytest.mark.parametrize(
    "question, said",
    [
        ("How long was the longest fish I caught in May, in centimetres?", "'in cm'"),
        ("On average, how long was I out per fishing trip in May?", "'how long'"),
        ("What was my longest catch log in May?", "'longest'"),
    ],
)
def test_a_length_or_duration_asked_of_a_count_gives_no_figure(catches, question, said):
    out = ask(catches, question)
    assert out["value"] is None, out["answer"]
    assert any(u.startswith(said) for u in out["unresolved"]), out["unresolved"]


def test_a_length_asked_of_a_length_is_answered(mem, catches):
    out = ask(mem, "What was Biscuit's longest walk in May, in minutes?")
    assert out["value"] == max(m for _, _, m, _ in may(WALKS))
    out = ask(mem, "How long did Biscuit walk in total in May, in minutes?")
    assert out["value"] == pytest.approx(sum(m for _, _, m, _ in may(WALKS)))
    out = ask(catches, "How many fish did I catch in May?")
    assert out["value"] == sum(i % 4 for i in range(0, 61, 2) if i >= 30)


def study_history():
    sessions = []
    for i in range(40):
        d = START + timedelta(days=i)
        rounds = [
            {
                "time": f"{d}T10:00:00",
                # the first records say nothing of studying
                "user": f"{'Focus timer finished.' if i < 5 else 'Study timer |'} "
                f"Subject: {['Chemistry', 'Biology'][i % 2]} "
                f"| Duration: {30 + i % 5 * 10} min",
                "assistant": "Saved.",
            },
            {
                "time": f"{d}T20:00:00",
                "user": f"Meditation - Length: {10 + i % 3} min, Style: breathing",
                "assistant": "Saved.",
            },
            {
                "time": f"{d}T21:00:00",
                "user": "Long day, off to bed.",
                "assistant": "Night!",
            },
        ]
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    return history_from_dict({"user_id": "student", "sessions": sessions})


def test_the_word_the_records_are_called_by_names_their_table():
    m = Memory(":memory:", user_id="student", retrieval=False)
    try:
        m.ingest(study_history())
        april = [
            30 + i % 5 * 10 for i in range(40) if (START + timedelta(days=i)).month == 4
        ]
        out = m.ask("How much did I study in April?", question_time=NOW)
        assert out["value"] == pytest.approx(sum(april)) and out["unresolved"] == []
        # a word no record of the table says stays a quantity not read
        out = m.ask("How much did I cook in April?", question_time=NOW)
        assert out["value"] is None and any("cook" in u for u in out["unresolved"])
        # the kind named, what else is said only asks
        out = m.ask("What was my longest study session in April?", question_time=NOW)
        assert out["value"] == max(april) and out["unresolved"] == []
        # of two tables, a question naming neither gives no number
        out = m.ask("What was my highest in April?", question_time=NOW)
        assert out["value"] is None
        assert any("what is measured" in u for u in out["unresolved"])
    finally:
        m.close()


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("avarage", "average"),
        ("averge", "average"),
        ("diffrence", "difference"),
        ("percentge", "percentage"),
        ("betwen", "between"),
        ("hightest", "highest"),
        ("Medina", "Medina"),  # a name, not "median"
        ("media", "media"),
        ("different", "different"),
        ("compare", "compare"),
        ("totals", "totals"),  # a form of the word, no typo
        ("averaged", "averaged"),
        ("highs", "highs"),
        ("slice", "slice"),
    ],
)
def test_form_words_as_people_mistype_them(typed, meant):
    assert respell_cues(f"my {typed} walk") == f"my {meant} walk"


def test_a_mistyped_form_word_is_read_and_a_word_the_memory_says_is_kept(mem):
    out = ask(mem, "What was Biscuit's avrage walk distance in May?")
    kms = [km for _, km, _, _ in may(WALKS)]
    assert out["value"] == pytest.approx(sum(kms) / len(kms))
    assert out["unresolved"] == []
    # a word the user's rounds hold as written is never respelled
    assert (
        respell_cues("my totla walk", known=lambda w: w == "totla") == "my totla walk"
    )


@pytest.mark.parametrize(
    "question",
    [
        "What's my most common park?",
        "What is my main park?",
        "Which is my favourite park?",
    ],
)
def test_a_superlative_group_asked_with_what_answers_with_the_group(mem, question):
    top = max(PARKS, key=lambda p: sum(1 for w in WALKS if w[3] == p))
    out = ask(mem, question)
    assert out["value"] == top, out["answer"]
    assert out["unresolved"] == []


def test_records_counted_by_the_word_one_of_their_layouts_calls_them():
    layouts = [  # the first records do not say "attack"
        "Migraine / Trigger: {t} / Duration: {h} h",
        "Head diary - trigger: {t}, duration: {h} h",
        "Screenshot from my app. TRIGGER: {t}, Duration: {h} h",
        "Attack | Trigger: {t} | Duration: {h} h",
    ]
    sessions, april = [], 0
    for i in range(48):
        d = START + timedelta(days=i)
        text = layouts[i % 4].format(t=["screens", "stress"][i % 2], h=3 + i % 5)
        rounds = [
            {"time": f"{d}T10:00:00", "user": text, "assistant": "Logged."},
            {
                "time": f"{d}T12:00:00",
                "user": f"Water: {1 + i % 3} L",
                "assistant": "ok",
            },
            {
                "time": f"{d}T20:00:00",
                "user": "Quiet evening in.",
                "assistant": "Nice.",
            },
        ]
        april += d.month == 4
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    m = Memory(":memory:", user_id="ines", retrieval=False)
    try:
        m.ingest(history_from_dict({"user_id": "ines", "sessions": sessions}))
        out = m.ask("How many attacks did I have in April?", question_time=NOW)
        assert out["value"] == april and out["unresolved"] == [], out["answer"]
        out = m.ask("How many nosebleeds did I have in April?", question_time=NOW)
        assert out["value"] is None
    finally:
        m.close()


def species_history():
    # trout caught most often, perch the heaviest: "most common" is by count
    sessions, rounds = [], []
    start = date(2026, 4, 1)
    kinds = ["trout"] * 3 + ["pike"] * 2 + ["perch"]
    for i in range(60):
        d = start + timedelta(days=i)
        fish = kinds[i % 6]
        kg = {"trout": 1.0, "pike": 2.0, "perch": 3.0}[fish] + (i % 3) / 10
        shop = ["Zara", "Lidl"][i % 2]
        rounds = [
            {
                "time": f"{d}T08:00:00",
                "user": f"Catch - species: {fish}, weight: {kg} kg",
            },
            {"time": f"{d}T12:00:00", "user": f"Shop: {shop}, Cost: {5 + i % 4} EUR"},
        ]
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    return history_from_dict({"user_id": "angler", "sessions": sessions})


@pytest.fixture(scope="module")
def species():
    m = Memory(":memory:", user_id="angler", retrieval=False)
    m.ingest(species_history())
    yield m
    m.close()


@pytest.mark.parametrize(
    "question",
    ["What's my most common species?", "What is my favourite species?"],
)
def test_a_superlative_of_choice_counts_its_groups(species, question):
    out = species.ask(question, question_time=NOW)
    assert out["value"] == "trout", out["answer"]
    assert out["unresolved"] == []


def test_a_quantity_asked_of_a_superlative_group_is_no_group_name(species):
    out = species.ask("What was the total I spent at my main shop?", question_time=NOW)
    assert out["value"] not in ("Zara", "Lidl"), out["answer"]
    # one record's superlative answers with its measure
    out = species.ask("What was the heaviest catch in May?", question_time=NOW)
    assert out["value"] == pytest.approx(3.2), out["answer"]


def test_a_superlative_of_choice_by_a_named_measure_adds_it_up(species):
    # Zara and Lidl have 30 receipts each; Lidl's add up to more
    out = species.ask("What's my top shop by cost?", question_time=NOW)
    assert out["value"] == "Lidl", out["answer"]


def test_a_word_one_edit_from_a_form_word_it_is_not_stays():
    assert respell_cues("What was my slowest pace?") == "What was my slowest pace?"
    assert respell_cues("Ok. Avrage weight?") == "Ok. average weight?"


def test_a_measure_named_by_a_word_no_column_holds_gives_no_figure():
    # "heart rate" of rowing-machine sessions that log a stroke rate: "heart"
    # had been taken for a synonym of the period's ``time`` column and the
    # stroke rate's average stated. "Cheapest" of sales that log a margin in
    # % asks for money: the lowest margin is no price.
    start = date(2026, 3, 1)
    sessions = []
    for i in range(30):
        d = start + timedelta(days=i)
        rounds = [
            {
                "time": f"{d}T07:00:00",
                "user": f"Erg - distance: {5000 + 100 * (i % 5)} m, "
                f"avg rate: {22 + i % 4} spm, split: {120 + i % 7} s",
                "assistant": "Logged.",
            }
        ]
        if i % 3 == 0:
            rounds.append(
                {
                    "time": f"{d}T18:00:00",
                    "user": f"Sale - item: {'jacket' if i % 2 else 'scarf'}, "
                    f"margin: {30 + i} %",
                    "assistant": "Noted.",
                }
            )
        sessions.append({"session_id": f"E{i}", "date": str(d), "rounds": rounds})
    with Memory(":memory:", user_id="r") as m:
        m.ingest(history_from_dict({"user_id": "r", "sessions": sessions}))
        now = "2026-04-02T10:00:00"
        out = m.ask(
            "What was my average heart rate on the erg in March?", question_time=now
        )
        assert out["value"] is None, out["answer"]
        assert any("heart" in u for u in out["unresolved"]), out["unresolved"]
        out = m.ask("cheapest thing i sold in march?", question_time=now)
        assert out["value"] is None, out["answer"]
        assert any("cheapest" in u for u in out["unresolved"]), out["unresolved"]
        rate = m.ask("What was my average rate on the erg in March?", question_time=now)
        assert rate["value"] == pytest.approx(sum(22 + i % 4 for i in range(30)) / 30)


JOBS = ["boiler service", "gutter clean", "lock change", "paint hall"]
ITEMS = ["gloves", "bottle", "cap"]


@pytest.mark.parametrize(
    "line, question, expected",
    [
        # "the priciest job": the jobs' text column names the records the
        # highest cost is read over, not a column the plan left out
        (
            lambda i: (
                f"Job: {JOBS[i % 4]} | property: Flat {1 + i % 3} | "
                f"cost: €{60 + 7 * i}.50"
            ),
            "What was the priciest job in April?",
            60 + 7 * 11 + 0.5,
        ),
        # "kr" is money pint does not know: "cheapest" asks for it, and gets it
        (
            lambda i: f"Bought - item: {ITEMS[i % 3]}, price: {120 + 10 * i} kr",
            "What was the cheapest thing I bought in April?",
            120,
        ),
    ],
)
def test_a_superlatives_record_and_money_pint_does_not_know(line, question, expected):
    start = date(2026, 4, 1)
    rounds = [(start + timedelta(days=2 * i), line(i)) for i in range(12)]
    with Memory(":memory:", user_id="u") as m:
        m.ingest(one_a_day(rounds))
        out = m.ask(question, question_time="2026-05-02T10:00:00")
        assert out["value"] == pytest.approx(expected), out["answer"]
        assert out["unresolved"] == []
