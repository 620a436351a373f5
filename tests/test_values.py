import pytest

from langgraph_adamm.analytic.values import (
    convert_units,
    normalize_attribute,
    parse_value,
)


@pytest.mark.parametrize(
    "raw",
    [
        "Deep Sleep",
        "deep sleep (h)",
        "deep_sleep",
        "deepSleep",
        "DEEP-SLEEP",
        "  deep   sleep  ",
        "Deep sleep [h]",
        "deep sleep in hours",
    ],
)
def test_recurring_field_names_meet(raw):
    assert normalize_attribute(raw)[0] == "deep_sleep"


def test_unit_hint_from_name():
    assert normalize_attribute("deep sleep (h)") == ("deep_sleep", "h")
    assert normalize_attribute("Distance in km") == ("distance", "km")


def test_a_unit_suffix_follows_a_word():
    # "pH" is no "p" in hours
    assert normalize_attribute("pH")[1] is None
    # a symbol is one word: "pH" and "PH" are one column, "kH" no "k" and "h"
    assert normalize_attribute("pH")[0] == normalize_attribute("PH")[0] == "ph"
    assert normalize_attribute("kH")[0] == "kh"
    assert normalize_attribute("total_pH")[0] == "total_ph"
    assert normalize_attribute("HbA1c")[0] == "hb_a1c"
    assert normalize_attribute("TimeInRange")[0] == "time_in_range"
    assert normalize_attribute("avgHR")[0] == "avg_hr"
    assert normalize_attribute("deep sleep h") == ("deep_sleep_h", "h")


def test_a_capital_c_or_f_after_a_number_is_degrees():
    assert parse_value("24.8C").unit == "degC"
    assert parse_value("72 F").unit == "degF"
    assert parse_value("2c").unit != "degC"  # lower case: cups as often
    assert parse_value("Apt 5F").kind == "text"


def test_auxiliary_names_do_not_collide():
    assert normalize_attribute("Time")[0] == "time_value"
    assert normalize_attribute("order")[0] == "order_value"
    assert normalize_attribute("2nd set")[0] == "a_2nd_set"
    assert normalize_attribute("!!!")[0] == ""


@pytest.mark.parametrize(
    ("raw", "kind", "number", "unit"),
    [
        ("6.5 h", "number", 6.5, "h"),
        ("7h 30m", "integer", 450.0, "min"),
        ("1 h 5 min", "integer", 65.0, "min"),
        ("1,234.50", "number", 1234.5, None),
        ("$12.50", "number", 12.5, "USD"),
        ("12.50 USD", "number", 12.5, "USD"),
        ("85%", "integer", 85.0, "%"),
        ("-3.2 kg", "number", -3.2, "kg"),
        ("8,000 steps", "integer", 8000.0, "steps"),
        ("58 bpm", "integer", 58.0, "bpm"),
        # minutes and seconds with a fraction: an erg's time, a split
        ("30:49.0", "number", 30 + 49 / 60, "min"),
        ("2:03.3", "number", 2 + 3.3 / 60, "min"),
    ],
)
def test_numbers_with_units(raw, kind, number, unit):
    v = parse_value(raw)
    assert (v.kind, v.unit) == (kind, unit)
    assert v.number == pytest.approx(number)
    assert v.text == raw


def test_dates_times_booleans():
    assert parse_value("2026-03-02").timestamp.isoformat() == "2026-03-02T00:00:00"
    assert parse_value("March 2, 2026").timestamp.day == 2
    assert parse_value("2 Mar 2026 at 7:45 pm").timestamp.hour == 19
    assert parse_value("7:45 am").text == "07:45"
    assert parse_value("yes").boolean is True
    assert parse_value("False").boolean is False
    assert parse_value(True).kind == "boolean"
    assert parse_value("good").kind == "text"


def test_unit_conversion_is_clean():
    assert convert_units(6.4, "h", "min") == 384.0
    assert convert_units(384, "min", "h") == 6.4
    assert convert_units(5200, "m", "km") == 5.2
    with pytest.raises(ValueError):
        convert_units(1, "kg", "h")
