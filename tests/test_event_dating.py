"""Events anchored on their telling, not on a later mention of them.

A later mention dates the start ("last Saturday's card machine meltdown", "day
three of the strike", "second week of physio"); a round that holds the words
telling the event apart is the event even where chat about the same person
scores closer; a phrase no round tells anchors nowhere.
"""

from datetime import date, datetime

import pytest

from langgraph_adamm.planning.dating import dating
from langgraph_adamm.planning.event_anchor import (
    anchor_unit,
    holds_words,
    telling_words,
    unsaid_word,
)
from langgraph_adamm.planning.events import frame_of
from langgraph_adamm.planning.text import root

SAT = datetime(2026, 6, 27, 7, 15)  # a Saturday


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("no repeat of last Saturday's card machine meltdown", date(2026, 6, 20), None),
        (
            "A week on the new tablet now and his ankles are puffy",
            date(2026, 6, 20),
            None,
        ),
        ("Day three of the strike, queues everywhere", date(2026, 6, 25), None),
        ("five days into the new job", date(2026, 6, 22), None),
        ("yesterday's storm took the fence", date(2026, 6, 26), None),
        ("the flood two weeks ago", date(2026, 6, 13), None),
        # a window, not a day: the start is somewhere in it
        (
            "Second week of physio and he is standing on one leg",
            date(2026, 6, 14),
            date(2026, 6, 20),
        ),
        ("still sore from the fall", date(2026, 6, 13), date(2026, 6, 26)),
        # "the new tablets" began before this round, within a month
        (
            "The new evening tablets make me a bit drowsy",
            date(2026, 5, 28),
            date(2026, 6, 26),
        ),
        (
            "since last week the boiler has been noisy",
            date(2026, 6, 15),
            date(2026, 6, 21),
        ),
    ],
)
def test_a_later_mention_dates_the_start(text, first, last):
    found = dating(text, SAT)
    assert found is not None, text
    assert (found.first, found.last) == (first, last or first)
    assert found.exact == (last is None)


@pytest.mark.parametrize(
    "text",
    [
        "The storm knocked the power out at six",
        "ran 3 days in a row",
        "second week in a row of rain",
        "Got the keys this morning",
        "My new bike arrived today",
        "Finally picked up the new tablets",
        "",
    ],
)
def test_a_telling_dates_nothing(text):
    assert dating(text, SAT) is None


def _unit(uid, score, content, day, month=6):
    return {
        "unit_id": uid,
        "score": score,
        "time": f"2026-{month:02d}-{day:02d}T09:00:00",
        "content": f"User: {content}\nAssistant: Noted.",
    }


def _step(phrase, *units):
    return {
        "tool": "event_locate",
        "arguments": {"query_content": phrase},
        "result": {"units": list(units)},
    }


def test_an_exact_dating_moves_the_anchor_back_and_says_so():
    step = _step(
        "the card machines went down",
        _unit(
            "S55:1",
            0.40,
            "Fingers crossed no repeat of last Saturday's card machine meltdown.",
            27,
        ),
        _unit("S12:1", 0.15, "Bought more wax.", 3),
    )
    anchor = anchor_unit(step)
    assert anchor["unit_id"] == "S55:1"
    assert anchor["time"].startswith("2026-06-20")
    assert "last Saturday's" in anchor["dated_by"]


def test_a_round_inside_the_dated_days_is_the_telling():
    step = _step(
        "the physio started",
        _unit(
            "S69:1", 0.52, "Second week of physio, and he is standing on one leg.", 8
        ),
        _unit(
            "S62:2",
            0.31,
            "He had his first physio session at the care centre today.",
            1,
        ),
        _unit("S40:1", 0.25, "Lovely weather for a walk.", 20, month=5),
    )
    anchor = anchor_unit(step)
    assert anchor["unit_id"] == "S62:2"
    assert anchor["time"].startswith("2026-06-01")


def test_a_window_with_no_telling_in_it_anchors_nothing_and_says_why():
    step = _step(
        "the physio started",
        _unit(
            "S69:1", 0.52, "Second week of physio, and he is standing on one leg.", 8
        ),
        _unit("S40:1", 0.25, "Lovely weather for a walk.", 20, month=5),
    )
    assert anchor_unit(step) is None
    assert "Second week of" in step["anchor_unsure"]


def test_the_round_that_holds_the_telling_words_beats_closer_chat():
    chat = "He was a bit breathless coming up the stairs."
    told = "Rough night: we called an ambulance and he's been admitted to the ward."
    step = _step(
        "he was admitted", _unit("A", 0.30, chat, 19), _unit("B", 0.23, told, 6)
    )
    assert anchor_unit(step)["unit_id"] == "B"
    # below the floor a held word is not enough
    weak = _step(
        "he was admitted", _unit("A", 0.30, chat, 19), _unit("B", 0.12, told, 6)
    )
    assert anchor_unit(weak) is None


