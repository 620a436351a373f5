"""The table readers: markdown or pipe tables, CSV/TSV and aligned columns.

A header over data rows is one record per row; a key/value table is one
record. Also the OCR layout that stacks a label over its value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_adamm.analytic.extraction.labels import (
    VALUE_START_RE,
    is_value,
    valid_label,
)

_TABLE_SEP_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


_GENERIC_KEYS = frozenset(
    "metric metrics field item key name parameter measure stat test".split()
)
_GENERIC_VALUES = frozenset(
    "value values result results reading data measurement number figure".split()
)


def pipe_tables(
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
        labels = bool(rows) and all(valid_label(c) and not is_value(c) for c in rows[0])
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


_LABELLED_CELL_RE = re.compile(r"^[^\W\d][\w ]{0,30}:\s*\S")
"""A cell that is itself "label: value": the line is a record, not a row."""


def _split_cells(line: str, delim: re.Pattern[str]) -> list[str]:
    if delim.pattern == r" {2,}":
        if "  " not in line:
            return [line]
        line = line.strip()
    elif delim.pattern not in line:
        return [line]
    return [c.strip().strip('"') for c in delim.split(line)]


def delimited_tables(
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
            if (
                j - i >= 2
                and not lines[i].rstrip().endswith(":")
                and all(c and valid_label(c) and not is_value(c) for c in header)
            ):
                rows = [_split_cells(ln, delim) for ln in lines[i + 1 : j]]
                if any(is_value(c) for r in rows for c in r) and not any(
                    _LABELLED_CELL_RE.match(c) for r in rows for c in r
                ):
                    found = (j, [list(zip(header, r, strict=True)) for r in rows])
                    break
        if found:
            yield i, found[0], found[1]
            i = found[0]
        else:
            i += 1


def stacked_pairs(
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
            and VALUE_START_RE.match(value)
            and is_value(value)
        ):
            yield label, value, (line_starts[i], line_starts[i + 1] + len(lines[i + 1]))
