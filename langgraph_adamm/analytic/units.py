"""Units: how people spell them, their dimensions, and conversion (via pint).

The project keeps only the glue: the spellings people write ("hrs", "kgs",
"bucks", "°C") mapped onto a short canonical symbol, and a few units pint does
not define (currencies, steps, points, heart beats), each currency a dimension
of its own so that no two are ever mixed. Dimensions and conversion factors come
from pint's registry, which is built on first use and cached.

Building that registry (importing pint, parsing its definitions) costs about
half a second, so the questions people ask do not pay it for ordinary words:
``data/unit_names.json``, written from this registry by
``tools/support/make_unit_table.py``, holds every name pint's single-name
parser looks up and the dimension of every canonical symbol. A word of letters
that no prefix + name + plural split can make is no unit without asking pint,
and a canonical symbol's dimension (so whether two of them convert) is read
from the table; every answer is the one pint would give. Conversion factors
still come from pint.

Canonical symbols are what tables store: ``h``, ``min``, ``kg``, ``km``,
``degC``, ``mg/dL``, ``USD``... A symbol pint knows but the alias table does not
list keeps pint's short form (``kJ``, ``mph``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata, resources
from typing import Any

_ALIASES: dict[str, str] = {}


def _alias(symbol: str, *spellings: str) -> None:
    for s in (symbol, *spellings):
        _ALIASES[s.lower()] = symbol


_alias("s", "sec", "secs", "second", "seconds")
_alias("min", "mins", "minute", "minutes", "mn")
_alias("h", "hr", "hrs", "hour", "hours", "hs")
_alias("d", "day", "days")
_alias("wk", "week", "weeks", "wks")
_alias("ms", "msec", "millisecond", "milliseconds")
_alias("mg", "milligram", "milligrams")
_alias("g", "gram", "grams", "gr", "grs")
_alias("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme")
_alias("lb", "lbs", "pound", "pounds", "#")
_alias("oz", "ounce", "ounces")
_alias("st", "stone", "stones")
_alias("m", "meter", "meters", "metre", "metres", "mtr", "mtrs")
_alias("cm", "centimeter", "centimeters", "centimetre", "centimetres")
_alias("mm", "millimeter", "millimeters", "millimetre", "millimetres")
_alias("km", "kms", "kilometer", "kilometers", "kilometre", "kilometres", "klick")
_alias("mi", "mile", "miles")
_alias("ft", "feet", "foot")
_alias("yd", "yard", "yards")
_alias("mL", "ml", "milliliter", "milliliters", "millilitre", "millilitres")
_alias("L", "l", "liter", "liters", "litre", "litres", "ltr")
_alias("kcal", "cal", "cals", "kcals", "calorie", "calories", "kilocalories")
_alias("kJ", "kj", "kilojoule", "kilojoules")
# Energy and power as meters, apps and bills write them, in any case ("kwh").
_alias("kWh", "kilowatt hour", "kilowatt hours", "kilowatt-hour", "kilowatt-hours")
_alias("Wh", "watt hour", "watt hours", "watt-hour", "watt-hours")
_alias("kW", "kilowatt", "kilowatts")
_alias("bpm", "beats/min", "beats per minute", "/min")
_alias("%", "percent", "pct", "per cent", "perc")
_alias("USD", "$", "us$", "dollar", "dollars", "bucks", "usd")
_alias("EUR", "€", "euro", "euros", "eur")
_alias("GBP", "£", "gbp", "quid")
_alias("JPY", "¥", "yen", "jpy")
_alias("CHF", "chf")
_alias("CAD", "cad", "c$")
_alias("AUD", "aud", "a$")
_alias("mg/dL", "mg/dl", "mgdl")
_alias("mmol/L", "mmol/l", "mmol")
_alias("mmHg", "mmhg", "mm hg")
_alias("degC", "°c", "ºc", "℃", "degc", "celsius", "° c", "deg c")
_alias("degF", "°f", "ºf", "℉", "degf", "fahrenheit", "° f", "deg f")
_alias("steps", "step")
_alias("pts", "points", "point", "pt")
_alias("reps", "rep", "repetitions")
_alias("km/h", "kph", "kmh", "km/hr")
_alias("mph", "mi/h")
_alias("min/km", "/km")
_alias("min/mi", "/mi")

CURRENCIES = frozenset({"USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD"})
CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}

# Units pint lacks, or defines in a way that would mix what must stay apart.
_DEFINITIONS = [
    *(f"{c} = [currency_{c.lower()}]" for c in sorted(CURRENCIES)),
    "steps = [steps]",
    "pts = [points]",
    "reps = [repetitions]",
    "bpm = 1 / minute",
]
_PINT_NAMES = {"degC": "degree_Celsius", "degF": "degree_Fahrenheit", "wk": "week"}
# Tokens pint would read as units but people mean otherwise ("a" is a year to
# pint, "at" an atmosphere, "pc" a parsec, "t" a tonne, "in" an inch).
_NOT_UNITS = frozenset(
    """a at in pc t c b e x p k n u v q r or on as is it of to by an am pm st nd
    rd th unit units shot shots yr yrs pt pts""".split()
)
_EVERYDAY_DIMENSIONS = frozenset(
    {
        "[time]",
        "[mass]",
        "[length]",
        "[length] ** 3",
        "[length] ** 2",
        "[temperature]",
        "[mass] * [length] ** 2 / [time] ** 2",
        "[mass] / [length] / [time] ** 2",
        "[length] / [time]",
        "[substance] / [length] ** 3",
        "[mass] / [length] ** 3",
        "1 / [time]",
        "[mass] * [length] ** 2 / [time] ** 3",
    }
)
"""Dimensions a unit pint reads must have (time, mass, length, volume, area,
temperature, energy, pressure, speed, concentrations, rates, power): "9am" is
not attometres and "1st" is not a stone."""


@lru_cache(maxsize=1)
def registry() -> Any:
    """The pint registry with the project's units; built once, on first use."""
    import pint

    reg: Any = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    for line in _DEFINITIONS:
        reg.define(line)
    return reg


