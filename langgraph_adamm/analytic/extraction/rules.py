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
from typing import Any

from langgraph_adamm.analytic.extraction.base import (
    Observation,
    Provenance,
    SourceKind,
    SyncExtractorMixin,
    make_observation,
)
from langgraph_adamm.analytic.values import canonical_unit, parse_value
from langgraph_adamm.history import Round

_STOPWORDS = frozenset(
    """i you we he she they it my your our his her their me us him them was were
    is are am be been had have has did do does got get slept went said told think
    thanks thank please here there this that these those what which who how why
    when can could would should will let lets just so but if because also maybe
    hi hello hey ok okay sure well""".split()
)
_DATE_WORDS = frozenset(
    """jan january feb february mar march apr april may jun june jul july aug
    august sep sept september oct october nov november dec december mon monday
    tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday
    sun sunday week day today yesterday tonight morning evening night
    afternoon""".split()
)
_MAX_VALUE = 120
_COUNTED = frozenset({"steps", "pts", "reps"})
"""Units that name what they count: "9.4k steps" is a value of ``steps``."""
_COUNT_VERBS = frozenset("hit did made ran got done took scored".split())
# A period ends a sentence, but not after an abbreviation ("Mar. 3", "approx. 7").
_ABBREVIATIONS = "".join(
    f"(?<!{re.escape(a)})"
    for a in (
        "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec approx ca vs e.g i.e "
        "no No Dr Mr Mrs Ms St est"
    ).split()
)
# Where one item ends and the next begins. A spaced dash only between words
# (never inside "60 - 65"); list markers only before a letter.
_ITEM_SPLIT_RE = re.compile(
    r"[;\n|•·▪◦●]|\t"
    r"|(?<=[A-Za-z%)])\s+[-–—]\s+(?=[A-Za-z])"
    r"|\s[–—]\s"
    r"|(?:^|(?<=\n))\s*[-*+]\s+(?=[A-Za-z])"
    r"|[!?](?=\s)"
    rf"|(?<=[^\d\s]){_ABBREVIATIONS}\.(?=\s)"
    r"|(?<=\d)\.(?=\s+[A-Z])"
)
_NUMBERED_RE = re.compile(r"(?:^|(?<=\s))(\d{1,2})[.)]\s+(?=[A-Za-z])")
# A comma followed by a digit is part of a number (12,345 or 6,8), not a break.
_SEGMENT_SPLIT_RE = re.compile(r",(?!\d)\s*|\s+and\s+|\s+&\s+|\s+\+\s+")
_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_VALUE_START_RE = re.compile(r"^[-+−~≈]?[$€£¥]?\d|^[$€£¥]\s?\d|^(?:USD|EUR|GBP)\s?\d")

Pair = tuple[int, str, Any, tuple[int, int]]
"""(record within the text, label, raw value, span)."""


def valid_label(label: str) -> bool:
    """Whether text reads as a field label rather than a piece of a sentence."""
    words = re.findall(r"[^\W\d_]+'?[^\W\d_]*", label.lower())
    if not words or len(label.split()) > 6 or re.search(r"\d:\d|://", label):
        return False
    return not any(w.strip("'") in _STOPWORDS for w in words)


def _is_value(text: str) -> bool:
    """Whether text reads as one non-text value (a quantity, duration, date...)."""
    text = text.strip().rstrip(".,")
    if not text or len(text) > _MAX_VALUE:
        return False
    return parse_value(text).kind != "text"


def _label_value(segment: str) -> tuple[str, str, int] | None:
    """("label", "value", offset of the label) for "label N unit" or "N unit label".

    The value must be a whole non-text value; a label ending in a month or a
    weekday with a number after it is a date ("for Feb 03"), not a field.
    """
    text = segment.rstrip(" .")
    lead = len(text) - len(text.lstrip())
    text = text.strip()
    words = text.split()
    if len(words) < 2:
        return None
    for i in range(1, min(len(words), 7)):  # label first
        if _VALUE_START_RE.match(words[0]):
            break
        if _VALUE_START_RE.match(words[i]):
            label, value = " ".join(words[:i]), " ".join(words[i:])
            if words[i - 1].lower().strip(".,") in _DATE_WORDS:
                return None
            if valid_label(label) and _is_value(value):
                counted = parse_value(value).unit
                if (
                    counted in _COUNTED
                    and len(words[:i]) == 1
                    and (label.lower().endswith("ed") or label.lower() in _COUNT_VERBS)
                ):
                    return counted, value, lead  # "walked 8k steps"
                return label, value, lead
            break
    if _VALUE_START_RE.match(words[0]):  # value first: "1.2 h of deep sleep"
        for j in range(len(words) - 1, 0, -1):
            value = " ".join(words[:j])
            rest = words[j:]
            if rest and rest[0].lower() == "of":
                rest = rest[1:]
            while rest and rest[-1].lower().strip(".,!") in _DATE_WORDS:
                rest = rest[:-1]  # "8k steps today"
            label = " ".join(rest)
            if (
                rest
                and valid_label(label)
                and canonical_unit(label) is None
                and _is_value(value)
            ):
                return label, value, lead + text.find(rest[0], len(value))
        while len(words) > 1 and words[-1].lower().strip(".,!") in _DATE_WORDS:
            words = words[:-1]
        parsed = parse_value(" ".join(words))
        if parsed.number is not None and parsed.unit in _COUNTED:
            return parsed.unit, " ".join(words), lead  # "9.4k steps today"
    return None


