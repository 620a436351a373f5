"""One user's analytic memory, composed of services over one catalog.

:class:`AnalyticMemory` holds an
:class:`~langgraph_adamm.analytic.catalog.AnalyticCatalog` (the user's
counts, schemas and tables) and the services that change it, each given the
catalog explicitly: a :class:`~.ingest.RoundIngestor` stores rounds and applies
extracted batches, a :class:`~.materialize.TableMaterializer` builds tables, a
:class:`~.forget.RoundForgetter` forgets rounds and a
:class:`~.correct.ValueCorrector` corrects values. It delegates to them and
answers the questions about stored rounds and tables the memory asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph_adamm.analytic.catalog import AnalyticCatalog
from langgraph_adamm.analytic.correct import ValueCorrector
from langgraph_adamm.analytic.extraction.base import Observation
from langgraph_adamm.analytic.forget import (
    AnalyticCorrection as AnalyticCorrection,
)
from langgraph_adamm.analytic.forget import (
    AnalyticForget as AnalyticForget,
)
from langgraph_adamm.analytic.forget import RoundForgetter
from langgraph_adamm.analytic.ingest import BatchOutcome as BatchOutcome
from langgraph_adamm.analytic.ingest import RoundIngestor
from langgraph_adamm.analytic.materialize import Membership, TableMaterializer
from langgraph_adamm.analytic.schema_induction import Pattern, PatternCounts
from langgraph_adamm.analytic.table_descriptions import OfflineDescriber, TableDescriber
from langgraph_adamm.analytic.tables import ColumnStats, TableSchema
from langgraph_adamm.analytic.units import (
    convert_units,
    convertible,
    counting_noun,
    dimension,
)
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.history import DEFAULT_USER_ID, Round
from langgraph_adamm.storage.database import MemoryDatabase

KIN_FLOOR = 0.65
"""Cosine of two tables' records' mean text vectors from which interleaved
tables are read as one kind split in two. Measured on the dev histories: the
splits of one kind (app, pipe and JSON layouts of one inspection; a bank's
Dutch lines and an invoice's) were 0.69-0.91, different kinds of one person
(sales and feeds, charges and generation, trips and purchases) 0.60 at most."""


def _overlap(
    other: tuple[str | None, float, float], unit: str | None, low: float, high: float
) -> bool:
    """Whether a column's value range (unit, low, high) overlaps [low, high]."""
    u, lo, hi = other
    return (
        dimension(u) == dimension(unit)
        and convertible(u, unit)
        and convert_units(lo, u, unit) <= high
        and low <= convert_units(hi, u, unit)
    )


class AnalyticMemory:
    """One user's analytic memory inside a :class:`MemoryDatabase`.

    Args:
        db: The memory database.
        user_id: The namespace; other users' rounds and tables are invisible.
        config: Thresholds and batch sizes.
        describer: Writes table metadata (offline by default).
    """

    def __init__(
        self,
        db: MemoryDatabase,
        user_id: str = DEFAULT_USER_ID,
        *,
        config: AdaMMConfig | None = None,
        describer: TableDescriber | None = None,
    ) -> None:
        self.db = db
        self.user_id = user_id
        self.config = config or AdaMMConfig()
        self.catalog = AnalyticCatalog(db, user_id, self.config)
        self.materializer = TableMaterializer(
            self.catalog, describer or OfflineDescriber()
        )
        self.ingestor = RoundIngestor(self.catalog, self.materializer)
        # Rebuilds go through _materialize, looked up per call, so that
        # forgetting and correcting rebuild a table the one way this memory does.
        self.forgetter = RoundForgetter(
            self.catalog, self.materializer, rebuild=self._rebuild
        )
        self.corrector = ValueCorrector(
            self.catalog, self.materializer, rebuild=self._rebuild
        )
        self.coverage: dict[tuple[str, int], Any] = {}
        """Lookalike rounds per (table, generation), and the possible splits
        per generation (see :mod:`.coverage`)."""
        self.reload()

    # -- state (held by the catalog) ------------------------------------------
    @property
    def namespace(self) -> str:
        """The database namespace (schema) that holds this user's tables."""
        return self.catalog.namespace

    @property
    def describer(self) -> TableDescriber:
        """Writes table metadata."""
        return self.materializer.describer

    @describer.setter
    def describer(self, describer: TableDescriber) -> None:
        self.materializer.describer = describer

    @property
    def generation(self) -> int:
        """Bumped by every applied batch, so that caches of derived data can tell."""
        return self.catalog.generation

    @generation.setter
    def generation(self, value: int) -> None:
        self.catalog.generation = value

    @property
    def counts(self) -> PatternCounts:
        """Support counts of every attribute set ingested."""
        return self.catalog.counts

    @property
    def _tables(self) -> dict[int, TableSchema]:
        return self.catalog.tables

    @property
    def _components(self) -> dict[int, tuple[Pattern, ...]]:
        return self.catalog.components

    @property
    def _stats(self) -> dict[int, dict[str, ColumnStats]]:
        return self.catalog.stats

    @property
    def _patterns(self) -> list[Pattern]:
        return self.catalog.patterns

    @property
    def _ids(self) -> dict[Pattern, int]:
        return self.catalog.schema_ids

    def reload(self) -> None:
        """Rebuild in-memory counts and schema metadata from the database.

        The new state is read first, from one snapshot, and then put in place,
        so that a reader in another thread sees the old tables or the new ones,
        never none.
        """
        self.catalog.reload()

    def qualified(self, table: TableSchema) -> str:
        """The quoted, namespace-qualified SQL name of a table."""
        return self.catalog.qualified(table)

    @property
    def tables(self) -> list[TableSchema]:
        """Every materialized schema of this user, oldest first."""
        return list(self.catalog.tables.values())

    def record_rounds(self, round_ids: list[str]) -> set[str]:
        """Those of the rounds that are records, not chat.

        A record is a round with a row in a table, or with a measured value
        (a kind logged too seldom for a table of its own is still a record).
        """
        ids = [str(r) for r in dict.fromkeys(round_ids)]
        if not ids:
            return set()
        found = {
            r
            for (r,) in self.db.fetchall(
                "SELECT DISTINCT round_id FROM adamm_observations WHERE user_id = ? "
                "AND value_kind = 'number' "
                "AND round_id IN (SELECT unnest(?::VARCHAR[]))",
                [self.user_id, ids],
            )
        }
        for t in self.tables:
            found.update(
                r
                for (r,) in self.db.fetchall(
                    f"SELECT DISTINCT source FROM {self.catalog.qualified(t)} "
                    "WHERE source IN (SELECT unnest(?::VARCHAR[]))",
                    [ids],
                )
            )
        return found

    def table(self, table_name: str) -> TableSchema | None:
        """A table's schema by its exact name."""
        for t in self.catalog.tables.values():
            if t.table_name == table_name:
                return t
        return None

    def row_count(self, table: TableSchema) -> int:
        """Rows in a materialized table."""
        return self.catalog.row_count(table)

    def possible_splits(self) -> dict[str, list[dict[str, Any]]]:
        """Tables whose rows look like another table's record kind.

        Two tables whose rounds interleave (each has rows between the other's
        first and last) probably hold one record kind split in two when their
        columns are mostly the same (more than half of the smaller one's
        attributes: a value misread as a field of its own in some rounds), or
        when their records mean the same: the mean text vectors of the rounds
        that gave them rows are at least :data:`KIN_FLOOR` alike (an app's
        ``Varroa drop: 8`` and a pipe line's ``mites: 10``, a bank's Dutch
        ``Bijschrijving`` and an invoice's ``Amount``: labels that share no
        word, in records that say one thing). Table name -> [{"table",
        "shared_columns"}, plus "alike" (the cosine) for a split by meaning],
        both directions. Read once per generation (each answer's coverage asks
        for it).
        """
        key = ("possible splits", self.generation)
        if key not in self.coverage:
            self.coverage[key] = self._possible_splits()
        found: dict[str, list[dict[str, Any]]] = self.coverage[key]
        return {name: list(others) for name, others in found.items()}

    def _possible_splits(self) -> dict[str, list[dict[str, Any]]]:
        tables = list(self.tables)
        out: dict[str, list[dict[str, Any]]] = {}
        for i, a in enumerate(tables):
            for b in tables[i + 1 :]:
                shared = a.attributes & b.attributes
                if 2 * len(shared) <= min(len(a.attributes), len(b.attributes)):
                    continue
                if not self.interleaved(a, b):
                    continue
                names = sorted(shared)
                out.setdefault(a.table_name, []).append(
                    {"table": b.table_name, "shared_columns": names}
                )
                out.setdefault(b.table_name, []).append(
                    {"table": a.table_name, "shared_columns": names}
                )
        for a, b, alike in self.alike_tables():
            if any(p["table"] == b.table_name for p in out.get(a.table_name, [])):
                continue
            if not self.interleaved(a, b):
                continue  # another stretch of life
            names = sorted(a.attributes & b.attributes)
            for one, other in ((a, b), (b, a)):
                out.setdefault(one.table_name, []).append(
                    {
                        "table": other.table_name,
                        "shared_columns": names,
                        "alike": round(alike, 2),
                    }
                )
        return out

    def alike_tables(self) -> list[tuple[TableSchema, TableSchema, float]]:
        """Pairs of tables that may be one kind by what their records mean.

        Their records' mean vectors are :data:`KIN_FLOOR` alike, and each
        number of the table with fewer numbers could be one of the other's
        (:meth:`_number_pairs`): a brew day and a bottling of one hobby read
        alike, but a bottle count is no batch's litres or hours.
        """
        from langgraph_adamm.analytic.coverage import table_centroids

        centroids = table_centroids(self)
        tables = [t for t in self.tables if t.table_name in centroids]
        out = []
        for i, a in enumerate(tables):
            for b in tables[i + 1 :]:
                alike = float(centroids[a.table_name] @ centroids[b.table_name])
                if alike >= KIN_FLOOR and self._number_pairs(a, b) is not None:
                    out.append((a, b, alike))
        return out

    def _number_pairs(self, a: TableSchema, b: TableSchema) -> dict[str, str] | None:
        """Column of the table with fewer numbers -> the other's it pairs with.

        Each number column pairs, one to one, with its namesake or else the
        first column left of its dimension whose values overlap its own (in
        one unit; a noun that counts, ``fr``, ``frames``, is no unit here).
        None where some number finds no partner, or where there is none.
        """
        ranges = [self._number_ranges(t) for t in (a, b)]
        few, many = sorted(ranges, key=len)
        if not few:
            return None
        free = dict(many)
        out: dict[str, str] = {}
        for name in sorted(few, key=lambda n: n not in free):
            unit, low, high = few[name]
            if name in free and _overlap(free[name], unit, low, high):
                out[name] = name
                del free[name]
                continue
            fits = [m for m, r in free.items() if _overlap(r, unit, low, high)]
            if not fits:
                return None
            out[name] = fits[0]
            del free[fits[0]]
        return out

    def _number_ranges(
        self, table: TableSchema
    ) -> dict[str, tuple[str | None, float, float]]:
        """Number column -> (unit, lowest, highest value) of a table's rows."""
        from langgraph_adamm.analytic.coverage import column_spans

        numbers = [c for c in table.columns if c.sql_type in ("DOUBLE", "BIGINT")]
        spans = column_spans(self, table, numbers)
        return {
            c.name: (None if counting_noun(c.unit) else c.unit, *spans[c.name])
            for c in numbers
            if c.name in spans
        }

    def interleaved(self, a: TableSchema, b: TableSchema) -> bool:
        """Whether each table has rows between the other's first and last."""
        sa, sb = self._order_span(a), self._order_span(b)
        return not (sa is None or sb is None or sa[1] < sb[0] or sb[1] < sa[0])

    def _order_span(self, table: TableSchema) -> tuple[int, int] | None:
        """The first and last ``order`` of a table's rows (None: no rows)."""
        key = (f"order span {table.table_name}", self.generation)
        if key not in self.coverage:
            name = self.catalog.qualified(table)
            row = self.db.fetchall(f'SELECT min("order"), max("order") FROM {name}')
            lo, hi = row[0] if row else (None, None)
            self.coverage[key] = None if lo is None else (int(lo), int(hi))
        span: tuple[int, int] | None = self.coverage[key]
        return span

    def cast_problems(self) -> dict[tuple[int, str], dict[str, Any]]:
        """Values that did not fit their column, per (schema id, column)."""
        out: dict[tuple[int, str], dict[str, Any]] = {}
        for sid, column, n, rounds, reasons in self.db.fetchall(
            "SELECT schema_id, column_name, count(*), "
            "array_agg(round_id ORDER BY round_id), array_agg(DISTINCT reason) "
            "FROM adamm_cast_problems WHERE user_id = ? "
            "GROUP BY schema_id, column_name",
            [self.user_id],
        ):
            out[(int(sid), column)] = {
                "count": int(n),
                "round_ids": list(rounds),
                "reasons": sorted(reasons)[:3],
            }
        return out

    def round_status(self) -> dict[str, int]:
        """Number of stored rounds per status."""
        return {
            status: int(n)
            for status, n in self.db.fetchall(
                "SELECT status, count(*) FROM adamm_rounds WHERE user_id = ? "
                "GROUP BY status",
                [self.user_id],
            )
        }

    def failures(self) -> list[tuple[str, str]]:
        """(round id, error) for every round whose extraction failed."""
        return [
            (r[0], r[1])
            for r in self.db.fetchall(
                "SELECT round_id, error FROM adamm_rounds WHERE user_id = ? AND "
                "status = 'failed' ORDER BY \"order\"",
                [self.user_id],
            )
        ]

    # -- ingestion ------------------------------------------------------------
    def store_rounds(self, rounds: Sequence[Round]) -> tuple[int, int]:
        """Store rounds not seen before as pending; returns (new, already stored)."""
        return self.ingestor.store_rounds(rounds)

    def pending_rounds(
        self, *, include_failed: bool = False
    ) -> list[tuple[int, Round]]:
        """Stored rounds not yet extracted, in history order, with their order."""
        return self.ingestor.pending_rounds(include_failed=include_failed)

    def apply_batch(
        self,
        batch: Sequence[tuple[int, Round, list[Observation] | Exception]],
    ) -> BatchOutcome:
        """Record one batch of extraction results, mine it and update the tables.

        Everything commits in one transaction; on any error nothing is written and
        the in-memory state is reloaded from the database.
        """
        return self.ingestor.apply_batch(batch)

    # -- forgetting and correcting -------------------------------------------
    def forget_rounds(self, round_ids: Sequence[str]) -> AnalyticForget:
        """Remove what these rounds contributed to analytic memory.

        Runs in the caller's transaction when one is open (else in its own);
        on any error nothing is written and the in-memory state is reloaded.
        Call it before deleting the rounds' ``adamm_rounds`` rows: their status
        says whether they were counted.

        Raises:
            AdaMMError: for a single string instead of a list of ids.
        """
        return self.forgetter.forget_rounds(round_ids)

    def correct(
        self,
        round_id: str,
        attribute: str,
        value: object,
        *,
        record: int | None = None,
        by: str | None = None,
    ) -> AnalyticCorrection:
        """Replace a wrongly extracted value and rebuild the tables that show it.

        ``value`` is read as extraction reads values (a number, a boolean, or a
        text such as ``"7.5 h"``, ``"$12.40"``, ``"2026-03-01"``); a bare number
        takes the unit its label states, else the column's reading of bare
        numbers, and is refused when neither fits. Every stored observation of the
        attribute in that record (one per source that stated it) is rewritten;
        the first correction keeps the value as extracted (``original_text``),
        with when (UTC) and by whom (``by``).

        Raises:
            ToolInputError: for an unknown round or attribute, an attribute that
                several records of the round carry when ``record`` is not given,
                or a value that does not fit its column; nothing is changed.
        """
        return self.corrector.correct(round_id, attribute, value, record=record, by=by)

    # -- table building ------------------------------------------------------
    def _membership(self) -> dict[int, Membership]:
        return self.catalog.membership()

    def _materialize(
        self,
        schema_id: int,
        attributes: Pattern,
        at_order: int | None,
        member: Membership,
        name: str | None = None,
    ) -> TableSchema:
        """(Re)build a schema's table from all stored observations of its attributes."""
        return self.materializer.materialize(
            schema_id, attributes, at_order, member, name
        )

    def _rebuild(
        self,
        schema_id: int,
        attributes: Pattern,
        at_order: int | None,
        member: Membership,
    ) -> TableSchema:
        return self._materialize(schema_id, attributes, at_order, member)
