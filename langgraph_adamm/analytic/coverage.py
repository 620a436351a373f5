"""Coverage: rounds that look like a table's records but gave it no row.

A total over the receipts that were read is no total when half of them were
not. A round *looks like* a table's kind when it writes most of the table's
columns as labelled values ("Station: ... | Litres: 23.68 | Total: €40.92"),
or extraction read most of them under the kind's names ("Litres 41.0 · Total
€61.00", a CSV header over rows), and yet no row of the table came from it: a
layout the reader split off into another table, or one it could not read. A
Compute or Rank over the table counts those of them that fall in its time
range and that no other filter of the step rules out (a named value the round
does not hold, a numeric condition its labelled value fails) and names them;
the query graph then states no figure unqualified.

The rounds looked at are the user's latest :data:`COVERAGE_ROUNDS`, read once
per table and generation.

One module because it is one question - which rounds in a step's range did the
step not read - asked six ways (lookalikes, rounds near a table's records, a
split of the kind, rows without the filtered value or the measure, records of
other tables that name the value or hold the measure), each over the same
round reading, value spans and filter check (:func:`_may_pass`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_adamm.analytic.predicates import round_time_condition
from langgraph_adamm.analytic.tables import TableSchema
from langgraph_adamm.analytic.units import CURRENCIES, dimension
from langgraph_adamm.analytic.values import (
    AUXILIARY_COLUMNS,
    convert_units,
    convertible,
    parse_value,
)
from langgraph_adamm.storage.database import engine_errors, quote_ident
from langgraph_adamm.storage.vectors import vector_of

if TYPE_CHECKING:
    from langgraph_adamm.analytic.memory import AnalyticMemory

COVERAGE_ROUNDS = 5000
"""The latest rounds read for lookalikes (a bound on the cost)."""
COVERAGE_SHARE = 0.6
"""A lookalike writes at least this share of the table's columns as labels."""
_NUMERIC = frozenset({"DOUBLE", "BIGINT"})
_LISTED = 10
"""Round ids named in a result."""


@dataclass(frozen=True)
class Lookalike:
    """A round that looks like a table's record, with the values it labels."""

    round_id: str
    time: datetime | None
    text: str
    """Lower-cased user text, caption and OCR."""
    values: dict[str, str]
    """Column name -> the text after its label."""


def _label_re(name: str) -> re.Pattern[str]:
    """A label and the value after it: "Litres: 23.68", '"kiln": "Pip"'."""
    parts = [re.escape(w) for w in re.split(r"[_\s]+", name) if w]
    return re.compile(
        r"(?<![a-z0-9])"
        + r"[\s_-]*".join(parts)
        + r"[a-z]*(?:\s+[a-z]+)?(?:\s*\([^)\n]{0,12}\))?[\"']?\s*[:=]\s*[\"']?"
        r"(?P<v>[^|;\n,\"']{1,40})"
    )


def lookalikes(memory: AnalyticMemory, table: TableSchema) -> list[Lookalike]:
    """The table's lookalike rounds (cached per table and generation)."""
    cache = memory.coverage
    key = (table.table_name, memory.generation)
    if key not in cache:
        if len(cache) > 64:
            cache.clear()
        cache[key] = _find(memory, table)
    return cache[key]


MEMO_ENTRIES = 512
"""Coverage reads kept per generation (round texts, spans) before the cache is
emptied: a memory of many tables asks for a few per table and step."""


def _memo(memory: AnalyticMemory, name: str, read: Callable[[], Any]) -> Any:
    """A coverage read, once per generation of the memory (``name`` says which)."""
    cache = memory.coverage
    key = (name, memory.generation)
    if key not in cache:
        if len(cache) > MEMO_ENTRIES:
            cache.clear()
        cache[key] = read()
    return cache[key]


