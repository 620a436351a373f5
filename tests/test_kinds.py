"""Kinds by meaning: one kind, one table, whatever labels and layouts its records use.

Chess games written in four layouts (labelled lines, a one-line summary with
other labels, an app's unlabelled pipe row, several games in one message) and
lessons in two layouts with different labels. Expected values are computed here
from the records written.
"""

from datetime import date, timedelta

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.analytic.extraction.base import Observation, Provenance
from langgraph_adamm.analytic.guided import build_guide, guided_records
from langgraph_adamm.analytic.kinds import aliases, name_tie
from langgraph_adamm.analytic.values import parse_value
from langgraph_adamm.history import history_from_dict

START = date(2026, 3, 2)
NOW = "2026-06-01T00:00:00"
OPPONENTS = ["Aoife Kelly", "Dara Quinn", "Colm Duffy", "Ruth Byrne", "Peter Walsh"]


def game(i):
    opponent = OPPONENTS[i % len(OPPONENTS)]
    colour = "white" if i % 2 else "black"
    result = ["win", "loss", "draw"][i % 3]
    said = {"win": "won", "loss": "lost", "draw": "drew"}[result]
    rating = 1500 + 7 * i
    minutes = 30 + 5 * i
    layout = i % 4
    if layout == 0:
        text = (
            f"Opponent: {opponent}\nColour: {colour}\nResult: {result}\n"
            f"Rating: {rating}\nTC: 15+10\nMinutes: {minutes}"
        )
    elif layout == 1:
        text = (
            f"Result: {result}, Opponent: {opponent}, Colour: {colour}, "
            f"Rating after: {rating}, Time control: 15+10, Length: {minutes} min"
        )
    elif layout == 2:
        text = (
            f"Club night.\nvs {opponent} | {colour} | {said} | rating {rating} | "
            f"15+10 | {minutes} min"
        )
    else:
        text = (
            f"Opponent: {opponent}\nColour: {colour}\nResult: {result}\n"
            f"Rating: {rating}\nTC: 15+10\nMinutes: {minutes}"
        )
    return (
        START + timedelta(days=3 * i),
        text,
        dict(
            opponent=opponent,
            colour=colour,
            result=result,
            rating=rating,
            minutes=minutes,
        ),
    )


GAMES = [game(i) for i in range(16)]
# Two games in one message, unlabelled: two records of one round.
PAIR_DAY = START + timedelta(days=60)
PAIR = (
    "Two rapid games tonight:\n"
    "vs Dara Quinn | white | won | rating 1640 | 15+10 | 41 min\n"
    "vs Colm Duffy | black | lost | rating 1633 | 15+10 | 38 min"
)
CHAT = "Peter Walsh always offers a draw when he's worse. Is it rude to refuse?"


def build_sessions():
    sessions = [
        {
            "session_id": f"G{i}",
            "date": str(day),
            "rounds": [
                {"time": f"{day}T21:00:00", "user": text, "assistant": "Saved."}
            ],
        }
        for i, (day, text, _) in enumerate(GAMES)
    ]
    sessions.append(
        {
            "session_id": "P1",
            "date": str(PAIR_DAY),
            "rounds": [
                {"time": f"{PAIR_DAY}T22:00:00", "user": PAIR, "assistant": "ok"}
            ],
        }
    )
    sessions.append(
        {
            "session_id": "C1",
            "date": "2026-04-20",
            "rounds": [{"time": "2026-04-20T20:00:00", "user": CHAT, "assistant": "."}],
        }
    )
    return sessions


def build_history():
    return history_from_dict({"user_id": "u", "sessions": build_sessions()})


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="u")
    report = m.ingest(build_history())
    m.report = report
    yield m
    m.close()


def game_tables(mem):
    return [t for t in mem.analytic.tables if "opponent" in t.attributes]


def test_one_kind_is_one_table_across_layouts(mem):
    tables = game_tables(mem)
    assert len(tables) == 1, [t.table_name for t in tables]
    assert {"opponent", "colour", "result", "rating", "tc", "minutes"} <= set(
        tables[0].attributes
    )
    assert mem.analytic.row_count(tables[0]) == len(GAMES) + 2
    assert mem.report.labels_joined["rating_after"] == "rating"
    assert mem.report.labels_joined["time_control"] == "tc"
    assert mem.report.rounds_reread > 0


