"""Attribute-name normalization and source-faithful value parsing.

Recurring fields must meet under one name ("Deep Sleep", "deep sleep (h)" and
"deep_sleep" are one attribute), and values must carry their type and unit so
that a column can be typed and its units reconciled (7 h 30 min == 450 min).

One module because it is one reader, :func:`parse_value`: numbers, money,
durations, clock times, dates and ranges are tried in one order over one
cleaned text, and each pattern's guard (a duration is short, a fraction needs
its sign) is read beside the pattern it guards.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import lru_cache
from typing import Literal

from langgraph_adamm.analytic.units import (
    CURRENCY_SYMBOLS,
    canonical_unit,
    convert_units,
    convertible,
    spelled_unit,
)

__all__ = [
    "AUXILIARY_COLUMNS",
    "ParsedValue",
    "canonical_unit",
    "convert_units",
    "convertible",
    "normalize_attribute",
    "parse_date_text",
    "parse_number_text",
    "parse_value",
    "spelled_quantities",
]

ValueKind = Literal["integer", "number", "boolean", "timestamp", "text", "clock"]
"""``clock`` is an ``H:MM`` or ``H:MM:SS`` reading: a time of day or a duration,
which only its column can tell; ``number`` holds it as a duration in minutes."""

AUXILIARY_COLUMNS = ("source", "order", "time")


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

_DIGITS = (
    r"(?:\d{1,3}(?:[,.'\u00a0\u202f\u2009 ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?|[.,]\d+)"
)
_CURRENCY_PREFIX = r"(?:[$€£¥]|(?:US|C|A)\$|(?i:USD|EUR|GBP|JPY|CHF|CAD|AUD)\s?)"
_UNIT_TOKEN = (
    r"(?:%|°\s?[CFcf]\b|[℃℉]|[A-Za-zµ$€£¥#][A-Za-zµ/²³]{0,11}(?:\s?/\s?[A-Za-z]{1,5})?)"
)
_NUMBER_RE = re.compile(
    rf"^(?P<sign>[-+−])?\s*(?P<cur>{_CURRENCY_PREFIX})?\s*(?P<sign2>[-+−])?"
    rf"(?P<num>{_DIGITS})(?P<suffix>[kKM](?![A-Za-z]))?\s*"
    rf"(?P<unit>{_UNIT_TOKEN}(?:\s(?:Hg|hg))?)?\.?$"
)
_RANGE_RE = re.compile(
    rf"^(?P<cur>{_CURRENCY_PREFIX})?\s*(?P<lo>{_DIGITS})(?P<s1>[kK])?\s*"
    rf"(?P<lounit>{_UNIT_TOKEN})?\s*(?:-|–|—|to)\s*(?P<cur2>{_CURRENCY_PREFIX})?\s*"
    rf"(?P<hi>{_DIGITS})(?P<s2>[kK])?\s*(?P<unit>{_UNIT_TOKEN})?$"
)
_RATIO_RE = re.compile(
    rf"^(?P<num>{_DIGITS})\s*(?:/|out of|of)\s*(?P<den>\d+(?:[.,]\d+)?)"
    r"(?:\s*(?P<unit>pts|points))?$",
    re.IGNORECASE,
)
_AMPM_RE = re.compile(r"\d\s*[ap]\.?m\.?$", re.IGNORECASE)
_FRACTIONS = {"½": ".5", "¼": ".25", "¾": ".75"}
_FRACTION_RE = re.compile(r"(\d+)?\s?([½¼¾])")
_PAIR_RE = re.compile(
    r"^(?P<a>\d{2,3})\s*/\s*(?P<b>\d{2,3})\s*(?P<unit>mm\s?Hg|mmhg)?$", re.IGNORECASE
)
_NO_UNIT_WORDS = frozenset({"count", "counts", "times", "x", "unit", "units"})
_ANNOTATION_RE = re.compile(
    r"^(?P<value>.*?\S)\s*[\(\[](?P<note>[^\(\)\[\]]{1,80})[\)\]]$"
)
_QUALIFIER_RE = re.compile(
    r"^(?:about|around|approx\.?|approximately|roughly|nearly|almost|circa|"
    r"~|≈|ca\.?|c\.)(?![A-Za-z])\s*",
    re.IGNORECASE,
)
_H = r"(?:h|hr|hrs|hour|hours|std)\.?"
_M = r"(?:m|min|mins|minute|minutes|'|′)\.?"
_S = r"(?:s|sec|secs|second|seconds|\"|″)\.?"
_DURATION_RE = re.compile(
    rf"^(?:(?P<d>\d+)\s*(?:d|day|days)\s*,?\s*)?"
    rf"(?:(?P<h>\d+(?:[.,]\d+)?)\s*{_H}\s*,?\s*(?:and\s+)?)?"
    rf"(?:(?P<m>\d+(?:[.,]\d+)?)\s*(?:{_M})?\s*,?\s*(?:and\s+)?)?"
    rf"(?:(?P<s>\d+(?:[.,]\d+)?)\s*{_S})?$",
    re.IGNORECASE,
)
_MAX_DURATION = 80  # longest duration text; a long digit run costs its square
_ISO_DURATION_RE = re.compile(
    r"^P(?:(?P<d>\d+)D)?T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
    r"(?:(?P<s>\d+(?:\.\d+)?)S)?$",
    re.IGNORECASE,
)
_HMS_RE = re.compile(r"^(?P<h>\d{1,3}):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d(?:\.\d+)?))?$")
_TENTHS_RE = re.compile(r"^(?P<m>\d{1,3}):(?P<s>[0-5]\d)\.(?P<f>\d{1,3})$")
"""Minutes and seconds with a fraction ("30:49.0", a split "2:03.3"): a time of
day never has a fraction, so this is a duration, read m:ss."""
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
    low: float | None = None
    """For a range ("60-65 bpm"): its low end; ``number`` is the midpoint."""
    high: float | None = None
    note: str | None = None
    """A trailing annotation in brackets ("6.8 h (woke up twice)")."""
    scale: float | None = None
    """For a score out of a maximum ("85/100"): the maximum."""
    alt: float | None = None
    """The other reading of an ambiguous separator: "14.854" is 14.854 or, with
    a thousands dot, 14854; "12,345" is 12345 or 12.345. The column decides."""


_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?<!\b[a-z])(?<!_[a-z])(?=[A-Z])")
"""A capital after a lower-case letter starts a word ("deepSleep", "HbA1c"),
except after a word's one lower-case first letter: "pH", "kH", "dB", "mL" are
symbols, one word each."""
_BRACKET_RE = re.compile(r"\s*[\(\[]([^\)\]]*)[\)\]]\s*")
_IN_UNIT_RE = re.compile(r"\s+in\s+([A-Za-z%$€£/]+)\s*$", re.IGNORECASE)


@lru_cache(maxsize=16384)
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
    if unit is None:
        unit = _suffix_unit(text)
    return text, unit


_SUFFIX_UNITS = {
    "minutes": "min",
    "h": "h",
    "hours": "h",
    "sec": "s",
    "secs": "s",
    "seconds": "s",
    "km": "km",
    "mi": "mi",
    "miles": "mi",
    "kg": "kg",
    "lb": "lb",
    "lbs": "lb",
    "pct": "%",
    "percent": "%",
    "usd": "USD",
    "eur": "EUR",
    "gbp": "GBP",
    "kcal": "kcal",
    "bpm": "bpm",
    "ml": "mL",
    "mmol_l": "mmol/L",
    "min_km": "min/km",
    "min_mi": "min/mi",
    "mg_dl": "mg/dL",
    "mmhg": "mmHg",
}
"""Units a field name states in its last word ("distance_km", "Active minutes",
"water_ml"). Ambiguous endings are left out: "hr" is a heart rate as often as
an hour, "m" a metre or a minute; "min" is minutes only after an activity
("Active min", not "HR min")."""


_ACTIVITY_NAME_RE = re.compile(
    r"active|move|moving|exercise|workout|meditat|sleep|time|session|walk|run|"
    r"ride|swim|zone|nap|screen|study|read|practice|train|yoga|cardio"
)


def _suffix_unit(name: str) -> str | None:
    parts = name.split("_")
    if len(parts) < 2 or all(len(p) < 2 for p in parts[:-1]):
        return None  # "p_h" (pH) is no "p" in hours: a unit follows a word
    if parts[0] in ("minutes", "hours", "seconds"):  # "Minutes Asleep"
        return _SUFFIX_UNITS[parts[0]]
    two = "_".join(parts[-2:])
    if two in _SUFFIX_UNITS and len(parts) > 2:
        return _SUFFIX_UNITS[two]
    if parts[-1] in ("min", "mins"):
        # "Active min" is minutes, "HR min" a minimum: only activity-like names.
        return "min" if _ACTIVITY_NAME_RE.search("_".join(parts[:-1])) else None
    return _SUFFIX_UNITS.get(parts[-1])


def to_float(digits: str) -> float:
    """A number as written, with either convention for decimals and thousands.

    ``1,234.5`` and ``1.234,5`` are both 1234.5; ``6,8`` is 6.8; one comma or
    dot followed by exactly three digits is a thousands separator after a comma
    (``12,345``) and a decimal point after a dot (``12.345``); spaces and
    apostrophes group thousands.
    """
    text = re.sub(r"[\s'\u00a0\u202f\u2009]", "", digits)
    if "," in text and "." in text:
        decimal = "," if text.rfind(",") > text.rfind(".") else "."
        thousands = "." if decimal == "," else ","
        text = text.replace(thousands, "").replace(decimal, ".")
    elif "," in text:
        parts = text.split(",")
        if len(parts) > 2 or (len(parts[1]) == 3 and parts[0] not in ("", "0")):
            text = text.replace(",", "")
        else:
            text = text.replace(",", ".")
    elif text.count(".") > 1:
        text = text.replace(".", "")
    return float(text)


def _is_whole(digits: str, number: float) -> bool:
    """Whether a number was written as a whole number (12,345 yes; 20.00 no)."""
    try:
        return number.is_integer() and float(re.sub(r"\D", "", digits)) == number
    except ValueError:
        return False


def _signed(number: float, *signs: str | None) -> float:
    return -number if any(s in ("-", "−") for s in signs) else number


def _unit_of(token: str | None, currency: str | None) -> tuple[str | None, bool]:
    """(canonical unit, ok); ok is False when a trailing word is no unit."""
    cur = None
    if currency:
        c = currency.strip().upper()
        cur = CURRENCY_SYMBOLS.get(c[-1]) if c.endswith(("$", "€", "£", "¥")) else c
        if c in ("C$", "A$"):
            cur = {"C$": "CAD", "A$": "AUD"}[c]
    if not token:
        return cur, True
    if token.lower() in _NO_UNIT_WORDS:
        return cur, True
    if token.lower() in ("st", "nd", "rd", "th"):
        return None, False  # "1st", "3rd": ordinals, not quantities
    unit = canonical_unit(token)
    if unit is None:
        if cur is None and re.fullmatch(r"[A-Za-z]{1,12}", token):
            return token.lower(), True  # a counted noun ("3 cups") is kept as written
        return None, False
    if cur is not None and unit != cur:
        return None, False
    return unit, True


def parse_number_text(text: str) -> ParsedValue | None:
    """A number with its unit: currencies either side, k/M suffixes, locales.

    Returns None when the text is not a single quantity.
    """
    cleaned = _QUALIFIER_RE.sub("", text.strip())
    if any(ch in cleaned for ch in "½¼¾"):
        cleaned = _FRACTION_RE.sub(
            lambda m: f"{m.group(1) or '0'}{_FRACTIONS[m.group(2)]}", cleaned
        )
    cleaned = re.sub(r"(?<=[\dkK%])\+$", "", cleaned)  # "10k+"
    match = _NUMBER_RE.match(cleaned)
    if match:
        try:
            number = to_float(match.group("num"))
        except ValueError:
            return None
        whole = _is_whole(match.group("num"), number)
        suffix = match.group("suffix")
        if suffix:
            number *= 1000.0 if suffix in "kK" else 1_000_000.0
            number = float(f"{number:.12g}")
            whole = number.is_integer()
        unit, ok = _unit_of(match.group("unit"), match.group("cur"))
        if not ok:
            return None
        number = _signed(number, match.group("sign"), match.group("sign2"))
        alt = None
        if not suffix and re.fullmatch(r"[1-9]\d{0,2}[.,]\d{3}", match.group("num")):
            digits = match.group("num")
            other = (
                float(digits.replace(".", ""))
                if "." in digits
                else float(digits.replace(",", "."))
            )
            alt = _signed(other, match.group("sign"), match.group("sign2"))
        return ParsedValue(
            "integer" if whole else "number", text, number, unit, alt=alt
        )
    match = _RANGE_RE.match(cleaned)
    if match:
        try:
            lo, hi = to_float(match.group("lo")), to_float(match.group("hi"))
        except ValueError:
            return None
        lo *= 1000.0 if match.group("s1") else 1.0
        hi *= 1000.0 if match.group("s2") else 1.0
        lo_unit = match.group("lounit")
        unit, ok = _unit_of(
            match.group("unit"), match.group("cur") or match.group("cur2")
        )
        if not ok or lo >= hi or (lo_unit and canonical_unit(lo_unit) != unit):
            return None
        mid = float(f"{(lo + hi) / 2:.12g}")
        return ParsedValue(
            "integer" if mid.is_integer() else "number",
            text,
            mid,
            unit,
            low=lo,
            high=hi,
        )
    match = _RATIO_RE.match(cleaned)
    if match:
        try:
            number, scale = to_float(match.group("num")), to_float(match.group("den"))
        except ValueError:
            return None
        if 0 < scale <= 1000 and 0 <= number <= scale:
            return ParsedValue(
                "integer" if number.is_integer() else "number",
                text,
                number,
                scale=scale,
            )
    match = _PAIR_RE.match(cleaned)
    if match:  # blood pressure, "120/80 mmHg": one reading, kept as text
        unit = "mmHg" if match.group("unit") else None
        return ParsedValue("text", f"{match.group('a')}/{match.group('b')}", unit=unit)
    return None


def _parse_duration(text: str) -> ParsedValue | None:
    """A duration of two or more parts, in minutes, or an ``H:MM[:SS]`` reading.

    "7h 05m", "7 h 20 min", "1h12", "PT1H12M" and "30:49.0" (minutes and
    seconds with a fraction) are durations; "1:12" is a clock value, whose
    column decides whether it is a duration.
    """
    stripped = text.strip()
    if len(stripped) > _MAX_DURATION:
        return None
    match = _ISO_DURATION_RE.match(stripped)
    if match and any(match.group(g) for g in "dhms"):
        parts = {g: float(match.group(g) or 0) for g in "dhms"}
    else:
        match = _DURATION_RE.match(stripped)
        if not match:
            tenths = _TENTHS_RE.match(stripped)
            if tenths:
                minutes = (
                    int(tenths.group("m"))
                    + float(f"{tenths.group('s')}.{tenths.group('f')}") / 60
                )
                return ParsedValue("number", text, float(f"{minutes:.12g}"), "min")
            hms = _HMS_RE.match(stripped)
            if not hms:
                return None
            clock = int(hms.group("h")) * 60 + int(hms.group("m"))
            clock_minutes = float(f"{clock + float(hms.group('s') or 0) / 60:.12g}")
            shown = (
                f"{int(hms.group('h')):02d}:{hms.group('m')}"
                if hms.group("s") is None
                else stripped
            )
            return ParsedValue("clock", shown, clock_minutes, "min")
        given = [g for g in "dhms" if match.group(g)]
        if len(given) < 2:
            return None
        if (
            "h" not in given
            and "d" not in given
            and not re.search(rf"\d\s*{_M}", stripped, re.IGNORECASE)
        ):
            return None
        parts = {g: to_float(match.group(g)) if match.group(g) else 0.0 for g in "dhms"}
    minutes = parts["d"] * 1440 + parts["h"] * 60 + parts["m"] + parts["s"] / 60
    minutes = float(f"{minutes:.12g}")
    return ParsedValue(
        "integer" if minutes.is_integer() else "number", text, minutes, "min"
    )


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
        return _dateutil_date(stripped)
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


_DATEISH_RE = re.compile(
    r"^(?=.*\b\d{4}\b)(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
    r"(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{4}|\d{4}[/.]\d{1,2}[/.]\d{1,2}"
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+)?[a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[a-z]{3,9}\.?,?\s+\d{4})"
    r"(?:,?\s+(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?)?$",
    re.IGNORECASE,
)


def _dateutil_date(text: str) -> datetime | None:
    """Other written dates ("03/02/2026", "Mon, 2nd of March 2026"), by dateutil.

    Numeric dates read month first unless the first number cannot be a month,
    and day first when written with dots ("12.03.2026", the European form).
    """
    if len(text) > 48 or not _DATEISH_RE.match(text):
        return None
    from dateutil import parser

    try:
        parsed = parser.parse(
            text.replace(" of ", " "),
            dayfirst=re.match(r"\d{1,2}\.\d{1,2}\.\d{4}", text) is not None,
        )
    except (ValueError, OverflowError, parser.ParserError):
        return None
    return parsed.replace(tzinfo=None)


def _parse_text(text: str) -> ParsedValue | None:
    lowered = text.lower()
    if lowered in _BOOLEANS:
        return ParsedValue("boolean", text, boolean=_BOOLEANS[lowered])
    if _AMPM_RE.search(text):  # "9am", "10:45 PM": a time of day, before numbers
        clock = _clock(text)
        if clock is not None:
            return ParsedValue("text", f"{clock[0]:02d}:{clock[1]:02d}")
    for parser in (parse_number_text, _parse_duration):
        parsed = parser(text)
        if parsed is not None:
            return parsed
    stamp = parse_date_text(text)
    if stamp is not None:
        return ParsedValue("timestamp", text, timestamp=stamp)
    clock = _clock(text)
    if clock is not None:
        return ParsedValue("text", f"{clock[0]:02d}:{clock[1]:02d}")
    return None


def parse_value(raw: object) -> ParsedValue:
    """Read a value's type and unit without changing what the source said.

    A trailing annotation in brackets is kept as the value's note ("6.8 hrs
    (woke up twice)" is 6.8 h), or read as its unit when it is one ("7.5 (h)").
    Texts are parsed once and remembered (values recur across rounds).
    """
    if isinstance(raw, str) and len(raw) <= 200:
        return _parse_str(raw)
    return _parse_raw(raw)


@lru_cache(maxsize=65536)
def _parse_str(raw: str) -> ParsedValue:
    return _parse_raw(raw)


def _parse_raw(raw: object) -> ParsedValue:
    if isinstance(raw, bool):
        return ParsedValue("boolean", str(raw).lower(), boolean=raw)
    if isinstance(raw, int):
        if abs(raw) >= 2**63:
            return ParsedValue("text", str(raw)[:40])
        return ParsedValue("integer", str(raw), number=float(raw))
    if isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            return ParsedValue("text", repr(raw))
        return ParsedValue("number", repr(raw), number=raw)
    text = str(raw).strip()
    parsed = _parse_text(text)
    if parsed is not None:
        return parsed
    annotated = _ANNOTATION_RE.match(text)
    if annotated:
        head = annotated.group("value").rstrip(" ,;:-")
        inner = _parse_text(head)
        note = annotated.group("note").strip()
        if inner is None and len(head.split()) <= 3:
            return ParsedValue("text", head, note=note)  # "anxious (work deadline)"
        if inner is not None:
            unit = canonical_unit(note)
            if unit and inner.unit is None and inner.number is not None:
                return replace(inner, text=text, unit=unit)
            return replace(inner, text=text, note=note)
    return ParsedValue("text", text)


_ONES = (
    "one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
SPELLED_NUMBERS: dict[str, float] = {
    **{w: float(i) for i, w in enumerate(_ONES, 1)},
    **{w: float(10 * i) for i, w in enumerate(_TENS, 2)},
    **{
        f"{t}{sep}{o}": float(10 * i + j)
        for i, t in enumerate(_TENS, 2)
        for j, o in enumerate(_ONES[:9], 1)
        for sep in (" ", "-")
    },
    "a": 1.0,
    "an": 1.0,
    "a couple of": 2.0,
    "half an": 0.5,
    "half a": 0.5,
}
"""Counts as people write them in words, for quantities ("an hour and a half")."""
_SPELLED_WORD = "|".join(
    re.escape(w) for w in sorted(SPELLED_NUMBERS, key=len, reverse=True)
)
_FRACTION_WORDS = {"a half": 0.5, "a quarter": 0.25, "three quarters": 0.75}
_SPELLED_QUANTITY_RE = re.compile(
    rf"(?<![\w.,])(?P<n>{_SPELLED_WORD})"
    r"(?:\s+and\s+(?P<f1>a\s+half|a\s+quarter|three\s+quarters))?"
    r"\s+(?P<u>[a-z]{1,12})"
    r"(?:\s+and\s+(?P<f2>a\s+half|a\s+quarter))?(?![\w])",
    re.IGNORECASE,
)
_RATE_BEFORE_RE = re.compile(
    r"(?:\d|[€$£%]|\b(?:per|once|twice|times|every|each)\b)\s*$", re.IGNORECASE
)


def spelled_quantities(text: str) -> list[tuple[int, int, float, str]]:
    """Quantities written in words: (start, end, number, unit).

    "an hour and a half" is 1.5 h, "half an hour" 0.5 h, "twenty-five minutes"
    25 min, "two and a half litres" 2.5 L. "a"/"an" after a number, a currency
    or "per", "once", "twice" is a rate's ("€20 an hour", "twice a week"), no
    quantity.
    """
    out = []
    for m in _SPELLED_QUANTITY_RE.finditer(text):
        unit = spelled_unit(m.group("u").lower())
        if unit is None:
            continue
        word = " ".join(m.group("n").lower().split())
        if word in ("a", "an") and _RATE_BEFORE_RE.search(text[: m.start()]):
            continue
        if m.group("f1") and m.group("f2"):
            continue
        number = SPELLED_NUMBERS[word]
        for frac in (m.group("f1"), m.group("f2")):
            if frac:
                number += _FRACTION_WORDS[" ".join(frac.lower().split())]
        out.append((m.start(), m.end(), number, unit))
    return out
