"""Guided reading: a round read with a known kind's columns as the guide.

Once a memory holds a few records of a kind, it knows the kind: its columns,
the labels they were written with, their units and value ranges, the values a
text column takes ("white", "black"; "win", "loss", "draw") and their shapes
("15+10"). A round in a layout the rule extractor could not label::

    vs Fergal Tighe | white | won | rating 1526 | 10+5 | 23 min
    Game #421 · vs Fiachra Nolan · White · Win · Elo 1544 (+6) · 25+5 · 51 min
    Kölsch brewed on Bertha today, 19 litres into the fermenter, OG 1.045

is read field by field against the kind. Each piece of a line is a candidate
for a column, scored by what ties it there:

====================================  =====
a label of the column before or after  4
a value the column already holds       3
the column's value shape ("15+10")     2.5
a number in the column's unit          2.5
a date, for a date column              2.5
a name, for a column of names          1.5
a bare number in the column's range    1.2
====================================  =====

Candidates are taken best first, one per column and none overlapping. Lines
make one record until a line fills a column the record already has (the next
game of a list, the second "Round" block); a line of sentences is read as
lines ("First I beat ... Then I beat ..."). A record counts when it fills at
least :data:`GUIDED_SHARE` of the columns the kind's records usually fill (and
two), one of them by a label or a known value, or two by their units
("Claim | 44 km | €13.20"); a record of two columns holds no weak one (a
bare number, a name not known: "Tournament: Leinster Open | fee €45" is no
lesson). Quantities in words ("an hour and a half") are read too.

Verb forms of result words ("won" for "win", "drew" for "draw") are the one
word list here (:data:`WORD_FORMS`).

One module because the guide a kind's records build, the candidates a line
gives and the assembly of records from them share one scale of scores (the
table above): a change to one is read against the others, and split apart
they would trade the scores across modules as private constants.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from langgraph_adamm.analytic.extraction.base import Observation, Provenance
from langgraph_adamm.analytic.extraction.labels import DATE_WORDS, STOPWORDS
from langgraph_adamm.analytic.units import (
    convert_units,
    convertible,
    dimension,
    spelled_unit,
)
from langgraph_adamm.analytic.values import (
    ParsedValue,
    normalize_attribute,
    parse_value,
    spelled_quantities,
)

GUIDED_SHARE = 0.6
"""A guided record fills at least this share of its kind's columns."""
RANGE_MARGIN = 0.25
"""A number fits a column within its range widened by this share of it."""
WORD_FORMS: dict[str, tuple[str, ...]] = {
    "win": ("won", "wins", "winning", "beat"),
    "loss": ("lost", "lose", "loses", "losing"),
    "draw": ("drew", "drawn", "draws"),
    "tie": ("tied", "ties"),
}
"""Other forms of result words, as people write them beside the noun."""
_LABEL, _KNOWN, _SHAPE, _UNIT, _DATE, _NAME, _BARE = 4.0, 3.0, 2.5, 2.5, 2.5, 1.5, 1.2
_ANCHORS = (_LABEL, _KNOWN)
_NUMBER_RE = re.compile(
    r"(?<![\w#.+/:-])(?P<cur>[€$£]\s?)?(?P<num>\d+(?:[.,]\d+)?)"
    r"(?:(?P<hm>\s?h\s?\d{1,2}\s?(?:m|min)?|\s?(?:hrs?|hours?),?\s\d{1,2}\s?"
    r"(?:m|mins?|minutes?))\b|\s?(?P<word>[A-Za-zµ€%]{1,12}\.?))?"
    r"(?![\d:+])"
)
_RATE_WORDS = frozenset({"each", "per", "a", "an", "ea"})
"""Words after an amount that make it a unit price ("€5 each")."""
_NAME_RE = re.compile(r"\b[A-ZÀ-Þ][\w'’-]*(?:\s+[A-ZÀ-Þ][\w'’-]*)*")
_FIELD_SEP_RE = re.compile(r"\s*(?:[|·•;,]|\s/\s|\s[-–—]\s|\.\s)\s*")
_MARKER_RE = re.compile(r"\s*(?:\d{1,2}[).]|[-*•])\s")
_DATE_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


