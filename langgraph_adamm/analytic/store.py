"""Analytic memory over the database: raw rounds, observations, schemas, tables.

Ingestion writes in two phases. Raw rounds (and their image references) are
stored first, as ``pending``, so that nothing is lost if extraction fails. Then
pending rounds are processed in batches; each batch - its observations, support
counts, schema changes, table rows and round statuses - commits in one
transaction, so a process killed mid-way leaves every committed round intact and
the rest pending for the next run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph_adamm.analytic.describe import OfflineDescriber, TableDescriber
from langgraph_adamm.analytic.extraction.base import Extracted, Observation
from langgraph_adamm.analytic.forget import (
    AnalyticCorrection as AnalyticCorrection,
)
from langgraph_adamm.analytic.forget import (
    AnalyticForget as AnalyticForget,
)
from langgraph_adamm.analytic.forget import ForgetMixin
from langgraph_adamm.analytic.materialize import (
    KEY_SEP,
    Row,
    membership,
)
from langgraph_adamm.analytic.mining import (
    Pattern,
    PatternCounts,
    SchemaChange,
    induce_schemas,
)
from langgraph_adamm.analytic.tables import (
    Column,
    TableSchema,
    best_observations,
)
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.history import DEFAULT_USER_ID, Round
from langgraph_adamm.storage.database import (
    MemoryDatabase,
    insert_columns,
)
from langgraph_adamm.storage.dialect import upsert
from langgraph_adamm.storage.rounds import load_rounds

_OBS_COLUMNS = (
    "user_id",
    "round_id",
    "attribute",
    "raw_attribute",
    "value_text",
    "value_kind",
    "number",
    "unit",
    "boolean",
    "ts",
    "source",
    "image_id",
    "span_start",
    "span_end",
    "record",
    "low",
    "high",
    "note",
    "scale",
    "alt",
)
_OBS_TYPES = (
    "VARCHAR",
    "VARCHAR",
    "VARCHAR",
    "VARCHAR",
    "VARCHAR",
    "VARCHAR",
    "DOUBLE",
    "VARCHAR",
    "BOOLEAN",
    "TIMESTAMP",
    "VARCHAR",
    "VARCHAR",
    "INTEGER",
    "INTEGER",
    "INTEGER",
    "DOUBLE",
    "DOUBLE",
    "VARCHAR",
    "DOUBLE",
    "DOUBLE",
)


@dataclass
class BatchOutcome:
    """What one processed batch changed."""

    processed: int = 0
    observations: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    discovered: list[str] = field(default_factory=list)
    evolved: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    """Tables dropped because a grown schema now covers theirs."""
    ungrounded: int = 0
    """Observations an extractor dropped as not stated by their source."""


class AnalyticMemory(ForgetMixin):
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
        self.describer = describer or OfflineDescriber()
        self.namespace = db.ensure_namespace(user_id)
        self.generation = 0
        """Bumped by every applied batch, so that caches of derived data can tell."""
        self.reload()

    # -- state ------------------------------------------------------------
    def reload(self) -> None:
        """Rebuild in-memory counts and schema metadata from the database.

        The new state is read first, from one snapshot, and then put in place,
        so that a reader in another thread sees the old tables or the new ones,
        never none.
        """
        with self.db.snapshot():
            self._reload()

    def _reload(self) -> None:
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
        self._tables: dict[int, TableSchema] = tables
        self._components: dict[int, tuple[Pattern, ...]] = components
        self._stats = stats
        self._headings = {}
        self._patterns: list[Pattern] = [t.attributes for t in tables.values()]
        self._ids: dict[Pattern, int] = {t.attributes: s for s, t in tables.items()}

    @property
    def tables(self) -> list[TableSchema]:
        """Every materialized schema of this user, oldest first."""
        return list(self._tables.values())

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
                    f"SELECT DISTINCT source FROM {self.qualified(t)} "
                    "WHERE source IN (SELECT unnest(?::VARCHAR[]))",
                    [ids],
                )
            )
        return found

    def table(self, table_name: str) -> TableSchema | None:
        """A table's schema by its exact name."""
        for t in self._tables.values():
            if t.table_name == table_name:
                return t
        return None

    def row_count(self, table: TableSchema) -> int:
        """Rows in a materialized table."""
        row = self.db.fetchall(f"SELECT count(*) FROM {self.qualified(table)}")
        return int(row[0][0])

    def possible_splits(self) -> dict[str, list[dict[str, Any]]]:
        """Tables whose rows look like another table's record kind.

        Two tables whose columns are mostly the same (more than half of the
        smaller one's attributes) and whose rounds interleave (each has rows
        between the other's first and last) probably hold one record kind split
        in two, for instance by a value misread as a field of its own in some
        rounds. Table name -> [{"table", "shared_columns"}], both directions.
        """
        tables = list(self.tables)
        spans: dict[str, tuple[int, int] | None] = {}
        out: dict[str, list[dict[str, Any]]] = {}
        for i, a in enumerate(tables):
            for b in tables[i + 1 :]:
                shared = a.attributes & b.attributes
                if 2 * len(shared) <= min(len(a.attributes), len(b.attributes)):
                    continue
                for t in (a, b):
                    if t.table_name not in spans:
                        table = self.qualified(t)
                        row = self.db.fetchall(
                            f'SELECT min("order"), max("order") FROM {table}'
                        )
                        lo, hi = row[0] if row else (None, None)
                        spans[t.table_name] = None if lo is None else (lo, hi)
                sa, sb = spans[a.table_name], spans[b.table_name]
                if sa is None or sb is None or sa[1] < sb[0] or sb[1] < sa[0]:
                    continue
                names = sorted(shared)
                out.setdefault(a.table_name, []).append(
                    {"table": b.table_name, "shared_columns": names}
                )
                out.setdefault(b.table_name, []).append(
                    {"table": a.table_name, "shared_columns": names}
                )
        return out

    # -- raw rounds -------------------------------------------------------
    def store_rounds(self, rounds: Sequence[Round]) -> tuple[int, int]:
        """Store rounds not seen before as pending; returns (new, already stored)."""
        if not rounds:
            return 0, 0
        with self.db.transaction():
            existing = {
                r[0]
                for r in self.db.fetchall(
                    "SELECT round_id FROM adamm_rounds WHERE user_id = ? AND round_id "
                    "IN (SELECT unnest(?::VARCHAR[]))",
                    [self.user_id, [r.round_id for r in rounds]],
                )
            }
            fresh = [r for r in rounds if r.round_id not in existing]
            if not fresh:
                return 0, len(rounds)
            start = self.db.fetchall(
                'SELECT coalesce(max("order"), 0) FROM adamm_rounds WHERE user_id = ?',
                [self.user_id],
            )[0][0]
            insert_columns(
                self.db,
                "adamm_rounds",
                (
                    "user_id",
                    "round_id",
                    "session_id",
                    "order",
                    "time",
                    "user_text",
                    "assistant_text",
                    "metadata",
                ),
                (
                    "VARCHAR",
                    "VARCHAR",
                    "VARCHAR",
                    "BIGINT",
                    "TIMESTAMP",
                    "VARCHAR",
                    "VARCHAR",
                    "JSON",
                ),
                [
                    [self.user_id] * len(fresh),
                    [r.round_id for r in fresh],
                    [r.session_id for r in fresh],
                    list(range(start + 1, start + 1 + len(fresh))),
                    [r.time for r in fresh],
                    [r.user for r in fresh],
                    [r.assistant for r in fresh],
                    [json.dumps(r.metadata, default=str) for r in fresh],
                ],
            )
            images = [(r.round_id, img) for r in fresh for img in r.images]
            if images:
                insert_columns(
                    self.db,
                    "adamm_images",
                    (
                        "user_id",
                        "image_id",
                        "round_id",
                        "path",
                        "url",
                        "caption",
                        "ocr",
                        "problem",
                    ),
                    ("VARCHAR",) * 8,
                    [
                        [self.user_id] * len(images),
                        [i.image_id for _, i in images],
                        [rid for rid, _ in images],
                        [i.path for _, i in images],
                        [i.url for _, i in images],
                        [i.caption for _, i in images],
                        [i.ocr for _, i in images],
                        [i.problem for _, i in images],
                    ],
                )
        return len(fresh), len(rounds) - len(fresh)

    def pending_rounds(
        self, *, include_failed: bool = False
    ) -> list[tuple[int, Round]]:
        """Stored rounds not yet extracted, in history order, with their order."""
        statuses = ["pending", "failed"] if include_failed else ["pending"]
        return load_rounds(
            self.db, self.user_id, "status IN (SELECT unnest(?::VARCHAR[]))", [statuses]
        )

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

    # -- processing -------------------------------------------------------
    def apply_batch(
        self,
        batch: Sequence[tuple[int, Round, list[Observation] | Exception]],
    ) -> BatchOutcome:
        """Record one batch of extraction results, mine it and update the tables.

        Everything commits in one transaction; on any error nothing is written and
        the in-memory state is reloaded from the database.
        """
        self.generation += 1
        try:
            with self.db.transaction():
                return self._apply_batch(batch)
        except BaseException:
            self.reload()
            raise

    def _apply_batch(
        self, batch: Sequence[tuple[int, Round, list[Observation] | Exception]]
    ) -> BatchOutcome:
        outcome = BatchOutcome()
        ok: list[Round] = []
        records: list[Row] = []
        all_obs: list[Observation] = []
        # Rounds another ingestion processed since this batch was read are
        # skipped, so that no round is ever applied twice; so are rounds
        # forgotten since.
        status = dict(
            self.db.fetchall(
                "SELECT round_id, status FROM adamm_rounds WHERE user_id = ? AND "
                "round_id IN (SELECT unnest(?::VARCHAR[]))",
                [self.user_id, [rnd.round_id for _, rnd, _ in batch]],
            )
        )
        done = {rid for rid, st in status.items() if st == "extracted"}
        present = set(status)
        batch = [
            item
            for item in batch
            if item[1].round_id not in done and item[1].round_id in present
        ]
        for order, rnd, result in batch:
            if isinstance(result, Exception):
                outcome.failures.append((rnd.round_id, str(result)))
                continue
            ok.append(rnd)
            all_obs.extend(result)
            by_record: dict[int, list[Observation]] = {}
            for obs in result:
                by_record.setdefault(obs.provenance.record, []).append(obs)
            for record in sorted(by_record) or [0]:
                best = best_observations(by_record.get(record, []))
                records.append((rnd.round_id, record, order, rnd.time, best))
        self._insert_observations(all_obs)
        outcome.observations = len(all_obs)

        before = self._membership()
        touched: set[Pattern] = set()
        changed: dict[int, str] = {}  # schema id -> kind
        retired: set[int] = set()
        names: dict[int, str] = {}  # schema id -> the established name it keeps
        for _, _, _, _, best in records:
            attrs = self.counts.add(best)
            touched.add(attrs)
            for change in induce_schemas(
                self.counts, self._patterns, attrs, self.config
            ):
                self._record_change(change, changed, retired, names)
        self._save_counts(touched)

        for sid in sorted(retired):
            table = self._tables.pop(sid, None)
            self._components.pop(sid, None)
            if table is not None:
                self._drop(table)
                outcome.merged.append(table.table_name)
        current_order = max((r[2] for r in records), default=None)
        pattern_of = {sid: p for p, sid in self._ids.items()}
        # New and grown schemas take part in everyone's membership rule.
        after = membership(
            {sid: (p, self._components.get(sid, ())) for sid, p in pattern_of.items()},
            self.counts,
            self.config.all_confidence_threshold,
        )
        for sid, kind in sorted(changed.items()):
            table = self._materialize(
                sid,
                pattern_of[sid],
                current_order,
                after[sid],
                names.get(sid),
            )
            (outcome.discovered if kind == "discovered" else outcome.evolved).append(
                table.table_name
            )
        batch_rounds = {r.round_id for r in ok}
        for sid, table in list(self._tables.items()):
            if sid in changed:
                continue
            if before.get(sid) != after[sid]:
                # Another schema now shares its attributes: its rows are re-decided.
                self._materialize(sid, table.attributes, None, after[sid])
            else:
                self._append_or_rebuild(table, records, after[sid], batch_rounds)

        if ok:
            self.db.execute(
                "UPDATE adamm_rounds SET status = 'extracted', error = NULL, "
                "attempts = attempts + 1, ungrounded = ? WHERE user_id = ? AND "
                "round_id IN (SELECT unnest(?::VARCHAR[]))",
                [0, self.user_id, [r.round_id for r in ok]],
            )
            dropped = [
                (result.dropped, rnd.round_id)
                for _, rnd, result in batch
                if isinstance(result, Extracted) and result.dropped
            ]
            outcome.ungrounded = sum(count for count, _ in dropped)
            for count, rid in dropped:
                self.db.execute(
                    "UPDATE adamm_rounds SET ungrounded = ? WHERE user_id = ? AND "
                    "round_id = ?",
                    [count, self.user_id, rid],
                )
        for rid, error in outcome.failures:
            self.db.execute(
                "UPDATE adamm_rounds SET status = 'failed', error = ?, "
                "attempts = attempts + 1 WHERE user_id = ? AND round_id = ?",
                [error[:2000], self.user_id, rid],
            )
        outcome.processed = len(batch)
        return outcome

    def _record_change(
        self,
        change: SchemaChange,
        changed: dict[int, str],
        retired: set[int],
        names: dict[int, str],
    ) -> None:
        """Track one schema change by schema id.

        A grown schema remembers what it grew from, and a schema merged into it
        becomes one of its components, so no earlier row loses its table. The
        survivor of a merge keeps the name of the older of the two tables.
        """
        if change.kind == "discovered":
            sid = max([*self._ids.values(), *self._tables, *retired, 0]) + 1
            self._ids[change.attributes] = sid
            changed[sid] = "discovered"
            self._components[sid] = ()
        elif change.kind == "evolved":
            assert change.base is not None
            sid = self._ids.pop(change.base)
            self._ids[change.attributes] = sid
            changed.setdefault(sid, "evolved")
            self._components[sid] = (*self._components.get(sid, ()), change.base)
        else:
            assert change.base is not None
            sid = self._ids.pop(change.attributes)
            survivor = self._ids.get(change.base)
            retired.add(sid)
            changed.pop(sid, None)
            if survivor is not None:
                self._components[survivor] = (
                    *self._components.get(survivor, ()),
                    change.attributes,
                    *self._components.get(sid, ()),
                )
                mine, theirs = self._tables.get(sid), self._tables.get(survivor)
                if mine is not None and (
                    theirs is None
                    or (mine.created_order or 0) < (theirs.created_order or 0)
                ):
                    names[survivor] = names.pop(sid, mine.table_name)
                elif sid in names and survivor not in names:
                    names[survivor] = names.pop(sid)

    def _insert_observations(self, observations: Sequence[Observation]) -> None:
        if not observations:
            return
        cols: list[list[Any]] = [[] for _ in _OBS_COLUMNS]
        for o in observations:
            p, v = o.provenance, o.value
            span = p.span or (None, None)
            for i, val in enumerate(
                (
                    self.user_id,
                    p.round_id,
                    o.attribute,
                    o.raw_attribute,
                    v.text,
                    v.kind,
                    v.number,
                    v.unit,
                    v.boolean,
                    v.timestamp,
                    p.source,
                    p.image_id,
                    span[0],
                    span[1],
                    p.record,
                    v.low,
                    v.high,
                    v.note,
                    v.scale,
                    v.alt,
                )
            ):
                cols[i].append(val)
        insert_columns(self.db, "adamm_observations", _OBS_COLUMNS, _OBS_TYPES, cols)

    def _save_counts(self, touched: set[Pattern]) -> None:
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