def _pint_unit(symbol: str) -> Any:
    return registry().parse_units(_PINT_NAMES.get(symbol, symbol))


@dataclass(frozen=True)
class UnitTable:
    """What pint's single-name parser consults, and the canonical dimensions."""

    case_sensitive: bool
    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    names: frozenset[str]
    dimensions: dict[str, str]
    """Canonical symbols' dimensions (these convert among themselves)."""
    name_dimensions: dict[str, str]
    """Other unit names' dimensions, as written (pint may not convert all)."""
    name_units: dict[str, str]
    """:func:`canonical_unit`'s pint answer for each unit name and its plural
    as written ("" for no unit): "months" or "cups" need no registry."""


UNIT_TABLE = "unit_names.json"
"""The table's file in ``langgraph_adamm.data``."""


@lru_cache(maxsize=1)
def unit_table() -> UnitTable | None:
    """The packaged table, or None when it may not describe this registry.

    The table is trusted only for the pint version it was written from and the
    project definitions it was written with; with any other pint (or none, or
    no table) every question goes to pint, as if there were no table. Checking
    the version reads pint's distribution metadata, not pint itself.
    """
    try:
        raw = json.loads(
            resources.files("langgraph_adamm.data")
            .joinpath(UNIT_TABLE)
            .read_text(encoding="utf-8")
        )
        installed = metadata.version("pint")
    except (OSError, ValueError, metadata.PackageNotFoundError):
        return None
    if (
        raw.get("pint_version") != installed
        or raw.get("definitions") != _DEFINITIONS
        or raw.get("pint_names") != _PINT_NAMES
    ):
        return None
    return UnitTable(
        case_sensitive=bool(raw["case_sensitive"]),
        prefixes=tuple(raw["prefixes"]),
        suffixes=tuple(raw["suffixes"]),
        names=frozenset(raw["names"]),
        dimensions=dict(raw["dimensions"]),
        name_dimensions=dict(raw.get("name_dimensions", {})),
        name_units=dict(raw.get("name_units", {})),
    )


def may_be_pint_unit(text: str) -> bool:
    """Whether pint could read ``text`` as a unit; False only when it cannot.

    Answers for a word of ASCII letters (which pint's string preprocessor and
    tokenizer leave whole, one name) the way pint's ``parse_unit_name`` does:
    some prefix it starts with, some plural suffix it ends with, and the rest
    (two letters at least when a suffix was cut) one of the registry's names,
    compared as the registry compares them. A text of several names ("red /
    black", "about 400°F": pint reads "°" as "degree" and each name as a
    unit) cannot be read when one of its words of letters, written once,
    cannot; a text pint
    rewrites first (commas, "per", "sq", "squared", ...) or with other
    characters is left to pint. Anything else may be a unit.
    """
    table = unit_table()
    if table is None:
        return True
    if text.isascii() and text.isalpha():
        return _may_be_name(table, text)
    rewritten = text.replace("°", "degree")
    if not rewritten.isascii() or "," in rewritten:
        return True
    names = _IDENTIFIER.findall(rewritten)
    if not names or any(n.lower() in _PINT_OPERATORS for n in names):
        return True
    # a name written once cannot cancel out ("red/red" is dimensionless to pint)
    return not any(
        names.count(n) == 1 and not _may_be_name(table, n) for n in names if n.isalpha()
    )


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A name as pint's tokenizer cuts it (digits before it are a number)."""
_PINT_OPERATORS = frozenset({"per", "sq", "square", "squared", "cubic", "cubed"})
"""Words pint's string preprocessor rewrites before it reads names."""


