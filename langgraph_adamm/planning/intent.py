"""What an analytic question asks for, read from its words alone (no tables).

:func:`read_intent` finds the operator ("average", "longest", "how many"), the
date range, value conditions ("over 10 km"), the unit asked in and whether a
value, a date or a column is the answer. Mapping the intent onto the planning
context's tables is the rule planner's (:mod:`.rules`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from langgraph_adamm.analytic.units import CURRENCIES, dimension, spelled_unit
from langgraph_adamm.analytic.values import (
    canonical_unit,
    parse_value,
)
from langgraph_adamm.planning.dates import (
    NUMBER_WORDS,
    DateRange,
    find_date_range,
    fix_month_spelling,
)
from langgraph_adamm.planning.text import STOPWORDS

Answer = Literal["value", "date", "column"]

_OPERATOR_WORDS: list[tuple[str, str]] = [
    (
        "change",
        r"\b(?:change[ds]?|changing|difference|differ|delta|increased?|decreased?|"
        r"drop(?:ped)?|went\s+(?:up|down)|go(?:ne)?\s+(?:up|down)|improved?|"
        r"progress(?:ed)?|compared?\s+to)\b",
    ),
    (
        "avg",
        r"\b(?:averag(?:e|ed|es|ing)|avg|mean|typical(?:ly)?|on\s+average|"
        r"per\s+(?:day|night))\b",
    ),
    ("median", r"\bmedian\b"),
    (
        "count",
        r"\b(?:how\s+many|number\s+of|how\s+often|count\s+(?:of|the|all|my)|"
        r"times)\b|^count\b",
    ),
    (
        "sum",
        r"\b(?:total|sum|altogether|in\s+all|combined|overall|cumulative)\b",
    ),
    (
        "latest",
        r"\b(?:latest|most\s+recent(?:ly)?|last|current(?:ly)?|recent|now|lately|"
        r"newest|today'?s)\b",
    ),
    ("first", r"\b(?:first|earliest|initial|oldest|starting)\b"),
    (
        "max",
        r"\b(?:highest|max|maximum|most|longest|biggest|largest|best|top|peak|"
        r"greatest|heaviest|furthest|farthest|fastest|record|priciest)\b",
    ),
    (
        "min",
        r"\b(?:lowest|min|minimum|least|shortest|smallest|worst|fewest|lightest|"
        r"cheapest|slowest)\b",
    ),
    ("sum", r"\bhow\s+much\b"),
]
_OPERATOR_RES = [(op, re.compile(p)) for op, p in _OPERATOR_WORDS]
_WHICH_RE = re.compile(
    r"\b(?:which|what)\s+(?:(?:was|were|is)\s+the\s+)?"
    r"(?:(?:kind|type|sort)\s+of\s+)?([a-z]+)\b(?!')"
)
_DAY_WITH_RE = re.compile(
    r"\b(?:day|date|night|morning|evening)\s+(?:with|of|when|that|did|had|was)\b"
)
WHEN_RE = re.compile(r"\bwhen\b|\bwhat\s+time\b")
_VALUE_ASKED_RE = re.compile(
    r"\bwhat(?:\s+(?:was|is|were|are)|'s)\s+(?:my|the|our)\s+(?:[a-z]+est|most|"
    r"least|top|best|worst|max\w*|min\w*)\b"
)
""""What was my longest night of sleep": the value is asked, though a day word
follows ("night of")."""
_TEXT_ASKED_RE = re.compile(
    r"^\s*(?P<wh>where|who)\b|\b(?:which|what)\s+(?P<noun>[a-z]+)\s+"
    r"(?:did|do|have|had|was|were|is|i|we)\b|\bwhat\s+(?:was|were|is)\s+"
    r"(?:the|my)\s+(?:first|last|latest|most\s+recent)\s+(?:[a-z]+\s+)?"
    r"(?P<noun2>[a-z]+)\s+(?:i|we)\b"
)
"""A first or last record's text asked for ("which cafe did I ...")."""
_WH_NOUN = {"where": "place", "who": "person"}
_NOT_TEXT_NOUNS = frozenset(
    "day date time week month year night morning evening first last latest "
    "kind type sort amount number value".split()
)
_DATE_WORDS = frozenset({"day", "date", "night", "morning", "evening", "week", "time"})
_CONDITION_OPS: list[tuple[str, str]] = [
    (
        ">=",
        r"(?:at\s+least|no\s+less\s+than|not\s+less\s+than|minimum\s+of|>=|≥|"
        r"hit|hits|reached|reach)",
    ),
    ("<=", r"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|<=|≤)"),
    (
        ">",
        r"(?:more\s+than|greater\s+than|over|above|longer\s+than|higher\s+than|"
        r"bigger\s+than|larger\s+than|exceeding|beyond|>)",
    ),
    (
        "<",
        r"(?:less\s+than|fewer\s+than|under|below|shorter\s+than|lower\s+than|"
        r"smaller\s+than|<)",
    ),
    ("=", r"(?:exactly|equal\s+to)"),
]
_NUM = r"[$€£]?\s?-?\d[\d,]*(?:\.\d+)?(?:\s?k\b)?\s*(?:%|[$€£]|[a-z]+(?:/[a-z]+)?)?"
_WORD_NUMBERS = {**{k: v for k, v in NUMBER_WORDS.items() if k != "a"}, "an": 1}
_WORD_NUM = (
    r"(?:" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")\s+[a-z]+"
)
"""A count written as a word and what it counts ("four hours", "an hour"): a
condition's value only where a unit follows (see :func:`_conditions`)."""
_PREFIX_COND = re.compile(
    r"(?P<op>"
    + "|".join(f"(?:{p})" for _, p in _CONDITION_OPS)
    + rf")\s+(?P<val>{_NUM}|\b{_WORD_NUM}\b)"
)
_SUFFIX_COND = re.compile(
    rf"(?P<val>{_NUM})\s*(?P<op>or\s+(?:more|above|higher|longer|greater|over|"
    r"less|fewer|below|lower|under|shorter)|plus|\+(?![\d.]))"
)
_IN_UNIT_RE = re.compile(r"\bin\s+([a-z%$€£]+)\b")