def _find(memory: AnalyticMemory, table: TableSchema) -> list[Lookalike]:
    from langgraph_adamm.analytic.profile import column_labels  # (a cycle)

    cols = [c for c in table.columns if c.name not in AUXILIARY_COLUMNS]
    if not cols:
        return []
    # a kind of one measure ("weight: 89.2 kg") is looked for by its label
    # before a number
    lone = _one_column(table)
    need = 1 if lone else max(2, math.ceil(COVERAGE_SHARE * len(cols)))
    # a column is labelled by its name, its attribute ("time" for time_value)
    # or any label its values were written with ("Loaded" for pieces)
    written = column_labels(memory, table)
    labels = {
        c.name: [
            _label_re(n)
            for n in dict.fromkeys((c.name, c.attribute, *written.get(c.attribute, ())))
        ]
        for c in cols
    }
    sources = set(_sources(memory, table))
    if lone:  # a lift's "Weight: 60 kg" read by its own table is no weigh-in
        for other in memory.tables:
            sources |= _sources(memory, other)
    rows = memory.db.fetchall(
        "SELECT r.round_id, r.time, r.user_text, i.caption, i.ocr FROM "
        '(SELECT * FROM adamm_rounds WHERE user_id = ? ORDER BY "order" DESC '
        "LIMIT ?) AS r LEFT JOIN adamm_images i ON i.user_id = r.user_id "
        "AND i.round_id = r.round_id",
        [memory.user_id, COVERAGE_ROUNDS],
    )
    texts: dict[str, tuple[Any, list[str]]] = {}
    for round_id, time, user_text, caption, ocr in rows:
        entry = texts.setdefault(str(round_id), (time, []))
        entry[1].extend(t for t in (user_text, caption, ocr) if t)
    found = []
    for round_id, (time, parts) in texts.items():
        if round_id in sources:
            continue
        text = "\n".join(parts).lower()
        if ":" not in text and "=" not in text:
            continue
        values = {}
        for col, regexes in labels.items():
            for regex in regexes:
                m = regex.search(text)
                if m is not None and not (
                    lone and not any(ch.isdigit() for ch in m.group("v"))
                ):
                    values[col] = m.group("v").strip()
                    break
        if len(values) >= need:
            found.append(Lookalike(round_id, time, text, values))
    taken = {look.round_id for look in found}
    if not lone:
        found += [
            Lookalike(rid, texts[rid][0], "\n".join(texts[rid][1]).lower(), values)
            for rid, values in _observed(memory, cols, need)
            if rid not in taken and rid not in sources and rid in texts
        ]
        taken = {look.round_id for look in found}
    found += [look for look in _near(memory, table) if look.round_id not in taken]
    return found


def _observed(
    memory: AnalyticMemory, cols: list[Any], need: int
) -> list[tuple[str, dict[str, str]]]:
    """Records whose extracted values name ``need`` of the columns' attributes.

    A label without a colon ("Dist 1650m"), a CSV header over rows, an app
    screen's label over its value: extraction read the values under the
    kind's names, yet the rows went to no table or to another one. One entry
    per record (a round's export of several rows gives several), each with
    its own values, so that a filter rules out only the records it fails.
    """
    by_record: list[tuple[str, dict[str, str]]] = _memo(
        memory, "observed records", partial(_observations, memory)
    )
    wanted = {c.attribute: c.name for c in cols}
    out = []
    for rid, said in by_record:
        values = {wanted[a]: v for a, v in said.items() if a in wanted}
        if len(values) >= need:
            out.append((rid, values))
    return out


def _observations(memory: AnalyticMemory) -> list[tuple[str, dict[str, str]]]:
    """Each record of the latest rounds: its round and its attributes' values.

    The user's words, captions and OCR, as the labels are looked for; not an
    assistant's echo or a round's metadata.
    """
    rows = memory.db.fetchall(
        "SELECT round_id, coalesce(record, 0), attribute, min(value_text) FROM "
        "adamm_observations WHERE user_id = ? AND source NOT IN ('metadata', "
        "'assistant') AND round_id IN (SELECT round_id FROM adamm_rounds WHERE "
        'user_id = ? ORDER BY "order" DESC LIMIT ?) '
        "GROUP BY round_id, coalesce(record, 0), attribute",
        [memory.user_id, memory.user_id, COVERAGE_ROUNDS],
    )
    records: dict[tuple[str, int], dict[str, str]] = {}
    for rid, record, attribute, value in rows:
        records.setdefault((str(rid), int(record)), {})[str(attribute)] = str(
            value or ""
        )
    return [(rid, values) for (rid, _), values in sorted(records.items())]


