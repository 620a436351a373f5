"""Date phrases in questions, resolved against the question's time ("now").

"last week", "in March", "from April 6 to April 12", "since the 5th" and ISO
dates all become one inclusive range of calendar days. Conventions (stated in
the README): weeks run Monday to Sunday; "last week" is the previous calendar
week and "the past week/month" the 7/30 days ending today; "this
week/month/year" runs from its start to today; "last/past N days" is the N days
ending today; a month or day without a year is its most recent occurrence not
after now; "since X" runs from X to today.
"""

from __future__ import annotations

import calendar
import difflib
import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MONTHS: dict[str, int] = {}
for _i, _name in enumerate(calendar.month_name):
    if _name:
        MONTHS[_name.lower()] = _i
        MONTHS[_name[:3].lower()] = _i
MONTHS["sept"] = 9

NUMBER_WORDS = {
    "a": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fourteen": 14,
    "thirty": 30,
}
"""Counts written as words ("the last three weeks", "the seven days before")."""
_MON = (
    r"(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
    r"(?![a-z])\.?"
)
_ORD = r"(?:st|nd|rd|th)?"
_ISO = r"\d{4}-\d{1,2}-\d{1,2}"
# One calendar day as people write it: ISO, "March 3(rd)( 2026)", "3(rd) (of) March".
_DAY = (
    rf"(?:{_ISO}"
    rf"|{_MON}\s+\d{{1,2}}{_ORD}(?:,?\s+\d{{4}})?"
    rf"|(?:the\s+)?\d{{1,2}}{_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?"
    rf"|the\s+\d{{1,2}}(?:st|nd|rd|th))"
)
_MONTH = rf"(?:{_MON}(?:\s+\d{{4}})?)"
_N = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"


PHRASE_PROBE_DAY = date(2026, 6, 30)
"""A "now" for reading where date phrases stand in a text, when only their
place matters and not the days they name."""


@dataclass(frozen=True)
class DateRange:
    """An inclusive range of calendar days, with the words it was read from."""

    start: date
    end: date
    text: str

    def filter_value(self) -> list[str]:
        """The ``between`` value for a time filter."""
        return [self.start.isoformat(), self.end.isoformat()]


def _year_for(month: int, day: int, today: date) -> int:
    """The year of the most recent (month, day) not after today."""
    year = today.year
    try:
        if date(year, month, day) > today:
            year -= 1
    except ValueError:
        pass
    return year


def _parse_day(text: str, today: date, *, anchor: date | None = None) -> date | None:
    """One day as written; ``anchor`` supplies a month for a bare "the 12th"."""
    t = text.strip().lower().rstrip(".,")
    t = re.sub(r"^the\s+", "", t)
    try:
        if re.fullmatch(_ISO, t):
            y, m, d = (int(x) for x in t.split("-"))
            return date(y, m, d)
        m1 = re.fullmatch(rf"({_MON})\s+(\d{{1,2}}){_ORD}(?:,?\s+(\d{{4}}))?", t)
        m2 = re.fullmatch(
            rf"(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MON})(?:,?\s+(\d{{4}}))?", t
        )
        if m1 or m2:
            if m1:
                mon, day_s, year_s = m1.group(1), m1.group(2), m1.group(3)
            else:
                assert m2 is not None
                day_s, mon, year_s = m2.group(1), m2.group(2), m2.group(3)
            month = _month_number(mon)
            if month is None:
                return None
            day = int(day_s)
            year = int(year_s) if year_s else _year_for(month, day, today)
            return date(year, month, day)
        m3 = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?", t)
        if m3:  # month/day, as the ISO order and US usage agree on
            month, day = int(m3.group(1)), int(m3.group(2))
            if m3.group(3):
                year = int(m3.group(3))
                year += 2000 if year < 100 else 0
            else:
                year = _year_for(month, day, today)
            return date(year, month, day)
        m4 = re.fullmatch(rf"(\d{{1,2}}){_ORD}", t)
        if m4:
            base = anchor or today
            day = int(m4.group(1))
            candidate = date(base.year, base.month, day)
            if anchor is None and candidate > today:
                prev = base.replace(day=1) - timedelta(days=1)
                candidate = date(prev.year, prev.month, day)
            return candidate
    except ValueError:
        return None
    return None


_MONTH_NAMES = [m.lower() for m in calendar.month_name if m]


