"""What the rule readers take for a field label, a value, a name or a date.

The word lists and tests every reader of the rule extractor shares: whether
text reads as a label (:func:`valid_label`) or as one value (:func:`is_value`),
which words before a value are its label (:func:`pick_label`), whether a value
is a name with a number in it (:func:`is_name`), and where a value ends.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from langgraph_adamm.analytic.values import (
    canonical_unit,
    parse_value,
)

STOPWORDS = frozenset(
    """i you we he she they it my your our his her their me us him them was were
    is are am be been had have has did do does got get slept went said told think
    thanks thank please here there this that these those what which who how why
    when can could would should will let lets just so but if because also maybe
    hi hello hey ok okay sure well the showing shows reads says saying displays
    displaying""".split()
)
DATE_WORDS = frozenset(
    """jan january feb february mar march apr april may jun june jul july aug
    august sep sept september oct october nov november dec december mon monday
    tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday
    sun sunday week day today yesterday tonight morning evening night
    afternoon last this""".split()
)
MAX_VALUE = 120
DATE_TOKEN_RE = re.compile(
    r"\d{1,4}(?:[-/.]\d{1,2}(?:[-/.]\d{2,4})?)?(?:st|nd|rd|th)?[.,]?|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*[.,]?|"
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*[.,]?",
    re.IGNORECASE,
)
"""One word of a date ("12", "Mar", "2026-03-02", "03/07", "Monday,")."""
_AMPM_TIME_RE = re.compile(r"^\d{1,2}(?::\d{2})?\s*[ap]\.?m\.?$", re.IGNORECASE)
HEADING_WORD_RE = re.compile(
    r"\b(?:summary|dashboard|report|log|stats|statistics|results|numbers|data|"
    r"overview|update|snapshot|recap|details|metrics|today|receipt|entry|journal|"
    r"diary)\b",
    re.IGNORECASE,
)
"""A key that ends in one of these and is followed by another key with no value
between them is a heading ("Sleep summary: Total Sleep: 5.5 h")."""
HEADING_PREFIX_RE = re.compile(
    r"log|summary|dashboard|report|stats|overview|update|recap|snapshot|entry|"
    r"numbers|journal|diary",
    re.IGNORECASE,
)
"""A heading word inside a key ends the heading: "sleep log total_sleep"."""
VALUE_START_RE = re.compile(
    r"^[-+−~≈]?(?:[$€£¥]|(?:US|C|A)\$)?\d|^(?:[$€£¥]|(?:US|C|A)\$)\s?\d?"
    r"|^(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|usd|eur|gbp|chf|jpy|cad|aud)(?:\s?[-+−]?\d|$)"
    r"|^[½¼¾]|^PT\d"
)

Pair = tuple[int, str, Any, tuple[int, int]]
"""(record within the text, label, raw value, span)."""


@lru_cache(maxsize=16384)
def valid_label(label: str) -> bool:
    """Whether text reads as a field label rather than a piece of a sentence."""
    words = re.findall(r"[^\W\d_]+'?[^\W\d_]*", label.lower())
    if not words or len(label.split()) > 6 or re.search(r"\d:\d|://", label):
        return False
    if re.search(r"\d\.\s|[!?]\s", label):
        return False  # a sentence break inside: "for April 9. fasting glucose"
    tokens = [t.strip("'.,!?\"") for t in re.split(r"[\s_]+", label.lower())]
    if len(tokens) > 1 and tokens[0] in _EDGE_WORDS - _OPENING_WORDS:
        return False
    return not any(t in STOPWORDS for t in tokens)


def is_value(text: str) -> bool:
    """Whether text reads as one non-text value (a quantity, duration, date...)."""
    text = text.strip().rstrip(".,")
    if not text or len(text) > MAX_VALUE:
        return False
    parsed = parse_value(text)
    if parsed.kind == "text" and _AMPM_TIME_RE.search(text):
        return True  # "10:45 PM" is a time of day, read whole
    return parsed.kind != "text" or parsed.unit is not None  # "120/80 mmHg"


_EDGE_WORDS = frozenset(
    """a an of for in on at to with from by about around after before than like only
    showing shows reads says said during per over under just nearly almost
    approx approximately roughly""".split()
)
"""Words a label neither starts nor ends with ("Time in range" keeps its "in")."""
_OPENING_WORDS = frozenset({"before", "after", "per"})
"""Edge words that may open a label that starts its field ("After lunch: 7.9",
"Per person: £21.60"), never one picked out of a longer run of words."""


def pick_label(words: list[str]) -> str | None:
    """The label among the words before a value: a valid suffix of them.

    A capitalised word after a lower-case one starts a label ("... showing Total
    sleep"); otherwise the longest valid suffix of at most four words is taken.
    """
    if not words:
        return None
    for i in range(len(words) - 2, -1, -1):
        if HEADING_PREFIX_RE.fullmatch(words[i].strip(":-")):
            words = words[i + 1 :]  # "sleep log total sleep" -> "total sleep"
            break
    candidates = []
    for start in range(max(0, len(words) - 4), len(words)):
        part = words[start:]
        opening = start == 0 and part[0].lower() in _OPENING_WORDS and len(part) > 1
        if (part[0].lower() in _EDGE_WORDS and not opening) or part[
            -1
        ].lower() in _EDGE_WORDS:
            continue
        if any(VALUE_START_RE.match(w) for w in part) or not part[0][:1].isalnum():
            continue
        label = " ".join(part).strip(" -–—:")
        if label and valid_label(label):
            candidates.append((start, label))
    if not candidates:
        return None
    for start, label in reversed(candidates):  # the closest boundary wins
        if start == 0 or not words[start - 1][:1].islower():
            continue
        rest = words[start:]
        title = words[start][:1].isupper() and words[start][1:2].islower()
        shouting = all(w.isupper() and len(w) > 1 for w in rest) and (
            len(rest) >= 2 or len(rest[0]) >= 3
        )
        if title or shouting:  # "... showing Total sleep", "... TOTAL SLEEP"
            return label
    return candidates[0][1]


_MEASURES = frozenset(
    """duration distance steps score weight time total pulse calories reps sets
    pages minutes hours length amount price count sleep rating""".split()
)
"""Field labels that a bare number after them measures: "Duration 20" is a
field, never a name."""
SOURCE_WORDS = frozenset({"from", "via", "by"})
"""Words of a lead that names where a record comes from ("Exported from Fit:")."""
_NAME_WORD = r"[^\W\d_][\w'’&.-]*"
_NAME_NUMBER_RE = re.compile(
    rf"^(?P<name>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s+(?:no\.?\s*|#\s?)?"
    r"\d{1,3}(?:-\d{1,4})?[A-Z]?(?P<rest>(?:\s+[^\W\d_][\w'’&.-]*){0,3})$"
)
_CODE_RE = re.compile(r"^(?=[A-Z]{0,3}\s?\d)[A-Z]{1,3}\s?\d{1,5}[A-Z]?$|^\d{1,4}[A-Z]$")


def is_name(value: str, after: str | None = None) -> bool:
    """Whether a text value is a name or a code with a number in it.

    "Roastery 9", "Studio 54", "iPhone 15", "Boeing 737-800", "Unit 4B", "B12",
    "UA 901", "23A": a name (a word with a capital) followed by a bare whole
    number, without decimals or a unit, and perhaps a few more words; or a
    short code of capitals and digits. Such a value belongs to its label
    ("Cafe: Roastery 9") and is no field of its own.

    ``after`` is the label item that comes before the value with no ":" or "="
    between them ("Venue - Studio 54"); then the name must be one word that
    does not repeat the label ("Morning readiness — Readiness score 78" is a
    field of its own).
    """
    value = value.strip()
    if _CODE_RE.match(value):
        return True
    match = _NAME_NUMBER_RE.match(value)
    if match is None or not any(c.isupper() for c in match.group("name")):
        return False
    name = match.group("name").lower().split()
    if name[0] in _MEASURES:
        return False  # "Meditation: Duration 8" is a heading and a field
    if after is not None and (len(name) > 1 or name[0] in after.lower().split()):
        return False
    rest = match.group("rest").split()
    return not rest or canonical_unit(rest[0].strip(".,")) is None


def is_when(text: str) -> bool:
    """Whether text only says when ("Last night", "Today", "Monday morning")."""
    words = re.findall(r"[a-z]+", text.lower())
    return bool(words) and all(w in DATE_WORDS for w in words)


def has_boundary(key: str, label: str) -> bool:
    """Whether ``label`` starts at a lower-case to capital boundary of ``key``."""
    words = key.split()
    n = len(label.split())
    return n < len(words) and words[-n - 1][:1].islower() and words[-n][:1].isupper()


def longest_value_end(words: list[re.Match[str]], i: int, segment: str) -> int | None:
    """The end (word index) of the longest value starting at word i, or None."""
    for j in range(min(len(words), i + 5), i, -1):
        text = segment[words[i].start() : words[j - 1].end()]
        if not is_value(text):
            continue
        last = words[j - 1].group()
        if j < len(words) and last[:1].isalpha() and canonical_unit(last) is None:
            if parse_value(text).unit == last.lower():
                continue  # "24.2 Body": an unknown word before more fields
        return j
    return None


@lru_cache(maxsize=4096)
def is_heading_key(key: str) -> bool:
    """Whether a key names a heading word ("Sleep summary", "ride log")."""
    return HEADING_WORD_RE.search(key) is not None