NEAR_FLOOR = 0.45
"""The cosine to a table's records' mean vector for an unlabelled round to
look like one of them."""
NEAR_MARGIN = 0.02
"""How much nearer to that table's records than to any other table's."""
_QUANTITY_RE = re.compile(
    r"(?:[€$£¥]|\b[A-Z]{3}\b)\s?\d[\d.,]*|\d[\d.,]*\s?(?:[€$£¥%]|[^\W\d_]{1,12})"
)


@dataclass(frozen=True)
class _Kinds:
    """Each table's records' mean vector, and the rounds no table read."""

    centroids: dict[str, np.ndarray]
    unread: list[tuple[str, Any, str, np.ndarray]]
    """(round id, time, user text, unit vector) of rounds that gave no row, or
    only a row of a table of one column."""
    vectors: dict[str, tuple[Any, str, np.ndarray]] = field(default_factory=dict)
    """Round id -> (time, user text, unit vector) of every round read."""
    lone: dict[str, set[str]] = field(default_factory=dict)
    """Round id -> the one-column tables it gave its only rows to. One number
    read from a round ("The co-op took 5 jars") may be a record of another
    kind read badly: for the other tables such a round is still unread."""


def _kinds(memory: AnalyticMemory) -> _Kinds:
    """The memory's record kinds by meaning (cached per generation)."""
    key = ("\x00kinds", memory.generation)
    if key not in memory.coverage:
        memory.coverage[key] = _read_kinds(memory)
    kinds: _Kinds = memory.coverage[key]
    return kinds


def table_centroids(memory: AnalyticMemory) -> dict[str, np.ndarray]:
    """Table name -> the unit mean text vector of the rounds that gave it rows.

    Tables with three such rounds at least.
    """
    return dict(_kinds(memory).centroids)


def _read_kinds(memory: AnalyticMemory) -> _Kinds:
    try:
        rows = memory.db.fetchall(
            "SELECT r.round_id, r.time, r.user_text, e.text_vec FROM "
            '(SELECT * FROM adamm_rounds WHERE user_id = ? ORDER BY "order" DESC '
            "LIMIT ?) AS r JOIN adamm_events e ON e.user_id = r.user_id "
            "AND e.round_id = r.round_id",
            [memory.user_id, COVERAGE_ROUNDS],
        )
    except engine_errors():  # a memory made before retrieval rows: no kinds
        return _Kinds({}, [], {})
    vectors: dict[str, tuple[Any, str, np.ndarray]] = {}
    for round_id, time, text, blob in rows:
        if blob is None or not text:
            continue
        vec = np.asarray(vector_of(blob), dtype=np.float64)
        norm = float(np.linalg.norm(vec))
        if norm > 0:
            vectors[str(round_id)] = (time, str(text), vec / norm)
    sources: set[str] = set()
    lone: dict[str, set[str]] = {}
    centroids: dict[str, np.ndarray] = {}
    for table in memory.tables:
        rounds = _sources(memory, table)
        if _one_column(table):
            for r in rounds:
                lone.setdefault(r, set()).add(table.table_name)
        else:
            sources |= rounds
        held = [vectors[r][2] for r in rounds if r in vectors]
        if len(held) >= 3:
            mean = np.mean(held, axis=0)
            centroids[table.table_name] = mean / (np.linalg.norm(mean) or 1.0)
    unread = [
        (rid, time, text, vec)
        for rid, (time, text, vec) in vectors.items()
        if rid not in sources and not text.rstrip().endswith("?")  # asked, not told
    ]
    lone = {rid: names for rid, names in lone.items() if rid not in sources}
    return _Kinds(centroids, unread, vectors, lone)


def _one_column(table: TableSchema) -> bool:
    return sum(1 for c in table.columns if c.name not in AUXILIARY_COLUMNS) == 1


