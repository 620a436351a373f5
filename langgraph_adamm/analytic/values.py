"""Attribute-name normalization and source-faithful value parsing.

Recurring fields must meet under one name ("Deep Sleep", "deep sleep (h)" and
"deep_sleep" are one attribute), and values must carry their type and unit so
that a column can be typed and its units reconciled (7 h 30 min == 450 min).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal

ValueKind = Literal["integer", "number", "boolean", "timestamp", "text"]

AUXILIARY_COLUMNS = ("source", "order", "time")

# canonical unit -> (dimension, factor to the dimension's base unit)
_UNITS: dict[str, tuple[str, float]] = {
    "s": ("duration", 1.0),
    "min": ("duration", 60.0),
    "h": ("duration", 3600.0),
    "d": ("duration", 86400.0),
    "g": ("mass", 1.0),
    "kg": ("mass", 1000.0),
    "lb": ("mass", 453.59237),
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "mi": ("length", 1609.344),
}

_UNIT_ALIASES: dict[str, str] = {
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "d": "d",
    "day": "d",
    "days": "d",
    "g": "g",
    "gram": "g",
    "grams": "g",
    "kg": "kg",
    "kgs": "kg",
    "kilogram": "kg",
    "kilograms": "kg",
    "lb": "lb",
    "lbs": "lb",
    "pound": "lb",
    "pounds": "lb",
    "m": "m",
    "meter": "m",
    "meters": "m",
    "metre": "m",
    "metres": "m",
    "km": "km",
    "kilometer": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometres": "km",
    "mi": "mi",
    "mile": "mi",
    "miles": "mi",
    "kcal": "kcal",
    "cal": "kcal",
    "calories": "kcal",
    "calorie": "kcal",
    "bpm": "bpm",
    "ms": "ms",
    "steps": "steps",
    "step": "steps",
    "%": "%",
    "percent": "%",
    "pct": "%",
    "usd": "USD",
    "$": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "eur": "EUR",
    "€": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "gbp": "GBP",
    "£": "GBP",
    "mg/dl": "mg/dL",
    "mmol/l": "mmol/L",
    "mmhg": "mmHg",
    "pts": "pts",
    "points": "pts",
    "point": "pts",
}

KNOWN_UNITS = frozenset(_UNIT_ALIASES)

_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for m in names
}

_BOOLEANS = {
    "yes": True,
    "true": True,
    "y": True,
    "✓": True,
    "✔": True,
    "on": True,
    "no": False,
    "false": False,
    "n": False,
    "✗": False,
    "✘": False,
    "off": False,
}

_NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+"
_NUMBER_RE = re.compile(
    rf"^(?P<sign>[-+])?(?P<cur>[$€£])?\s*(?P<num>{_NUMBER})\s*"
    rf"(?P<unit>%|[A-Za-z$€£][A-Za-z/]{{0,11}})?$"
)
_QUALIFIER_RE = re.compile(
    r"^(?:about|around|approx\.?|approximately|roughly|nearly|almost|~|ca\.?)\s*",
    re.IGNORECASE,
)
_DURATION_RE = re.compile(
    r"^(?:(?P<h>\d+(?:\.\d+)?)\s*(?:h|hr|hrs|hours?)\b)?\s*"
    r"(?:(?P<m>\d+(?:\.\d+)?)\s*(?:m|min|mins|minutes?)\b)?$",
    re.IGNORECASE,
)
_CLOCK_RE = re.compile(
    r"^(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>[ap]\.?m\.?)?$", re.IGNORECASE
)
_TEXT_DATE_RE = re.compile(
    r"^(?:(?P<d1>\d{1,2})\s+(?P<mon1>[A-Za-z]{3,9})\.?,?\s+(?P<y1>\d{4})"
    r"|(?P<mon2>[A-Za-z]{3,9})\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{4}))"
    r"(?:[,\s]+(?:at\s+)?(?P<clock>\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?))?$",
    re.IGNORECASE,
)
_ISO_ZONED_RE = re.compile(
    r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$"
)
_ISO_DATE_RE = re.compile(
    r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$"
)


@dataclass(frozen=True)
class ParsedValue:
    """A value as read from its source, with its type and canonical unit."""

    kind: ValueKind
    text: str
    number: float | None = None
    unit: str | None = None
    boolean: bool | None = None
    timestamp: datetime | None = None


def canonical_unit(token: str | None) -> str | None:
    """The canonical spelling of a unit, or None when it is not a known unit."""
    if not token:
        return None
    return _UNIT_ALIASES.get(token.strip().lower().rstrip("."))


def convert_units(value: float, from_unit: str | None, to_unit: str | None) -> float:
    """Convert a quantity between units of one dimension.

    Raises:
        ValueError: if the units differ and are not of one dimension.
    """
    if from_unit == to_unit or from_unit is None or to_unit is None:
        return value
    a, b = _UNITS.get(from_unit), _UNITS.get(to_unit)
    if a is None or b is None or a[0] != b[0]:
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    if a[1] >= b[1] and (a[1] / b[1]).is_integer():
        result = value * (a[1] / b[1])
    else:
        result = value / (b[1] / a[1])
    # Round off binary noise (6.4 h -> 384.00000000000006 min) without losing
    # any digit a person could have written.
    return float(f"{result:.12g}")


def is_dimensioned(unit: str | None) -> bool:
    """Whether a unit belongs to a dimension with other units (h vs min, kg vs lb)."""
    return unit in _UNITS


def convertible(from_unit: str | None, to_unit: str | None) -> bool:
    """Whether :func:`convert_units` accepts this pair."""
    if from_unit == to_unit or from_unit is None or to_unit is None:
        return True
    a, b = _UNITS.get(from_unit), _UNITS.get(to_unit)
    return a is not None and b is not None and a[0] == b[0]


_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_BRACKET_RE = re.compile(r"\s*[\(\[]([^\)\]]*)[\)\]]\s*")
_IN_UNIT_RE = re.compile(r"\s+in\s+([A-Za-z%$€£/]+)\s*$", re.IGNORECASE)


def normalize_attribute(name: str) -> tuple[str, str | None]:
    """Normalize an attribute name and pull out a unit hint it carries.

    ``"Deep Sleep"``, ``"deep sleep (h)"``, ``"deep_sleep"`` and ``"deepSleep"``
    all become ``"deep_sleep"``; the second also yields the unit ``"h"``. Names
    that collide with the auxiliary columns (source, order, time) get a
    ``_value`` suffix.

    Returns:
        The normalized name (``""`` when nothing usable is left) and the unit.
    """
    unit: str | None = None
    text = name.strip()
    for match in _BRACKET_RE.finditer(text):
        unit = unit or canonical_unit(match.group(1))
    text = _BRACKET_RE.sub(" ", text)
    in_unit = _IN_UNIT_RE.search(text)
    if in_unit and canonical_unit(in_unit.group(1)):
        unit = unit or canonical_unit(in_unit.group(1))
        text = text[: in_unit.start()]
    text = _CAMEL_RE.sub("_", text).lower().replace("&", " and ").replace("%", " pct ")
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-z0-9]+", "_", folded).strip("_")[:60].rstrip("_")
    if not text and re.search(r"[^\W_]", name):
        # A name in a script without a Latin reading keeps a stable identifier.
        text = "a_" + hashlib.sha256(name.strip().lower().encode()).hexdigest()[:8]
    if text and text[0].isdigit():
        text = f"a_{text}"
    if text in AUXILIARY_COLUMNS:
        text = f"{text}_value"
    return text, unit


def _parse_number(text: str) -> ParsedValue | None:
    match = _NUMBER_RE.match(_QUALIFIER_RE.sub("", text))
    if not match:
        return None
    raw_num = match.group("num").replace(",", "")
    if match.group("sign") == "-":
        raw_num = raw_num[1:] if raw_num.startswith("-") else f"-{raw_num}"
    unit_token = match.group("unit") or match.group("cur")
    unit = canonical_unit(unit_token) if unit_token else None
    if unit_token and unit is None:
        # An unknown trailing word ("3 cups") is kept as the unit when short.
        if not re.fullmatch(r"[A-Za-z]{1,10}", unit_token):
            return None
        unit = unit_token.lower()
    number = float(raw_num)
    is_int = re.fullmatch(r"[-+]?\d+", raw_num) is not None
    return ParsedValue(
        "integer" if is_int else "number", text, number=number, unit=unit
    )


def _parse_duration(text: str) -> ParsedValue | None:
    match = _DURATION_RE.match(text)
    if not match or not (match.group("h") and match.group("m")):
        return None
    minutes = float(match.group("h")) * 60 + float(match.group("m"))
    return ParsedValue("number", text, number=minutes, unit="min")


def _clock(text: str) -> tuple[int, int] | None:
    match = _CLOCK_RE.match(text.strip())
    if not match or (match.group("m") is None and match.group("ampm") is None):
        return None
    hour, minute = int(match.group("h")), int(match.group("m") or 0)
    ampm = (match.group("ampm") or "").lower().replace(".", "")
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    if hour > 23 or minute > 59:
        return None
    return hour, minute


def parse_date_text(text: str) -> datetime | None:
    """Parse the date forms people write (ISO, "March 2, 2026", "2 Mar 2026").

    ISO times with a zone (``Z``, ``+02:00``) are converted to UTC, as the
    history reader does with round times.
    """
    stripped = text.strip()
    if _ISO_DATE_RE.match(stripped) or _ISO_ZONED_RE.match(stripped):
        try:
            parsed = datetime.fromisoformat(stripped.replace("Z", "+00:00"))
        except (ValueError, OverflowError):
            return None
        if parsed.tzinfo is not None:
            try:
                parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
            except OverflowError:
                return None
        return parsed
    match = _TEXT_DATE_RE.match(stripped)
    if not match:
        return None
    mon = (match.group("mon1") or match.group("mon2")).lower()
    if mon not in _MONTHS:
        return None
    day = int(match.group("d1") or match.group("d2"))
    year = int(match.group("y1") or match.group("y2"))
    hour = minute = 0
    if match.group("clock"):
        clock = _clock(match.group("clock"))
        if clock is None:
            return None
        hour, minute = clock
    try:
        return datetime(year, _MONTHS[mon], day, hour, minute)
    except ValueError:
        return None


def parse_value(raw: object) -> ParsedValue:
    """Read a value's type and unit without changing what the source said."""
    if isinstance(raw, bool):
        return ParsedValue("boolean", str(raw).lower(), boolean=raw)
    if isinstance(raw, int):
        return ParsedValue("integer", str(raw), number=float(raw))
    if isinstance(raw, float):
        return ParsedValue("number", repr(raw), number=raw)
    text = str(raw).strip()
    lowered = text.lower()
    if lowered in _BOOLEANS:
        return ParsedValue("boolean", text, boolean=_BOOLEANS[lowered])
    for parser in (_parse_number, _parse_duration):
        parsed = parser(text)
        if parsed is not None:
            return parsed
    stamp = parse_date_text(text)
    if stamp is not None:
        return ParsedValue("timestamp", text, timestamp=stamp)
    clock = _clock(text)
    if clock is not None:
        return ParsedValue("text", f"{clock[0]:02d}:{clock[1]:02d}")
    return ParsedValue("text", text)