def test_describe_tables_shows_layouts_and_labels(mem):
    table = game_tables(mem)[0].table_name
    described = next(d for d in mem.describe_tables() if d["table"] == table)
    assert described["layouts"] >= 2
    labels = {c["name"]: c.get("labels", []) for c in described["columns"]}
    assert "time control" in labels["tc"]
    assert "rating after" in labels["rating"]


def compute(mem, operator, column=None, **where):
    table = game_tables(mem)[0].table_name
    filters = [{"column": c, "op": "=", "value": v} for c, v in where.items()]
    return mem.compute(
        {
            "table": table,
            "operator": operator,
            "target_column_expression": column,
            "optional_column_filters": filters,
        }
    ).value


def test_totals_count_every_layout(mem):
    assert compute(mem, "count") == len(GAMES) + 2
    minutes = sum(g[2]["minutes"] for g in GAMES) + 41 + 38
    assert compute(mem, "sum", "minutes") == pytest.approx(minutes)
    out = mem.ask("How many minutes did I play in total?", question_time=NOW)
    assert out["value"] == pytest.approx(minutes)


def test_unlabelled_values_take_the_column_they_fit(mem):
    assert compute(mem, "max", "rating") == 1640
    wins = sum(1 for g in GAMES if g[2]["result"] == "win") + 1
    assert compute(mem, "count", result="win") == wins
    blacks = sum(1 for g in GAMES if g[2]["colour"] == "black") + 1
    assert compute(mem, "count", colour="black") == blacks


def test_chat_that_names_a_value_is_no_record(mem):
    table = game_tables(mem)[0]
    sources = {
        r[0]
        for r in mem.analytic.db.fetchall(
            f"SELECT source FROM {mem.analytic.qualified(table)}"
        )
    }
    assert "C1:1" not in sources


def test_forgetting_a_guided_round_removes_its_rows(tmp_path):
    m = Memory(str(tmp_path / "m.duckdb"), user_id="u")
    try:
        m.ingest(build_history())
        table = game_tables(m)[0]
        before = m.analytic.row_count(table)
        m.forget(["P1:1"])
        table = game_tables(m)[0]
        assert m.analytic.row_count(table) == before - 2
    finally:
        m.close()


# -- the parts -------------------------------------------------------------


def test_name_ties():
    assert name_tie("fg", "final_gravity")
    assert name_tie("tc", "time_control")
    assert name_tie("rating", "rating_after")
    assert name_tie("item", "items")
    assert not name_tie("og", "fg")
    assert not name_tie("style", "beer")


def obs(name, value, rid="r"):
    return Observation(name, name, parse_value(value), Provenance(rid, "user"))


def records(*rows):
    return [{k: obs(k, v) for k, v in row.items()} for row in rows]


def test_layouts_of_one_kind_pair_their_labels():
    recs = records(
        {"coach": "Marek", "topic": "endgames", "length": "60 min", "paid": "€40"},
        {"coach": "Sinéad", "topic": "tactics", "length": "45 min", "paid": "€30"},
        {"coach": "Marek", "lesson": "openings", "duration": "60 min", "fee": "€40"},
        {"coach": "Marek", "lesson": "pawns", "duration": "90 min", "fee": "€55"},
    )
    joined = aliases(recs)
    assert {joined.get("topic", "topic"), joined.get("lesson", "lesson")} == {
        joined.get("topic", "topic")
    }
    assert joined.get("fee", "fee") == joined.get("paid", "paid")
    assert joined.get("duration", "duration") == joined.get("length", "length")


def test_two_kinds_sharing_a_label_stay_two():
    # A swim's distance in metres and a run's in kilometres never overlap.
    recs = records(
        *[
            {"distance": f"{1500 + 100 * i} m", "pool": "Eastgate", "time": "40 min"}
            for i in range(3)
        ],
        *[
            {
                "distance": f"{5 + i} km",
                "route": "Canal",
                "duration": "30 min",
                "avg_hr": "150 bpm",
            }
            for i in range(3)
        ],
    )
    assert "time" not in aliases(recs) or aliases(recs)["time"] != "duration"
    assert "pool" not in aliases(recs) and "route" not in aliases(recs)


def test_names_stated_together_are_never_joined():
    recs = records(*[{"rating": "1500", "rating_after": "1510", "opponent": "X"}] * 3)
    assert aliases(recs) == {}


def test_a_value_in_a_label_place_is_not_an_attribute():
    recs = records(
        *[{"site": s, "hours": "3 h"} for s in ("Cabra", "Finglas", "Cabra")],
        {"cabra": "4 h"},
        {"cabra": "3 h"},
    )
    assert "cabra" not in aliases(recs)