def _sources(memory: AnalyticMemory, table: TableSchema) -> frozenset[str]:
    """The rounds that gave a table its rows (read once per generation)."""
    return _memo(
        memory,
        f"sources {table.table_name}",
        lambda: frozenset(
            str(r)
            for (r,) in memory.db.fetchall(
                f"SELECT DISTINCT source FROM {memory.qualified(table)}"
            )
        ),
    )


def _near(memory: AnalyticMemory, table: TableSchema) -> list[Lookalike]:
    """Unread rounds that mean what the table's records mean.

    Rounds no table read that write a value in one of the table's units and
    are nearer to its records than to any other table's: "Sold a plate on
    Etsy today, €32.00 all in" beside sales read from apps' layouts: no
    label names a column, but the round means what the table's records mean
    and holds an amount in euros.
    """
    measures = [c for c in table.columns if c.unit and c.sql_type in _NUMERIC]
    kinds = _kinds(memory)
    mine = kinds.centroids.get(table.table_name)
    if not measures or mine is None:
        return []
    # a one-column table's rounds are no kind another table's are measured
    # against: "the co-op took 5 jars" read alone stays a sale not read
    lone = {name for names in kinds.lone.values() for name in names}
    others = [
        c
        for name, c in kinds.centroids.items()
        if name != table.table_name and name not in lone
    ]
    spans = column_spans(memory, table, measures)
    found = []
    for round_id, time, text, vec in kinds.unread:
        if table.table_name in kinds.lone.get(round_id, ()):
            continue  # its own row
        near = float(vec @ mine)
        if near < NEAR_FLOOR:
            continue
        if others and near - max(float(vec @ c) for c in others) < NEAR_MARGIN:
            continue
        values = _measured(text, measures, spans)
        if values:
            found.append(Lookalike(round_id, time, text.lower(), values))
    return found


SPAN_SLACK = 3.0
"""A quantity within this factor of a column's smallest and largest values
is one the column could hold (1.75 L of water is no fill-up of 30-60 L)."""


def column_spans(
    memory: AnalyticMemory, table: TableSchema, measures: list[Any]
) -> dict[str, tuple[float, float]]:
    """Each measure column's smallest and largest value (where it has any).

    Read once per table, column and generation.
    """
    out = {}
    for col in measures:
        span = _memo(
            memory,
            f"span {table.table_name} {col.name}",
            partial(_span, memory, table, col.name),
        )
        if span is not None:
            out[col.name] = span
    return out


def _span(
    memory: AnalyticMemory, table: TableSchema, column: str
) -> tuple[float, float] | None:
    name = quote_ident(column)
    ((low, high),) = memory.db.fetchall(
        f"SELECT min({name}), max({name}) FROM {memory.qualified(table)}"
    )
    return None if low is None or high is None else (float(low), float(high))


def _measured(
    text: str, measures: list[Any], spans: dict[str, tuple[float, float]]
) -> dict[str, str]:
    """Column name -> a quantity of the text the column could hold."""
    out: dict[str, str] = {}
    for m in _QUANTITY_RE.finditer(text):
        said = m.group().rstrip(".,")
        parsed = parse_value(said)
        if parsed.number is None or parsed.unit is None:
            continue
        for col in measures:
            if col.name in out or col.name not in spans:
                continue
            if parsed.unit != col.unit and not convertible(parsed.unit, col.unit):
                continue
            try:
                value = convert_units(parsed.number, parsed.unit, col.unit)
            except ValueError:
                continue
            low, high = spans[col.name]
            if low / SPAN_SLACK <= value <= high * SPAN_SLACK:
                out[col.name] = said
    return out