def fix_month_spelling(text: str) -> str:
    """Month names as people mistype them ("febuary", "septmber") spelled right.

    Only words of five letters or more that are close to one month name (and
    to no other word the rules read) are changed.
    """
    return re.sub(r"[A-Za-z]{5,}", lambda m: _month_spelled(m.group(0)), text)


@functools.lru_cache(maxsize=4096)
def _month_spelled(word: str) -> str:
    low = word.lower()
    if low in MONTHS:
        return word
    close = difflib.get_close_matches(low, _MONTH_NAMES, n=1, cutoff=0.8)
    return close[0] if close else word


def _month_number(token: str) -> int | None:
    word = token.strip().lower().rstrip(".")
    if word in MONTHS:
        return MONTHS[word]
    return MONTHS.get(word[:3]) if len(word) >= 3 else None


def _month_range(text: str, today: date) -> tuple[date, date] | None:
    parts = text.strip().lower().split()
    month = _month_number(parts[0])
    if month is None:
        return None
    if len(parts) > 1:
        year = int(parts[1])
    else:
        year = today.year if month <= today.month else today.year - 1
    last = calendar.monthrange(year, month)[1]
    return date(year, month, 1), date(year, month, last)


def _count(token: str) -> int:
    return int(token) if token.isdigit() else NUMBER_WORDS[token]


def find_date_range(question: str, now: datetime | date) -> DateRange | None:
    """The date range a question names, or None.

    Args:
        question: The question text.
        now: The question's time; relative phrases resolve against it.
    """
    found = find_date_ranges(question, now, limit=1)
    return found[0] if found else None


def find_date_ranges(
    question: str, now: datetime | date, limit: int = 4
) -> list[DateRange]:
    """Every date range a question names ("in April than in March"), in text order.

    The rules are tried in priority order; a phrase that overlaps one already
    read is skipped, so "from March 3 to 12" is one range, not two.
    """
    today = now.date() if isinstance(now, datetime) else now
    q = question.lower()
    taken: list[tuple[int, int, DateRange]] = []
    for pattern, handler in _RULES:
        for match in re.finditer(pattern, q):
            if any(match.start() < e and s < match.end() for s, e, _ in taken):
                continue
            found = handler(match, today)
            if found is None:
                continue
            start, end = found
            if start > end:
                start, end = end, start
            text = question[match.start() : match.end()]
            taken.append((match.start(), match.end(), DateRange(start, end, text)))
            if limit == 1:
                return [taken[0][2]]
    taken.sort(key=lambda t: t[0])
    return [t[2] for t in taken[:limit]]


_PERIOD_CUE = re.compile(
    r"\b(?:in|during|over|throughout|since|around|for|at|from|after|before|until)\s+"
    r"(?:the\s+|my\s+|our\s+|this\s+|that\s+)?(?:[a-z'-]+\s+){0,3}?"
    r"(?:weekends?|fortnight|quarter|semester|term|season|spring|summer|autumn|"
    r"fall|winter|holidays?|vacation|christmas|easter|half|beginning|start|end|"
    r"middle|mid-[a-z]+|early\s+[a-z]+|late\s+[a-z]+|week\s+of|month\s+of)\b"
)
_MONTH_LEFT = re.compile(rf"(?<![\w-]){_MON}(?![\w-])")


def unread_period(text: str) -> str | None:
    """A period phrase left in a question after its date ranges were read, if any.

    Words that name a period ("over the holidays", "in early spring", a month
    name) that no rule resolved are reported, never ignored.
    """
    t = text.lower()
    m = _PERIOD_CUE.search(t)
    if m is not None:
        return text[m.start() : m.end()].strip()
    m = _MONTH_LEFT.search(t)
    if m is not None and not re.fullmatch(
        r"may|mar|jan|jun|jul|aug|oct|dec|sep", m.group(0)
    ):
        return text[m.start() : m.end()].strip()
    return None


