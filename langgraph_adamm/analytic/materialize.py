"""Materialization: schema tables (re)built from stored observations (AdaMM §3.3.3).

Kept apart from ingestion (``store.py``); ``AnalyticMemory`` combines the two.
A table is rebuilt from every stored observation of its attributes when its
schema is discovered or evolves; otherwise each batch appends its rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from langgraph_adamm.analytic.describe import TableDescriber
from langgraph_adamm.analytic.extraction.base import Observation, Provenance
from langgraph_adamm.analytic.mining import Pattern, PatternCounts
from langgraph_adamm.analytic.tables import (
    Column,
    TableSchema,
    best_observations,
    cell_value,
    infer_column_type,
    min_matching,
    sample_values,
)
from langgraph_adamm.analytic.values import ParsedValue
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.history import Round
from langgraph_adamm.storage.database import (
    IDENTIFIER_RE,
    MemoryDatabase,
    insert_columns,
    quote_ident,
)


class MaterializerMixin:
    """Table building; the state it reads is kept by ``AnalyticMemory``."""

    db: MemoryDatabase
    user_id: str
    config: AdaMMConfig
    describer: TableDescriber
    counts: PatternCounts
    namespace: str
    _tables: dict[int, TableSchema]

    def qualified(self, table: TableSchema) -> str:
        """The quoted, namespace-qualified SQL name of a table."""
        return f"{quote_ident(self.namespace)}.{quote_ident(table.table_name)}"

    def _stored_observations(
        self, attributes: Pattern
    ) -> list[tuple[str, int, datetime | None, dict[str, Observation]]]:
        """Every processed round carrying any of the attributes, with its values."""
        rows = self.db.fetchall(
            'SELECT o.round_id, r."order", r.time, o.attribute, o.raw_attribute, '
            "o.value_text, o.value_kind, o.number, o.unit, o.boolean, o.ts, o.source, "
            "o.image_id FROM adamm_observations o JOIN adamm_rounds r "
            "USING (user_id, round_id) WHERE o.user_id = ? AND o.attribute IN "
            '(SELECT unnest(?::VARCHAR[])) ORDER BY r."order"',
            [self.user_id, sorted(attributes)],
        )
        grouped: dict[str, tuple[int, datetime | None, list[Observation]]] = {}
        for (
            rid,
            order,
            time,
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
        ) in rows:
            obs = Observation(
                attr,
                raw or attr,
                ParsedValue(kind, text or "", num, unit, boolean, ts),
                Provenance(rid, src, img),
            )
            grouped.setdefault(rid, (order, time, []))[2].append(obs)
        return [
            (rid, order, time, best_observations(obs))
            for rid, (order, time, obs) in grouped.items()
        ]

    def _unique_name(self, proposed: str, schema_id: int) -> str:
        taken = {t.table_name for s, t in self._tables.items() if s != schema_id}
        name, n = proposed[:56], 2
        while name in taken or not IDENTIFIER_RE.match(name):
            name = f"{proposed[:52]}_{n}"
            n += 1
        return name

    def _materialize(
        self, schema_id: int, attributes: Pattern, at_order: int | None
    ) -> TableSchema:
        """(Re)build a schema's table from all stored observations of its attributes."""
        need = min_matching(len(attributes), self.config.match_fraction)
        rows = [
            r
            for r in self._stored_observations(attributes)
            if sum(1 for a in attributes if a in r[3]) >= need
        ]
        previous = self._tables.get(schema_id)
        old_order = [c.attribute for c in previous.columns] if previous else []
        new_attrs = sorted(
            (a for a in attributes if a not in old_order),
            key=lambda a: (-self.counts.items[a], a),
        )
        columns: list[Column] = []
        for attr in [a for a in old_order if a in attributes] + new_attrs:
            observed = [r[3][attr] for r in rows if attr in r[3]]
            sql_type, unit = infer_column_type(
                observed, self.config.type_inference_fraction
            )
            col = Column(attr, attr, sql_type, unit)
            samples = sample_values(cell_value(col, o) for o in observed)
            columns.append(Column(attr, attr, sql_type, unit, "", samples))
        described = self.describer.describe(
            [(c.name, c.sql_type, c.unit, c.samples) for c in columns]
        )
        name = (
            previous.table_name
            if previous
            else self._unique_name(described.name, schema_id)
        )
        columns = [
            Column(
                c.name,
                c.attribute,
                c.sql_type,
                c.unit,
                described.columns.get(c.name, ""),
                c.samples,
            )
            for c in columns
        ]
        table = TableSchema(
            self.user_id,
            schema_id,
            name,
            described.description,
            attributes,
            tuple(columns),
            (previous.version + 1) if previous else 1,
            previous.created_order if previous else at_order,
        )
        col_defs = ", ".join(
            f"{quote_ident(c.name)} {c.sql_type}" for c in table.all_columns
        )
        self.db.execute(f"CREATE OR REPLACE TABLE {self.qualified(table)} ({col_defs})")
        self._tables[schema_id] = table
        self._insert_rows(
            table, [(rid, order, time, best) for rid, order, time, best in rows]
        )
        self.db.execute(
            "INSERT OR REPLACE INTO adamm_schemas (user_id, schema_id, table_name, "
            "description, attributes, created_order, version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                self.user_id,
                schema_id,
                name,
                table.description,
                sorted(attributes),
                table.created_order,
                table.version,
            ],
        )
        self.db.execute(
            "DELETE FROM adamm_columns WHERE user_id = ? AND schema_id = ?",
            [self.user_id, schema_id],
        )
        for pos, c in enumerate(columns):
            self.db.execute(
                "INSERT INTO adamm_columns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    self.user_id,
                    schema_id,
                    pos,
                    c.name,
                    c.attribute,
                    c.sql_type,
                    c.unit,
                    c.description,
                    list(c.samples),
                ],
            )
        return table

    def _drop(self, table: TableSchema) -> None:
        self.db.execute(f"DROP TABLE IF EXISTS {self.qualified(table)}")
        for meta in ("adamm_schemas", "adamm_columns"):
            self.db.execute(
                f"DELETE FROM {meta} WHERE user_id = ? AND schema_id = ?",
                [self.user_id, table.schema_id],
            )

    def _append_rows(
        self,
        table: TableSchema,
        batch: Sequence[tuple[int, Round, dict[str, Observation]]],
    ) -> None:
        need = min_matching(len(table.attributes), self.config.match_fraction)
        rows = [
            (rnd.round_id, order, rnd.time, best)
            for order, rnd, best in batch
            if sum(1 for a in table.attributes if a in best) >= need
        ]
        self._insert_rows(table, rows)

    def _insert_rows(
        self,
        table: TableSchema,
        rows: Sequence[tuple[str, int, datetime | None, dict[str, Observation]]],
    ) -> None:
        if not rows:
            return
        values: list[list[Any]] = [
            [r[0] for r in rows],
            [r[1] for r in rows],
            [r[2] for r in rows],
        ]
        for col in table.columns:
            cells = [
                cell_value(col, r[3][col.attribute]) if col.attribute in r[3] else None
                for r in rows
            ]
            if col.sql_type == "BIGINT" and any(isinstance(v, float) for v in cells):
                table = self._widen(table, col)
            values.append(cells)
        insert_columns(
            self.db,
            self.qualified(table),
            [c.name for c in table.all_columns],
            [c.sql_type for c in table.all_columns],
            values,
        )

    def _widen(self, table: TableSchema, col: Column) -> TableSchema:
        """An integer column that met a fraction becomes a DOUBLE column."""
        self.db.execute(
            f"ALTER TABLE {self.qualified(table)} ALTER COLUMN {quote_ident(col.name)} "
            "TYPE DOUBLE"
        )
        self.db.execute(
            "UPDATE adamm_columns SET sql_type = 'DOUBLE' WHERE user_id = ? AND "
            "schema_id = ? AND column_name = ?",
            [self.user_id, table.schema_id, col.name],
        )
        columns = tuple(
            Column(c.name, c.attribute, "DOUBLE", c.unit, c.description, c.samples)
            if c.name == col.name
            else c
            for c in table.columns
        )
        widened = TableSchema(
            table.user_id,
            table.schema_id,
            table.table_name,
            table.description,
            table.attributes,
            columns,
            table.version,
            table.created_order,
        )
        self._tables[table.schema_id] = widened
        return widened
