"""Materialization: schema tables (re)built from stored observations (AdaMM §3.3.3).

:class:`TableMaterializer` builds them into the state an
:class:`~langgraph_adamm.analytic.catalog.AnalyticCatalog` holds; ingestion
(``ingest.py``) and forgetting (``forget.py``) call it. The membership rule
below is computed in ``membership.py``.

Rows. A row is one record: a round's own observations (record 0) or one of the
records a round lists (a JSON array, a table of several rows). A record is a
row of schema S - "matches" S - when all of these hold:

1. it carries at least ``match_fraction`` of S's attributes, or of one of S's
   components (the patterns S grew from or absorbed by a merge, so that growing
   never strands a row);
2. it carries one of S's defining attributes when S has any: those no other
   schema has and that occur mostly inside S (support(S) / support({a}) at
   least the all-confidence threshold θ_a). A meditation {duration, mood}
   shares ``duration`` with runs {distance, duration}, but most durations are
   not runs' and it carries no ``distance``, so it is no run - whether or not
   meditations have a table of their own;
3. no other schema explains it strictly better: no S' it also satisfies (1)
   for whose attributes it carries a strict superset of those it carries of S.

Types and units. Every column's type, canonical unit and the reading of its
bare numbers are decided from statistics of all its rows' values (see
:func:`~langgraph_adamm.analytic.tables.decide_column`). When a batch changes
a decision, or the schemas that decide its rows, the table is rebuilt from the
stored observations; otherwise the batch's rows are appended. Either way the
table equals the one a single batch over the whole history builds. Values that
do not fit their column are recorded in ``adamm_cast_problems``.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from langgraph_adamm.analytic.catalog import KEY_SEP as KEY_SEP
from langgraph_adamm.analytic.catalog import AnalyticCatalog
from langgraph_adamm.analytic.extraction.base import Observation, Provenance
from langgraph_adamm.analytic.membership import (
    Membership as Membership,
)
from langgraph_adamm.analytic.membership import (
    defining_attributes as defining_attributes,
)
from langgraph_adamm.analytic.membership import (
    is_row as is_row,
)
from langgraph_adamm.analytic.membership import (
    membership as membership,
)
from langgraph_adamm.analytic.record_dates import record_times
from langgraph_adamm.analytic.schema_induction import Pattern, optional_attributes
from langgraph_adamm.analytic.table_descriptions import (
    OfflineDescriber,
    TableDescriber,
    TableDescription,
    heading_in,
)
from langgraph_adamm.analytic.tables import (
    SAMPLES,
    Column,
    ColumnDecision,
    ColumnStats,
    TableSchema,
    best_observations,
    cell,
    decide_column,
    sample_values,
)
from langgraph_adamm.analytic.values import ParsedValue
from langgraph_adamm.storage.bulk import insert_columns
from langgraph_adamm.storage.database import (
    IDENTIFIER_RE,
    quote_ident,
)

Row = tuple[str, int, int, datetime | None, dict[str, Observation]]
"""(round id, record, order, time, best observation per attribute)."""

OBSERVATION_FIELDS = (
    "o.attribute, o.raw_attribute, o.value_text, o.value_kind, o.number, o.unit, "
    "o.boolean, o.ts, o.source, o.image_id, o.low, o.high, o.note, o.scale, o.alt"
)
"""The stored fields of an observation (table alias ``o``), in the order
:func:`observation_from_row` reads them."""


def observation_from_row(
    round_id: str,
    record: int,
    fields: Sequence[Any],
    span: tuple[int, int] | None = None,
) -> Observation:
    """An observation read back from ``adamm_observations`` (see OBSERVATION_FIELDS).

    The span is read back only by those that use it (realignment).
    """
    (
        attr,
        raw,
        text,
        kind,
        num,
        unit,
        boolean,
        ts,
        src,
        img,
        low,
        high,
        note,
        scale,
        alt,
    ) = fields
    return Observation(
        attr,
        raw or attr,
        ParsedValue(
            kind, text or "", num, unit, boolean, ts, low, high, note, scale, alt
        ),
        Provenance(round_id, src, img, span, record),
    )


def _column(attr: str, d: ColumnDecision, samples: tuple[str, ...]) -> Column:
    """A column as decided, not yet described."""
    return Column(
        attr,
        attr,
        d.sql_type,
        d.unit,
        "",
        samples,
        d.bare_unit,
        d.band,
        d.clock_reading,
        d.alt_reading,
    )


def _takes_heading(describer: TableDescriber) -> bool:
    """Whether a describer's ``describe`` accepts ``heading`` (older ones do not)."""
    try:
        params = inspect.signature(describer.describe).parameters
    except (TypeError, ValueError):
        return False
    return "heading" in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )


