"""Events told in other words than the question's: life-event frames.

A move told as "got the keys ... hauling boxes", a trip told as a morning at the
airport and a return told as "home again": the question names them "the move",
"since I got back from Lisbon", "while I was away". Every expected value is
computed here from the records the test wrote.
"""

from datetime import date, timedelta

import numpy as np
import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.planning.event_anchor import anchor_unit, unsaid_detail
from langgraph_adamm.planning.events import (
    FRAMES,
    frame_of,
    stretch_frames,
    telling_query,
)

START = date(2026, 5, 1)
MOVE = date(2026, 5, 9)
LEAVE = date(2026, 5, 20)
BACK = date(2026, 5, 27)
NOW = "2026-06-14T22:00:00"
EVENTS = {
    MOVE: "Finally got the keys! We spent the whole day hauling boxes up to the "
    "third floor of the new flat.",
    LEAVE: "Sitting at the airport at dawn with a terrible coffee. Lisbon for a "
    "whole week!",
    BACK: "Home again. Two loads of laundry on and the fridge is empty.",
}
LATER = {  # passing mentions of the events, days later
    date(2026, 5, 15): "The new place still smells of paint.",
    date(2026, 6, 3): "Still showing everyone the Lisbon photos.",
}


def steps_on(i: int) -> int:
    return 6000 + (i * 37 % 23) * 200


DAYS = [START + timedelta(days=i) for i in range(45)]
RECORDS = {d: steps_on(i) for i, d in enumerate(DAYS) if d not in EVENTS}


def build_history():
    sessions = []
    for i, d in enumerate(DAYS):
        if d in EVENTS:
            rounds = [{"time": f"{d}T12:00:00", "user": EVENTS[d], "assistant": "Oh!"}]
        else:
            rounds = [
                {
                    "time": f"{d}T21:00:00",
                    "user": f"Steps: {RECORDS[d]} steps, Active minutes: "
                    f"{30 + i % 40} min",
                    "assistant": "Logged.",
                },
                {
                    "time": f"{d}T19:00:00",
                    "user": LATER.get(
                        d, ["Made soup.", "Rainy again.", "Quiet day."][i % 3]
                    ),
                    "assistant": "Nice.",
                },
            ]
        sessions.append({"session_id": f"S{i + 1}", "date": str(d), "rounds": rounds})
    return history_from_dict({"user_id": "f", "sessions": sessions})


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="f")
    m.ingest(build_history())
    yield m
    m.close()


def ask(mem, question):
    return mem.ask(question, question_time=NOW)


def total(pred):
    return sum(v for d, v in RECORDS.items() if pred(d))


def test_an_event_told_in_other_words_is_found_by_its_frame(mem):
    out = ask(mem, "How many steps have I done since the move?")
    assert out["value"] == total(lambda d: d >= MOVE)
    locate = out["steps"][0]
    assert locate["frame"] == "move"
    # what was searched for: the phrase and the telling of a move
    assert locate["arguments"]["query_content"] == telling_query("the move")
    assert locate["anchor"]["time"].startswith(MOVE.isoformat())
    assert "the event 'the move' anchored on 2026-05-09" in out["answer"]
    assert out["unresolved"] == []


def test_a_return_is_not_taken_for_the_departure_that_names_the_place(mem):
    out = ask(mem, "How many steps have I done since I got back from Lisbon?")
    assert out["steps"][0]["anchor"]["time"].startswith(BACK.isoformat())
    assert out["value"] == total(lambda d: d >= BACK)


def test_a_stretch_runs_from_its_start_to_its_end(mem):
    out = ask(mem, "What was my average step count while I was away in Lisbon?")
    tools = [s["tool"] for s in out["steps"]]
    assert tools == ["event_locate", "event_locate", "compute"]
    days = [s["anchor"]["time"][:10] for s in out["steps"][:2]]
    assert days == [LEAVE.isoformat(), BACK.isoformat()]
    inside = [v for d, v in RECORDS.items() if LEAVE <= d <= BACK]
    assert out["value"] == pytest.approx(sum(inside) / len(inside))
    assert "the start of 'i was away in lisbon'" in out["answer"]


