"""Forgetting rounds and correcting values: the analytic side.

Both keep every derived structure - support counts, schemas, tables, column
decisions, cast problems - consistent with the observations that remain, and
touch only what the rounds or the value reach.

Forgetting inverts what ingestion (``RoundIngestor._apply_batch``) added:

* each record a forgotten round counted is uncounted (the attribute set of its
  best observations, or one empty record for a round without observations), so
  ``adamm_pattern_types`` equals what ingesting the history without the rounds
  stores;
* the rounds' observations and cast problems are deleted;
* a schema whose support falls below θ_s is dropped, and so is one that met
  all-confidence θ_a before and no longer does (checked as induction checks it,
  against the other schemas, until no more drop). A schema that already failed
  θ_a before is left alone: induction never re-checks an existing schema, so
  such schemas exist in memories that never forgot anything;
* a remaining table that held a row of the rounds loses those rows in place
  when its column statistics, with the rows' values taken back, decide every
  column as before (type, unit, readings), and its example values are read
  again if one of them came from the rows; it is rebuilt from the remaining
  observations when a decision changes (or cannot be known without them), and
  so is every table whose membership rule changed (the counts and the other
  schemas decide it); every other table is left exactly as it was.

The caller deletes the rounds themselves (``adamm_rounds``, ``adamm_images``) and
their retrieval memory, in the same transaction.

Induction is incremental, so a memory that forgot rounds may keep a schema (or
a grown one) that a memory built without them would not have discovered, or
lack one it would have; the rows and values of the record kinds both have are
the same.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from langgraph_adamm.analytic.catalog import AnalyticCatalog
from langgraph_adamm.analytic.correct import (
    AnalyticCorrection as AnalyticCorrection,
)
from langgraph_adamm.analytic.extraction.base import Observation
from langgraph_adamm.analytic.materialize import (
    OBSERVATION_FIELDS,
    Membership,
    Rebuild,
    TableMaterializer,
    is_row,
    observation_from_row,
)
from langgraph_adamm.analytic.schema_induction import (
    Pattern,
    _qualifies,
    explained_all_confidence,
)
from langgraph_adamm.analytic.tables import (
    SAMPLES,
    Column,
    TableSchema,
    best_observations,
    cell,
    decide_column,
    sample_values,
)
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.storage.database import quote_ident


@dataclass
class AnalyticForget:
    """What forgetting rounds changed in analytic memory."""

    rounds: int = 0
    """Rounds found among those asked for (unknown ids are ignored)."""
    round_ids: list[str] = field(default_factory=list)
    """The ids found."""
    observations: int = 0
    """Observations deleted."""
    records: int = 0
    """Records uncounted (a counted round contributed one per record)."""
    patterns_changed: int = 0
    """Distinct attribute sets whose count changed."""
    patterns_removed: int = 0
    """Attribute sets no longer counted at all (their rows are deleted)."""
    dropped: list[tuple[str, str]] = field(default_factory=list)
    """(table name, why) for every schema that no longer qualifies."""
    shrunk: list[tuple[str, list[str], list[str], str]] = field(default_factory=list)
    """(table name, attributes before, after, why) for every schema that no
    longer qualifies but went back to a pattern it grew from, which does."""
    rebuilt: list[str] = field(default_factory=list)
    """Tables rebuilt from the remaining observations."""
    deleted_in_place: list[str] = field(default_factory=list)
    """Tables that lost the rounds' rows without a rebuild (every column kept
    its type, unit and readings)."""


class RoundForgetter:
    """Forgets rounds from a user's analytic memory (see module).

    Args:
        catalog: The state forgetting changes.
        materializer: Builds the tables' new versions.
        rebuild: Rebuilds one table from the remaining observations (by default
            ``materializer.materialize``).
    """

    def __init__(
        self,
        catalog: AnalyticCatalog,
        materializer: TableMaterializer,
        rebuild: Rebuild | None = None,
    ) -> None:
        self.catalog = catalog
        self.materializer = materializer
        self.rebuild = rebuild or materializer.materialize
        self.db = catalog.db
        self.user_id = catalog.user_id
        self.config = catalog.config

    # -- forgetting -------------------------------------------------------
    def forget_rounds(self, round_ids: Sequence[str]) -> AnalyticForget:
        """Remove what these rounds contributed to analytic memory.

        Runs in the caller's transaction when one is open (else in its own);
        on any error nothing is written and the in-memory state is reloaded.
        Call it before deleting the rounds' ``adamm_rounds`` rows: their status
        says whether they were counted.

        Raises:
            AdaMMError: for a single string instead of a list of ids.
        """
        if isinstance(round_ids, str):
            raise AdaMMError("forget_rounds takes a list of round ids, not a string")
        ids = sorted({str(r) for r in round_ids})
        return self.catalog.atomically(lambda: self._forget_rounds(ids))

    def _forget_rounds(self, ids: list[str]) -> AnalyticForget:
        report = AnalyticForget()
        if not ids:
            return report
        status = dict(
            self.db.fetchall(
                "SELECT round_id, status FROM adamm_rounds WHERE user_id = ? AND "
                "round_id IN (SELECT unnest(?::VARCHAR[]))",
                [self.user_id, ids],
            )
        )
        by_round: dict[str, dict[int, list[Observation]]] = {}
        rows = self.db.fetchall(
            f"SELECT o.round_id, coalesce(o.record, 0), {OBSERVATION_FIELDS} "
            "FROM adamm_observations o WHERE o.user_id = ? AND o.round_id IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [self.user_id, ids],
        )
        for rid, record, *fields in rows:
            obs = observation_from_row(rid, int(record), fields)
            by_round.setdefault(rid, {}).setdefault(int(record), []).append(obs)
        found = sorted(set(status) | set(by_round))
        report.rounds, report.round_ids = len(found), found
        report.observations = len(rows)
        if not found:
            return report

        # What each counted round added, exactly as _apply_batch counted it.
        # Observations only exist for extracted rounds; one whose round row is
        # already gone was counted too.
        uncount: Counter[Pattern] = Counter()
        forgotten = [
            best_observations(records[record])
            for records in by_round.values()
            for record in sorted(records)
        ]
        for rid in found:
            if status.get(rid, "extracted") != "extracted":
                continue
            records = by_round.get(rid, {})
            for record in sorted(records) or [0]:
                best = best_observations(records.get(record, []))
                uncount[frozenset(best)] += 1
        if not uncount and not rows:
            return report  # pending or failed rounds: they added nothing
        attributes = frozenset().union(*uncount) if uncount else frozenset()

        patterns = {sid: t.attributes for sid, t in self.catalog.tables.items()}
        theta_a = self.config.all_confidence_threshold
        qualified_before = {
            sid: explained_all_confidence(self.catalog.counts, p, patterns.values())
            >= theta_a
            for sid, p in patterns.items()
        }
        before = self.catalog.membership()
        # Tables holding a row of the rounds (a row carries one of its attributes).
        held = {
            sid
            for sid, t in self.catalog.tables.items()
            if t.attributes & attributes
            and self.db.fetchall(
                f"SELECT count(*) FROM {self.catalog.qualified(t)} WHERE source IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [found],
            )[0][0]
        }

        for attrs, n in sorted(uncount.items(), key=lambda x: sorted(x[0])):
            self.catalog.counts.remove(attrs, n)
        self.catalog.save_counts(set(uncount))
        report.records = sum(uncount.values())
        report.patterns_changed = len(uncount)
        report.patterns_removed = sum(
            1 for p in uncount if p not in self.catalog.counts.types
        )
        for meta in ("adamm_observations", "adamm_cast_problems"):
            self.db.execute(
                f"DELETE FROM {meta} WHERE user_id = ? AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.user_id, found],
            )

        decided = self._requalify(patterns, qualified_before)
        for sid, (pattern, reason) in sorted(decided.items()):
            table = self.catalog.tables[sid]
            self.catalog.schema_ids.pop(table.attributes, None)
            at = self.catalog.patterns.index(table.attributes)
            if pattern is None:
                del self.catalog.patterns[at]
                del self.catalog.tables[sid]
                self.catalog.components.pop(sid, None)
                self.catalog.drop(table)
                report.dropped.append((table.table_name, reason))
                continue
            # Back to the pattern it grew from (or absorbed): the table keeps its
            # name and is rebuilt below.
            self.catalog.schema_ids[pattern] = sid
            self.catalog.patterns[at] = pattern
            self.catalog.components[sid] = tuple(
                c for c in self.catalog.components.get(sid, ()) if c < pattern
            )
            self.catalog.tables[sid] = replace(table, attributes=pattern)
            report.shrunk.append(
                (table.table_name, sorted(table.attributes), sorted(pattern), reason)
            )

        after = self.catalog.membership()
        for sid, table in sorted(self.catalog.tables.items()):
            if sid not in held and sid not in decided and before.get(sid) == after[sid]:
                continue
            if (
                sid in held
                and sid not in decided
                and before.get(sid) == after[sid]
                and self._delete_in_place(table, forgotten, found, after[sid])
            ):
                report.deleted_in_place.append(table.table_name)
                continue
            rebuilt = self.rebuild(sid, table.attributes, None, after[sid])
            report.rebuilt.append(rebuilt.table_name)
        return report

    def _delete_in_place(
        self,
        table: TableSchema,
        forgotten: list[dict[str, Observation]],
        round_ids: list[str],
        member: Membership,
    ) -> bool:
        """Delete the rounds' rows from a table when no column decision changes.

        ``forgotten`` holds each forgotten record's best observations. Returns
        False when the table must be rebuilt instead: a column's type, unit or
        reading changes without the rows, its statistics cannot be known
        without counting the remaining values (nothing was changed then), or
        the rows deleted are not the rows counted (the rebuild replaces them).
        """
        sid = table.schema_id
        fraction = self.config.match_fraction
        optional = self.materializer.optional(table.attributes)
        if optional != table.column_attributes - table.attributes:
            return False  # an optional column comes or goes: rebuilt
        # a record is a row by all its attributes (as when it was appended);
        # its values in the table's columns are what the statistics counted
        rows = [
            {a: o for a, o in best.items() if a in table.column_attributes}
            for best in forgotten
            if is_row(frozenset(best), member, fraction)
        ]
        rows = [r for r in rows if r]
        stats = self.catalog.stats.get(sid)
        if stats is None:
            # Read back now, the rounds' observations being deleted: the rest.
            stats = self.materializer.table_stats(table, member)
        else:
            stats = copy.deepcopy(stats)
            known = True
            for row in rows:
                for attr, obs in row.items():
                    known = stats[attr].remove(obs) and known
            if not known:
                return False
        infer = self.config.type_inference_fraction
        for col in table.columns:
            decided = decide_column(stats[col.attribute], infer, col.attribute)
            if decided != col.decision:
                self.catalog.stats.pop(sid, None)  # the rebuild counts them again
                return False
        deleted = self.db.changed(
            f"DELETE FROM {self.catalog.qualified(table)} WHERE source IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [round_ids],
        )
        if deleted != len(rows):
            # the table did not hold what its statistics counted: rebuild
            self.catalog.stats.pop(sid, None)
            return False
        columns: list[Column] = []
        for col in table.columns:
            gone = {
                text
                for row in rows
                if col.attribute in row
                for text in sample_values([cell(col.decision, row[col.attribute])[0]])
            }
            if gone & set(col.samples):
                col = replace(col, samples=self._samples(table, col))
            columns.append(col)
        if all(
            c.samples == o.samples for c, o in zip(columns, table.columns, strict=True)
        ):
            new = replace(table, version=table.version + 1)
        else:  # described again from the new examples, as a rebuild would
            plain = [replace(c, description="") for c in columns]
            new = self.materializer.described(sid, table.attributes, plain, None)
        self.catalog.tables[sid] = new
        self.catalog.keep_stats(sid, stats)
        self.catalog.write_schema(new)
        return True

    def _samples(self, table: TableSchema, col: Column) -> tuple[str, ...]:
        """A column's first few distinct values, read from its table.

        In history order, a round's records in the order they were stored.
        """
        name = quote_ident(col.name)
        stored = self.db.storage_order
        values = self.db.fetchall(
            f'SELECT v FROM (SELECT {name} AS v, "order" AS o, {stored} AS r, '
            f'row_number() OVER (PARTITION BY {name} ORDER BY "order", {stored}) '
            f"AS k FROM {self.catalog.qualified(table)} WHERE {name} IS NOT NULL) AS t "
            f"WHERE k = 1 ORDER BY o, r LIMIT {SAMPLES}"
        )
        return sample_values(v for (v,) in values)

    def _requalify(
        self, patterns: dict[int, Pattern], qualified_before: dict[int, bool]
    ) -> dict[int, tuple[Pattern | None, str]]:
        """Schemas that no longer qualify, each with what becomes of it and why.

        (None, why) drops one; (pattern, why) takes it back to a pattern it grew
        from or absorbed (a component) that still qualifies and that no other
        schema covers.

        Support below θ_s always disqualifies. All-confidence is measured as
        induction measures it, against the other schemas, and disqualifies a
        schema that met it before; since dropping or shrinking a schema changes
        the others' measure, the check repeats until nothing more changes.
        """
        theta_s = self.config.support_threshold
        theta_a = self.config.all_confidence_threshold
        current = dict(patterns)
        qualified = dict(qualified_before)
        out: dict[int, tuple[Pattern | None, str]] = {}
        while True:
            failing: dict[int, str] = {}
            for sid, p in sorted(current.items()):
                support = self.catalog.counts.support(p)
                conf = explained_all_confidence(
                    self.catalog.counts, p, current.values()
                )
                measured = f"support {support}, all-confidence {conf:.3f}"
                if support < theta_s:
                    failing[sid] = f"{measured}: support below θ_s = {theta_s}"
                elif conf < theta_a and qualified.get(sid, False):
                    failing[sid] = f"{measured}: all-confidence below θ_a = {theta_a:g}"
            if not failing:
                return out
            kept = [p for s, p in current.items() if s not in failing]
            for sid, why in sorted(failing.items()):
                component = self._fallback(sid, current[sid], kept)
                if component is None:
                    del current[sid]
                    out[sid] = (None, why)
                    continue
                support = self.catalog.counts.support(component)
                conf = explained_all_confidence(self.catalog.counts, component, kept)
                current[sid] = component
                qualified[sid] = True
                out[sid] = (
                    component,
                    f"{why}; its component {sorted(component)} qualifies "
                    f"(support {support}, all-confidence {conf:.3f})",
                )

    def _fallback(
        self, sid: int, pattern: Pattern, others: list[Pattern]
    ) -> Pattern | None:
        """The largest qualifying component of a schema that no other covers."""
        candidates = sorted(
            {
                c
                for c in self.catalog.components.get(sid, ())
                if c < pattern and len(c) >= self.config.min_schema_size
            },
            key=lambda c: (-len(c), sorted(c)),
        )
        for c in candidates:
            if not any(c <= o for o in others) and _qualifies(
                self.catalog.counts, c, self.config, others
            ):
                return c
        return None