def unread_rounds(
    memory: AnalyticMemory,
    table: TableSchema,
    filters: list[Any],
    target: str | None = None,
    extreme: tuple[str, float] | None = None,
) -> list[str]:
    """Rounds a step over ``table`` with ``filters`` could have read, and did not.

    Lookalike rounds that gave the table no row, the rounds of a table that
    looks like the same kind (:func:`split_rounds`), and - for a step over the
    column ``target`` - rounds whose row lacks that column while their text
    labels a value for it ("Total paid: €51.00" where the column is ``total``)
    or holds a number no column of the row took (:func:`_rows_unplaced`; for
    a highest or lowest value, ``extreme`` = ("max" | "min", the value found),
    only a number beyond it).
    """
    out = [
        look.round_id
        for look in lookalikes(memory, table)
        if all(_may_pass(table, f, look) for f in filters)
    ]
    out += split_rounds(memory, table, filters)
    if target:
        out += _measured_elsewhere(memory, table, filters, target)
    for flt in filters:
        out += _lacking_value(memory, table, flt, filters)
        if target:
            out += _named_elsewhere(memory, table, flt, filters, target)
    if target and any(c.name == target for c in table.columns):
        out += [
            look.round_id
            for look in _rows_without(memory, table, target)
            + _rows_unplaced(memory, table, target, extreme)
            if all(_may_pass(table, f, look) for f in filters)
        ]
    return list(dict.fromkeys(out))


def _lacking_value(
    memory: AnalyticMemory, table: TableSchema, flt: Any, filters: list[Any]
) -> list[str]:
    """Rows without the filtered column whose rounds mean what the wanted rows mean.

    A filter ``type = rent`` passes no row whose type was not written ("Gerry
    handed me the garage money, €25 cash"); such a row is named when its
    round is near the rounds of the wanted value (:data:`NEAR_FLOOR`), nearer
    than to those of the column's other values and to any other table's
    records (:data:`NEAR_MARGIN`), and no other filter rules it out.
    """
    data = flt if isinstance(flt, dict) else flt.model_dump()
    column, op, value = data.get("column"), data.get("op"), data.get("value")
    col = table.column(str(column))
    if col is None or col.sql_type != "VARCHAR" or op not in ("=", "in"):
        return []
    wanted = {str(v).lower() for v in (value if isinstance(value, list) else [value])}
    kinds = _kinds(memory)
    vectors = kinds.vectors
    if not vectors:
        return []
    groups: dict[str, list[np.ndarray]] = {}
    lacking: list[str] = []
    for source, said in memory.db.fetchall(
        f"SELECT source, {quote_ident(col.name)} FROM {memory.qualified(table)}"
    ):
        if str(source) not in vectors:
            continue
        if said is None:
            lacking.append(str(source))
        else:
            groups.setdefault(str(said).lower(), []).append(vectors[str(source)][2])
    means = {
        v: m / (np.linalg.norm(m) or 1.0)
        for v, vecs in groups.items()
        if len(vecs) >= 2
        for m in [np.mean(vecs, axis=0)]
    }
    if not lacking or not wanted & set(means):
        return []
    # the column's other values and the other tables' records compete
    rivals = [m for v, m in means.items() if v not in wanted] + [
        c for name, c in kinds.centroids.items() if name != table.table_name
    ]
    out = []
    others = [f for f in filters if f is not flt]
    for round_id in lacking:
        time, text, vec = vectors[round_id]
        near = max(float(vec @ means[v]) for v in wanted if v in means)
        rest = max((float(vec @ r) for r in rivals), default=-1.0)
        if near < NEAR_FLOOR or near - rest < NEAR_MARGIN:
            continue
        look = Lookalike(round_id, time, text.lower(), {})
        if all(_may_pass(table, f, look) for f in others):
            out.append(round_id)
    return out