def test_an_event_that_never_happened_is_reported_not_guessed(mem):
    out = ask(mem, "How many steps have I done since my wedding?")
    assert out["value"] is None
    assert any("my wedding" in part for part in out["unresolved"])


def test_frames_name_the_events_people_refer_back_to():
    assert frame_of("the move").name == "move"
    assert frame_of("relocating to leeds").name == "move"
    assert frame_of("i got back from lisbon").name == "trip_end"
    assert frame_of("we flew out").name == "trip_start"
    assert frame_of("getting the dog").name == "pet"
    assert frame_of("i started the new job").name == "job_start"
    assert frame_of("i finished my exams").name == "exams_end"
    assert frame_of("the renovation") is None
    assert telling_query("the renovation") == "the renovation"
    start, end = stretch_frames("my daughter was staying")
    assert (start.name, end.name) == ("visit_start", "visit_end")
    assert stretch_frames("the move") is None


def _unit(uid, score, content, day):
    return {
        "unit_id": uid,
        "score": score,
        "time": f"2026-05-{day:02d}T12:00:00",
        "content": content,
    }


def test_a_frame_step_anchors_on_the_first_round_told_like_its_frame():
    tellings = {t: i for i, f in enumerate(FRAMES) for t in f.tellings}
    told = {
        "A": "trip_start",
        "B": "trip_end",
        "C": "trip_end",
        "D": "trip_end",
        "E": "medication",
    }

    def embed(texts):  # one axis per frame; a unit's text is told like its frame
        out = np.zeros((len(texts), len(FRAMES)), dtype=np.float32)
        for row, text in enumerate(texts):
            name = told.get(text[:1]) if text not in tellings else None
            col = (
                tellings[text]
                if name is None
                else next(i for i, f in enumerate(FRAMES) if f.name == name)
            )
            out[row, col] = 1.0
        return out

    def step(frame, *units):
        return {
            "tool": "event_locate",
            "frame": frame,
            "result": {"units": list(units)},
        }

    back = step(
        "trip_end",
        _unit("A", 0.6, "A", 3),
        _unit("B", 0.5, "B", 10),
        _unit("C", 0.25, "C", 12),
    )
    # the departure scores best but is told like another frame: passed over
    assert anchor_unit(back, embed)["unit_id"] == "B"
    # nothing to check what a round tells: a frame step anchors on nothing
    assert anchor_unit(back) is None
    # a record is no event
    assert anchor_unit(back, embed, {"B"}) is None
    # a later mention that scores a little better: the first telling is the event
    mention = step(
        "trip_end", _unit("C", 0.55, "C later", 20), _unit("B", 0.5, "B", 10)
    )
    assert anchor_unit(mention, embed)["unit_id"] == "B"
    # the same words on several days are everyday chat, no one event
    chat = step("trip_end", _unit("D", 0.5, "D same", 4), _unit("D", 0.5, "D same", 9))
    assert anchor_unit(chat, embed) is None
    # a prescription told like a visit to the doctor: one family of frames
    told["E"] = "appointment"
    meds = step("medication", _unit("E", 0.5, "E", 7))
    assert anchor_unit(meds, embed)["unit_id"] == "E"
    # below the floor for a telling's search
    low = step("medication", _unit("E", 0.25, "E", 7))
    assert anchor_unit(low, embed) is None


def test_records_are_told_apart_from_chat_on_every_engine(database):
    """``record_rounds``: rounds with table rows or measured values, on both engines."""
    with Memory(database(), user_id="f") as m:
        m.ingest(build_history())
        record = next(d for d in DAYS if d not in EVENTS)
        record_id = f"S{DAYS.index(record) + 1}:1"  # the steps record of that day
        chat_id = f"S{DAYS.index(MOVE) + 1}:1"  # the round that told the move
        q = m.queries  # what the query graph reads
        assert q.record_rounds([record_id, chat_id, "no such round"]) == {record_id}
        assert q.record_rounds([]) == set()


