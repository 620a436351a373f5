"""The list reader: a text cut into items, and list items read as records.

Items end at semicolons, pipes, bullets, list markers, spaced dashes, sentence
ends and new lines; a bare label item joins the value item after it; items of
a numbered or bulleted list that carry the same fields are records of their own.
"""

from __future__ import annotations

import re

from langgraph_adamm.analytic.extraction.key_value import separator_positions
from langgraph_adamm.analytic.extraction.labels import (
    HEADING_WORD_RE,
    VALUE_START_RE,
    Pair,
    is_name,
    is_value,
    valid_label,
)
from langgraph_adamm.analytic.values import (
    normalize_attribute,
    parse_value,
)

# A period ends a sentence, but not after an abbreviation ("Mar. 3", "approx. 7").
_ABBREVIATIONS = "".join(
    f"(?<!{re.escape(a)}\\.)"
    for a in (
        "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec approx ca vs e.g i.e "
        "Dr Mr Mrs Ms St est Avg avg Max max Temp temp incl Incl"
    ).split()
)
# Where one item ends and the next begins. A spaced dash only between words
# (never inside "60 - 65"); list markers only before a letter. Each branch
# opens with the character it cuts at and looks behind from there: the scan
# tries every branch at every character, and most characters fail at once.
_ITEM_SPLIT_RE = re.compile(
    r"[;\n|•·▪◦●]|\t|[\U0001F000-\U0001FAFF\u2600-\u26FF\u2B00-\u2BFF](?![^(]*\))"
    r"|\s(?<=\S\s)\*\s+(?=[A-Za-z])"
    r"|\s(?<=[\w%)$€£¥]\s)\s*[-–—]\s+(?=[A-Za-z])"
    r"|\s[–—]\s|[–—](?<=\w[–—])(?=[A-Za-z])"
    r"|(?:^|(?<=\n))\s*[-*+]\s+(?=[A-Za-z])"
    r"|[!?](?=\s)|\s/\s(?![-+−~≈$€£¥]?\d)"
    rf"|\.(?<=[^\d\s]\.){_ABBREVIATIONS}(?=\s)"
    r"|\.(?<=\d\.)(?=\s+[A-Z])"
)
_BULLET_RE = re.compile(r"[-*+•▪◦●]")
_NUMBERED_RE = re.compile(
    r"(?:^|(?<=\s))(?P<n>\d{1,2}|[a-hA-H])(?:[.)]\s*|\s+[-–]\s+)(?=[A-Za-z])"
)


Item = tuple[int, str, int]
"""(offset, text, list item): the number of the numbered list item the text
belongs to (0 outside numbered lists)."""


def list_items(text: str) -> list[Item]:
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
            and not any(VALUE_START_RE.match(w) for w in label.split())
        ):
            nxt_offset, nxt, _ = items[i + 1]
            value = nxt.strip()
            if (
                valid_label(label.rstrip("?"))
                and not separator_positions(item)
                and (
                    (VALUE_START_RE.match(value) and is_value(value))
                    or parse_value(value).kind == "boolean"
                    or (
                        is_name(value, after=label)
                        and not HEADING_WORD_RE.search(label)
                        and not separator_positions(nxt)
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


def list_records(found: list[tuple[int, list[Pair]]], first: int) -> list[Pair]:
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