def _named_elsewhere(
    memory: AnalyticMemory,
    table: TableSchema,
    flt: Any,
    filters: list[Any],
    target: str,
) -> list[str]:
    """Records of other tables that name the filtered value and hold the measure.

    A filter ``who = plumber`` over the repairs: "Plumber was in flat 2
    yesterday ... Bill came to 405.88 EUR" read into another table (or its
    kind mistaken) is a plumber's bill the step does not read. A round that
    gave another table a row, says the wanted value as a word and writes a
    quantity in the unit and range of ``target`` is named, where no other
    filter rules it out.
    """
    data = flt if isinstance(flt, dict) else flt.model_dump()
    column, op, value = data.get("column"), data.get("op"), data.get("value")
    col = table.column(str(column))
    measure = table.column(target)
    if (
        col is None
        or col.sql_type != "VARCHAR"
        or op not in ("=", "in")
        or measure is None
        or not measure.unit
        or measure.sql_type not in _NUMERIC
    ):
        return []
    wanted = [str(v).lower() for v in (value if isinstance(value, list) else [value])]
    said = [re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])") for w in wanted if w]
    spans = column_spans(memory, table, [measure])
    if not said or target not in spans:
        return []
    mine = _rounds_read(memory, table)
    out = []
    for other in memory.tables:
        if other.table_name == table.table_name:
            continue
        for round_id, time, text in _source_rounds(memory, other):
            if round_id in mine or not any(p.search(text) for p in said):
                continue
            values = _measured(text, [measure], spans)
            look = Lookalike(round_id, time, text, values)
            if values and all(_may_pass(table, f, look) for f in filters):
                out.append(round_id)
    return list(dict.fromkeys(out))


_GENERIC_MEASURES = frozenset(
    "distance duration time length weight mass cost price amount total value count "
    "number quantity volume temperature speed pace height hours minutes fee paid "
    "spent size score rating level".split()
)
"""Measure names any kind may hold: two tables with a ``distance`` are runs
and rides; two with a ``rehearsal`` are one kind's layouts."""


def _measured_elsewhere(
    memory: AnalyticMemory, table: TableSchema, filters: list[Any], target: str
) -> list[str]:
    """Rows of other tables holding the same named measure, in the step's range.

    ``rehearsal`` in hours in three tables whose rounds interleave is one
    kind's measure read in three layouts: a total over one of them is no
    total. A measure named by a word any kind may use (distance, cost,
    duration: :data:`_GENERIC_MEASURES`) or in a currency tells no kind apart
    and is left to :func:`split_rounds`.
    """
    measure = table.column(target)
    parts = target.split("_")
    if (
        measure is None
        or measure.sql_type not in _NUMERIC
        or all(p in _GENERIC_MEASURES for p in parts)
        or measure.unit in CURRENCIES
    ):
        return []
    read = _rounds_read(memory, table)
    out: list[str] = []
    for other in memory.tables:
        if other.table_name == table.table_name:
            continue
        twin = other.column(target)
        if twin is None or twin.unit != measure.unit:
            continue
        if not memory.interleaved(table, other):
            continue  # another stretch of life, not a layout
        where = f"WHERE t.{quote_ident(target)} IS NOT NULL"
        for round_id, time, text in _source_rounds(memory, other, where):
            look = Lookalike(round_id, time, text, {})
            if round_id not in read and all(_may_pass(other, f, look) for f in filters):
                out.append(round_id)
    return list(dict.fromkeys(out))


def split_rounds(
    memory: AnalyticMemory, table: TableSchema, filters: list[Any]
) -> list[str]:
    """Rounds of a table that looks like the same record kind, in the step's range.

    A kind whose layouts were read into two tables (mostly the same columns,
    interleaved rounds: :meth:`~.memory.AnalyticMemory.possible_splits`)
    answers from one of them only; the other's records that no filter of the
    step rules out are named, so that the figure is not called the total.
    """
    out: list[str] = []
    for partner in memory.possible_splits().get(table.table_name, []):
        other = memory.table(partner["table"])
        if other is None:
            continue
        for round_id, time, text in _source_rounds(memory, other):
            look = Lookalike(round_id, time, text, {})
            if all(_may_pass(other, f, look) for f in filters):
                out.append(look.round_id)
    return list(dict.fromkeys(out))


def _source_rounds(
    memory: AnalyticMemory, table: TableSchema, where: str = ""
) -> list[tuple[str, Any, str]]:
    """(round id, time, lower-cased user text) of a table's source rounds."""
    found: list[tuple[str, Any, str]] = _memo(
        memory,
        f"sources {table.table_name} {where}",
        lambda: _read_sources(memory, table, where),
    )
    return found


def _rounds_read(memory: AnalyticMemory, table: TableSchema) -> set[str]:
    """The rounds that gave a table its rows (once per generation)."""
    read: set[str] = _memo(
        memory,
        f"read {table.table_name}",
        lambda: {r[0] for r in _source_rounds(memory, table)},
    )
    return read


