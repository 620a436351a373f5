import pytest

from langgraph_adamm.analytic.extraction import RuleExtractor
from langgraph_adamm.history import ImageRef, Round

ex = RuleExtractor()


def pairs(text, source="user"):
    return {
        o.attribute: (
            o.value.text
            if o.value.kind == "clock"
            else o.value.number
            if o.value.number is not None
            else o.value.boolean
            if o.value.boolean is not None
            else o.value.text,
            o.value.unit,
        )
        for o in ex.extract_text(text, "r1", source)
    }


@pytest.mark.parametrize(
    "text",
    [
        "Deep sleep: 1.2 h, Total sleep: 6.5 h",
        "deep_sleep=1.2h; total_sleep=6.5h",
        "Deep Sleep (h): 1.2 and Total Sleep (h): 6.5",
        "Sleep dashboard: Total sleep 6.5 h, Deep sleep 1.2 h",
        'Logging {"DeepSleep": "1.2 h", "TotalSleep": "6.5 h"}',
        "| Metric | Value |\n|---|---|\n| Deep sleep | 1.2 h |\n"
        "| Total sleep | 6.5 h |",
        "| Deep sleep | Total sleep |\n|---|---|\n| 1.2 h | 6.5 h |",
        "Morning! Deep sleep: 72 min. Total sleep: 6 h 30 min",
        "Here is my sleep data from last night.\nDeep sleep = 1.2 hours\n"
        "Total sleep = 390 min",
    ],
)
def test_varied_phrasings_meet(text):
    got = pairs(text)
    assert set(got) == {"deep_sleep", "total_sleep"}
    deep, unit = got["deep_sleep"]
    assert (deep, unit) in {(1.2, "h"), (72.0, "min")}
    assert got["total_sleep"] in {(6.5, "h"), (390.0, "min")}


def test_types_dates_booleans_text():
    got = pairs(
        "Date: March 2, 2026, Won: yes, Game: Catan, Bedtime: 23:10, "
        "Amount: $12.50, Steps: 8,000 steps"
    )
    assert got["date"][0] == "March 2, 2026"
    assert got["won"] == (True, None)
    assert got["game"] == ("Catan", None)
    assert got["bedtime"] == ("23:10", "min")  # a clock reading; its column decides
    assert got["amount"] == (12.5, "USD")
    assert got["steps"] == (8000.0, "steps")


def test_prose_is_not_mistaken_for_fields():
    assert pairs("You slept 6.5 hours with a little deep sleep.") == {}
    assert pairs("I told him: no way") == {}
    assert pairs("Check https://example.com for more: thanks") == {}
    assert pairs("Can you suggest a pasta recipe for tonight?") == {}


def test_ocr_stacked_labels_and_provenance():
    rnd = Round(
        "R1",
        "S1",
        user="Screenshot attached",
        metadata={"device": "watch"},
        images=(
            ImageRef(
                "R1:IMG_1",
                caption="A sleep dashboard",
                ocr="Total sleep\n6.5 h\nResting HR\n58 bpm",
            ),
        ),
    )
    obs = ex.extract(rnd)
    by_attr = {o.attribute: o for o in obs}
    assert by_attr["total_sleep"].value.number == 6.5
    prov = by_attr["resting_hr"].provenance
    assert (prov.round_id, prov.source, prov.image_id) == ("R1", "ocr", "R1:IMG_1")
    start, end = prov.span
    assert "Resting HR" in rnd.images[0].ocr[start:end]
    assert by_attr["device"].provenance.source == "metadata"


def test_spans_point_at_the_evidence():
    text = "Weight: 72.4 kg and body fat: 18%"
    for o in ex.extract_text(text, "r", "user"):
        s, e = o.provenance.span
        assert o.value.text in text[s:e]


def test_hostile_strings_do_not_break_extraction():
    text = "'; DROP TABLE x; --: 1, \x00weird\u202e: 2, " + "a: " * 500 + "{" * 200
    out = ex.extract_text(text, "r", "user")
    assert all(o.attribute.replace("_", "").isalnum() for o in out)


def test_form_fields_named_by_a_question_word_and_numbered_things():
    # a maintenance form: "Who:" is a field where it opens its line, and
    # "flat 2" is the property's value, not a field "flat" of 2
    got = pairs(
        "Maintenance\nProperty: flat 2\nJob: emergency call-out for the boiler\n"
        "Who: plumber\nCost: 137.44 EUR"
    )
    assert got["property"][0] == "flat 2" and got["who"][0] == "plumber"
    assert got["cost"] == (137.44, "EUR") and "flat" not in got
    assert pairs("Where: Galway\nFee: 300 EUR")["where"][0] == "Galway"
    # in prose a question word is no label; a plural before a number is a count
    assert pairs("I asked who: nobody knew") == {}
    assert pairs("Drills: squats 20") == {"squats": (20, None)}