@dataclass
class ColumnGuide:
    """What the memory knows of one column of a kind."""

    name: str
    sql_type: str
    unit: str | None = None
    labels: set[str] = field(default_factory=set)
    """Labels it was written with, lower-case, words joined by one space."""
    values: Counter[str] = field(default_factory=Counter)
    """Text values, lower-case, with how often."""
    written: dict[str, str] = field(default_factory=dict)
    """Each lower-case value as the records most often write it."""
    shape: re.Pattern[str] | None = None
    names: tuple[int, int] | None = None
    """For a column of names: the fewest and most words a name has."""
    low: float | None = None
    high: float | None = None
    _patterns: dict[str, re.Pattern[str] | None] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def numeric(self) -> bool:
        """Whether the column holds numbers."""
        return self.sql_type in ("DOUBLE", "BIGINT")

    @property
    def known_pattern(self) -> re.Pattern[str] | None:
        """Any of its known values (or their word forms), longest first."""
        if "known" not in self._patterns:
            forms = {form for value in self.values for form in (value, *_forms(value))}
            self._patterns["known"] = _alternation([re.escape(f) for f in forms], "")
        return self._patterns["known"]

    @property
    def label_pattern(self) -> re.Pattern[str] | None:
        """Any of its labels, longest first, with a plural ``s``.

        A label's words may be joined by spaces, ``_`` or ``-``.
        """
        if "label" not in self._patterns:
            self._patterns["label"] = _alternation(
                [
                    r"[\s_-]*".join(re.escape(w) for w in label.split())
                    for label in self.labels
                    if len(label) >= 2 and label.split()
                ],
                "s?",
            )
        return self._patterns["label"]

    def known_value(self, said: str) -> str:
        """The known value a piece of text the known pattern matched names."""
        low = said.lower()
        if low in self.values:
            return low
        return next((v for v in self.values if low in _forms(v)), low)


def _forms(value: str) -> tuple[str, ...]:
    return WORD_FORMS.get(value, ())


def _alternation(parts: list[str], suffix: str) -> re.Pattern[str] | None:
    """One pattern for any of these, the longest tried first, as whole words."""
    if not parts:
        return None
    body = "|".join(sorted(set(parts), key=lambda p: (-len(p), p)))
    return re.compile(r"(?<![\w])(?:" + body + ")" + suffix + r"(?![\w])", re.I)


@dataclass
class KindGuide:
    """A kind of record as a table (or tables that share records) knows it."""

    table: str
    columns: dict[str, ColumnGuide]
    typical: int = 0
    """How many of its columns its records usually fill (0: all)."""
    common: frozenset[str] = frozenset()
    """Words the memory's users write in lower case: a capitalised one starts
    a sentence ("Bottled the ..."), it is no name."""
    known: frozenset[str] = frozenset()
    """Text values any table of the memory holds, lower-case."""

    @property
    def need(self) -> int:
        """Columns a guided record fills at least."""
        return max(2, math.ceil(GUIDED_SHARE * (self.typical or len(self.columns))))


@dataclass(frozen=True)
class Candidate:
    """A piece of a line read as a column's value."""

    column: str
    start: int
    end: int
    raw: str
    score: float


def name_unit(name: str) -> str | None:
    """The unit an attribute's name is or holds ("hours", "kg_sorted")."""
    for word in (name.split("_")[-1], name.split("_")[0]):
        unit = spelled_unit(word)
        if unit is not None:
            return unit
    return None


def _shape(text: str) -> str:
    return re.sub(r"[A-Za-z]+", "a", re.sub(r"\d+", "9", text))


def _label_key(raw: str) -> str:
    return " ".join(normalize_attribute(raw)[0].split("_"))