def _read_sources(
    memory: AnalyticMemory, table: TableSchema, where: str
) -> list[tuple[str, Any, str]]:
    rows = memory.db.fetchall(
        f"SELECT t.source, r.time, r.user_text FROM {memory.qualified(table)} t "
        "JOIN adamm_rounds r ON r.user_id = ? AND r.round_id = t.source "
        f"{where} LIMIT ?",
        [memory.user_id, COVERAGE_ROUNDS],
    )
    return [(str(rid), time, str(text or "").lower()) for rid, time, text in rows]


def _rows_without(
    memory: AnalyticMemory, table: TableSchema, target: str
) -> list[Lookalike]:
    """Source rounds whose row has no ``target`` but whose text labels one."""
    label = _label_re(target)
    out = []
    for round_id, time, low in _source_rounds(
        memory, table, f'WHERE t."{target}" IS NULL'
    ):
        m = label.search(low)
        if m is not None and parse_value(m.group("v")).number is not None:
            out.append(Lookalike(round_id, time, low, {target: m.group("v")}))
    return out


_CLOCK_RE = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}(?:[t ]\d{1,2}:\d{2}(?::\d{2})?)?|\d{1,2}[:h]\d{2}"
    r"|#\s?\d+|\d+(?:st|nd|rd|th)\b"
)
"""Dates, clock times, "7h10" and "#33": numbers that are no record's value."""
_NUMBER_RE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def _rows_unplaced(
    memory: AnalyticMemory,
    table: TableSchema,
    target: str,
    extreme: tuple[str, float] | None = None,
) -> list[Lookalike]:
    """Source rounds whose row lacks ``target`` while their text holds a number for it.

    A number no column of the row took, in the range ``target`` could hold.
    "36 pieces, 2 cracked" gave ``loaded`` 36 and ``lost`` nothing: the 2 is a
    value of the record the row does not hold, so a total of ``lost`` over the
    rows is no total.
    """
    column = table.column(target)
    if column is None or column.sql_type not in _NUMERIC:
        return []
    span = column_spans(memory, table, [column]).get(target)
    if span is None:
        return []
    low, high = span
    out = []
    for round_id, time, plain, numbers in _memo(
        memory,
        f"unplaced {table.table_name} {target}",
        lambda: _unplaced_numbers(memory, table, target),
    ):
        for said, number, unit in numbers:
            if unit is not None:
                # "7 h 54 min" is a duration's, no sleep score's
                if column.unit is None or not convertible(unit, column.unit):
                    continue
                number = convert_units(number, unit, column.unit)
            if extreme is not None and (
                number <= extreme[1] if extreme[0] == "max" else number >= extreme[1]
            ):
                continue  # cannot change the highest (lowest) value found
            if low / SPAN_SLACK <= number <= high * SPAN_SLACK:
                out.append(Lookalike(round_id, time, plain, {target: said}))
                break
    return out


_UNIT_AFTER_RE = re.compile(r"\s?([a-zµ°%]+)")
_CURRENCY_SIGNS = {"€": "EUR", "$": "USD", "£": "GBP"}


def _unit_at(text: str, m: re.Match[str]) -> str | None:
    """The unit a number is written with ("54 min", "€24"), if a known one."""
    before = text[m.start() - 1] if m.start() else ""
    if before in _CURRENCY_SIGNS:
        return _CURRENCY_SIGNS[before]
    after = _UNIT_AFTER_RE.match(text, m.end())
    if after is None:
        return None
    unit = parse_value(f"{m.group()} {after.group(1)}").unit
    if unit is None or dimension(unit) == f"[{unit}]":
        return None  # "2 cracked", "14 pieces": a count, no unit
    return unit