def test_words_every_round_holds_do_not_tell_an_event():
    # "car" is in every round of a memory about a car; "broken" tells the event
    bump = "Some lad reversed straight into the car in the car park."
    step = _step(
        "the car was broken into",
        _unit("A", 0.44, bump, 5),
        _unit("B", 0.30, "Is it rude to eat in someone's car?", 4),
    )
    assert frame_of("the car was broken into") is None  # not an injury

    def share(word):
        return 0.6 if word == "car" else 0.0

    told = telling_words("the car was broken into", share)
    assert [forms[0] for forms in told] == [root("broken")]
    assert anchor_unit(step, share=share) is None


def test_a_compound_holds_its_parts():
    told = telling_words("the heat wave started")
    assert holds_words(told, "Day four of this heatwave, the car is an oven.")
    assert not holds_words(told, "Traffic was brutal on the way back.")


def test_two_days_that_hold_the_words_are_two_events():
    step = _step(
        "my trip to Cork",
        _unit("A", 0.50, "Off on my trip to Cork today!", 3),
        _unit("B", 0.49, "Another trip to Cork, back on the train.", 24),
    )
    assert anchor_unit(step) is None
    # a mention that dates back to the telling's day is the same event
    same = _step(
        "my trip to Cork",
        _unit("A", 0.50, "Off on my trip to Cork today!", 3),
        _unit("B", 0.49, "Five days since my trip to Cork and I'm still tired.", 8),
    )
    assert anchor_unit(same)["unit_id"] == "A"


def test_short_verbs_share_a_root_in_every_form():
    # "between ... and the car dying" is the round "The car died on the M50"
    assert root("dying") == root("died") == root("die") == root("dies")
    assert root("lying") == root("lie") and root("tied") == root("tie")
    assert root("playing") == root("played") and root("flying") == "fly"


def test_the_new_thing_mentioned_later_finds_its_telling_before():
    step = _step(
        "the evening tablets",
        _unit("S37:3", 0.60, "The new evening tablets make me a bit drowsy.", 10),
        _unit(
            "S29:2",
            0.45,
            "Saw the neurologist; swallowed the first tablet with dinner.",
            2,
        ),
        _unit("S59:3", 0.50, "She thinks the daily pills are doing their job.", 24),
    )
    anchor = anchor_unit(step)
    assert anchor["unit_id"] == "S29:2"


def test_a_new_treatment_is_no_new_job():
    assert frame_of("he started the new blood pressure tablets").name == "medication"
    assert frame_of("i started my new role").name == "job_start"
    # landing a contract is no flight home
    assert frame_of("i landed the retainer") is None
    assert frame_of("we landed in dublin").name == "trip_end"


STORM_TOLD = "What a night. The wind ripped the slates off the roof at Kestrel Road."
STORM_LATER = "Tarp's still holding on the roof, two days on from that gale."


def test_a_later_mention_counting_days_finds_a_telling_in_other_words():
    # no round says "storm"; the telling scores too low alone, but a mention
    # among the candidates counts two days back to its day
    step = _step(
        "the storm",
        _unit("S11:1", 0.355, STORM_TOLD, 15, month=3),
        _unit("S13:2", 0.299, STORM_LATER, 17, month=3),
        _unit("S52:1", 0.290, "Rain again. The garden's a swamp.", 29, month=4),
    )
    assert anchor_unit(step)["unit_id"] == "S11:1"
    # without the mention nothing tells it apart: no anchor
    alone = _step("the storm", *step["result"]["units"][::2])
    assert anchor_unit(alone) is None


def test_yesterday_or_the_new_does_not_vouch_for_a_candidate():
    step = _step(
        "the storm",
        _unit("A", 0.355, "Went to the cinema with Ana.", 15, month=3),
        _unit("B", 0.299, "Saw Ana yesterday, she loved the film.", 16, month=3),
    )
    assert anchor_unit(step) is None


def test_an_event_whose_telling_words_no_round_says_is_not_anchored():
    # "flood" is in no round of the memory; the round about flat 1 scores high
    step = _step(
        "the flood in flat 1",
        _unit("A", 0.478, "Roofer was in flat 1 yesterday, tarp over the ridge.", 17),
        _unit("B", 0.346, "Paid the plumber for the radiator valve at flat 1.", 29),
    )

    def said(word):
        return {"flat": 0.3, "flood": 0.0}.get(root(word), 0.01)

    assert anchor_unit(step, said=said) is None
    assert "flood" in step["anchor_unsure"]
    # an event told by its verb names no noun: "went" unsaid proves nothing
    assert unsaid_word("I went onto nights", lambda w: 0.0) is None
    assert unsaid_word("my accident", lambda w: 0.0) == "accident"
    # where the memory's words are not all read, nothing is taken as unsaid
    again = _step("the flood in flat 1", *step["result"]["units"])
    assert anchor_unit(again)["unit_id"] == "A"


def test_back_is_an_injury_only_as_the_body_s_back():
    assert frame_of("i got the boat back") is None  # a thing returned, no injury
    assert frame_of("i got back from lisbon").name == "trip_end"
    assert frame_of("i fixed my back door") is None
    for hurt in (
        "i put my back out",
        "my back went",
        "my back pain started",
        "i did my back in lifting",
    ):
        assert frame_of(hurt).name == "injury", hurt