def build_guide(
    table: str,
    columns: Mapping[str, tuple[str, str | None]],
    records: Iterable[Mapping[str, Observation]],
) -> KindGuide | None:
    """The kind's guide from its records (column -> (SQL type, unit))."""
    guides = {
        name: ColumnGuide(
            name, sql_type, unit or name_unit(name), {" ".join(name.split("_"))}
        )
        for name, (sql_type, unit) in columns.items()
    }
    texts: dict[str, list[str]] = {name: [] for name in guides}
    for record in records:
        for name, obs in record.items():
            guide = guides.get(name)
            if guide is None:
                continue
            guide.labels.add(_label_key(obs.raw_attribute))
            value = obs.value
            if guide.numeric and value.number is not None:
                number = float(value.number)
                if value.unit and guide.unit and value.unit != guide.unit:
                    if not convertible(value.unit, guide.unit):
                        continue
                    number = convert_units(number, value.unit, guide.unit)
                guide.low = number if guide.low is None else min(guide.low, number)
                guide.high = number if guide.high is None else max(guide.high, number)
            elif guide.sql_type == "VARCHAR" and value.text:
                texts[name].append(value.text.strip())
    for name, guide in guides.items():
        values = texts[name]
        guide.labels.discard("")
        if not values:
            continue
        guide.values.update(v.lower() for v in values if len(v) >= 2)
        for form, _ in Counter(values).most_common():
            guide.written.setdefault(form.lower(), form)
        shapes = Counter(_shape(v) for v in values)
        top, count = shapes.most_common(1)[0]
        if (
            count >= 0.8 * len(values)
            and re.search(r"9", top)
            and re.search(r"[^9a ]", top)
        ):
            guide.shape = re.compile(
                r"(?<![\w+])"
                + "".join(
                    r"\d+"
                    if ch == "9"
                    else r"[A-Za-z]+"
                    if ch == "a"
                    else re.escape(ch)
                    for ch in re.sub(r"9+", "9", top)
                )
                + r"(?![\w+])"
            )
        words = [len(v.split()) for v in values]
        capital = sum(1 for v in values if v[:1].isupper())
        if capital >= 0.8 * len(values) and len(set(v.lower() for v in values)) >= 3:
            guide.names = (min(words), max(words))
    if len(guides) < 2:
        return None
    return KindGuide(table, guides)


def _fits(guide: ColumnGuide, value: ParsedValue) -> bool:
    if guide.numeric:
        if value.number is None:
            return False
        if value.unit and guide.unit:
            return convertible(value.unit, guide.unit)
        return not value.unit or guide.unit is None and dimension(value.unit) is None
    if guide.sql_type == "TIMESTAMP":
        return value.timestamp is not None
    return bool(value.text.strip())


def _in_range(guide: ColumnGuide, number: float) -> bool:
    if guide.low is None or guide.high is None:
        return False
    margin = RANGE_MARGIN * (guide.high - guide.low) or 0.1 * abs(guide.high)
    return guide.low - margin <= number <= guide.high + margin


def _in_scale(guide: ColumnGuide, number: float) -> bool:
    """For a number in the column's unit: within a factor of 3 of its range."""
    if guide.low is None or guide.high is None:
        return True
    if guide.low <= 0:
        return number <= 3 * max(guide.high, 1e-9)
    return guide.low / 3 <= number <= 3 * guide.high


def _prepared(line: str) -> str:
    if line.count(",") >= 2:  # commas separate fields here, not decimals
        line = line.replace(",", "|")
    marker = _MARKER_RE.match(line)
    if marker:  # "1) Distance 8.33": the list's number is no value
        line = " " * marker.end() + line[marker.end() :]
    return line


