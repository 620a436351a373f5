"""An offline extractor that needs no model: labelled values only.

It reads the structure people and apps give labelled values, whatever the
record: ``label: value`` / ``label = value`` / ``label value`` / ``value
label`` items, separated by commas, semicolons, pipes, bullets, middle dots,
dashes, list markers ("1)", "2.", "-", "•") or new lines, under an optional
heading ("Sleep dashboard - Total sleep 7.1 h"); space-separated ``key=value``
runs; JSON objects and arrays of objects; markdown or pipe tables (a table of
several rows is several records); OCR that stacks a label over its value. The
value itself (units, locales, ranges, durations, annotations) is read by
:func:`~langgraph_adamm.analytic.values.parse_value`.

It does not guess at free prose ("slept badly, maybe six hours"); that is the
LLM extractor's job.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from langgraph_adamm.analytic.extraction.base import (
    Observation,
    Provenance,
    SourceKind,
    SyncExtractorMixin,
    make_observation,
)
from langgraph_adamm.analytic.units import CURRENCIES
from langgraph_adamm.analytic.values import (
    canonical_unit,
    normalize_attribute,
    parse_value,
)
from langgraph_adamm.history import Round

_STOPWORDS = frozenset(
    """i you we he she they it my your our his her their me us him them was were
    is are am be been had have has did do does got get slept went said told think
    thanks thank please here there this that these those what which who how why
    when can could would should will let lets just so but if because also maybe
    hi hello hey ok okay sure well the showing shows reads says saying displays
    displaying""".split()
)
_DATE_WORDS = frozenset(
    """jan january feb february mar march apr april may jun june jul july aug
    august sep sept september oct october nov november dec december mon monday
    tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday
    sun sunday week day today yesterday tonight morning evening night
    afternoon last this""".split()
)
_MAX_VALUE = 120
_DATE_TOKEN_RE = re.compile(
    r"\d{1,4}(?:[-/.]\d{1,2}(?:[-/.]\d{2,4})?)?(?:st|nd|rd|th)?[.,]?|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*[.,]?|"
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*[.,]?",
    re.IGNORECASE,
)
"""One word of a date ("12", "Mar", "2026-03-02", "03/07", "Monday,")."""
_DATE_VALUE_RE = re.compile(
    rf"^(?:{_DATE_TOKEN_RE.pattern})(?:\s+(?:{_DATE_TOKEN_RE.pattern})){{0,2}}$",
    re.IGNORECASE,
)
_WORD_RE = re.compile(r"\S+")
_AMPM_TIME_RE = re.compile(r"^\d{1,2}(?::\d{2})?\s*[ap]\.?m\.?$", re.IGNORECASE)
_MISSING = frozenset({"", "-", "–", "—", "n/a", "na", "none", "null", "nil", "?"})
_COUNTED = frozenset({"steps", "pts", "reps"})
"""Units that name what they count: "9.4k steps" is a value of ``steps``."""
_COUNT_VERBS = frozenset("hit did made ran got done took scored".split())
# A period ends a sentence, but not after an abbreviation ("Mar. 3", "approx. 7").
_ABBREVIATIONS = "".join(
    f"(?<!{re.escape(a)})"
    for a in (
        "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec approx ca vs e.g i.e "
        "Dr Mr Mrs Ms St est Avg avg Max max Temp temp incl Incl"
    ).split()
)
# Where one item ends and the next begins. A spaced dash only between words
# (never inside "60 - 65"); list markers only before a letter.
_ITEM_SPLIT_RE = re.compile(
    r"[;\n|•·▪◦●]|\t|[\U0001F000-\U0001FAFF\u2600-\u26FF\u2B00-\u2BFF](?![^(]*\))"
    r"|(?<=\S)\s\*\s+(?=[A-Za-z])"
    r"|(?<=[\w%)$€£¥])\s+[-–—]\s+(?=[A-Za-z])"
    r"|\s[–—]\s|(?<=\w)[–—](?=[A-Za-z])"
    r"|(?:^|(?<=\n))\s*[-*+]\s+(?=[A-Za-z])"
    r"|[!?](?=\s)|\s/\s(?![-+−~≈$€£¥]?\d)"
    rf"|(?<=[^\d\s]){_ABBREVIATIONS}\.(?=\s)"
    r"|(?<=\d)\.(?=\s+[A-Z])"
)
_BULLET_RE = re.compile(r"[-*+•▪◦●]")
_BRACKETS_RE = re.compile(r"\s*[\(\[][^\)\]]*[\)\]]\s*$")
_QUESTION_RE = re.compile(
    r"(?<=[A-Za-z])\?\s(?=(?:yes|no|true|false|y|n)\b|[✓✔✗✘]|\d)", re.IGNORECASE
)
_HEADING_WORD_RE = re.compile(
    r"\b(?:summary|dashboard|report|log|stats|statistics|results|numbers|data|"
    r"overview|update|snapshot|recap|details|metrics|today|receipt|entry|journal|"
    r"diary)\b",
    re.IGNORECASE,
)
"""A key that ends in one of these and is followed by another key with no value
between them is a heading ("Sleep summary: Total Sleep: 5.5 h")."""
_HEADING_PREFIX_RE = re.compile(
    r"log|summary|dashboard|report|stats|overview|update|recap|snapshot|entry|"
    r"numbers|journal|diary",
    re.IGNORECASE,
)
"""A heading word inside a key ends the heading: "sleep log total_sleep"."""
_NUMBERED_RE = re.compile(
    r"(?:^|(?<=\s))(?P<n>\d{1,2}|[a-hA-H])(?:[.)]\s*|\s+[-–]\s+)(?=[A-Za-z])"
)
# A comma followed by a digit is part of a number (12,345 or 6,8), not a break.
_SEGMENT_SPLIT_RE = re.compile(r",(?!\d)\s*|\s+and\s+|\s+&\s+|\s+\+\s+")
_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_BOOLEAN_WORD_RE = re.compile(r"^(?:yes|no|true|false|[✓✔✗✘])[.,!]?$", re.IGNORECASE)
_VALUE_START_RE = re.compile(
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
    return not any(t in _STOPWORDS for t in tokens)


def _is_value(text: str) -> bool:
    """Whether text reads as one non-text value (a quantity, duration, date...)."""
    text = text.strip().rstrip(".,")
    if not text or len(text) > _MAX_VALUE:
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
_FILLERS = frozenset("only just about around nearly almost over total".split())
_OPENING_WORDS = frozenset({"before", "after", "per"})
"""Edge words that may open a label that starts its field ("After lunch: 7.9",
"Per person: £21.60"), never one picked out of a longer run of words."""


def _pick_label(words: list[str]) -> str | None:
    """The label among the words before a value: a valid suffix of them.

    A capitalised word after a lower-case one starts a label ("... showing Total
    sleep"); otherwise the longest valid suffix of at most four words is taken.
    """
    if not words:
        return None
    for i in range(len(words) - 2, -1, -1):
        if _HEADING_PREFIX_RE.fullmatch(words[i].strip(":-")):
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
        if any(_VALUE_START_RE.match(w) for w in part) or not part[0][:1].isalnum():
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
_SOURCE_WORDS = frozenset({"from", "via", "by"})
"""Words of a lead that names where a record comes from ("Exported from Fit:")."""
_NAME_WORD = r"[^\W\d_][\w'’&.-]*"
_NAME_NUMBER_RE = re.compile(
    rf"^(?P<name>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s+(?:no\.?\s*|#\s?)?"
    r"\d{1,3}(?:-\d{1,4})?[A-Z]?(?P<rest>(?:\s+[^\W\d_][\w'’&.-]*){0,3})$"
)
_CODE_RE = re.compile(r"^(?=[A-Z]{0,3}\s?\d)[A-Z]{1,3}\s?\d{1,5}[A-Z]?$|^\d{1,4}[A-Z]$")


def _is_name(value: str, after: str | None = None) -> bool:
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


def _is_when(text: str) -> bool:
    """Whether text only says when ("Last night", "Today", "Monday morning")."""
    words = re.findall(r"[a-z]+", text.lower())
    return bool(words) and all(w in _DATE_WORDS for w in words)


def _has_boundary(key: str, label: str) -> bool:
    """Whether ``label`` starts at a lower-case to capital boundary of ``key``."""
    words = key.split()
    n = len(label.split())
    return n < len(words) and words[-n - 1][:1].islower() and words[-n][:1].isupper()


def _value_end(words: list[re.Match[str]], i: int, segment: str) -> int | None:
    """The end (word index) of the longest value starting at word i, or None."""
    for j in range(min(len(words), i + 5), i, -1):
        text = segment[words[i].start() : words[j - 1].end()]
        if not _is_value(text):
            continue
        last = words[j - 1].group()
        if j < len(words) and last[:1].isalpha() and canonical_unit(last) is None:
            if parse_value(text).unit == last.lower():
                continue  # "24.2 Body": an unknown word before more fields
        return j
    return None


def _chain(segment: str) -> list[tuple[str, str, int, int]]:
    """Pairs read from label-value runs, with their start and end offsets.

    "Weight 178.6 lb BMI 24.2 Body Fat 21.5%" is three pairs; words after a
    value that are not followed by another value are ignored ("120-135 bpm
    during the climb").
    """
    words = list(re.finditer(r"\S+", segment))
    out: list[tuple[str, str, int, int]] = []
    if words and _VALUE_START_RE.match(words[0].group()):
        return out  # a value first: "1 h 13 min deep sleep" (see _value_first)
    label_from = 0
    i = 0
    while i < len(words):
        if i > label_from and (
            _VALUE_START_RE.match(words[i].group())
            or _BOOLEAN_WORD_RE.match(words[i].group())
        ):
            end = _value_end(words, i, segment)
            if end is not None:
                before = [w.group() for w in words[label_from:i]]
                value = segment[words[i].start() : words[end - 1].end()]
                if before[-1].lower().strip(".,") in _DATE_WORDS:
                    label = None  # "for Feb 03" is a date, not a field
                else:
                    label = _pick_label(before)
                if label is not None:
                    counted = parse_value(value).unit
                    if (
                        counted in _COUNTED
                        and len(label.split()) == 1
                        and (
                            label.lower().endswith("ed")
                            or label.lower() in _COUNT_VERBS | _FILLERS
                        )
                    ):
                        label = counted  # "walked 8k steps", "only 4.5k steps"
                    start = words[label_from + len(before) - len(label.split())]
                    out.append((label, value, start.start(), words[end - 1].end()))
                label_from = i = end
                continue
        i += 1
    return out


def _value_first(segment: str) -> tuple[str, str, int, int] | None:
    """Read "N unit label": "1.2 h of deep sleep", "9.4k steps today"."""
    words = list(re.finditer(r"\S+", segment))
    if not words or not _VALUE_START_RE.match(words[0].group()):
        return None
    texts = [w.group().strip(".,!") for w in words]
    while len(texts) > 1 and texts[-1].lower() in _DATE_WORDS:
        texts.pop()
    for j in range(1, len(texts)):  # the shortest value before a label
        value = segment[words[0].start() : words[j - 1].end()]
        rest = texts[j:]
        if rest and rest[0].lower() == "of":
            rest = rest[1:]
        label = " ".join(rest)
        if (
            rest
            and rest[0][:1].isalpha()
            and canonical_unit(rest[0]) is None
            and not any(_VALUE_START_RE.match(w) for w in rest)
            and valid_label(label)
            and _is_value(value)
        ):
            return label, value, words[0].start(), words[len(texts) - 1].end()
    value = segment[words[0].start() : words[len(texts) - 1].end()]
    parsed = parse_value(value)
    if parsed.number is not None and parsed.unit in _COUNTED:
        return parsed.unit, value, words[0].start(), words[len(texts) - 1].end()
    return None


def _find_label_values(
    text: str, offset: int
) -> list[tuple[str, str, tuple[int, int]]]:
    """Every "label value" item of a comma/"and"-separated list."""
    found: list[tuple[str, str, tuple[int, int]]] = []
    pos = 0
    for piece in _SEGMENT_SPLIT_RE.split(text):
        start = text.find(piece, pos)
        pos = start + len(piece)
        pairs = _chain(piece)
        if not pairs:
            first = _value_first(piece)
            pairs = [first] if first else []
        found.extend(
            (label, value, (offset + start + a, offset + start + b))
            for label, value, a, b in pairs
        )
    return found


def _label_value(segment: str) -> tuple[str, str, int] | None:
    """The first ("label", "value", offset) pair of a segment, if any."""
    pairs = _chain(segment)
    if pairs:
        return pairs[0][0], pairs[0][1], pairs[0][2]
    first = _value_first(segment)
    return (first[0], first[1], first[2]) if first else None


def _separators(clause: str) -> list[int]:
    seps = []
    for i, ch in enumerate(clause):
        if ch not in ":=":
            continue
        before = clause[i - 1] if i else ""
        after = clause[i + 1] if i + 1 < len(clause) else ""
        if ch == ":" and before.isdigit() and after.isdigit():
            continue  # a clock time, 7:45
        if clause[i + 1 : i + 3] == "//" or after in "=:" or before in "=<>!":
            continue
        seps.append(i)
    return seps


def _split_value_key(text: str, sep_char: str) -> tuple[str, int] | None:
    """Where the value ends and the next key starts, in "value key" text.

    ``key=value`` runs put the next key right after the value with a space
    ("total_sleep=7.2h deep_sleep=1.1h"); so do dashboards ("Total sleep: 7.1 h
    Deep sleep: 1.2 h"). The value is the shortest word prefix that reads as a
    value when what follows is a label; a text value keeps all but the last word.
    """
    words = list(re.finditer(r"\S+", text))
    if len(words) < 2:
        return None
    if sep_char == "=":
        last = words[-1]
        return text[: last.start()].rstrip(), last.start()
    for i in range(len(words) - 1, 0, -1):
        value = text[: words[i].start()].strip()
        key = text[words[i].start() :].strip()
        if _is_value(value) and valid_label(key):
            return value, words[i].start()
    last = words[-1]
    if valid_label(last.group()) and last.group()[:1].isupper():
        return text[: last.start()].rstrip(), last.start()
    return None


def _key_value_pairs(
    clause: str, offset: int
) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """``key: value`` / ``key = value`` pairs; a value runs to the next key."""
    seps = _separators(clause)
    if not seps:
        return
    key_starts: list[int] = []
    value_ends: list[int] = []
    comma_style = any(
        re.search(r",(?!\d)|\sand\s", clause[a + 1 : b])
        for a, b in zip(seps, seps[1:], strict=False)
    )
    prev_end = 0
    for n, sep in enumerate(seps):
        comma = clause.rfind(",", prev_end, sep)
        conj = clause.rfind(" and ", prev_end, sep)
        if comma != -1 and clause[comma + 1 : comma + 2].isdigit():
            comma = -1  # a decimal comma inside the previous value
        if conj > comma:
            key_starts.append(conj + 5)
            value_ends.append(conj)
        elif comma != -1:
            key_starts.append(comma + 1)
            value_ends.append(comma)
        elif n > 0 and not (
            (
                comma_style
                or clause[seps[n - 1]] != clause[sep]
                or (
                    clause[sep] == ":"
                    and (
                        _HEADING_WORD_RE.search(
                            _BRACKETS_RE.sub("", clause[key_starts[-1] : seps[n - 1]])
                        )
                        or not valid_label(clause[key_starts[-1] : seps[n - 1]].strip())
                        or _is_when(clause[key_starts[-1] : seps[n - 1]])
                    )
                )
            )
            and valid_label(clause[prev_end:sep].strip())
        ):
            # No comma before this key: in a clause whose other pairs are
            # comma-separated, the previous key was a heading ("Sleep numbers:
            # Resting HR: 56, ..."); otherwise the value runs up to this key.
            split = _split_value_key(clause[prev_end:sep], clause[sep])
            if split is None:
                key_starts.append(prev_end)
                value_ends.append(prev_end)
            else:
                key_starts.append(prev_end + split[1])
                value_ends.append(prev_end + len(split[0]) + 1)
        else:  # the first key, or a key right after a heading
            key_starts.append(prev_end)
            value_ends.append(prev_end)
        prev_end = sep + 1
    if (
        seps
        and clause[seps[0]] == "="
        and seps[0]
        and not clause[seps[0] - 1].isspace()
        and not valid_label(clause[: seps[0]].strip())
    ):
        # key=value style: the key is the shortest label before "=" ("Log this
        # purchase amount ($)=27.27" is "amount ($)").
        words = clause[: seps[0]].split()
        for n in range(1, min(len(words), 4) + 1):
            label = " ".join(words[-n:])
            if valid_label(label):
                key_starts[0] = clause.rfind(words[-n], 0, seps[0])
                break
    if key_starts and clause[: key_starts[0]].strip():
        # Items before the first key ("meditation done, duration 30 min, mood: ok").
        yield from _find_label_values(clause[: key_starts[0]], offset)
    for idx, sep in enumerate(seps):
        key = clause[key_starts[idx] : sep].strip()
        value_end = value_ends[idx + 1] if idx + 1 < len(seps) else len(clause)
        value = clause[sep + 1 : value_end].strip().rstrip(",.").strip()
        key_words = key.split()
        # A key that may take a name for its value: read whole, of at most two
        # words ("Cafe", "Left at"), no source ("Exported from Google Fit:
        # Steps 4231"); a longer one over "Duration 20" is a heading ("Insight
        # Timer screenshot").
        as_written = (
            valid_label(key)
            and len(key.split()) <= 2
            and not _SOURCE_WORDS & set(key.lower().split()[:-1])
        )
        for i in range(len(key_words) - 2, -1, -1):
            if _HEADING_PREFIX_RE.fullmatch(key_words[i].strip(":-")):
                # "sleep log total_sleep: 5.0 h" -> "total_sleep"
                rest_words = key_words[i + 1 :]
                while len(rest_words) > 1 and _DATE_TOKEN_RE.fullmatch(rest_words[0]):
                    rest_words = rest_words[1:]  # "Mood journal 12 Mar Mood"
                key_starts[idx] = clause.rfind(rest_words[0], key_starts[idx], sep)
                key = " ".join(rest_words)
                break
        boundary = _pick_label(key.split()) if len(key.split()) >= 3 else None
        if boundary is not None and boundary != key and _has_boundary(key, boundary):
            key_starts[idx] = clause.rfind(boundary.split()[0], key_starts[idx], sep)
            key = boundary  # "sleep log TotalSleep" -> "TotalSleep"
        if key and not valid_label(key) and "://" not in key:
            # "Screenshot of the sleep screen showing TOTAL SLEEP: 7.0h"
            picked = _pick_label(key.split())
            if picked is not None:
                key_starts[idx] = clause.rfind(picked.split()[0], key_starts[idx], sep)
                key = picked
        if not key or not valid_label(key) or "://" in key:
            continue
        if not value or len(value) > _MAX_VALUE:
            continue
        if not _is_value(value) and _VALUE_START_RE.match(value):
            spans = list(_WORD_RE.finditer(value))
            end = _value_end(spans, 0, value)
            if end is not None and end < len(spans):
                # "Total: $48.82 Paid with Visa", "Weight: 72 kg after breakfast":
                # the key keeps the value it starts with; the rest is read anew.
                cut = spans[end - 1].end()
                start = offset + key_starts[idx]
                at = clause.find(value, sep + 1)
                piece = value[:cut].rstrip(",;.")
                yield key, piece, (start, offset + at + len(piece))
                rest = value[cut:]
                yield from _find_label_values(rest, offset + at + cut)
                continue
        if parse_value(value).kind == "text":
            head = re.split(r",(?!\d)\s*", value, maxsplit=1)
            if (
                len(head) == 2
                and head[0].strip()
                and not _find_label_values(head[0], 0)
                and _find_label_values(head[1], 0)
            ):
                # "Total sleep: 7 h 20 min, deep 1:12": the key's value, then more.
                yield (
                    key,
                    head[0],
                    (offset + key_starts[idx], offset + sep + 1 + len(head[0]) + 1),
                )
                rest_at = value.find(head[1], len(head[0]))
                yield from _find_label_values(
                    head[1],
                    offset
                    + sep
                    + 1
                    + rest_at
                    + (len(clause[sep + 1 :]) - len(clause[sep + 1 :].lstrip())),
                )
                continue
            inner = _find_label_values(value, offset + sep + 1)
            if inner and not (
                len(inner) == 1
                and as_written
                and _is_name(value)
                and not _HEADING_WORD_RE.search(key)
            ):
                # A heading over a list ("Sleep dashboard: Total sleep 6.5 h, ...").
                yield from inner
                continue
        yield key, value, (offset + key_starts[idx], offset + value_end)


_VALUE_KEYS = ("value", "val", "amount", "qty", "quantity", "reading")
_UNIT_KEYS = ("unit", "units", "uom", "currency")
_NAME_KEYS = ("name", "metric", "type", "field", "key", "label", "test")


def _get(obj: dict[str, Any], keys: tuple[str, ...]) -> tuple[str, Any] | None:
    for k, v in obj.items():
        if isinstance(k, str) and k.lower() in keys:
            return k, v
    return None


def _quantity_object(obj: dict[str, Any]) -> tuple[str | None, str] | None:
    """A {"value": 81.4, "unit": "kg"} object (with a "name" for its label)."""
    value, unit = _get(obj, _VALUE_KEYS), _get(obj, _UNIT_KEYS)
    if value is None or isinstance(value[1], (dict, list, bool)) or value[1] is None:
        return None
    name = _get(obj, _NAME_KEYS)
    used = {value[0]} | ({unit[0]} if unit else set()) | ({name[0]} if name else set())
    if set(obj) - used or (unit is None and name is None):
        return None
    text = (
        f"{value[1]} {unit[1]}" if unit and isinstance(unit[1], str) else str(value[1])
    )
    label = name[1] if name and isinstance(name[1], str) else None
    return label, text


def _flatten(obj: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    quantity = _quantity_object(obj)
    if quantity is not None and (quantity[0] or prefix):
        yield (quantity[0] or prefix), quantity[1]
        return
    currency = _get(obj, ("currency",))
    code = currency[1] if currency and isinstance(currency[1], str) else None
    for key, value in obj.items():
        if code and isinstance(value, (int, float)) and not isinstance(value, bool):
            if re.search(
                r"amount|total|price|cost|paid|spent|fare|tip", str(key), re.I
            ):
                yield f"{prefix} {key}".strip(), f"{value} {code}"
                continue
        name = f"{prefix} {key}".strip()
        if isinstance(value, dict):
            yield from _flatten(value, name)
        elif isinstance(value, list):
            if value and all(not isinstance(v, (dict, list)) for v in value):
                yield name, ", ".join(str(v) for v in value)
        elif value is not None:
            yield name, value


def _json_values(text: str) -> Iterator[tuple[Any, int, int]]:
    """Top-level JSON objects and arrays embedded in text."""
    decoder = json.JSONDecoder()
    i = min((p for p in (text.find("{"), text.find("[")) if p != -1), default=-1)
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except (json.JSONDecodeError, RecursionError, ValueError):
            obj, end = None, i + 1
        if isinstance(obj, dict) or (
            isinstance(obj, list) and obj and all(isinstance(o, dict) for o in obj)
        ):
            yield obj, i, end
        else:
            end = i + 1
        nxt = [p for p in (text.find("{", end), text.find("[", end)) if p != -1]
        i = min(nxt) if nxt else -1


def _records_of(obj: Any) -> list[dict[str, Any]]:
    """A JSON value's records.

    The objects of an array, the array an object wraps (``{"records": [...]}``),
    or the object itself.
    """
    if isinstance(obj, list):
        return [o for o in obj if isinstance(o, dict)]
    lists = [v for v in obj.values() if isinstance(v, list) and v]
    scalars = [v for v in obj.values() if not isinstance(v, (dict, list))]
    if len(lists) == 1 and not scalars and all(isinstance(o, dict) for o in lists[0]):
        return list(lists[0])
    return [obj]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


_GENERIC_KEYS = frozenset(
    "metric metrics field item key name parameter measure stat test".split()
)
_GENERIC_VALUES = frozenset(
    "value values result results reading data measurement number figure".split()
)


def _tables(
    lines: list[str],
) -> Iterator[tuple[int, int, list[list[tuple[str, str]]]]]:
    """Pipe tables as records.

    A header over data rows is one record per row; key/value rows are one record.
    """
    i = 0
    while i < len(lines):
        if lines[i].count("|") < 2:
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].count("|") >= 2:
            j += 1
        block = [ln for ln in lines[i:j] if not _TABLE_SEP_RE.match(ln.strip())]
        has_header = len(block) < j - i
        rows = [_cells(ln) for ln in block]
        records: list[list[tuple[str, str]]] = []
        same_width = all(len(r) == len(rows[0]) for r in rows)
        header = [c.lower() for c in rows[0]] if rows else []
        labels = bool(rows) and all(
            valid_label(c) and not _is_value(c) for c in rows[0]
        )
        key_value = (
            same_width
            and len(header) == 2
            and (
                not has_header
                or header[0] in _GENERIC_KEYS
                or header[1] in _GENERIC_VALUES
            )
        )
        if key_value:
            body = rows[1:] if has_header else rows
            records = [[(r[0], r[1]) for r in body]]
        elif labels and same_width and len(rows) >= 2:
            records = [list(zip(rows[0], r, strict=True)) for r in rows[1:]]
        if records and len(rows) >= 2:
            yield i, j, records
        i = j


_DELIMITERS: tuple[re.Pattern[str], ...] = (
    re.compile(","),
    re.compile(";"),
    re.compile("\t"),
    re.compile(r" {2,}"),  # columns aligned with spaces
)


def _split_cells(line: str, delim: re.Pattern[str]) -> list[str]:
    if delim.pattern == r" {2,}":
        if "  " not in line:
            return [line]
        line = line.strip()
    elif delim.pattern not in line:
        return [line]
    return [c.strip().strip('"') for c in delim.split(line)]


def _delimited(
    lines: list[str],
) -> Iterator[tuple[int, int, list[list[tuple[str, str]]]]]:
    """CSV/TSV exports and space-aligned columns as records.

    A header of labels over rows; each row is one record.
    """
    i = 0
    while i < len(lines) - 1:
        found = None
        for delim in _DELIMITERS:
            width = len(_split_cells(lines[i], delim))
            if width < 2:
                continue
            j = i + 1
            while (
                j < len(lines)
                and lines[j].strip()
                and len(_split_cells(lines[j], delim)) == width
            ):
                j += 1
            header = _split_cells(lines[i], delim)
            if j - i >= 2 and all(
                c and valid_label(c) and not _is_value(c) for c in header
            ):
                rows = [_split_cells(ln, delim) for ln in lines[i + 1 : j]]
                if any(_is_value(c) for r in rows for c in r):
                    found = (j, [list(zip(header, r, strict=True)) for r in rows])
                    break
        if found:
            yield i, found[0], found[1]
            i = found[0]
        else:
            i += 1


_SEPARATOR_MARKS = re.compile("[|\t>→⇒：，；＝]|  | [-–—]")
"""Whether a text may hold one of the separators below (a cheap first test)."""
_WIDE_RE = re.compile("[：，；＝]")
_ARROW_ANY_RE = re.compile("->|=>|→|⇒")
_SPACED_DASH_RE = re.compile(r"\s[-–—]\s")
_PIPE_SPLIT_RE = re.compile(r"[\n;]|,(?!\d)")
_WIDE = str.maketrans({"：": ":", "，": ",", "；": ";", "＝": "="})
_ARROW_RE = re.compile(r"(?<=\S)(\s*)(?:->|=>|→|⇒)(?=\s*\S)")
_FIELD_SPLIT_RE = re.compile(r"[\n;|·•▪\t]|,(?!\d)")
_DASH_FIELD_RE = re.compile(r"^\s*(?P<label>[^\W\d][^:=\-–—]*?)\s+(?P<dash>[-–—])\s+\S")
_PIPE_FIELD_RE = re.compile(r"^\s*(?P<label>[^\W\d][^:=|]*?)\s*(?P<pipe>\|)\s*\S")
_ALIGNED_RE = re.compile(r"^\s*(?P<label>[^\W\d][^:=\t]*?\S)(?P<gap> {2,}|\t)(?=\S)")


def _separators_as_colons(text: str) -> str:
    """The text with label/value separators other than ":" and "=" made colons.

    The result has the same length, so spans still point into the original.
    Full-width punctuation, arrows ("Temp => 37.9 °C") and, where a text uses
    them for every field, spaced dashes ("Breakfast – oatmeal; Lunch – soup"),
    pipes inside comma-separated fields ("Distance | 12 km, Bike | gravel") and
    aligned columns ("Shop        Lidl" over "Amount      12.40") separate a
    label from its value. A dash or pipe that only some fields use stays a
    break between items (a heading, "Sleep dashboard – Total sleep 7.1 h").
    """
    if not _SEPARATOR_MARKS.search(text):
        return text  # plain ":" / "=" text, the common case
    if _WIDE_RE.search(text):
        text = text.translate(_WIDE)
    if _ARROW_ANY_RE.search(text):
        text = _ARROW_RE.sub(
            lambda m: m.group(1) + ": "[: len(m.group(0)) - len(m.group(1))], text
        )
    chars = list(text)
    rules = []
    if _SPACED_DASH_RE.search(text):
        rules.append((_DASH_FIELD_RE, "dash", _FIELD_SPLIT_RE))
    if "|" in text:
        rules.append((_PIPE_FIELD_RE, "pipe", _PIPE_SPLIT_RE))
    for pattern, group, splitter in rules:
        fields = []
        pos = 0
        for piece in splitter.split(text):
            start = text.find(piece, pos)
            pos = start + len(piece)
            if piece.strip():
                fields.append((start, piece))
        if len(fields) < 2:
            continue
        matches = [(start, pattern.match(piece)) for start, piece in fields]
        if all(
            m is not None
            and _pick_label(m.group("label").split()) is not None
            and not _HEADING_WORD_RE.search(m.group("label"))
            for _, m in matches
        ):
            for start, m in matches:
                assert m is not None
                chars[start + m.start(group)] = ":"
    if "  " in text or "\t" in text:
        _align(text, chars)
    return "".join(chars)


def _align(text: str, chars: list[str]) -> None:
    """Colons after the labels of aligned columns ("Shop        Lidl")."""
    lines = text.split("\n")
    aligned = [
        (n, _ALIGNED_RE.match(ln)) for n, ln in enumerate(lines) if not _separators(ln)
    ]
    hits = [(n, m) for n, m in aligned if m and valid_label(m.group("label"))]
    filled = [ln for ln in lines if ln.strip()]
    header = re.split(r" {2,}|\t", filled[0].strip()) if filled else []
    if len(hits) >= 2 and 2 * len(hits) >= len(filled) and len(header) <= 2:
        starts = [0]
        for ln in lines[:-1]:
            starts.append(starts[-1] + len(ln) + 1)
        for n, m in hits:
            chars[starts[n] + m.start("gap")] = ":"


Item = tuple[int, str, int]
"""(offset, text, list item): the number of the numbered list item the text
belongs to (0 outside numbered lists)."""


def _items(text: str) -> list[Item]:
    """The text cut into items, each with its offset and list item.

    Numbered list markers count only in sequence ("1) ... 2) ..."), so that a
    value followed by a sentence ("Opponents 3. Game: Catan") keeps its number.
    """
    cuts = [
        (m.start(), m.end(), bool(_BULLET_RE.search(m.group())))
        for m in _ITEM_SPLIT_RE.finditer(text)
        if m.end() > m.start()
    ]
    expected = None
    for m in _NUMBERED_RE.finditer(text):
        marker = m.group("n")
        n = int(marker) if marker.isdigit() else ord(marker.lower()) - ord("a") + 1
        if not marker.isdigit() and ")" not in m.group():
            continue  # only "a) ... b) ..." for letters
        at_line_start = m.start() == 0 or text[: m.start()].rstrip(" \t").endswith("\n")
        if (
            n == expected
            or at_line_start
            or n == 1
            or (expected is None and m.start() == 0)
        ):
            cuts.append((m.start(), m.end(), True))
            expected = n + 1
    cuts.sort()
    items: list[Item] = []
    pos = 0
    group = 0
    for start, end, numbered in cuts:
        if start < pos:
            continue
        items.append((pos, text[pos:start], group))
        pos = end
        if numbered:
            group += 1
    items.append((pos, text[pos:], group))
    return _pair_items(items, text)


def _pair_items(items: list[Item], text: str) -> list[Item]:
    """Join a bare label item to the bare value item after it.

    "Cooldown — 10 minutes", "Weight • 72.4 kg" and labels stacked over their
    values on separate lines are one item each: label, then value.
    """
    out: list[Item] = []
    i = 0
    while i < len(items):
        offset, item, group = items[i]
        label = item.strip().rstrip(":")
        if (
            i + 1 < len(items)
            and label
            and not any(_VALUE_START_RE.match(w) for w in label.split())
        ):
            nxt_offset, nxt, _ = items[i + 1]
            value = nxt.strip()
            if (
                valid_label(label.rstrip("?"))
                and not _separators(item)
                and (
                    (_VALUE_START_RE.match(value) and _is_value(value))
                    or parse_value(value).kind == "boolean"
                    or (
                        _is_name(value, after=label)
                        and not _HEADING_WORD_RE.search(label)
                        and not _separators(nxt)
                        and "." not in text[offset + len(item) : nxt_offset]
                    )
                )
            ):
                lead = len(nxt) - len(nxt.lstrip())
                gap = nxt_offset + lead - (offset + len(item))
                joined = item + " " * max(gap, 1) + value
                key = label.rstrip("?")
                out.append(
                    (
                        offset,
                        joined.replace(label, key + ":", 1) if gap >= 1 else joined,
                        group,
                    )
                )
                i += 2
                continue
        out.append((offset, item, group))
        i += 1
    return out


def _list_records(found: list[tuple[int, list[Pair]]], first: int) -> list[Pair]:
    """List items that are records of one kind become records.

    "1) Amount: $11.35, Merchant: Paper Lane" and "2) Amount: $79.42, Merchant:
    ..." on two lines (or two bullets) list two expenses: when two or more items
    each carry the same two or more labels, each item is a record; otherwise the
    list is one record.
    """
    groups: dict[int, list[Pair]] = {}
    for group, pairs in found:
        groups.setdefault(group, []).extend(pairs)
    keyed = {
        g: frozenset(normalize_attribute(str(p[1]))[0] for p in ps)
        for g, ps in groups.items()
        if g > 0 and ps
    }
    shapes = [k for k in keyed.values() if len(k) >= 2]
    if len(shapes) >= 2 and len(set(shapes)) == 1 and len(shapes) == len(keyed):
        out: list[Pair] = []
        number = first
        for g in sorted(groups):
            if g in keyed:
                out.extend((number, k, v, s) for _, k, v, s in groups[g])
                number += 1
            else:
                out.extend(groups[g])
        return out
    return [p for _, ps in found for p in ps]


class RuleExtractor(SyncExtractorMixin):
    """Extracts explicit attribute-value pairs from every text a round carries."""

    def extract(self, round_: Round) -> list[Observation]:
        """Observations from dialogue, captions, OCR text and metadata.

        A round that lists several records (a JSON array, a table of several
        rows) yields one record number per record; record 0 is the round's own.
        """
        out: list[Observation] = []
        sources: list[tuple[SourceKind, str | None, str]] = [
            ("user", None, round_.user),
            ("assistant", None, round_.assistant),
        ]
        for img in round_.images:
            if img.caption:
                sources.append(("caption", img.image_id, img.caption))
            if img.ocr:
                sources.append(("ocr", img.image_id, img.ocr))
        next_record = 1
        for source, image_id, text in sources:
            if text and text.strip():
                found = self.extract_text(
                    text, round_.round_id, source, image_id, first_record=next_record
                )
                out.extend(found)
                next_record = (
                    max([next_record - 1, *(o.provenance.record for o in found)]) + 1
                )
        for key, value in _flatten(round_.metadata):
            obs = make_observation(key, value, Provenance(round_.round_id, "metadata"))
            if obs:
                out.append(obs)
        return out

    def extract_text(
        self,
        text: str,
        round_id: str,
        source: SourceKind,
        image_id: str | None = None,
        *,
        first_record: int = 1,
    ) -> list[Observation]:
        """Observations from one text; each attribute once per record (first wins).

        Records listed in the text (JSON arrays, tables of several rows) are
        numbered from ``first_record``; everything else is record 0.
        """
        pairs: list[Pair] = []
        masked = list(text)
        record = first_record

        def mask(start: int, end: int) -> None:
            masked[start:end] = " " * (end - start)

        for obj, start, end in list(_json_values(text)):
            recs = _records_of(obj)
            for rec in recs:
                rec_no = record if len(recs) > 1 else 0
                pairs.extend((rec_no, k, v, (start, end)) for k, v in _flatten(rec))
                record += 1 if len(recs) > 1 else 0
            mask(start, end)
        lines = "".join(masked).split("\n")
        line_starts = [0]
        for ln in lines[:-1]:
            line_starts.append(line_starts[-1] + len(ln) + 1)
        blocks = list(_tables(lines))
        taken = {n for first, last, _ in blocks for n in range(first, last)}
        blocks += [
            b
            for b in _delimited(lines)
            if not any(n in taken for n in range(b[0], b[1]))
        ]
        for first, last, table_records in blocks:
            span = (line_starts[first], line_starts[last - 1] + len(lines[last - 1]))
            for row in table_records:
                rec_no = record if len(table_records) > 1 else 0
                pairs.extend((rec_no, k, v, span) for k, v in row)
                record += 1 if len(table_records) > 1 else 0
            mask(*span)
        # "Won? ✓" asks and answers: read it as "Won: ✓" (same length, so spans hold).
        rest = _separators_as_colons(_QUESTION_RE.sub(": ", "".join(masked)))
        found: list[tuple[int, list[Pair]]] = []
        for offset, clause, group in _items(rest):
            if not clause.strip():
                continue
            kv = list(_key_value_pairs(clause, offset))
            if not kv:
                kv = _find_label_values(clause, offset)
            found.append((group, [(0, k, v, s) for k, v, s in kv]))
        pairs.extend(_list_records(found, record))
        if source == "ocr":
            pairs.extend((0, k, v, s) for k, v, s in _stacked_pairs(lines, line_starts))
        if _MONEY_HINT_RE.search(text):
            pairs = _with_currency(pairs)
        seen: set[tuple[int, str]] = set()
        out = []
        for rec_no, key, value, span in pairs:
            if isinstance(value, str):
                value = value.strip()
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                    value = value[1:-1]
                if value.lower() in _MISSING:
                    continue
            if (
                isinstance(value, str)
                and _heading_key(str(key))
                and _DATE_VALUE_RE.match(value)
                and not value.strip().isdigit()
            ):
                continue  # "Piano practice log 2026-03-02": the record's date
            obs = make_observation(
                str(key), value, Provenance(round_id, source, image_id, span, rec_no)
            )
            if obs and (rec_no, obs.attribute) not in seen:
                seen.add((rec_no, obs.attribute))
                out.append(obs)
        return out


_MONEY_MARK_RE = re.compile(
    r"[$€£¥]|(?<![A-Za-z])(?:USD|EUR|GBP|JPY|CHF|CAD|AUD)(?![A-Za-z])", re.IGNORECASE
)
_MONEY_HINT_RE = re.compile(r"[$€£¥]|usd|eur|gbp|jpy|chf|cad|aud|cur|ccy", re.I)
"""Whether a text may state a currency (a cheap first test)."""
_CURRENCY_KEYS = frozenset({"currency", "ccy", "cur", "curr", "currency_code"})
_MONEY_KEY_RE = re.compile(
    r"total|subtotal|amount|sum|paid|balance|due|price|cost|fare", re.IGNORECASE
)
_CENTS_RE = re.compile(
    r"^[-+−]?\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})*[.,]\d{2}$|^[-+−]?\d+[.,]\d{2}$"
)


@lru_cache(maxsize=4096)
def _heading_key(key: str) -> bool:
    return _HEADING_WORD_RE.search(key) is not None


def _with_currency(pairs: list[Pair]) -> list[Pair]:
    """Amounts whose record states the currency once elsewhere get it.

    A currency column or field ("Amount;Currency" over "-42,17;EUR",
    "amount=12.40 currency=USD") is the unit of the record's bare amounts; a
    receipt that prints its currency once, at the total ("Milk 1.19 ... TOTAL
    EUR 7.53"), gives it to the line items written with cents. A record with
    two currencies, or none at a total, is left as it is.
    """
    by_record: dict[int, list[int]] = {}
    for n, (rec, _, _, _) in enumerate(pairs):
        by_record.setdefault(rec, []).append(n)
    out = list(pairs)
    for indexes in by_record.values():
        code = None
        stated: set[str] = set()
        at_total = False
        for n in indexes:
            _, key, value, _ = pairs[n]
            name = normalize_attribute(str(key))[0]
            if name in _CURRENCY_KEYS and isinstance(value, str):
                unit = canonical_unit(value.strip())
                code = unit if unit in CURRENCIES else code
                continue
            unit = parse_value(str(value)).unit
            if unit in CURRENCIES:
                stated.add(unit)
                at_total = at_total or bool(_MONEY_KEY_RE.search(name))
        if code is None and (len(stated) != 1 or not at_total):
            continue
        currency = code or next(iter(stated))
        for n in indexes:
            rec, key, value, span = pairs[n]
            if normalize_attribute(str(key))[0] in _CURRENCY_KEYS:
                continue
            text = str(value).strip()
            parsed = parse_value(text)
            if (
                parsed.number is None
                or parsed.unit is not None
                or parsed.kind
                in (
                    "date",
                    "clock",
                    "duration",
                )
            ):
                continue
            if code is not None or _CENTS_RE.match(text):
                out[n] = (rec, key, f"{text} {currency}", span)
    return out


def _stacked_pairs(
    lines: list[str], line_starts: list[int]
) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """OCR often reads a label and its value as two lines."""
    for i in range(len(lines) - 1):
        label, value = lines[i].strip(), lines[i + 1].strip()
        if (
            label
            and not any(ch.isdigit() for ch in label)
            and ":" not in label
            and valid_label(label)
            and _VALUE_START_RE.match(value)
            and _is_value(value)
        ):
            yield label, value, (line_starts[i], line_starts[i + 1] + len(lines[i + 1]))


_TITLE_RE = re.compile(r"""['"“‘]([^'"”’\n]{2,40})['"”’]""")
_HEADING_FILLERS = frozenset(
    """here's heres here is are your my daily today's todays the a an quick new
    latest this""".split()
)
_GENERIC_HEADINGS = frozenset(
    "log summary entry update numbers data stats statistics today record".split()
)
_HEADING_DATE_RE = re.compile(
    rf"\b(?:for|on|of|from)?\s*(?:{_DATE_TOKEN_RE.pattern})"
    rf"(?:\s+(?:{_DATE_TOKEN_RE.pattern}))*(?=\W|$)",
    re.IGNORECASE,
)


def heading_of(prefix: str) -> str | None:
    """The name a record gives itself in the text before its first field.

    "Daily glucose dashboard for Mar 11. " -> "glucose dashboard", "Ride log – "
    -> "ride log", "[Run] " -> "run", "Screenshot titled 'Sleep report'
    showing " -> "sleep report". None for no heading, a chat lead ("hey, quick
    log:", "Morning! Here are today's numbers —"), a source ("Exported from
    Google Fit:") or a generic word alone ("Log:").
    """
    text = prefix.strip()
    if not text:
        return None
    title = _TITLE_RE.search(text)
    if title:
        text = title.group(1)
    elif re.search(r"[!?]", text):
        return None
    text = _HEADING_DATE_RE.sub(" ", text)
    words = [
        w.lower()
        for w in re.findall(r"[^\W\d_][\w'’-]*", text)
        if w.lower() not in _HEADING_FILLERS
    ]
    if not words or len(words) > 4:
        return None
    if any(w in _STOPWORDS or w in _SOURCE_WORDS for w in words) or all(
        w in _DATE_WORDS for w in words
    ):
        return None  # a chat lead, a source, or only a when ("Last night:")
    if len(words) == 1 and words[0] in _GENERIC_HEADINGS:
        return None
    return " ".join(words)


def field_starts(observations: list[Observation]) -> dict[str, int]:
    """Where the first field of a round's own record starts, per text.

    Keys are "user", "assistant", "<image id>/caption" and "<image id>/ocr".
    """
    starts: dict[str, int] = {}
    for obs in observations:
        p = obs.provenance
        if p.record or p.span is None or p.source == "metadata":
            continue
        key = f"{p.image_id}/{p.source}" if p.image_id else p.source
        starts[key] = min(starts.get(key, p.span[0]), p.span[0])
    return starts


def record_heading(starts: dict[str, int], texts: dict[str, str]) -> str | None:
    """The heading of a round's own record: its first text before its first field.

    ``starts`` as :func:`field_starts` gives them; ``texts`` has the same keys.
    """
    images = sorted(k for k in starts if k not in ("user", "assistant"))
    for key in ("user", "assistant", *images):
        if key in starts and key in texts:
            return heading_of(texts[key][: starts[key]])
    return None