def chess_guide():
    recs = records(
        *[
            {
                "opponent": o,
                "colour": c,
                "result": r,
                "rating": str(1500 + 20 * i),
                "tc": "15+10",
                "minutes": f"{30 + i} min",
            }
            for i, (o, c, r) in enumerate(
                [
                    ("Aoife Kelly", "white", "win"),
                    ("Dara Quinn", "black", "loss"),
                    ("Colm Duffy", "white", "draw"),
                    ("Ruth Byrne", "black", "win"),
                ]
            )
        ]
    )
    columns = {
        "opponent": ("VARCHAR", None),
        "colour": ("VARCHAR", None),
        "result": ("VARCHAR", None),
        "rating": ("BIGINT", None),
        "tc": ("VARCHAR", None),
        "minutes": ("DOUBLE", "min"),
    }
    return build_guide("games", columns, recs)


def test_guided_reading_of_an_app_line():
    guide = chess_guide()
    text = "Game #421 · vs Fiachra Nolan · White · Win · Elo 1544 (+6) · 25+5 · 51 min"
    (record,) = guided_records(guide, text, "r1")
    got = {o.attribute: o.value for o in record}
    assert got["opponent"].text == "Fiachra Nolan"
    assert got["colour"].text.lower() == "white"
    assert got["result"].text.lower() == "win"
    assert got["rating"].number == 1544
    assert got["tc"].text == "25+5"
    assert got["minutes"].number == 51


def test_guided_reading_splits_blocks_into_records():
    guide = chess_guide()
    text = (
        "Round 1\nOpponent: Colm Duffy\nColour: black\nResult: loss\nRating: 1530\n"
        "TC: 15+10\nMinutes: 40\n\nRound 2\nOpponent: Aoife Kelly\nColour: white\n"
        "Result: win\nRating: 1541\nTC: 15+10\nMinutes: 35"
    )
    found = guided_records(guide, text, "r2")
    assert [len(r) for r in found] == [6, 6]
    assert {o.provenance.record for r in found for o in r} == {1, 2}


def test_a_lead_in_line_is_not_a_record():
    guide = chess_guide()
    text = (
        "Rapid night\nOpponent: Dara Quinn\nColour: black\nResult: draw\nRating: 1520"
    )
    (record,) = guided_records(guide, text, "r3")
    assert {o.attribute: o.value.text for o in record}["opponent"] == "Dara Quinn"


def test_two_records_told_in_one_line_of_sentences():
    guide = chess_guide()
    text = (
        "All 15+10. First I beat Aoife Kelly with white in 48 min, rating 1530 "
        "after. Then I beat Dara Quinn with black in 47 min, rating 1541 after."
    )
    found = guided_records(guide, text, "r5")
    got = [{o.attribute: o.value for o in r} for r in found]
    assert [g["opponent"].text for g in got] == ["Aoife Kelly", "Dara Quinn"]
    assert [g["colour"].text.lower() for g in got] == ["white", "black"]
    assert [g["minutes"].number for g in got] == [48, 47]


def lesson_guide():
    recs = records(
        {"coach": "Marek", "fee": "€40", "minutes": "60 min"},
        {"coach": "Sinéad", "fee": "€30", "minutes": "45 min"},
        {"coach": "Marek Nowak", "fee": "€55", "minutes": "90 min"},
        {"coach": "Sinéad Roche", "fee": "€30", "minutes": "45 min"},
    )
    columns = {
        "coach": ("VARCHAR", None),
        "fee": ("BIGINT", "EUR"),
        "minutes": ("DOUBLE", "min"),
    }
    return build_guide("lessons", columns, recs)


def test_a_quantity_in_words_is_read():
    guide = lesson_guide()
    text = (
        "Had my lesson with Marek tonight, an hour and a half on going through "
        "my games, €55."
    )
    (record,) = guided_records(guide, text, "r6")
    got = {o.attribute: o.value for o in record}
    assert got["coach"].text == "Marek"  # not "Had", which opens the sentence
    assert got["fee"].number == 55
    assert got["minutes"].number == 1.5 and got["minutes"].unit == "h"


def test_two_columns_one_of_them_a_new_name_is_no_record():
    guide = lesson_guide()
    # a tournament entry: a fee, and a name the coach column never held
    assert guided_records(guide, "Tournament: Leinster Open | fee €45", "r7") == []
    # a known coach and a fee in euro are a lesson
    (record,) = guided_records(guide, "Sinéad online | €30", "r8")
    assert {o.attribute for o in record} == {"coach", "fee"}