def may_hold(kind: KindGuide, text: str) -> bool:
    """Whether a text could give the kind a record: a quick test first.

    A guided record is tied by a label or a known value of the kind, or by two
    values of the strong sorts (a unit, a date, a column's shape; see
    :func:`_counts`); a text with neither gives none, and most rounds of other
    kinds are passed over without reading their lines.
    """
    for guide in kind.columns.values():
        patterns = [guide.label_pattern]
        if guide.sql_type == "VARCHAR":
            patterns.append(guide.known_pattern)
        if any(p is not None and p.search(text) for p in patterns):
            return True
    lines, with_units = _digit_lines(text)
    strong = 0
    for guide in kind.columns.values():
        if guide.sql_type == "VARCHAR" and guide.shape is not None:
            strong += sum(1 for ln in lines for _ in guide.shape.finditer(ln))
        elif guide.sql_type == "TIMESTAMP":
            strong += sum(len(_DATE_RE.findall(ln)) for ln in lines)
        elif guide.numeric and guide.unit:
            strong += sum(1 for value in with_units if _unit_fits(guide, value))
        if strong >= 2:
            return True
    return False


@lru_cache(maxsize=8)
def _digit_lines(text: str) -> tuple[tuple[str, ...], tuple[ParsedValue, ...]]:
    """A text's lines with digits, and its numbers written with a unit.

    Kept for the last few texts: every kind asks of the same round in turn.
    """
    lines = tuple(
        _prepared(ln) for ln in text.split("\n") if any(c.isdigit() for c in ln)
    )
    values = (
        parse_value(_said_number(m)[0])
        for ln in lines
        for m in _NUMBER_RE.finditer(ln)
        if m.group("word") or m.group("cur") or m.group("hm")
    )
    return lines, tuple(
        v for v in values if v.unit and v.number is not None and v.kind != "timestamp"
    )


def _unit_fits(guide: ColumnGuide, value: ParsedValue) -> bool:
    """A number with a unit the column's converts to, in the column's scale."""
    if not (
        guide.unit
        and value.unit
        and value.number is not None
        and convertible(value.unit, guide.unit)
        and dimension(value.unit) == dimension(guide.unit)
    ):
        return False
    number = convert_units(float(value.number), value.unit, guide.unit)
    return guide.low is None or _in_scale(guide, number)


def line_candidates(kind: KindGuide, line: str) -> list[Candidate]:
    """Every piece of ``line`` that could be one of the kind's values."""
    line = _prepared(line)
    out: list[Candidate] = []
    fields = [(m.start(), m.end()) for m in _field_spans(line)]
    for name, guide in kind.columns.items():
        label_re = guide.label_pattern
        for m in label_re.finditer(line) if label_re is not None else ():
            after = _value_after(line, m.end(), guide)
            if after is not None:
                out.append(
                    Candidate(
                        name, after[0], after[1], line[after[0] : after[1]], _LABEL
                    )
                )
            before = _number_before(line, m.start(), guide)
            if before is not None:
                out.append(
                    Candidate(
                        name,
                        before[0],
                        before[1],
                        line[before[0] : before[1]],
                        _LABEL,
                    )
                )
        if guide.sql_type == "VARCHAR":
            known_re = guide.known_pattern
            for m in known_re.finditer(line) if known_re is not None else ():
                value = guide.known_value(m.group(0))
                raw = guide.written.get(value, value)  # as the column has it
                out.append(Candidate(name, m.start(), m.end(), raw, _KNOWN))
            if guide.shape is not None:
                for m in guide.shape.finditer(line):
                    out.append(Candidate(name, m.start(), m.end(), m.group(0), _SHAPE))
            if guide.names is not None:
                out.extend(_name_candidates(kind, name, guide, line, fields))
        elif guide.sql_type == "TIMESTAMP":
            for m in _DATE_RE.finditer(line):
                out.append(Candidate(name, m.start(), m.end(), m.group(0), _DATE))
        elif guide.numeric:
            for m in _NUMBER_RE.finditer(line):
                out.extend(_number_candidates(name, guide, m))
            if guide.unit:  # "an hour and a half", "twenty minutes"
                for start, end, number, unit in spelled_quantities(line):
                    raw = f"{number:g} {unit}"
                    if _unit_fits(guide, parse_value(raw)):
                        out.append(Candidate(name, start, end, raw, _UNIT))
    return out


def _field_spans(line: str) -> Iterable[re.Match[str]]:
    return re.finditer(r"[^|·•;,]+", line)


