"""An offline extractor that needs no model: explicit structure only.

It reads what people and dashboards write down explicitly: ``key: value`` and
``key = value`` pairs, JSON objects, simple pipe tables, "label number unit"
lists ("Total sleep 6.5 h, Deep sleep 1.2 h") and "number unit of label"
("1.2 h of deep sleep"). It does not guess at free prose; that is the LLM
extractor's job.
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

_LABEL = r"[A-Za-z][A-Za-z0-9 '&/_-]{0,40}?"
_NUM = r"[-+]?[$€£]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_UNIT = r"%|[A-Za-z$€£][A-Za-z/]{0,8}"
_QUANTITY = rf"{_NUM}\s*(?:{_UNIT})?(?:\s+\d+(?:\.\d+)?\s*(?:m|min|mins|minutes))?"
_LABEL_NUMBER_RE = re.compile(rf"^(?P<label>{_LABEL})\s+(?P<value>{_QUANTITY})$")
_NUMBER_OF_LABEL_RE = re.compile(
    rf"^(?P<value>{_QUANTITY})\s+of\s+(?P<label>{_LABEL})$"
)
# Clause breaks: separators, and sentence ends - but not the period of a month
# abbreviation ("Mar. 3, 2026").
_MONTH_ABBREVIATIONS = "".join(
    f"(?<!{m})"
    for m in (
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Sept",
        "Oct",
        "Nov",
        "Dec",
    )
)
_CLAUSE_SPLIT_RE = re.compile(
    r"[;\n|•·]|[!?](?=\s)"
    rf"|(?<=[^\d\s]){_MONTH_ABBREVIATIONS}\.(?=\s)|(?<=\d)\.(?=\s+[A-Z])"
)
# A comma followed by a digit is a thousands separator (12,345), not a list break.
_SEGMENT_SPLIT_RE = re.compile(r",(?!\d)\s*|\s+and\s+|\s+&\s+")
_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")


def valid_label(label: str) -> bool:
    """Whether text reads as a field label rather than a piece of a sentence."""
    words = re.findall(r"[^\W\d_]+'?[^\W\d_]*", label.lower())
    if not words or len(label.split()) > 6 or re.search(r"\d:\d|://", label):
        return False
    return not any(w.strip("'") in _STOPWORDS for w in words)


def _quantity_ok(value: str) -> bool:
    match = re.match(rf"^{_NUM}\s*(?P<unit>{_UNIT})?", value)
    unit = match.group("unit") if match else None
    return unit is None or canonical_unit(unit) is not None


def _label_numbers(segment: str) -> tuple[str, str] | None:
    text = segment.strip().rstrip(".")
    for regex in (_LABEL_NUMBER_RE, _NUMBER_OF_LABEL_RE):
        match = regex.match(text)
        if match and valid_label(match.group("label")):
            if _quantity_ok(match.group("value")):
                return match.group("label"), match.group("value")
    return None


def _find_label_numbers(
    text: str, offset: int
) -> list[tuple[str, str, tuple[int, int]]]:
    """Every "label number unit" segment of a comma/"and"-separated list."""
    found = []
    pos = 0
    for piece in [*_SEGMENT_SPLIT_RE.split(text)]:
        start = text.find(piece, pos)
        pos = start + len(piece)
        pair = _label_numbers(piece)
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


def _key_value_pairs(
    clause: str, offset: int
) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """``key: value`` / ``key = value`` pairs; a value runs to the next key."""
    seps = _separators(clause)
    if not seps:
        return
    # For each separator: where its key starts, and where the previous value ends
    # (at the comma or " and " that introduces the key).
    key_starts: list[int] = []
    value_ends: list[int] = []
    prev_end = 0
    for sep in seps:
        comma = clause.rfind(",", prev_end, sep)
        conj = clause.rfind(" and ", prev_end, sep)
        if conj > comma:
            key_starts.append(conj + 5)
            value_ends.append(conj)
        elif comma != -1:
            key_starts.append(comma + 1)
            value_ends.append(comma)
        else:
            key_starts.append(prev_end)
            value_ends.append(prev_end)
        prev_end = sep + 1
    for idx, sep in enumerate(seps):
        key = clause[key_starts[idx] : sep].strip()
        value_end = value_ends[idx + 1] if idx + 1 < len(seps) else len(clause)
        value = clause[sep + 1 : value_end].strip().rstrip(",.").strip()
        if not key or not valid_label(key) or "://" in key:
            continue
        if not value or len(value) > 120:
            continue
        if parse_value(value).kind == "text":
            inner = _find_label_numbers(value, offset + sep + 1)
            if inner:
                # A heading over a list ("Sleep dashboard: Total sleep 6.5 h, ...").
                yield from inner
                continue
        yield key, value, (offset + key_starts[idx], offset + value_end)


def _flatten(obj: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in obj.items():
        name = f"{prefix} {key}".strip()
        if isinstance(value, dict):
            yield from _flatten(value, name)
        elif isinstance(value, list):
            if value and all(not isinstance(v, (dict, list)) for v in value):
                yield name, ", ".join(str(v) for v in value)
        elif value is not None:
            yield name, value


def _json_objects(text: str) -> Iterator[tuple[dict[str, Any], int, int]]:
    decoder = json.JSONDecoder()
    i = text.find("{")
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            yield obj, i, end
            i = text.find("{", end)
        else:
            i = text.find("{", i + 1)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables(lines: list[str]) -> Iterator[tuple[int, int, list[tuple[str, str]]]]:
    """Pipe tables: a header with one data row, or two-column key/value rows."""
    i = 0
    while i < len(lines):
        if lines[i].count("|") < 2:
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].count("|") >= 2:
            j += 1
        block = [ln for ln in lines[i:j] if not _TABLE_SEP_RE.match(ln.strip())]
        has_header = any(_TABLE_SEP_RE.match(ln.strip()) for ln in lines[i:j])
        rows = [_cells(ln) for ln in block]
        pairs: list[tuple[str, str]] = []
        if has_header and len(rows) == 2 and len(rows[0]) == len(rows[1]):
            pairs = list(zip(rows[0], rows[1], strict=True))
        elif rows and all(len(r) == 2 for r in rows):
            body = rows[1:] if has_header else rows
            pairs = [(r[0], r[1]) for r in body]
        if pairs:
            yield i, j, pairs
        i = j


class RuleExtractor(SyncExtractorMixin):
    """Extracts explicit attribute-value pairs from every text a round carries."""

    def extract(self, round_: Round) -> list[Observation]:
        """Observations from dialogue, captions, OCR text and metadata."""
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
        for source, image_id, text in sources:
            if text and text.strip():
                out.extend(self.extract_text(text, round_.round_id, source, image_id))
        for key, value in _flatten(round_.metadata):
            obs = make_observation(key, value, Provenance(round_.round_id, "metadata"))
            if obs:
                out.append(obs)
        return out

    def extract_text(
        self, text: str, round_id: str, source: SourceKind, image_id: str | None = None
    ) -> list[Observation]:
        """Observations from one text; each attribute once per text (first wins)."""
        pairs: list[tuple[str, Any, tuple[int, int]]] = []
        masked = list(text)

        def mask(start: int, end: int) -> None:
            masked[start:end] = " " * (end - start)

        for obj, start, end in list(_json_objects(text)):
            pairs.extend((k, v, (start, end)) for k, v in _flatten(obj))
            mask(start, end)
        lines = "".join(masked).split("\n")
        line_starts = [0]
        for ln in lines[:-1]:
            line_starts.append(line_starts[-1] + len(ln) + 1)
        for first, last, table_pairs in _tables(lines):
            span = (line_starts[first], line_starts[last - 1] + len(lines[last - 1]))
            pairs.extend((k, v, span) for k, v in table_pairs)
            mask(*span)
        rest = "".join(masked)
        pos = 0
        clauses = []
        for match in _CLAUSE_SPLIT_RE.finditer(rest + "\n"):
            clauses.append((pos, rest[pos : match.start()]))
            pos = match.end()
        for offset, clause in clauses:
            if not clause.strip():
                continue
            kv = list(_key_value_pairs(clause, offset))
            if kv:
                pairs.extend(kv)
            else:
                pairs.extend(_find_label_numbers(clause, offset))
        if source == "ocr":
            pairs.extend(_stacked_pairs(lines, line_starts))
        seen: set[str] = set()
        out = []
        for key, value, span in pairs:
            obs = make_observation(
                str(key), value, Provenance(round_id, source, image_id, span)
            )
            if obs and obs.attribute not in seen:
                seen.add(obs.attribute)
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
            and re.fullmatch(_QUANTITY, value)
            and _quantity_ok(value)
        ):
            yield label, value, (line_starts[i], line_starts[i + 1] + len(lines[i + 1]))
