"""The question-form registry: each form declared whole, and each reads its kind.

The memory is the market stall of ``test_shares_and_money`` (market days with
takings and pitch fees, supply orders), with one event told in prose: the day
the van was bought.
"""

import re
from datetime import date

import pytest
from test_shares_and_money import DAYS, MARKETS, NOW, build_history

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.planning.form_registry import FORMS
from langgraph_adamm.planning.forms import any_of

VAN = date(2026, 6, 10)


def test_every_form_declares_its_slots_cue_and_example():
    names = [f.name for f in FORMS]
    assert len(set(names)) == len(names)
    for form in FORMS:
        assert form.slots and all(isinstance(s, str) and s for s in form.slots)
        # the form's own example holds its cue
        q = " ".join(form.example.lower().split())
        assert form.cue.search(q), form.name


def test_a_cue_built_of_patterns_with_groups_of_one_name_compiles():
    cue = any_of(re.compile(r"(?P<a>x)"), re.compile(r"(?P<a>y)z"))
    assert cue.search("yz") and not cue.search("q")


@pytest.fixture(scope="module")
def mem():
    m = Memory(":memory:", user_id="stall")
    m.ingest(build_history())
    event = {
        "user_id": "stall",
        "sessions": [
            {
                "session_id": "VAN",
                "date": str(VAN),
                "rounds": [
                    {
                        "time": f"{VAN}T12:00:00",
                        "user": "Picked up the second-hand van this morning! "
                        "No more hauling crates on the bus.",
                        "assistant": "Congratulations on the van!",
                    }
                ],
            }
        ],
    }
    m.ingest(history_from_dict(event))
    yield m
    m.close()


def form_of(out):
    return next(
        (n.split(": ", 1)[1] for n in out["notes"] if n.startswith("question form:")),
        None,
    )


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("What percentage of my takings came from the Saturday market?", "share"),
        ("Did I take more at Marlay or at Docklands overall?", "either"),
        ("How much more did I take in June than in May?", "compared"),
        ("Which market brought in the most money overall?", "groups"),
        ("How much have I taken since I bought the van?", "event bounds"),
    ],
)
def test_each_form_reads_its_kind_of_question(mem, question, form):
    out = mem.ask(question, question_time=NOW)
    assert form in (form_of(out) or ""), (question, out["notes"])
    assert out["value"] is not None, out["answer"]


def test_the_event_form_bounds_the_measure_by_the_event_day(mem):
    out = mem.ask("How much have I taken since I bought the van?", question_time=NOW)
    expected = sum(t for d, _, t, _ in DAYS if d >= VAN)
    assert out["value"] == pytest.approx(expected)


def test_a_single_step_question_is_read_by_no_form(mem):
    out = mem.ask("How much did I take in June?", question_time=NOW)
    assert form_of(out) is None
    assert out["value"] == pytest.approx(
        sum(t for d, _, t, _ in DAYS if d.month == 6 and d <= date(2026, 6, 30))
    )


def test_the_van_falls_between_market_days():
    # the event's day holds no market day: "since" is unambiguous
    assert {m for _, m, _, _ in DAYS} == set(MARKETS)
    assert min(d for d, *_ in DAYS) < VAN < max(d for d, *_ in DAYS)
    assert all(d != VAN for d, *_ in DAYS)