def _value_after(line: str, at: int, guide: ColumnGuide) -> tuple[int, int] | None:
    m = re.match(r"(?:\s*\([^)]{0,12}\))?\s*(?:[:=]|\bof\b|\bis\b)?\s*", line[at:])
    start = at + (m.end() if m else 0)
    if not guide.numeric and not re.search(r"[:=]", line[at:start]):
        return None  # a text value follows its label after a colon
    if guide.numeric:
        n = _NUMBER_RE.match(line, start)
        if n is None:
            return None
        value = parse_value(n.group(0))
        return (n.start(), n.end()) if _fits(guide, value) else None
    rest = _FIELD_SEP_RE.split(line[start:], maxsplit=1)[0].strip()
    if not rest or len(rest) > 60:
        return None
    value = parse_value(rest)
    if not _fits(guide, value):
        return None
    return start, start + len(rest)


def _number_before(line: str, at: int, guide: ColumnGuide) -> tuple[int, int] | None:
    if not guide.numeric:
        return None
    m = re.search(r"(\d+(?:[.,]\d+)?)\s*$", line[:at])
    if m is None or at - m.end() > 2:
        return None
    return m.start(1), m.end(1)


def _said_number(m: re.Match[str]) -> tuple[str, int]:
    """What a number match says, and where that ends.

    "€19.40 at Hopsack" says "€19.40": the currency is the unit, the word is
    prose. "€5 each", "€2 per kg" stay whole (a unit price, no amount).
    """
    word = (m.group("word") or "").lower().rstrip(".")
    if m.group("cur") and word and word not in _RATE_WORDS:
        return (m.group("cur") + m.group("num")).strip(), m.end("num")
    return m.group(0).strip(), m.end()


def _number_candidates(
    name: str, guide: ColumnGuide, m: re.Match[str]
) -> list[Candidate]:
    raw, end = _said_number(m)
    value = parse_value(raw)
    if value.number is None or value.kind == "timestamp":
        return []
    number = float(value.number)
    if value.unit:
        if _unit_fits(guide, value):
            return [Candidate(name, m.start(), end, raw, _UNIT)]
        return []
    bare = m.group("num")
    if _in_range(guide, number):
        return [Candidate(name, m.start("num"), m.end("num"), bare, _BARE)]
    return []


def _name_candidates(
    kind: KindGuide,
    name: str,
    guide: ColumnGuide,
    line: str,
    fields: Sequence[tuple[int, int]],
) -> list[Candidate]:
    assert guide.names is not None
    low, high = guide.names
    labels = {label for g in kind.columns.values() for label in g.labels}
    out = []
    for m in _NAME_RE.finditer(line):
        words = m.group(0).split()
        for skip in range(len(words)):
            run = words[skip:]
            first = run[0].lower()
            if not low <= len(run) <= high or first in kind.common:
                continue
            if first in STOPWORDS or first in DATE_WORDS:
                continue  # "Had my lesson with Marek", "Tonight Aoife ..."
            start = m.start() + m.group(0).index(run[0])
            if len(run) == 1 and first.endswith("ed") and not line[:start].strip():
                continue  # "Packaged another one.": a verb opens the sentence
            if " ".join(run).lower() in labels:
                continue
            if all(w.lower() in kind.common for w in run):
                continue
            end = m.end()
            whole = any(
                line[a:b].strip() == line[start:end].strip()
                or line[a:b]
                .strip()
                .lower()
                .startswith(("vs ", "v ", "against ", "with "))
                and line[a:b].strip().endswith(line[start:end])
                for a, b in fields
            )
            known = " ".join(run).lower() in kind.known
            score = _NAME + (0.5 if whole else 0) + (0.3 if known else 0) - 0.1 * skip
            out.append(Candidate(name, start, end, line[start:end], score))
    return out


def _choose(cands: Sequence[Candidate]) -> dict[str, Candidate]:
    chosen: dict[str, Candidate] = {}
    taken: list[tuple[int, int]] = []
    for cand in sorted(cands, key=lambda c: (-c.score, c.start, c.column)):
        if cand.column in chosen:
            continue
        if any(cand.start < b and a < cand.end for a, b in taken):
            continue
        chosen[cand.column] = cand
        taken.append((cand.start, cand.end))
    return chosen


