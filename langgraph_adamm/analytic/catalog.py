"""The analytic catalog: one user's schemas, tables and counts, held and stored.

Ingestion, materialization, forgetting and correction all read and change the
same state - the support counts, each schema's table, components and column
statistics, the qualified table names - and keep its stored form
(``adamm_pattern_types``, ``adamm_schemas``, ``adamm_columns``,
``adamm_column_stats``) equal to it. :class:`AnalyticCatalog` is that state,
with the writes that keep the two together; the services take it in their
constructors.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from langgraph_adamm.analytic.membership import Membership, membership
from langgraph_adamm.analytic.schema_induction import Pattern, PatternCounts
from langgraph_adamm.analytic.tables import Column, ColumnStats, TableSchema
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.storage.database import MemoryDatabase, quote_ident
from langgraph_adamm.storage.dialect import upsert

KEY_SEP = "\x1f"
"""Joins a pattern's sorted attributes into one stored key."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class CatalogState:
    """A copy of the catalog's in-memory state, to put back after a rollback."""

    counts: PatternCounts
    tables: dict[int, TableSchema]
    components: dict[int, tuple[Pattern, ...]]
    patterns: list[Pattern]
    schema_ids: dict[Pattern, int]
    stats: dict[int, dict[str, ColumnStats]]


