"""The prose reader: "label value" runs and "value label" phrases.

"Weight 178.6 lb BMI 24.2", "walked 8k steps", "1.2 h of deep sleep": items
with no ":" or "=" between a label and its value, in comma- or
"and"-separated lists.
"""

from __future__ import annotations

import re

from langgraph_adamm.analytic.extraction.labels import (
    DATE_WORDS,
    VALUE_START_RE,
    is_value,
    longest_value_end,
    pick_label,
    valid_label,
)
from langgraph_adamm.analytic.values import (
    canonical_unit,
    parse_value,
)

_COUNTED = frozenset({"steps", "pts", "reps"})
"""Units that name what they count: "9.4k steps" is a value of ``steps``."""
_COUNT_VERBS = frozenset("hit did made ran got done took scored".split())
# A comma followed by a digit is part of a number (12,345 or 6,8), not a break.
_SEGMENT_SPLIT_RE = re.compile(r",(?!\d)\s*|\s+and\s+|\s+&\s+|\s+\+\s+")
_BOOLEAN_WORD_RE = re.compile(r"^(?:yes|no|true|false|[✓✔✗✘])[.,!]?$", re.IGNORECASE)
_FILLERS = frozenset("only just about around nearly almost over total".split())


def _chain(segment: str) -> list[tuple[str, str, int, int]]:
    """Pairs read from label-value runs, with their start and end offsets.

    "Weight 178.6 lb BMI 24.2 Body Fat 21.5%" is three pairs; words after a
    value that are not followed by another value are ignored ("120-135 bpm
    during the climb").
    """
    words = list(re.finditer(r"\S+", segment))
    out: list[tuple[str, str, int, int]] = []
    if words and VALUE_START_RE.match(words[0].group()):
        return out  # a value first: "1 h 13 min deep sleep" (see _value_first)
    label_from = 0
    i = 0
    while i < len(words):
        if i > label_from and (
            VALUE_START_RE.match(words[i].group())
            or _BOOLEAN_WORD_RE.match(words[i].group())
        ):
            end = longest_value_end(words, i, segment)
            if end is not None:
                before = [w.group() for w in words[label_from:i]]
                value = segment[words[i].start() : words[end - 1].end()]
                if before[-1].lower().strip(".,") in DATE_WORDS:
                    label = None  # "for Feb 03" is a date, not a field
                else:
                    label = pick_label(before)
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
    if not words or not VALUE_START_RE.match(words[0].group()):
        return None
    texts = [w.group().strip(".,!") for w in words]
    while len(texts) > 1 and texts[-1].lower() in DATE_WORDS:
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
            and not any(VALUE_START_RE.match(w) for w in rest)
            and valid_label(label)
            and is_value(value)
        ):
            return label, value, words[0].start(), words[len(texts) - 1].end()
    value = segment[words[0].start() : words[len(texts) - 1].end()]
    parsed = parse_value(value)
    if parsed.number is not None and parsed.unit in _COUNTED:
        return parsed.unit, value, words[0].start(), words[len(texts) - 1].end()
    return None


_MAY_HOLD_VALUE_RE = re.compile(
    r"\d|[$€£¥½¼¾]|USD|EUR|GBP|CHF|JPY|CAD|AUD|usd|eur|gbp|chf|jpy|cad|aud"
    r"|(?:^|(?<=\s))(?i:yes|no|true|false|[✓✔✗✘])[.,!]?(?=\s|$)"
)
"""What any word that starts a value (VALUE_START_RE) or is a yes/no holds:
text without it has no label-value item, and is not read word by word."""


def find_label_values(text: str, offset: int) -> list[tuple[str, str, tuple[int, int]]]:
    """Every "label value" item of a comma/"and"-separated list."""
    found: list[tuple[str, str, tuple[int, int]]] = []
    if not _MAY_HOLD_VALUE_RE.search(text):
        return found
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