def _between(match: re.Match[str], today: date) -> tuple[date, date] | None:
    a, b = match.group("a"), match.group("b")
    if re.fullmatch(rf"(?:the\s+)?\d{{1,2}}{_ORD}", a.strip()) and re.search(_MON, b):
        # "between the 3rd and the 17th of February": the month is said once
        second = _parse_day(b, today)
        if second is None:
            return None
        first = _parse_day(a, today, anchor=second)
        return (first, second) if first is not None else None
    first = _parse_day(a, today)
    if first is None:
        return None
    second = _parse_day(match.group("b"), today, anchor=first)
    if second is None:
        # "from March 3 to 12" / "March 3-12": the month carries over.
        bare = re.fullmatch(r"\d{1,2}", match.group("b").strip())
        if not bare:
            return None
        try:
            second = first.replace(day=int(match.group("b")))
        except ValueError:
            return None
    elif (
        second < first
        and second.year < first.year
        and not re.search(r"\d{4}", match.group("b"))
    ):
        # "from 1 April to 20 April" asked on 15 April: the second day is the
        # one after the first, not the most recent 20 April (a year earlier)
        try:
            second = second.replace(year=first.year)
        except ValueError:
            return None
    return first, second


def _day_span(match: re.Match[str], today: date) -> tuple[date, date] | None:
    """Two days of one month, in the month's year as "in March" reads it.

    "between" takes "and", "from" a "to", and a bare span a dash: "on 5 and
    20 March" names two days, no span. A span written backwards ("from 30 to
    2 April") is no span of one month.
    """
    pre, sep = match.group("pre"), match.group("sep")
    if (sep == "and") != (pre == "between") or (pre is None and sep not in "-–"):
        return None
    month = _month_range(match.group("m"), today)
    if month is None:
        return None
    first, second = (int(match.group(g).split()[-1]) for g in ("a", "b"))
    if not 1 <= first < second <= month[1].day:
        return None
    return month[0].replace(day=first), month[0].replace(day=second)


def _month_span(match: re.Match[str], today: date) -> tuple[date, date] | None:
    a = _month_range(match.group("a"), today)
    b = _month_range(match.group("b"), today)
    if a is None or b is None:
        return None
    return a[0], b[1]


def _month_list(match: re.Match[str], today: date) -> tuple[date, date] | None:
    """Months listed one after another: "across March, April and May" is their span.

    Only months that follow each other read as one span (a month between
    would be counted that the question left out); two joined by "or" are a
    choice between them, not a span.
    """
    names = re.findall(_MON, match.group(0))
    if len(names) < 2 or (match.group("join") == "or" and len(names) < 3):
        return None
    spans = [_month_range(n, today) for n in names]
    if any(r is None for r in spans):
        return None
    ranges = [r for r in spans if r is not None]
    for a, b in zip(ranges, ranges[1:], strict=False):
        if a[1] + timedelta(days=1) != b[0]:
            return None
    return ranges[0][0], ranges[-1][1]


def _since(match: re.Match[str], today: date) -> tuple[date, date] | None:
    day = _parse_day(match.group("a"), today)
    month = None if day else _month_range(match.group("a"), today)
    start = day or (month[0] if month else None)
    return (start, today) if start else None


def _before(match: re.Match[str], today: date) -> tuple[date, date] | None:
    day = _parse_day(match.group("a"), today)
    if day is None:
        return None
    end = day - timedelta(days=1) if match.group("op") == "before" else day
    return date(1, 1, 1), end


def _on_day(match: re.Match[str], today: date) -> tuple[date, date] | None:
    day = _parse_day(match.group("a"), today)
    return (day, day) if day else None


def _in_month(match: re.Match[str], today: date) -> tuple[date, date] | None:
    return _month_range(match.group("a"), today)


def _last_n(match: re.Match[str], today: date) -> tuple[date, date] | None:
    n = _count(match.group("n"))
    unit = match.group("unit")
    if unit.startswith("week"):
        days = 7 * n
    elif unit.startswith("month"):
        start = today
        for _ in range(n):
            start = (start.replace(day=1) - timedelta(days=1)).replace(day=1)
        start = start.replace(
            day=min(today.day, calendar.monthrange(start.year, start.month)[1])
        )
        return start + timedelta(days=1), today
    else:
        days = n
    return today - timedelta(days=days - 1), today