class AnalyticCatalog:
    """One user's analytic state inside a :class:`MemoryDatabase`.

    Args:
        db: The memory database.
        user_id: The namespace whose schemas and tables this holds.
        config: Thresholds and batch sizes.
    """

    def __init__(self, db: MemoryDatabase, user_id: str, config: AdaMMConfig) -> None:
        self.db = db
        self.user_id = user_id
        self.config = config
        self.namespace = db.ensure_namespace(user_id)
        self.generation = 0
        """Bumped by every applied batch, so that caches of derived data can tell."""
        self.counts = PatternCounts()
        """Support counts of every attribute set ingested."""
        self.tables: dict[int, TableSchema] = {}
        """Schema id -> its materialized table, oldest first."""
        self.components: dict[int, tuple[Pattern, ...]] = {}
        """Schema id -> the patterns it grew from or absorbed."""
        self.stats: dict[int, dict[str, ColumnStats]] = {}
        """Schema id -> its columns' statistics, where known in this process."""
        self.headings: dict[int, str | None] = {}
        """Schema id -> the heading its rows give themselves, once read."""
        self.patterns: list[Pattern] = []
        """The schemas' attribute sets, as induction sees them."""
        self.schema_ids: dict[Pattern, int] = {}
        """A schema's attribute set -> its schema id."""

    # -- reading ----------------------------------------------------------
    def reload(self) -> None:
        """Rebuild in-memory counts and schema metadata from the database.

        The new state is read first, from one snapshot, and then put in place,
        so that a reader in another thread sees the old tables or the new ones,
        never none.
        """
        with self.db.snapshot():
            self._load()

    def _load(self) -> None:
        counts = PatternCounts()
        for key, count in self.db.fetchall(
            "SELECT attributes, count FROM adamm_pattern_types WHERE user_id = ?",
            [self.user_id],
        ):
            counts.add(key.split(KEY_SEP) if key else (), int(count))
        tables: dict[int, TableSchema] = {}
        components: dict[int, tuple[Pattern, ...]] = {}
        columns: dict[int, list[Column]] = {}
        for (
            sid,
            name,
            attr,
            sql_type,
            unit,
            desc,
            samples,
            bare_unit,
            band_low,
            band_high,
            clock_reading,
            alt_reading,
        ) in self.db.fetchall(
            "SELECT schema_id, column_name, attribute, sql_type, unit, description, "
            "samples, bare_unit, band_low, band_high, clock_reading, alt_reading FROM "
            "adamm_columns WHERE user_id = ? ORDER BY schema_id, position",
            [self.user_id],
        ):
            band = (band_low, band_high) if band_low is not None else None
            columns.setdefault(sid, []).append(
                Column(
                    name,
                    attr,
                    sql_type,
                    unit,
                    desc or "",
                    tuple(samples or ()),
                    bare_unit,
                    band,
                    clock_reading,
                    alt_reading or "",
                )
            )
        for sid, table, desc, attrs, created, version, comps in self.db.fetchall(
            "SELECT schema_id, table_name, description, attributes, created_order, "
            "version, components FROM adamm_schemas WHERE user_id = ? "
            "ORDER BY schema_id",
            [self.user_id],
        ):
            tables[sid] = TableSchema(
                self.user_id,
                sid,
                table,
                desc or "",
                frozenset(attrs),
                tuple(columns.get(sid, ())),
                version,
                created,
            )
            components[sid] = tuple(
                frozenset(c.split(KEY_SEP)) for c in (comps or ()) if c
            )
        stats = self._read_stats(tables)
        self.counts = counts
        self.tables = tables
        self.components = components
        self.stats = stats
        self.headings = {}
        self.patterns = [t.attributes for t in tables.values()]
        self.schema_ids = {t.attributes: s for s, t in tables.items()}

    def _read_stats(
        self, tables: dict[int, TableSchema]
    ) -> dict[int, dict[str, ColumnStats]]:
        """The stored column statistics of these tables.

        A table without them, or with unreadable ones, has them counted again
        when they are needed.
        """
        out: dict[int, dict[str, ColumnStats]] = {}
        for sid, text in self.db.fetchall(
            "SELECT schema_id, stats FROM adamm_column_stats WHERE user_id = ?",
            [self.user_id],
        ):
            table = tables.get(sid)
            try:
                stats = {
                    a: ColumnStats.from_json(t) for a, t in json.loads(text).items()
                }
            except (ValueError, AttributeError):
                continue
            if table is not None and set(stats) == set(table.attributes):
                out[sid] = stats
        return out

    def qualified(self, table: TableSchema) -> str:
        """The quoted, namespace-qualified SQL name of a table."""
        return f"{quote_ident(self.namespace)}.{quote_ident(table.table_name)}"

    def row_count(self, table: TableSchema) -> int:
        """Rows in a materialized table."""
        row = self.db.fetchall(f"SELECT count(*) FROM {self.qualified(table)}")
        return int(row[0][0])

    def membership(self) -> dict[int, Membership]:
        """The membership rule of every table, from the current counts."""
        patterns = {
            sid: (t.attributes, self.components.get(sid, ()))
            for sid, t in self.tables.items()
        }
        return membership(patterns, self.counts, self.config.all_confidence_threshold)

    # -- changing, in one transaction --------------------------------------
    def atomically(self, work: Callable[[], _T]) -> _T:
        """Run a change in one transaction (the caller's, when one is open).

        On any error the in-memory state goes back to what the database holds
        once the transaction is rolled back: reloaded when the transaction is
        this call's own, restored from a copy when it is the caller's (which
        rolls back when the error reaches it, after this returns).
        """
        self.generation += 1
        saved = self.snapshot() if self.db.in_transaction else None
        try:
            with self.db.transaction():
                return work()
        except BaseException:
            if saved is None:
                self.reload()
            else:
                self.restore(saved)
            raise

    def snapshot(self) -> CatalogState:
        """A copy of the in-memory state that later changes leave alone."""
        return CatalogState(
            copy.deepcopy(self.counts),
            dict(self.tables),
            dict(self.components),
            list(self.patterns),
            dict(self.schema_ids),
            dict(self.stats),
        )

    def restore(self, saved: CatalogState) -> None:
        """Put back the state a :meth:`snapshot` copied."""
        self.counts = saved.counts
        self.tables = saved.tables
        self.components = saved.components
        self.patterns = saved.patterns
        self.schema_ids = saved.schema_ids
        self.stats = saved.stats

    # -- the stored form ----------------------------------------------------
    def save_counts(self, touched: set[Pattern]) -> None:
        """Persist the counts of these patterns; one no longer counted is deleted."""
        live = [t for t in touched if t in self.counts.types]
        gone = [KEY_SEP.join(sorted(t)) for t in touched if t not in self.counts.types]
        if live:
            head, tail = upsert(
                "adamm_pattern_types",
                ("user_id", "attributes", "count"),
                ("user_id", "attributes"),
            )
            self.db.execute(
                head + "SELECT CAST(? AS VARCHAR), unnest(?::VARCHAR[]), "
                "unnest(?::BIGINT[])" + tail,
                [
                    self.user_id,
                    [KEY_SEP.join(sorted(t)) for t in live],
                    [self.counts.types[t] for t in live],
                ],
            )
        if gone:
            self.db.execute(
                "DELETE FROM adamm_pattern_types WHERE user_id = ? AND attributes IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.user_id, gone],
            )

    def write_schema(self, table: TableSchema) -> None:
        """Store a schema's metadata row and its columns' rows."""
        schema_id, columns = table.schema_id, table.columns
        head, tail = upsert(
            "adamm_schemas",
            (
                "user_id",
                "schema_id",
                "table_name",
                "description",
                "attributes",
                "created_order",
                "version",
                "components",
            ),
            ("user_id", "schema_id"),
        )
        self.db.execute(
            head + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)" + tail,
            [
                self.user_id,
                schema_id,
                table.table_name,
                table.description,
                sorted(table.attributes),
                table.created_order,
                table.version,
                [KEY_SEP.join(sorted(c)) for c in self.components.get(schema_id, ())],
            ],
        )
        self.db.execute(
            "DELETE FROM adamm_columns WHERE user_id = ? AND schema_id = ?",
            [self.user_id, schema_id],
        )
        for pos, c in enumerate(columns):
            self.db.execute(
                "INSERT INTO adamm_columns (user_id, schema_id, position, column_name, "
                "attribute, sql_type, unit, description, samples, bare_unit, "
                "band_low, band_high, clock_reading, alt_reading) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    c.bare_unit,
                    c.band[0] if c.band else None,
                    c.band[1] if c.band else None,
                    c.clock_reading,
                    c.alt_reading,
                ],
            )

    def keep_stats(self, schema_id: int, stats: dict[str, ColumnStats]) -> None:
        """Hold a table's column statistics, and store them beside its rows."""
        self.stats[schema_id] = stats
        head, tail = upsert(
            "adamm_column_stats",
            ("user_id", "schema_id", "stats"),
            ("user_id", "schema_id"),
        )
        self.db.execute(
            head + "VALUES (?, ?, ?)" + tail,
            [
                self.user_id,
                schema_id,
                json.dumps({a: st.to_json() for a, st in sorted(stats.items())}),
            ],
        )

    def drop(self, table: TableSchema) -> None:
        """Drop a table with its stored metadata and statistics."""
        self.db.execute(f"DROP TABLE IF EXISTS {self.qualified(table)}")
        meta_tables = (
            "adamm_schemas",
            "adamm_columns",
            "adamm_cast_problems",
            "adamm_column_stats",
        )
        for meta in meta_tables:
            self.db.execute(
                f"DELETE FROM {meta} WHERE user_id = ? AND schema_id = ?",
                [self.user_id, table.schema_id],
            )
        self.stats.pop(table.schema_id, None)