def test_spelled_quantities():
    from langgraph_adamm.analytic.values import spelled_quantities

    def read(text):
        return [(n, u) for _, _, n, u in spelled_quantities(text)]

    assert read("an hour and a half on scales") == [(1.5, "h")]
    assert read("half an hour") == [(0.5, "h")]
    assert read("twenty-five minutes, then two and a half litres") == [
        (25, "min"),
        (2.5, "L"),
    ]
    assert read("€20 an hour") == []  # a rate
    assert read("twice a week") == []
    assert read("A quick one") == []


def test_prose_that_names_two_values_is_no_record():
    guide = chess_guide()
    assert guided_records(guide, CHAT, "r4") == []


def test_turn_by_turn_storing_realigns_now_and_then(monkeypatch):
    """An agent storing one turn at a time does not realign every turn."""
    import langgraph_adamm.analytic.realign as realign_module

    calls = []
    real = realign_module.realign

    def counted(memory, *args, **kwargs):
        calls.append(memory.user_id)
        return real(memory, *args, **kwargs)

    monkeypatch.setattr(realign_module, "realign", counted)
    sessions = build_sessions()
    with Memory(":memory:", user_id="u") as m:
        m.ingest(history_from_dict({"user_id": "u", "sessions": sessions[:10]}))
        assert len(calls) == 1  # the process's first run realigns
        m.ingest(history_from_dict({"user_id": "u", "sessions": sessions[10:11]}))
        assert len(calls) == 1  # one turn of eleven: not yet
        m.ingest(history_from_dict({"user_id": "u", "sessions": sessions[11:13]}))
        assert len(calls) == 2  # three new rounds of thirteen: 20% reached
        assert len(game_tables(m)) == 1


def test_an_amount_followed_by_prose_keeps_its_currency():
    recs = records(
        {"shop": "Hopsack Homebrew", "total": "€52.00"},
        {"shop": "Grainhouse", "total": "€13.80"},
        {"shop": "Liffey Brew Supplies", "total": "€6.40"},
        {"shop": "Grainhouse", "total": "€8.70"},
    )
    guide = build_guide(
        "shopping", {"shop": ("VARCHAR", None), "total": ("DOUBLE", "EUR")}, recs
    )
    text = "spent €19.40 at Hopsack Homebrew on Saaz 100 g + pilsner malt 5 kg"
    (record,) = guided_records(guide, text, "r9")
    got = {o.attribute: o.value for o in record}
    assert got["total"].number == 19.4 and got["total"].unit == "EUR"
    # a unit price is no amount spent
    assert guided_records(guide, "Grainhouse: 4 bags at €5 each", "r10") == []


def test_hours_and_minutes_told_apart_are_one_duration():
    guide = chess_guide()
    text = "Game vs Fiachra Nolan, White, Win, Elo 1544, 25+5, 1 hr 15 mins"
    (record,) = guided_records(guide, text, "r11")
    got = {o.attribute: o.value for o in record}
    assert got["minutes"].number == 75


def test_a_counting_noun_is_no_unit():
    # "Brood: 2 fr" in an app, "brood_frames": 4 in an export: a noun that
    # counts is no dimension keeping the two apart.
    recs = records(
        *[
            {"brood": f"{2 + i} fr", "varroa": str(8 + i), "mood": "calm"}
            for i in range(3)
        ],
        *[
            {"brood_frames": str(3 + i), "varroa": str(9 + i), "temper": "calm"}
            for i in range(3)
        ],
    )
    joined = aliases(recs)
    assert joined.get("brood_frames", "brood_frames") == joined.get("brood", "brood")


def test_an_assistants_echo_keeps_no_two_labels_apart():
    # "Logged - Clover, 4 frames." restates the user's brood under a name of
    # its own; the two are not stated side by side by the user.
    recs = records(
        *[
            {"brood": str(2 + i), "varroa": str(8 + i), "mood": "calm"}
            for i in range(3)
        ],
        *[{"brood_frames": str(3 + i), "varroa": str(9 + i)} for i in range(3)],
    )
    recs[0]["brood_frames"] = Observation(
        "brood_frames", "brood_frames", parse_value("2"), Provenance("r", "assistant")
    )
    joined = aliases(recs)
    assert joined.get("brood_frames", "brood_frames") == joined.get("brood", "brood")