def _relative(match: re.Match[str], today: date) -> tuple[date, date] | None:
    which, unit = match.group("which"), match.group("unit")
    if which == "past" and unit in ("week", "month"):  # rolling: "the past week"
        days = 7 if unit == "week" else 30
        return today - timedelta(days=days - 1), today
    if unit == "week":
        monday = today - timedelta(days=today.weekday())
        if which in ("last", "previous", "past"):
            return monday - timedelta(days=7), monday - timedelta(days=1)
        return monday, today
    if unit == "month":
        first = today.replace(day=1)
        if which in ("last", "previous", "past"):
            prev_end = first - timedelta(days=1)
            return prev_end.replace(day=1), prev_end
        return first, today
    if unit == "year":
        if which in ("last", "previous", "past"):
            return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
        return date(today.year, 1, 1), today
    return None


def _named_day(match: re.Match[str], today: date) -> tuple[date, date] | None:
    word = match.group(0).strip()
    if word == "today":
        return today, today
    if word == "yesterday":
        day = today - timedelta(days=1)
        return day, day
    return None


_AFTER_WEEKDAY_OK = frozenset(
    "before after of just that when gone last morning night evening afternoon "
    "lunchtime and or i we".split()
)


def _weekday(match: re.Match[str], today: date) -> tuple[date, date] | None:
    before = match.string[: match.start()].split()[-1:]
    after = re.match(r"\s+([a-z]+)", match.string[match.end() :])
    if (
        before in (["the"], ["my"])
        and after is not None
        and after.group(1) not in _AFTER_WEEKDAY_OK
    ):
        return None  # "the Saturday market", "my Sunday roast": a name, no date
    target = [d.lower() for d in calendar.day_name].index(match.group("d"))
    back = (today.weekday() - target) % 7
    if match.group("last") and back == 0:
        back = 7
    day = today - timedelta(days=back)
    return day, day


def _half(match: re.Match[str], today: date) -> tuple[date, date] | None:
    month = _month_range(match.group("a"), today)
    if month is None:
        return None
    start, end = month
    part = match.group("part")
    if part in ("first", "1st"):
        return start, start.replace(day=15)
    return start.replace(day=16), end


def _part_of_month(match: re.Match[str], today: date) -> tuple[date, date] | None:
    month = _month_range(match.group("a"), today)
    if month is None:
        return None
    start, end = month
    part = match.group("part")
    if part in ("early", "beginning", "start"):
        return start, start.replace(day=10)
    if part in ("mid", "middle"):
        return start.replace(day=11), start.replace(day=20)
    return start.replace(day=21), end


def _since_mid(match: re.Match[str], today: date) -> tuple[date, date] | None:
    month = _month_range(match.group("a"), today)
    if month is None:
        return None
    part = match.group("part")
    day = {"early": 1, "beginning": 1, "start": 1, "mid": 15, "middle": 15}.get(
        part, 21
    )
    return month[0].replace(day=day), today


def _days_of_month(match: re.Match[str], today: date) -> tuple[date, date] | None:
    month = _month_range(match.group("a"), today)
    if month is None:
        return None
    n = _count(match.group("n"))
    start, end = month
    if n < 1 or n > end.day:
        return None
    if match.group("which") == "first":
        return start, start + timedelta(days=n - 1)
    return end - timedelta(days=n - 1), end


def _week_of(match: re.Match[str], today: date) -> tuple[date, date] | None:
    day = _parse_day(match.group("a"), today)
    if day is None:
        return None
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def _fortnight(match: re.Match[str], today: date) -> tuple[date, date] | None:
    return today - timedelta(days=13), today


def _days_ago(match: re.Match[str], today: date) -> tuple[date, date] | None:
    day = today - timedelta(days=_count(match.group("n")))
    return day, day