def _may_be_name(table: UnitTable, text: str) -> bool:
    """:func:`may_be_pint_unit` for one word of ASCII letters."""
    for suffix in table.suffixes:
        if not text.endswith(suffix):
            continue
        for prefix in table.prefixes:
            if not text.startswith(prefix):
                continue
            name = text[len(prefix) :]
            if suffix:
                name = name[: -len(suffix)]
                if len(name) == 1:
                    continue
            if (name if table.case_sensitive else name.lower()) in table.names:
                return True
    return False


def spelled_unit(word: str) -> str | None:
    """The unit a word spells as people write units ("litres", "km"), else None.

    Only the everyday spellings: pint's registry also reads "cup" or "bag",
    which as a field name are as often an item bought.
    """
    return _ALIASES.get(word.strip().lower())


_SHORT_OVERRIDES = {"°C": "degC", "°F": "degF", "ml": "mL", "l": "L", "hr": "h"}


_BARE_DEGREES = {"C": "degC", "F": "degF"}
"""Temperatures written without the degree sign; case counts ("2c" may be cups)."""


@lru_cache(maxsize=4096)
def canonical_unit(token: str | None) -> str | None:
    """The canonical symbol of a unit as written, or None when it is no unit.

    Spellings people use are looked up first; anything else is offered to pint
    and kept in pint's short form when pint knows it.
    """
    if not token:
        return None
    text = re.sub(r"\s+", " ", token.strip()).rstrip(".")
    if text in _BARE_DEGREES:  # "24.8C", "72 F": a capital letter alone
        return _BARE_DEGREES[text]
    lowered = text.lower()
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    if (
        lowered in _NOT_UNITS
        or len(text) > 16
        or not re.fullmatch(r"[A-Za-zµ°/²³·*^0-9 ]+", text)
    ):
        return None
    if not re.search(r"[A-Za-zµ]", text) or text[0].isdigit():
        return None
    if not may_be_pint_unit(text):
        return None
    table = unit_table()
    if table is not None and text in table.name_units:
        return table.name_units[text] or None
    return pint_canonical(text)


def pint_canonical(text: str) -> str | None:
    """:func:`canonical_unit` as pint answers it (what the table records)."""
    try:
        unit = registry().parse_units(text)
    except Exception:  # noqa: BLE001 - pint raises several kinds; none is a unit
        return None
    if unit.dimensionless or str(unit.dimensionality) not in _EVERYDAY_DIMENSIONS:
        return None
    short = f"{unit:~}".replace(" ", "")
    short = _SHORT_OVERRIDES.get(short, short)
    if _ALIASES.get(short.lower(), short) != short:
        return str(unit).replace(" ", "")  # "pt" is points here; a pint stays "pint"
    return short


@lru_cache(maxsize=1024)
def dimension(symbol: str | None) -> str | None:
    """The unit's dimension (pint dimensionality as text); None for no unit.

    A symbol pint cannot read (a counted noun such as ``cups`` kept as written)
    is a dimension of its own.
    """
    if symbol is None:
        return None
    if symbol == "%":
        return "[percent]"
    table = unit_table()
    if table is not None:
        known = table.dimensions.get(symbol) or table.name_dimensions.get(symbol)
        if known is not None:
            return known
    if not may_be_pint_unit(_PINT_NAMES.get(symbol, symbol)):
        return f"[{symbol}]"
    return pint_dimension(symbol)


_CURRENCY_WORDS = frozenset(
    "kr kn zl zł sek nok dkk inr rs pln czk huf ron brl mxn zar nzd sgd hkd cny rmb "
    "krw lei lev".split()
)
"""Currencies written in lower case that pint does not know."""


def unknown_unit(symbol: str | None) -> bool:
    """Whether a unit as written is a word pint does not know (its own dimension)."""
    return symbol is not None and dimension(symbol) == f"[{symbol}]"


def counting_noun(symbol: str | None) -> bool:
    """Whether a "unit" is a noun that counts (``2 fr``, ``4 frames``).

    A word pint does not know, so a dimension of its own: as good as no unit
    when two layouts count one thing.
    """
    if symbol is None or not unknown_unit(symbol):
        return False
    table = unit_table()
    if table is not None and symbol in table.dimensions:
        return False  # a unit of the project's own ("steps")
    # a currency pint does not know ("kr", "SEK") is money, no count
    return symbol.islower() and symbol not in _CURRENCY_WORDS