Rebuild = Callable[[int, Pattern, int | None, Membership], TableSchema]
"""Rebuilds one table from all stored observations: (schema id, attributes,
order it is created at, membership rule) -> the new table."""


class TableMaterializer:
    """Builds a user's schema tables from stored observations.

    Args:
        catalog: The state the tables belong to; every table built is put in it.
        describer: Writes table metadata.
    """

    def __init__(self, catalog: AnalyticCatalog, describer: TableDescriber) -> None:
        self.catalog = catalog
        self.db = catalog.db
        self.user_id = catalog.user_id
        self.config = catalog.config
        self.describer = describer

    def qualified(self, table: TableSchema) -> str:
        """The quoted, namespace-qualified SQL name of a table."""
        return self.catalog.qualified(table)

    def _stored_observations(self, attributes: Pattern) -> list[Row]:
        """Every processed record carrying any of the attributes.

        The attributes are a schema's own and its components' (a part folded
        into it may be all a record states). With all its values: whether a
        record is a row depends on all its attributes, as when a batch's
        records are appended.
        """
        rows = self.db.fetchall(
            'SELECT o.round_id, coalesce(o.record, 0), r."order", r.time, '
            f"{OBSERVATION_FIELDS} FROM adamm_observations o JOIN adamm_rounds r "
            "USING (user_id, round_id) JOIN (SELECT DISTINCT round_id, "
            "coalesce(record, 0) AS rec FROM adamm_observations WHERE user_id = ? "
            "AND attribute IN (SELECT unnest(?::VARCHAR[]))) k "
            "ON k.round_id = o.round_id AND k.rec = coalesce(o.record, 0) "
            "WHERE o.user_id = ? "
            'ORDER BY r."order", 2',
            [self.user_id, sorted(attributes), self.user_id],
        )
        grouped: dict[
            tuple[str, int], tuple[int, datetime | None, list[Observation]]
        ] = {}
        for rid, record, order, time, *fields in rows:
            obs = observation_from_row(rid, int(record), fields)
            grouped.setdefault((rid, int(record)), (order, time, []))[2].append(obs)
        return [
            (rid, record, order, time, best_observations(obs))
            for (rid, record), (order, time, obs) in grouped.items()
        ]

    def _heading(self, rows: Sequence[Row]) -> str | None:
        """The heading the first rows of a table give themselves, if one recurs.

        The first θ_s rows in history order (every batching of the history has
        them when the schema is discovered) are read from their stored texts;
        a heading counts when more than half of them carry it.
        """
        sample = [r for r in rows if r[1] == 0][: max(1, self.config.support_threshold)]
        if len(sample) < 2:
            return None
        ids = [r[0] for r in sample]
        texts: dict[str, dict[str, str]] = {rid: {} for rid in ids}
        for rid, user, assistant in self.db.fetchall(
            "SELECT round_id, user_text, assistant_text FROM adamm_rounds "
            "WHERE user_id = ? AND round_id IN (SELECT unnest(?::VARCHAR[]))",
            [self.user_id, ids],
        ):
            texts[rid].update({"user": user or "", "assistant": assistant or ""})
        for rid, image_id, caption, ocr in self.db.fetchall(
            "SELECT round_id, image_id, caption, ocr FROM adamm_images "
            "WHERE user_id = ? AND round_id IN (SELECT unnest(?::VARCHAR[]))",
            [self.user_id, ids],
        ):
            texts[rid][f"{image_id}/caption"] = caption or ""
            texts[rid][f"{image_id}/ocr"] = ocr or ""
        starts: dict[str, dict[str, int]] = {rid: {} for rid in ids}
        for rid, source, image_id, start in self.db.fetchall(
            "SELECT round_id, source, image_id, min(span_start) FROM "
            "adamm_observations WHERE user_id = ? AND coalesce(record, 0) = 0 "
            "AND span_start IS NOT NULL "
            "AND round_id IN (SELECT unnest(?::VARCHAR[])) "
            "GROUP BY round_id, source, image_id",
            [self.user_id, ids],
        ):
            key = f"{image_id}/{source}" if image_id else source
            starts[rid][key] = int(start)
        # the rules' patterns load here, not to read a memory
        from langgraph_adamm.analytic.extraction.rule_extractor import record_heading

        votes = Counter(record_heading(starts[rid], texts[rid]) for rid in ids)
        votes.pop(None, None)
        if not votes:
            return None
        heading, count = votes.most_common(1)[0]
        return heading if 2 * count > len(sample) else None

    def _table_heading(
        self,
        schema_id: int,
        previous: TableSchema | None,
        rows: Sequence[Row] | None = None,
    ) -> str | None:
        """A table's heading, read once per process.

        From the description the offline describer wrote when the table is not
        new; else from its first ``rows`` (a new table, or a describer that
        writes its own descriptions). Without rows nothing is read yet.
        """
        if schema_id in self.catalog.headings:
            return self.catalog.headings[schema_id]
        heading = heading_in(previous.description) if previous else None
        offline = isinstance(self.describer, OfflineDescriber)
        if heading is None and rows is not None and (previous is None or not offline):
            heading = self._heading(rows)
        if heading is not None or rows is not None or offline:
            self.catalog.headings[schema_id] = heading
        return heading

    def _unique_name(self, proposed: str, schema_id: int) -> str:
        taken = {t.table_name for s, t in self.catalog.tables.items() if s != schema_id}
        name, n = proposed[:56], 2
        while name in taken or not IDENTIFIER_RE.match(name):
            name = f"{proposed[:52]}_{n}"
            n += 1
        return name

    @staticmethod
    def _column_stats(
        attributes: Pattern, rows: Sequence[Row]
    ) -> dict[str, ColumnStats]:
        stats = {a: ColumnStats() for a in attributes}
        for row in rows:
            for attr, obs in row[4].items():
                if attr in stats:
                    stats[attr].add(obs)
        return stats

    def materialize(
        self,
        schema_id: int,
        attributes: Pattern,
        at_order: int | None,
        member: Membership,
        name: str | None = None,
    ) -> TableSchema:
        """(Re)build a schema's table from all stored observations of its attributes."""
        fraction = self.config.match_fraction
        rows = [
            r
            for r in self._stored_observations(attributes.union(*member.components))
            if is_row(frozenset(r[4]), member, fraction)
        ]
        previous = self.catalog.tables.get(schema_id)
        held = attributes | self.optional(attributes)
        # Columns in attribute order, so that no batching changes the table.
        stats = self._column_stats(held, rows)
        columns: list[Column] = []
        for attr in sorted(held):
            d = decide_column(stats[attr], self.config.type_inference_fraction, attr)
            samples = sample_values(
                cell(d, r[4][attr])[0] for r in rows if attr in r[4]
            )
            columns.append(_column(attr, d, samples))
        self._table_heading(schema_id, previous, rows)
        table = self.described(schema_id, attributes, columns, at_order, name)
        if previous is not None and previous.table_name != table.table_name:
            self.db.execute(f"DROP TABLE IF EXISTS {self.qualified(previous)}")
        # every statement names its columns: the engine may lay them out as
        # it reads them fastest, and index the time order it reads them in
        physical = self.db.physical_layout(list(table.all_columns))
        col_defs = ", ".join(f"{quote_ident(c.name)} {c.sql_type}" for c in physical)
        self.db.execute(f"DROP TABLE IF EXISTS {self.qualified(table)}")
        self.db.execute(f"CREATE TABLE {self.qualified(table)} ({col_defs})")
        for sql in self.db.time_order_indexes(self.qualified(table)):
            self.db.execute(sql)
        self.catalog.tables[schema_id] = table
        self.catalog.keep_stats(schema_id, stats)
        self.db.execute(
            "DELETE FROM adamm_cast_problems WHERE user_id = ? AND schema_id = ?",
            [self.user_id, schema_id],
        )
        self._insert_rows(table, rows)
        self.catalog.write_schema(table)
        return table

    def optional(self, attributes: Pattern) -> frozenset[str]:
        """The schema's optional attributes under the current counts."""
        return optional_attributes(
            self.catalog.counts, attributes, self.catalog.patterns, self.config
        )

    def described(
        self,
        schema_id: int,
        attributes: Pattern,
        columns: list[Column],
        at_order: int | None,
        name: str | None = None,
    ) -> TableSchema:
        """The next version of a schema: its columns described, its table named."""
        previous = self.catalog.tables.get(schema_id)
        heading = self._table_heading(schema_id, previous)
        described = self._describe(
            [(c.name, c.sql_type, c.unit, c.samples) for c in columns], heading
        )
        if name is None and previous is not None:
            name = previous.table_name
        elif name is None:
            # Named after the pattern first discovered, which every batching of
            # the history discovers alike (induction goes round by round).
            comps = self.catalog.components.get(schema_id, ())
            origin = comps[0] if comps else attributes
            first = (
                described
                if origin == attributes and all(c.attribute in origin for c in columns)
                else self._describe(
                    [
                        (c.name, c.sql_type, c.unit, c.samples)
                        for c in columns
                        if c.attribute in origin
                    ],
                    heading,
                )
            )
            name = self._unique_name(first.name, schema_id)
        columns = [
            Column(
                c.name,
                c.attribute,
                c.sql_type,
                c.unit,
                described.columns.get(c.name, ""),
                c.samples,
                c.bare_unit,
                c.band,
                c.clock_reading,
                c.alt_reading,
            )
            for c in columns
        ]
        return TableSchema(
            self.user_id,
            schema_id,
            name,
            described.description,
            attributes,
            tuple(columns),
            (previous.version + 1) if previous else 1,
            previous.created_order if previous else at_order,
        )

    def _describe(
        self,
        columns: list[tuple[str, str, str | None, tuple[str, ...]]],
        heading: str | None,
    ) -> TableDescription:
        """The describer's metadata; a heading only to a describer that takes one."""
        if heading is not None and _takes_heading(self.describer):
            return self.describer.describe(columns, heading=heading)
        return self.describer.describe(columns)

    def table_stats(
        self, table: TableSchema, member: Membership
    ) -> dict[str, ColumnStats]:
        """A table's column statistics, read back once per process when needed."""
        stats = self.catalog.stats.get(table.schema_id)
        if stats is None:
            rows = [
                r
                for r in self._stored_observations(
                    table.attributes.union(*member.components)
                )
                if is_row(frozenset(r[4]), member, self.config.match_fraction)
            ]
            stats = self._column_stats(table.column_attributes, rows)
            self.catalog.keep_stats(table.schema_id, stats)
        return stats

    def append_or_rebuild(
        self,
        table: TableSchema,
        batch_rows: Sequence[Row],
        member: Membership,
        processed: set[str],
    ) -> bool:
        """Append a batch's rows to a table, or rebuild it if a decision changes.

        Returns True when the table was rebuilt.

        ``processed`` holds the batch's round ids, which the stored statistics
        (read before this batch's rows) must not count twice.
        """
        fraction = self.config.match_fraction
        rows = [r for r in batch_rows if is_row(frozenset(r[4]), member, fraction)]
        if not rows:
            return False
        optional = self.optional(table.attributes)
        if optional != table.column_attributes - table.attributes:
            # an attribute became (or stopped being) an optional column
            self.materialize(table.schema_id, table.attributes, None, member)
            return True
        if table.schema_id not in self.catalog.stats:
            # Statistics counted from the stored observations hold this batch.
            stats = self.table_stats(table, member)
            stale = True
        else:
            stats = self.catalog.stats[table.schema_id]
            for row in rows:
                for attr, obs in row[4].items():
                    if attr in stats:
                        stats[attr].add(obs)
            stale = False
        for col in table.columns:
            decided = decide_column(
                stats[col.attribute], self.config.type_inference_fraction, col.attribute
            )
            if decided != col.decision:
                self.materialize(table.schema_id, table.attributes, None, member)
                return True
        if stale:
            # The table may already hold some of these rows (a re-read after a
            # reload); rebuilding is the one safe way to add them.
            existing = self.db.fetchall(
                f"SELECT count(*) FROM {self.qualified(table)} WHERE source IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [sorted(processed)],
            )[0][0]
            if existing:
                self.materialize(table.schema_id, table.attributes, None, member)
                return True
        else:
            self.catalog.keep_stats(table.schema_id, stats)
        self._insert_rows(table, rows)
        self._add_samples(table, rows)
        return False

    def _add_samples(self, table: TableSchema, rows: Sequence[Row]) -> None:
        """Give columns short of examples some from appended rows.

        A column with fewer than :data:`SAMPLES` examples takes them from the
        rows in order, and the table is described again, as a rebuild would.
        """
        columns: list[Column] = []
        for col in table.columns:
            if len(col.samples) < SAMPLES:
                new = (
                    cell(col.decision, r[4][col.attribute])[0]
                    for r in rows
                    if col.attribute in r[4]
                )
                col = replace(col, samples=sample_values([*col.samples, *new]))
            columns.append(col)
        if all(
            c.samples == o.samples for c, o in zip(columns, table.columns, strict=True)
        ):
            return
        plain = [replace(c, description="") for c in columns]
        described = self.described(table.schema_id, table.attributes, plain, None)
        self.catalog.tables[table.schema_id] = replace(described, version=table.version)
        self.catalog.write_schema(self.catalog.tables[table.schema_id])

    def _insert_rows(self, table: TableSchema, rows: Sequence[Row]) -> None:
        if not rows:
            return
        values: list[list[Any]] = [
            [r[0] for r in rows],
            [r[2] for r in rows],
            record_times(self.db, self.user_id, rows),
        ]
        problems: list[list[Any]] = [[] for _ in range(7)]
        for col in table.columns:
            decision = col.decision
            cells: list[Any] = []
            for r in rows:
                obs = r[4].get(col.attribute)
                if obs is None:
                    cells.append(None)
                    continue
                value, why = cell(decision, obs)
                cells.append(value)
                if why is not None:
                    for i, v in enumerate(
                        (
                            self.user_id,
                            table.schema_id,
                            col.name,
                            r[0],
                            r[1],
                            obs.value.text[:200],
                            why,
                        )
                    ):
                        problems[i].append(v)
            values.append(cells)
        insert_columns(
            self.db,
            self.qualified(table),
            [c.name for c in table.all_columns],
            [c.sql_type for c in table.all_columns],
            values,
        )
        if problems[0]:
            insert_columns(
                self.db,
                "adamm_cast_problems",
                (
                    "user_id",
                    "schema_id",
                    "column_name",
                    "round_id",
                    "record",
                    "value_text",
                    "reason",
                ),
                (
                    "VARCHAR",
                    "INTEGER",
                    "VARCHAR",
                    "VARCHAR",
                    "INTEGER",
                    "VARCHAR",
                    "VARCHAR",
                ),
                problems,
            )