@dataclass(frozen=True)
class Condition:
    """A value condition read from the question ("more than 10 km")."""

    op: str
    number: float
    unit: str | None
    text: str


@dataclass(frozen=True)
class Intent:
    """What a question asks, before it is mapped onto any table."""

    operator: str | None
    answer: Answer
    date_range: DateRange | None
    conditions: tuple[Condition, ...]
    which_word: str | None
    output_unit: str | None
    text: str
    """The question, lower-cased, without its date phrase and value conditions."""
    operators: tuple[tuple[str, str], ...] = ()
    """Every operator the words suggest, most likely first, with the words."""
    count_noun: str | None = None
    """What "how many"/"number of" counts ("days", "runs", "steps")."""
    now: datetime | None = None
    """The question's time: a range that ends today ends at it."""
    question: str = ""
    """The question, lower-cased, with its date phrase (a value may hold it)."""


def unit_of(word: str) -> str | None:
    """The canonical unit a question word names ("km", "$", "percent"), or None."""
    unit = canonical_unit(word)
    if unit is None and word in ("$", "dollars", "dollar", "usd", "bucks"):
        return "USD"
    if unit is None and word in ("%", "percent", "pct"):
        return "%"
    return unit


def _conditions(rest: str) -> list[Condition]:
    found: list[Condition] = []
    for regex in (_PREFIX_COND, _SUFFIX_COND):
        for m in regex.finditer(rest):
            raw = m.group("val").strip()
            text = m.group(0)
            tail = re.search(r"\s+([a-z]+)$", raw)
            if tail and tail.group(1) in STOPWORDS:  # "over $25 at ..." is no unit
                raw = raw[: tail.start()]
                text = (
                    text[: text.rfind(tail.group(0))] if regex is _PREFIX_COND else text
                )
            spelled = raw.split(maxsplit=1)
            if spelled[0] in _WORD_NUMBERS:
                # "longer than four hours": a count in words, then its unit
                if len(spelled) < 2 or unit_of(spelled[1]) is None:
                    continue
                raw = f"{_WORD_NUMBERS[spelled[0]]} {spelled[1]}"
            parsed = parse_value(re.sub(r"(\d)\s?k\b", r"\g<1>000", raw))
            if parsed.number is None:
                continue
            unit = parsed.unit
            if unit is not None and unit_of(unit) is not None:
                unit = unit_of(unit)
            found.append(
                Condition(_condition_op(m.group("op")), parsed.number, unit, text)
            )
    return found