def _unplaced_numbers(
    memory: AnalyticMemory, table: TableSchema, target: str
) -> list[tuple[str, Any, str, list[tuple[str, float, str | None]]]]:
    """Rows without ``target``: their round, time, text and unplaced numbers.

    Each number no column of the row took, as written, its value and the unit
    it is written with (None: none, or a count's word).
    """
    numeric = [c.name for c in table.columns if c.sql_type in _NUMERIC]
    picked = ", ".join(f"t.{quote_ident(n)}" for n in numeric)
    rows = memory.db.fetchall(
        f"SELECT t.source, r.time, r.user_text, {picked} "
        f"FROM {memory.qualified(table)} t "
        "JOIN adamm_rounds r ON r.user_id = ? AND r.round_id = t.source "
        f"WHERE t.{quote_ident(target)} IS NULL LIMIT ?",
        [memory.user_id, COVERAGE_ROUNDS],
    )
    out = []
    for round_id, time, text, *values in rows:
        taken = {float(v) for v in values if v is not None}
        plain = _CLOCK_RE.sub(" ", str(text or "").lower())
        numbers = [
            (m.group(), float(m.group()), _unit_at(plain, m))
            for m in _NUMBER_RE.finditer(plain)
            if float(m.group()) not in taken
        ]
        if numbers:
            out.append((str(round_id), time, plain, numbers))
    return out


def _may_pass(table: TableSchema, flt: Any, look: Lookalike) -> bool:
    """Whether a lookalike may meet a filter (True where it cannot be told)."""
    data = flt if isinstance(flt, dict) else flt.model_dump()
    column, op, value = data.get("column"), data.get("op"), data.get("value")
    try:
        condition = round_time_condition(table, data)
    except Exception:  # noqa: BLE001 - a filter the step itself reports
        return True
    if condition is not None:
        t = look.time if isinstance(look.time, datetime) else None
        return t is None or condition.decide(t, t) is not False
    if op in ("=", "in") and isinstance(value, (str, list)):
        wanted = [value] if isinstance(value, str) else value
        return any(_holds_value(table, str(column), str(v), look.text) for v in wanted)
    said = look.values.get(str(column))
    if said is None or op not in ("<", "<=", ">", ">=", "between"):
        return True
    number = parse_value(said).number
    if number is None or value is None:
        return True
    try:
        if op == "between":
            low, high = (float(v) for v in value)
            return low <= number <= high
        bound = float(value)
    except (TypeError, ValueError):
        return True
    return {
        "<": number < bound,
        "<=": number <= bound,
        ">": number > bound,
        ">=": number >= bound,
    }[op]


def _holds_value(table: TableSchema, column: str, value: str, text: str) -> bool:
    """Whether a round's text holds a column value, or what tells it apart.

    "Je bestelling bij Kamera Express" is one layout's subject line; a receipt
    of the same shop in another layout says "Kamera Express" only. The words
    of the value that no other sample of the column has tell it apart; a
    round that says two or more of them in a row, as the value does, may hold
    the value ("Express" alone of "Tesco Express" tells nothing).
    """
    if value.lower() in text:
        return True
    col = table.column(column)
    others = {
        w
        for sample in (col.samples if col is not None else ())
        if sample.lower() != value.lower()
        for w in re.findall(r"\w+", sample.lower())
    }
    own = re.findall(r"\w+", value.lower())
    runs: list[list[str]] = [[]]
    for w in own:
        if w in others or len(w) <= 2:
            runs.append([])
        else:
            runs[-1].append(w)
    run = max(runs, key=len)
    if not others or len(run) < 2 or len(run) == len(own):
        return False
    return re.search(r"\b" + r"\W+".join(map(re.escape, run)) + r"\b", text) is not None


def unread_note(table: str, rounds: list[str]) -> str:
    """What a result says of the lookalike rounds in its range."""
    listed = ", ".join(rounds[:_LISTED]) + (
        f" and {len(rounds) - _LISTED} more" if len(rounds) > _LISTED else ""
    )
    n = len(rounds)
    return (
        f"{n} round{'s' if n != 1 else ''} in range look{'s' if n == 1 else ''} "
        f"like records of {table} that it did not read in full ({listed}): the "
        "figure may miss them"
    )


__all__ = [
    "COVERAGE_ROUNDS",
    "Lookalike",
    "lookalikes",
    "split_rounds",
    "unread_note",
    "unread_rounds",
]