def _find_label_values(
    text: str, offset: int
) -> list[tuple[str, str, tuple[int, int]]]:
    """Every "label value" item of a comma/"and"-separated list."""
    found = []
    pos = 0
    for piece in _SEGMENT_SPLIT_RE.split(text):
        start = text.find(piece, pos)
        pos = start + len(piece)
        pair = _label_value(piece)
        if pair:
            found.append((pair[0], pair[1], (offset + start, offset + pos)))
    return found


def _separators(clause: str) -> list[int]:
    seps = []
    for i, ch in enumerate(clause):
        if ch not in ":=":
            continue
        before = clause[i - 1] if i else ""
        after = clause[i + 1] if i + 1 < len(clause) else ""
        if before.isdigit() and after.isdigit():
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
        elif n > 0 and not (comma_style and valid_label(clause[prev_end:sep].strip())):
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
    for idx, sep in enumerate(seps):
        key = clause[key_starts[idx] : sep].strip()
        value_end = value_ends[idx + 1] if idx + 1 < len(seps) else len(clause)
        value = clause[sep + 1 : value_end].strip().rstrip(",.").strip()
        if not key or not valid_label(key) or "://" in key:
            continue
        if not value or len(value) > _MAX_VALUE:
            continue
        if parse_value(value).kind == "text":
            head = _SEGMENT_SPLIT_RE.split(value, maxsplit=1)
            if len(head) == 2 and _is_value(head[0]):
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
            if inner:
                # A heading over a list ("Sleep dashboard: Total sleep 6.5 h, ...").
                yield from inner
                continue
        yield key, value, (offset + key_starts[idx], offset + value_end)


def _flatten(obj: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in obj.items():
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


def _items(text: str) -> list[tuple[int, str]]:
    """The text cut into items, each with its offset.

    Numbered list markers count only in sequence ("1) ... 2) ..."), so that a
    value followed by a sentence ("Opponents 3. Game: Catan") keeps its number.
    """
    cuts = [
        (m.start(), m.end())
        for m in _ITEM_SPLIT_RE.finditer(text)
        if m.end() > m.start()
    ]
    expected = None
    for m in _NUMBERED_RE.finditer(text):
        n = int(m.group(1))
        at_line_start = m.start() == 0 or text[: m.start()].rstrip(" \t").endswith("\n")
        if n == expected or (n == 1 and (at_line_start or expected is None)):
            cuts.append((m.start(), m.end()))
            expected = n + 1
    cuts.sort()
    items = []
    pos = 0
    for start, end in cuts:
        if start < pos:
            continue
        items.append((pos, text[pos:start]))
        pos = end
    items.append((pos, text[pos:]))
    return items


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
        for first, last, table_records in _tables(lines):
            span = (line_starts[first], line_starts[last - 1] + len(lines[last - 1]))
            for row in table_records:
                rec_no = record if len(table_records) > 1 else 0
                pairs.extend((rec_no, k, v, span) for k, v in row)
                record += 1 if len(table_records) > 1 else 0
            mask(*span)
        rest = "".join(masked)
        clauses = _items(rest)
        for offset, clause in clauses:
            if not clause.strip():
                continue
            kv = list(_key_value_pairs(clause, offset))
            if kv:
                pairs.extend((0, k, v, s) for k, v, s in kv)
            else:
                pairs.extend(
                    (0, k, v, s) for k, v, s in _find_label_values(clause, offset)
                )
        if source == "ocr":
            pairs.extend((0, k, v, s) for k, v, s in _stacked_pairs(lines, line_starts))
        seen: set[tuple[int, str]] = set()
        out = []
        for rec_no, key, value, span in pairs:
            obs = make_observation(
                str(key), value, Provenance(round_id, source, image_id, span, rec_no)
            )
            if obs and (rec_no, obs.attribute) not in seen:
                seen.add((rec_no, obs.attribute))
                out.append(obs)
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
