"""When an event began, read from a round that mentions it later.

An event is told on its day, often without the word a question later uses for
it ("SumUp has been down since about 9"); its later mentions do use the word,
and date the start: "last Saturday's card machine meltdown", "a week on the new
tablet now", "day three of the strike", "second week of physio", "still sore
from last week's fall", "the new tablets make me drowsy". A search for the
event's phrase finds such a mention first, and anchoring on its day puts the
event days or weeks late.

:func:`dating` reads the phrase that dates the start from a round's text and
the round's time. It is either *exact* (a day: "last Saturday's", "yesterday",
"day three of", "five days into", "a week on") or a *window* of days the start
lies in ("second week of", "since last week", "still ... from"). A window is
no day: the caller looks for the telling among earlier rounds in it, and where
none is found the event is not anchored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from langgraph_adamm.history import parse_time as read_time
from langgraph_adamm.planning.dates import NUMBER_WORDS

_WEEKDAYS = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_COUNT = r"(\d{1,2}|" + "|".join(k for k in NUMBER_WORDS if k != "a") + r"|a|an)"
_ORDINAL = r"(\d{1,2}(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + ")"
_UNIT = r"(day|week|month)s?"
_B = r"(?<![\w-])"
_E = r"(?![\w-])"

# (pattern, reader): each reader maps a match and the round's day to a Dating.
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"{_B}the\s+day\s+before\s+yesterday{_E}", re.I), "before_yesterday"),
    (re.compile(rf"{_B}yesterday(?:'s)?{_E}", re.I), "yesterday"),
    (re.compile(rf"{_B}last\s+night(?:'s)?{_E}", re.I), "last_night"),
    (
        re.compile(
            rf"{_B}(?:last|this\s+past)\s+({'|'.join(_WEEKDAYS)})(?:'s)?{_E}", re.I
        ),
        "weekday",
    ),
    # "day three of the strike", "day 5 of", "week two of"
    (re.compile(rf"{_B}{_UNIT}\s+{_COUNT}\s+(?:of|since|after){_E}", re.I), "nth_unit"),
    # "the second week of physio", "my third day on"
    (
        re.compile(
            rf"{_B}{_ORDINAL}\s+{_UNIT}\s+(?:of|on|in|into|since|after){_E}(?!\s+a\s+row)",
            re.I,
        ),
        "nth",
    ),
    # "five days into", "a week on the new tablet", "two weeks since", "3 days after"
    (
        re.compile(
            rf"{_B}{_COUNT}\s+{_UNIT}\s+(?:in|into|on|since|after|out\s+from)"
            r"(?=\s+\w)(?!\s+a\s+row)",
            re.I,
        ),
        "elapsed",
    ),
    (re.compile(rf"{_B}{_COUNT}\s+{_UNIT}\s+ago{_E}", re.I), "ago"),
    (re.compile(rf"{_B}(?:since\s+)?last\s+week(?:'s)?{_E}", re.I), "last_week"),
    (re.compile(rf"{_B}still\s+\w+(?:\s+\w+)?\s+(?:from|after){_E}", re.I), "still"),
    # "the new evening tablets make me drowsy": begun some days before
    (re.compile(rf"{_B}(?:the|my|these|his|her|our)\s+new{_E}", re.I), "new"),
]
_DAY_OF_RE = re.compile(
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|just|finally|first)\b",
    re.I,
)
"""Words of a telling on the day: "my new bike arrived today" dates nothing earlier."""
_NEW_DAYS = 30
"""How far back "the new ..." may reach for the start it refers to."""
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30}
_FROM_EVENT = frozenset({"nth_unit", "nth", "elapsed", "ago"})


@dataclass(frozen=True)
class Dating:
    """When an event began, as a later mention of it dates it."""

    phrase: str
    """The words that date it, as the round wrote them."""
    first: date
    """The earliest day it may have begun."""
    last: date
    """The latest day; ``first == last`` is an exact day."""
    kind: str = ""
    """Which phrase dated it: ``elapsed`` ("two days on from"), ``nth_unit``
    ("day three of"), ``yesterday``, ``new`` ... (see ``_PATTERNS``)."""

    @property
    def counts_from_event(self) -> bool:
        """Whether it counts days from an event to one day.

        "A week since the storm", "day three of the strike"; not a plain
        "yesterday" or "the new ...".
        """
        return self.exact and self.kind in _FROM_EVENT

    @property
    def exact(self) -> bool:
        """Whether it dates one day."""
        return self.first == self.last


def _count(token: str) -> int:
    token = token.lower()
    if token in ("a", "an"):
        return 1
    if token in NUMBER_WORDS:
        return NUMBER_WORDS[token]
    if token in _ORDINALS:
        return _ORDINALS[token]
    digits = re.match(r"\d+", token)
    return int(digits.group()) if digits else 0


def _read(kind: str, m: re.Match[str], when: datetime) -> tuple[date, date] | None:
    day = when.date()
    if kind == "before_yesterday":
        return day - timedelta(days=2), day - timedelta(days=2)
    if kind == "yesterday":
        return day - timedelta(days=1), day - timedelta(days=1)
    if kind == "last_night":
        # told in the morning: the night before; late in the day: this evening
        shift = 1 if when.hour < 14 else 0
        return day - timedelta(days=shift), day - timedelta(days=shift)
    if kind == "weekday":
        back = (day.weekday() - _WEEKDAYS.index(m.group(1).lower())) % 7 or 7
        return day - timedelta(days=back), day - timedelta(days=back)
    if kind in ("nth_unit", "nth"):
        unit, n = (
            (m.group(1), m.group(2)) if kind == "nth_unit" else (m.group(2), m.group(1))
        )
        count, size = _count(n), _UNIT_DAYS[unit.lower()]
        if not 1 <= count <= 60:
            return None
        if size == 1:  # "day three of": it began two days before
            start = day - timedelta(days=count - 1)
            return start, start
        # "week two of": begun between 7 and 13 days before
        return day - timedelta(days=size * count - 1), day - timedelta(
            days=size * (count - 1)
        )
    if kind in ("elapsed", "ago"):
        count, size = _count(m.group(1)), _UNIT_DAYS[m.group(2).lower()]
        if not 1 <= count <= 60:
            return None
        start = day - timedelta(days=count * size)
        if size == 30:  # "a month into": a month is no exact count of days
            return start - timedelta(days=3), start + timedelta(days=3)
        return start, start
    if kind == "last_week":
        monday = day - timedelta(days=day.weekday())
        return monday - timedelta(days=7), monday - timedelta(days=1)
    if kind == "still":
        return day - timedelta(days=14), day - timedelta(days=1)
    if kind == "new":
        return day - timedelta(days=_NEW_DAYS), day - timedelta(days=1)
    return None


def dating(text: str, when: datetime | None) -> Dating | None:
    """The start a round's text dates, or None where it dates nothing.

    The first dating phrase in the text counts; a round that dates nothing is
    taken to tell the event on its own day.
    """
    if when is None or not text:
        return None
    found: list[tuple[int, str, re.Match[str]]] = []
    for pattern, kind in _PATTERNS:
        m = pattern.search(text)
        if m and not (kind == "new" and _DAY_OF_RE.search(text)):
            found.append((m.start(), kind, m))
    for _, kind, m in sorted(found, key=lambda f: f[0]):
        span = _read(kind, m, when)
        if span is not None:
            return Dating(" ".join(m.group(0).split()), span[0], span[1], kind)
    return None


def parse_time(value: object) -> datetime | None:
    """A unit's time as a datetime (units carry ISO strings); None if none.

    The history's own reading of times (:func:`langgraph_adamm.history.parse_time`),
    with no time for what it cannot read.
    """
    if isinstance(value, datetime):
        return value
    try:
        return read_time(str(value))
    except ValueError:
        return None


__all__ = ["Dating", "dating", "parse_time"]