def test_how_many_of_a_named_quantity_is_its_total(mem):
    """A noun naming a whole column ("active minutes") asks for its total."""
    out = ask(mem, "How many active minutes did I get in May?")
    want = sum(30 + i % 40 for i, d in enumerate(DAYS) if d in RECORDS and d.month == 5)
    assert out["value"] == want
    assert out["steps"][0]["arguments"]["operator"] == "sum"


def test_a_plan_the_budget_cuts_short_says_what_did_not_run(mem):
    out = ask(
        mem,
        "What's the percentage change in my average steps from before the move "
        "to while I was away in Lisbon?",
    )
    assert len(out["steps"]) < len(out["plan"])  # the budget ran out
    assert out["value"] is None
    assert any("budget was spent" in part for part in out["unresolved"])


def test_a_window_after_my_first_something_is_an_event_not_dropped(mem):
    out = ask(mem, "How many steps did I do in the 2 weeks after my first dance class?")
    assert out["value"] is None
    assert any("my first dance class" in part for part in out["unresolved"])


INJURED = date(2026, 6, 2)


def test_an_event_whose_own_detail_no_round_says_is_not_one_told_alike():
    # a knee injury is told like an injury; "since I broke my wrist" is not it
    history = build_history()
    text = "Slipped on the wet steps at the station and came down hard on my knee."
    with Memory(":memory:", user_id="f") as m:
        m.ingest(history)
        m.ingest(
            history_from_dict(
                {
                    "user_id": "f",
                    "sessions": [
                        {
                            "session_id": "K1",
                            "date": str(INJURED),
                            "rounds": [
                                {
                                    "time": f"{INJURED}T08:00:00",
                                    "user": text,
                                    "assistant": "Ouch.",
                                }
                            ],
                        }
                    ],
                }
            )
        )
        out = ask(m, "How many steps have I done since I hurt my knee?")
        assert out["value"] == total(lambda d: d >= INJURED), out["answer"]
        out = ask(m, "How many steps have I done since I broke my wrist?")
        assert out["value"] is None
        assert any("wrist" in part for part in out["unresolved"]), out["answer"]
        # "my fall" names the event itself, told in other words
        out = ask(m, "How many steps have I done since my fall?")
        assert out["value"] == total(lambda d: d >= INJURED), out["answer"]
        # a first day at work seldom says "job": the frame's own words need no round
        assert (
            unsaid_detail(
                telling_query("i started my new job"),
                frame_of("i started my new job"),
                lambda w: 0.0,
            )
            is None
        )


def test_a_round_that_only_reads_like_the_event_is_no_anchor_in_a_life_without_it():
    # "Packaged another one." reads like a move among boxes; in a memory that
    # never says "moved" or "house" no move was told, and nothing is anchored.
    # A round that says the frame's words ("the keys") is the telling, and
    # where the memory says a word of the phrase the round is kept.
    move = next(i for i, f in enumerate(FRAMES) if f.name == "move")

    def embed(texts):  # every text is told like a move
        out = np.zeros((len(texts), len(FRAMES)), dtype=np.float32)
        out[:, move] = 1.0
        return out

    def step(content):
        return {
            "tool": "event_locate",
            "frame": "move",
            "arguments": {"query_content": telling_query("i moved house")},
            "result": {"units": [_unit("P", 0.45, content, 3)]},
        }

    never = step("Packaged another one. Want the details?")
    assert anchor_unit(never, embed, said=lambda w: 0.0) is None
    assert "'i moved house'" in never["anchor_unsure"]
    said_house = step("Packaged another one. Want the details?")
    found = anchor_unit(said_house, embed, said=lambda w: 1.0 if w == "house" else 0.0)
    assert found["unit_id"] == "P"
    keys = step("Got the keys at last, sleeping on the floor tonight.")
    assert anchor_unit(keys, embed, said=lambda w: 0.0)["unit_id"] == "P"
    # not every round read: nothing can say the memory never told it
    assert anchor_unit(step("Packaged another one."), embed)["unit_id"] == "P"