OPENER_LINES = 3
"""A word that opens this many lines is a heading ("Bottling | Pale Ale |")."""


def common_words(texts: Iterable[str]) -> frozenset[str]:
    """Words these texts write in lower case, or that open many of their lines."""
    words: set[str] = set()
    openers: Counter[str] = Counter()
    for text in texts:
        words.update(re.findall(r"\b[a-zà-ÿ][\w'’-]*", text))
        for line in text.split("\n"):
            first = re.match(r"\s*([A-Za-zÀ-ÿ][\w'’-]*)", line)
            if first:
                openers[first.group(1).lower()] += 1
    words.update(w for w, n in openers.items() if n >= OPENER_LINES)
    return frozenset(words)


def guided_records(
    kind: KindGuide, text: str, round_id: str
) -> list[list[Observation]]:
    """The kind's records in a round's user text, read with the kind as guide."""
    if not may_hold(kind, text):
        return []
    records: list[dict[str, tuple[Candidate, int]]] = []
    current: dict[str, tuple[Candidate, int]] = {}

    def close() -> None:
        nonlocal current
        if _counts(kind, current):
            records.append(current)
        current = {}

    for offset, line in _pieces(text):
        chosen = _choose(line_candidates(kind, line))
        # A weak reading of a column the record has for sure is no new value.
        chosen = {
            c: cand
            for c, cand in chosen.items()
            if c not in current
            or cand.score >= _UNIT
            or current[c][0].score not in _ANCHORS
        }
        if not chosen:
            if not line.strip() and _counts(kind, current):
                close()
        elif any(current[c][0].score in _ANCHORS for c in set(chosen) & set(current)):
            close()  # a column the record has for sure again: the next record
            current = {c: (cand, offset) for c, cand in chosen.items()}
        else:  # a weaker reading later on keeps the better one
            for c, cand in chosen.items():
                if c not in current or cand.score >= current[c][0].score:
                    current[c] = (cand, offset)
    close()
    out = []
    for i, record in enumerate(records):
        index = 0 if len(records) == 1 else i + 1
        obs = []
        for column, (cand, at) in record.items():
            guide = kind.columns[column]
            label = min(guide.labels, key=lambda x: (len(x), x), default=column)
            value = parse_value(cand.raw)
            if guide.numeric and value.unit is None and guide.unit is not None:
                value = parse_value(f"{cand.raw} {guide.unit}")
            span = (at + cand.start, at + cand.end)
            obs.append(
                Observation(
                    column,
                    label if cand.score != _LABEL else column.replace("_", " "),
                    value,
                    Provenance(round_id, "user", None, span, index),
                )
            )
        out.append(obs)
    return out


_SENTENCE_END_RE = re.compile(r"(?<=[a-z0-9)][.!?])\s+(?=[A-Z])")


def _pieces(text: str) -> Iterable[tuple[int, str]]:
    """The text's lines, a line of sentences cut at each sentence's end.

    "First I beat Aoife Kelly with white in 48 min. Then I beat Laura Finn
    with black in 47 min." tells two records on one line; sentences are read
    as lines are, so one record still runs on over sentences that add to it.
    """
    offset = 0
    for line in text.split("\n"):
        start = 0
        for m in _SENTENCE_END_RE.finditer(line):
            yield offset + start, line[start : m.start()]
            start = m.end()
        yield offset + start, line[start:]
        offset += len(line) + 1


def _counts(kind: KindGuide, record: Mapping[str, tuple[Candidate, int]]) -> bool:
    """Enough columns, one tied by a label or a known value (or two by units)."""
    if len(record) < kind.need:
        return False
    scores = [cand.score for cand, _ in record.values()]
    if len(scores) == 2 and min(scores) < _UNIT:
        return False  # "Tournament: Leinster Open | fee €45" is no lesson's
    return any(s in _ANCHORS for s in scores) or sum(s >= _UNIT for s in scores) >= 2