_B = r"(?<![\w-])"
_E = r"(?![\w-])"
_PART = r"(?P<part>early|beginning|start|mid|middle|late|end)"
_RULES = [
    (
        rf"{_B}(?:(?:in|across|over|during|for|throughout)\s+)?(?:the\s+months\s+)?"
        rf"{_MON}(?:\s*,\s*{_MON})*\s*,?\s+(?P<join>and|or|&)\s+{_MON}{_E}",
        _month_list,
    ),
    (
        rf"{_B}(?:(?:in|over|during|for|throughout)\s+)?the\s+(?P<part>first|1st|second|"
        rf"2nd|last)\s+half\s+of\s+(?P<a>{_MONTH}){_E}",
        _half,
    ),
    (
        rf"{_B}(?:(?:in|over|during|for)\s+)?the\s+(?P<which>first|last)\s+"
        rf"(?P<n>{_N[1:-1]})\s+days\s+of\s+(?P<a>{_MONTH}){_E}",
        _days_of_month,
    ),
    (
        rf"{_B}(?:since|from|starting)\s+(?:the\s+)?{_PART}(?:\s+of|-|\s)\s*"
        rf"(?P<a>{_MONTH}){_E}",
        _since_mid,
    ),
    (
        rf"{_B}(?:(?:in|during|over|at|for|around)\s+)?(?:the\s+)?{_PART}(?:\s+of|-|\s)"
        rf"\s*(?P<a>{_MONTH}){_E}",
        _part_of_month,
    ),
    (
        rf"{_B}(?:(?:in|during|over|for)\s+)?the\s+week\s+of\s+(?P<a>{_DAY}){_E}",
        _week_of,
    ),
    (
        rf"{_B}(?:(?:in|during|over|for)\s+)?(?:the\s+)?(?:last|past|previous)\s+"
        rf"fortnight{_E}",
        _fortnight,
    ),
    (rf"{_B}(?P<n>{_N[1:-1]})\s+days?\s+ago{_E}", _days_ago),
    (
        # "between 1 and 20 March", "from the 3rd to the 17th of May", "1-20
        # March": the month said once, after the second day
        rf"(?:{_B}(?P<pre>between|from)\s+|(?<![\w.,-]))(?P<a>(?:the\s+)?\d{{1,2}})"
        rf"{_ORD}\s*(?P<sep>and|to|until|till|through|-|–)\s*"
        rf"(?P<b>(?:the\s+)?\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m>{_MONTH}){_E}",
        _day_span,
    ),
    (
        rf"{_B}(?:between|from)\s+(?P<a>{_DAY})\s+(?:and|to|until|till|through|-)\s+"
        rf"(?P<b>{_DAY}|\d{{1,2}}){_E}",
        _between,
    ),
    (
        rf"{_B}(?P<a>{_MON}\s+\d{{1,2}}{_ORD})\s*(?:-|–|to)\s*(?P<b>\d{{1,2}}){_ORD}{_E}",
        _between,
    ),
    (
        rf"{_B}(?P<a>{_DAY})\s+(?:to|until|till|through|thru|-|–)\s+(?P<b>{_DAY}){_E}",
        _between,
    ),
    (
        rf"{_B}(?:between|from)\s+(?P<a>{_MONTH})\s+(?:and|to|until|through|-)\s+"
        rf"(?P<b>{_MONTH}){_E}",
        _month_span,
    ),
    (rf"{_B}(?:since|after|starting|from)\s+(?P<a>{_DAY}|{_MONTH}){_E}", _since),
    (rf"{_B}(?P<op>before|until|up to|through)\s+(?P<a>{_DAY}){_E}", _before),
    (
        rf"{_B}(?:in|over|during)\s+the\s+(?:last|past|previous)\s+(?P<n>{_N[1:-1]})\s+"
        rf"(?P<unit>days?|weeks?|months?){_E}",
        _last_n,
    ),
    (
        rf"{_B}(?:last|past|previous)\s+(?P<n>{_N[1:-1]})\s+(?P<unit>days?|weeks?|months?)"
        rf"{_E}",
        _last_n,
    ),
    (
        rf"{_B}(?P<which>last|this|previous|past|current)\s+(?P<unit>week|month|year)"
        rf"{_E}",
        _relative,
    ),
    (rf"{_B}(?:today|yesterday){_E}", _named_day),
    (
        rf"{_B}(?:on\s+)?(?P<last>last\s+)?(?P<d>monday|tuesday|wednesday|thursday|"
        rf"friday|saturday|sunday){_E}",
        _weekday,
    ),
    (rf"{_B}(?:on|for)\s+(?P<a>{_DAY}){_E}", _on_day),
    (rf"{_B}(?P<a>{_ISO}|{_MON}\s+\d{{1,2}}{_ORD}(?:,?\s+\d{{4}})?){_E}", _on_day),
    (rf"{_B}(?:in|during|for|of|throughout|over)\s+(?P<a>{_MONTH}){_E}", _in_month),
    (rf"{_B}(?P<a>{_MON}\s+\d{{4}}){_E}", _in_month),
    # "March: what did I ...": a month, written in full, heading the question
    (
        r"^\s*(?P<a>january|february|march|april|may|june|july|august|september|"
        r"october|november|december)\s*:",
        _in_month,
    ),
]
