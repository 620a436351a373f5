"""The key-value reader: ``label: value`` and ``key=value`` fields.

Where each key starts and its value ends in a clause of separated fields, and
the rewriting of other separators (full-width punctuation, arrows, spaced
dashes, pipes, aligned columns) into colons before the clause is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_adamm.analytic.extraction.labels import (
    DATE_TOKEN_RE,
    HEADING_PREFIX_RE,
    HEADING_WORD_RE,
    MAX_VALUE,
    SOURCE_WORDS,
    VALUE_START_RE,
    has_boundary,
    is_name,
    is_value,
    is_when,
    longest_value_end,
    pick_label,
    valid_label,
)
from langgraph_adamm.analytic.extraction.prose import find_label_values
from langgraph_adamm.analytic.values import parse_value

_WORD_RE = re.compile(r"\S+")
_BRACKETS_RE = re.compile(r"\s*[\(\[][^\)\]]*[\)\]]\s*$")


def separator_positions(clause: str) -> list[int]:
    """Where the ":" and "=" that separate a key from its value are."""
    seps: list[int] = []
    if ":" not in clause and "=" not in clause:
        return seps
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
        if is_value(value) and valid_label(key):
            return value, words[i].start()
    last = words[-1]
    if valid_label(last.group()) and last.group()[:1].isupper():
        return text[: last.start()].rstrip(), last.start()
    return None


def key_value_pairs(
    clause: str, offset: int
) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """``key: value`` / ``key = value`` pairs; a value runs to the next key."""
    seps = separator_positions(clause)
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
                        HEADING_WORD_RE.search(
                            _BRACKETS_RE.sub("", clause[key_starts[-1] : seps[n - 1]])
                        )
                        or not valid_label(clause[key_starts[-1] : seps[n - 1]].strip())
                        or is_when(clause[key_starts[-1] : seps[n - 1]])
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
        yield from find_label_values(clause[: key_starts[0]], offset)
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
            and not SOURCE_WORDS & set(key.lower().split()[:-1])
        )
        for i in range(len(key_words) - 2, -1, -1):
            if HEADING_PREFIX_RE.fullmatch(key_words[i].strip(":-")):
                # "sleep log total_sleep: 5.0 h" -> "total_sleep"
                rest_words = key_words[i + 1 :]
                while len(rest_words) > 1 and DATE_TOKEN_RE.fullmatch(rest_words[0]):
                    rest_words = rest_words[1:]  # "Mood journal 12 Mar Mood"
                key_starts[idx] = clause.rfind(rest_words[0], key_starts[idx], sep)
                key = " ".join(rest_words)
                break
        boundary = pick_label(key.split()) if len(key.split()) >= 3 else None
        if boundary is not None and boundary != key and has_boundary(key, boundary):
            key_starts[idx] = clause.rfind(boundary.split()[0], key_starts[idx], sep)
            key = boundary  # "sleep log TotalSleep" -> "TotalSleep"
        if key and not valid_label(key) and "://" not in key:
            # "Screenshot of the sleep screen showing TOTAL SLEEP: 7.0h"
            picked = pick_label(key.split())
            if picked is not None:
                key_starts[idx] = clause.rfind(picked.split()[0], key_starts[idx], sep)
                key = picked
        form_field = _FORM_KEY_RE.fullmatch(key) is not None and key_starts[idx] == 0
        if not key or not (valid_label(key) or form_field) or "://" in key:
            continue
        if not value or len(value) > MAX_VALUE:
            continue
        if not is_value(value) and VALUE_START_RE.match(value):
            spans = list(_WORD_RE.finditer(value))
            end = longest_value_end(spans, 0, value)
            if end is not None and end < len(spans):
                # "Total: $48.82 Paid with Visa", "Weight: 72 kg after breakfast":
                # the key keeps the value it starts with; the rest is read anew.
                cut = spans[end - 1].end()
                start = offset + key_starts[idx]
                at = clause.find(value, sep + 1)
                piece = value[:cut].rstrip(",;.")
                yield key, piece, (start, offset + at + len(piece))
                rest = value[cut:]
                yield from find_label_values(rest, offset + at + cut)
                continue
        if parse_value(value).kind == "text":
            head = re.split(r",(?!\d)\s*", value, maxsplit=1)
            if (
                len(head) == 2
                and head[0].strip()
                and not find_label_values(head[0], 0)
                and find_label_values(head[1], 0)
            ):
                # "Total sleep: 7 h 20 min, deep 1:12": the key's value, then more.
                yield (
                    key,
                    head[0],
                    (offset + key_starts[idx], offset + sep + 1 + len(head[0]) + 1),
                )
                rest_at = value.find(head[1], len(head[0]))
                yield from find_label_values(
                    head[1],
                    offset
                    + sep
                    + 1
                    + rest_at
                    + (len(clause[sep + 1 :]) - len(clause[sep + 1 :].lstrip())),
                )
                continue
            inner = find_label_values(value, offset + sep + 1)
            if inner and not (
                len(inner) == 1
                and as_written
                and (is_name(value) or _NUMBERED_THING_RE.fullmatch(value))
                and not HEADING_WORD_RE.search(key)
            ):
                # A heading over a list ("Sleep dashboard: Total sleep 6.5 h, ...").
                yield from inner
                continue
        yield key, value, (offset + key_starts[idx], offset + value_end)


_FORM_KEY_RE = re.compile(r"Who|What|Where|Which")
"""A form's field named by a question word ("Who: plumber", "Where: Galway"),
taken as a key where it opens its line though it is no label in prose."""
_NUMBERED_THING_RE = re.compile(r"[^\W\d_]+(?<![sS]) \d{1,4}")
"""A thing named by a number, the value of its key ("Property: flat 2",
"Room: room 4"); a plural before a count is a count ("Drills: squats 20")."""


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


def separators_as_colons(text: str) -> str:
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
            and pick_label(m.group("label").split()) is not None
            and not HEADING_WORD_RE.search(m.group("label"))
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
        (n, _ALIGNED_RE.match(ln))
        for n, ln in enumerate(lines)
        if not separator_positions(ln)
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