def read_intent(question: str, now: datetime | date) -> Intent:
    """The operator, answer form, date range and conditions of a question."""
    q = " ".join(fix_month_spelling(question).lower().split())
    date_range = find_date_range(q, now)
    rest = q.replace(date_range.text.lower(), " ") if date_range else q
    conditions = _conditions(rest)
    for c in conditions:
        rest = rest.replace(c.text, " ")
    found: list[tuple[str, str]] = []
    for op, regex in _OPERATOR_RES:
        m = regex.search(rest)
        if m is not None:
            found.append((op, m.group(0)))
    if found and found[0][0] == "latest" and not re.search(r"\bmost\s+recent", rest):
        if re.search(r"\bfirst\b.*\blast\b", rest):  # "from the first to the last"
            found.insert(0, ("change", "first ... last"))
    count_noun = None
    count_at = next((i for i, (op, _) in enumerate(found) if op == "count"), None)
    if count_at is not None:
        noun = re.search(
            r"\b(?:how\s+many|number\s+of|count\s+of)\s+([a-z]+(?:[\s-][a-z]+)?)", rest
        )
        count_noun = None
        if noun:  # "blood pressure readings": up to two words, stopwords dropped
            kept = [w for w in re.split(r"[\s-]", noun.group(1)) if w not in STOPWORDS]
            count_noun = " ".join(kept) or None
        first_word = count_noun.split()[0] if count_noun else ""
        if count_noun and unit_of(first_word) is not None and not conditions:
            # "how many hours/km": a quantity, not a number of records
            found.pop(count_at)
            if not any(
                op in ("avg", "median", "max", "min", "first", "latest")
                for op, _ in found
            ):
                found.insert(0, ("sum", first_word))
            count_noun = None
        else:  # "number of days with avg glucose below 150" counts records
            found.insert(0, found.pop(count_at))
    if (
        not found
        and date_range is not None
        and re.search(r"\bhow\s+(?:far|long|much\s+time)\b", rest)
    ):  # "how far did I run during the week of the 16th": the distance in all
        found.append(("sum", "how far"))
    if not found and date_range is not None and date_range.start != date_range.end:
        added = _added_amount(rest)
        if added is not None:  # "litres brewed in November": all of them
            found.append(("sum", added))
    if not found and re.search(r"\b(?:spen[dt]|paid|pay|cost)\b", rest):
        found.append(("sum", "spent"))  # "what did I spend on coffees": a total
    operator = found[0][0] if found else None
    which = None
    answer: Answer = "value"
    superlative = any(op in ("max", "min") for op, _ in found)
    which_match = _WHICH_RE.search(rest)
    if superlative and (
        WHEN_RE.search(rest)
        or (_DAY_WITH_RE.search(rest) and not _VALUE_ASKED_RE.search(rest))
        or (which_match and which_match.group(1) in _DATE_WORDS)
    ):
        answer = "date"
    elif (
        superlative
        and which_match
        and which_match.group(1) not in STOPWORDS
        # "what was the highest pulse": the superlative, no noun asked for
        and which_match.group(1) not in {word for _, word in found}
    ):
        answer, which = "column", which_match.group(1)
    elif operator in ("first", "latest"):
        # "which trail did I walk first after ...", "where did I order my last
        # takeaway": the text of the first or latest record, not a number
        asked = _TEXT_ASKED_RE.search(rest)
        if asked is not None:
            wh_word = asked.group("wh")
            named = asked.group("noun") or asked.group("noun2")
            if wh_word is not None:
                answer, which = "column", _WH_NOUN[wh_word]
            elif named not in STOPWORDS and named not in _NOT_TEXT_NOUNS:
                answer, which = "column", named
    out_unit = None
    for m in _IN_UNIT_RE.finditer(rest):
        unit = unit_of(m.group(1))
        if unit is not None:
            out_unit = unit
    return Intent(
        operator,
        answer,
        date_range,
        tuple(conditions),
        which,
        out_unit,
        rest,
        tuple(found),
        count_noun,
        now if isinstance(now, datetime) else None,
        q,
    )


_BUCKET_WORDS = frozenset(
    "days nights weeks weekends months years mornings evenings".split()
)
_ADDED = frozenset({"[length]", "[length] ** 3", "[time]"})
"""Dimensions whose amounts over a period add up: distance, volume, time."""


def _added_amount(rest: str) -> str | None:
    """A unit named in the plural whose amounts add up ("litres", "hours").

    With a period and no operator word, "litres brewed in November" asks for
    all of them; a weight or a temperature ("kilos in March") does not add.
    """
    said = re.findall(r"[a-z]+", rest)  # "hours-wise": "hours"
    for i, word in enumerate(said):
        if len(word) < 4 or not word.endswith("s") or word in STOPWORDS:
            continue
        before = said[i - 1] if i else ""
        after = said[i + 1] if i + 1 < len(said) else ""
        if (
            word in _BUCKET_WORDS  # "which days in May"
            or "per" in (before, after)  # "minutes per km": a rate
            or before in ("in", "as", "which", "what")  # "in minutes": the unit
        ):
            continue
        unit = spelled_unit(word)
        if unit is not None and (unit in CURRENCIES or dimension(unit) in _ADDED):
            return word
    return None


def _condition_op(text: str) -> str:
    t = " ".join(text.split())
    if t.startswith("or ") or t in ("plus", "+"):
        more = re.search(r"more|above|higher|longer|greater|over|plus|\+", t)
        return ">=" if more else "<="
    for op, pattern in _CONDITION_OPS:
        if re.fullmatch(pattern, t):
            return op
    return "="