def pint_dimension(symbol: str) -> str:
    """:func:`dimension` as pint answers it (what the table records)."""
    try:
        return str(_pint_unit(symbol).dimensionality)
    except Exception:  # noqa: BLE001
        return f"[{symbol}]"


def is_volume(symbol: str | None) -> bool:
    """Whether a unit measures a volume (mL, L, cups read by pint)."""
    return symbol is not None and dimension(symbol) == dimension("mL")


@lru_cache(maxsize=4096)
def _factor(from_unit: str, to_unit: str) -> tuple[float, bool]:
    """(multiplier, offset?) converting from_unit into to_unit."""
    if dimension(from_unit) != dimension(to_unit):
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    if from_unit == "%" or to_unit == "%":
        return 1.0, False
    reg = registry()
    src, dst = _pint_unit(from_unit), _pint_unit(to_unit)
    if not reg.Quantity(1.0, src).is_compatible_with(dst):
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    offset = any(
        u in ("degree_Celsius", "degree_Fahrenheit") for u in (str(src), str(dst))
    )
    if offset:
        return math.nan, True
    return float(reg.Quantity(1.0, src).to(dst).magnitude), False


def has_offset(symbol: str | None) -> bool:
    """Whether converting the unit adds an offset (°C, °F), not only a factor."""
    return symbol in ("degC", "degF")


def affine(from_unit: str | None, to_unit: str | None) -> tuple[float, float]:
    """(a, b) with to = a * from + b; (1, 0) for no conversion."""
    if from_unit == to_unit or from_unit is None or to_unit is None:
        return 1.0, 0.0
    zero = convert_units(0.0, from_unit, to_unit)
    return convert_units(1.0, from_unit, to_unit) - zero, zero


def convertible(from_unit: str | None, to_unit: str | None) -> bool:
    """Whether :func:`convert_units` accepts this pair."""
    if from_unit == to_unit or from_unit is None or to_unit is None:
        return True
    if dimension(from_unit) != dimension(to_unit):
        return False
    known = unit_table()
    if known is not None and {from_unit, to_unit} <= {"%", *known.dimensions}:
        return True  # canonical symbols of one dimension convert (tests check)
    try:
        _factor(from_unit, to_unit)
    except ValueError:
        return False
    return True


def convert_units(value: float, from_unit: str | None, to_unit: str | None) -> float:
    """Convert a quantity between units of one dimension.

    Raises:
        ValueError: if the units differ and are not of one dimension.
    """
    if from_unit == to_unit or from_unit is None or to_unit is None:
        return value
    factor, offset = _factor(from_unit, to_unit)
    if offset:
        reg = registry()
        result = float(
            reg.Quantity(value, _pint_unit(from_unit)).to(_pint_unit(to_unit)).magnitude
        )
    else:
        inverse = 1.0 / factor if factor else 0.0
        # Divide by an exact integer factor rather than multiply by its inexact
        # reciprocal: 90 min -> 1.5 h exactly.
        if factor < 1 and inverse.is_integer():
            result = value / inverse
        else:
            result = value * factor
    # Round off binary noise (6.4 h -> 384.00000000000006 min) without losing
    # any digit a person could have written.
    return float(f"{result:.12g}")


EVERYDAY_UNITS: dict[str, tuple[str, ...]] = {}
"""Per dimension, the units a bare number in such a column could have been."""


def everyday_units(dim: str | None) -> tuple[str, ...]:
    """Units people commonly leave unwritten, for a column of this dimension."""
    if not EVERYDAY_UNITS:
        for group in (
            ("s", "min", "h"),
            ("g", "kg", "lb"),
            ("m", "km", "mi"),
            ("degC", "degF"),
            ("mL", "L"),
        ):
            EVERYDAY_UNITS[str(dimension(group[0]))] = group
    return EVERYDAY_UNITS.get(str(dim), ())


def product_unit(left: str | None, right: str | None, op: str) -> str | None:
    """The unit of ``left * right`` or ``left / right``.

    A quotient of one dimension is dimensionless (None); other products and
    quotients make a compound unit (``km/min``). Sums are checked by the caller.
    """
    if op == "/":
        if (
            left is not None
            and right is not None
            and dimension(left) == dimension(right)
        ):
            return None
        if right is None:
            return left
        return f"{left}/{right}" if left else f"1/{right}"
    if left is None or right is None:
        return left or right
    return f"{left}*{right}"
