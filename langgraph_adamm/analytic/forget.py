"""Forgetting rounds and correcting values: the analytic side.

Both keep every derived structure - support counts, schemas, tables, column
decisions, cast problems - consistent with the observations that remain, and
touch only what the rounds or the value reach.

Forgetting inverts what ingestion (``AnalyticMemory._apply_batch``) added:

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
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, TypeVar

from langgraph_adamm.analytic.extraction.base import (
    Observation,
    Provenance,
    make_observation,
)
from langgraph_adamm.analytic.materialize import (
    OBSERVATION_FIELDS,
    MaterializerMixin,
    Membership,
    is_row,
    observation_from_row,
)
from langgraph_adamm.analytic.mining import (
    Pattern,
    _qualifies,
    explained_all_confidence,
)
from langgraph_adamm.analytic.tables import (
    SAMPLES,
    TYPE_LABELS,
    Column,
    TableSchema,
    best_observations,
    cell,
    decide_column,
    sample_values,
)
from langgraph_adamm.analytic.values import (
    ParsedValue,
    normalize_attribute,
    parse_value,
)
from langgraph_adamm.errors import AdaMMError, ToolInputError
from langgraph_adamm.storage.database import quote_ident

_T = TypeVar("_T")


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


@dataclass
class AnalyticCorrection:
    """What correcting one value changed."""

    round_id: str
    record: int
    attribute: str
    old_text: str
    """The value the tables used before (the most direct source's)."""
    new_text: str
    observations: int
    """Stored observations rewritten (one per source that stated the value)."""
    rebuilt: list[str] = field(default_factory=list)
    """Tables rebuilt so that the new value is in them."""


class ForgetMixin(MaterializerMixin):
    """Forget and correct; the state it changes is kept by ``AnalyticMemory``."""

    generation: int
    _patterns: list[Pattern]
    _ids: dict[Pattern, int]

    def reload(self) -> None:  # pragma: no cover - AnalyticMemory defines it
        """Rebuild in-memory state from the database."""
        raise NotImplementedError

    def _save_counts(self, touched: set[Pattern]) -> None:  # pragma: no cover
        raise NotImplementedError

    def _atomically(self, work: Callable[[], _T]) -> _T:
        """Run a change in one transaction (the caller's, when one is open).

        On any error the in-memory state goes back to what the database holds
        once the transaction is rolled back: reloaded when the transaction is
        this call's own, restored from a copy when it is the caller's (which
        rolls back when the error reaches it, after this returns).
        """
        self.generation += 1
        saved = self._snapshot() if self.db.in_transaction else None
        try:
            with self.db.transaction():
                return work()
        except BaseException:
            if saved is None:
                self.reload()
            else:
                self._restore(saved)
            raise

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            copy.deepcopy(self.counts),
            dict(self._tables),
            dict(self._components),
            list(self._patterns),
            dict(self._ids),
            dict(self._stats),
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (
            self.counts,
            self._tables,
            self._components,
            self._patterns,
            self._ids,
            self._stats,
        ) = saved

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
        return self._atomically(lambda: self._forget_rounds(ids))

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

        patterns = {sid: t.attributes for sid, t in self._tables.items()}
        theta_a = self.config.all_confidence_threshold
        qualified_before = {
            sid: explained_all_confidence(self.counts, p, patterns.values()) >= theta_a
            for sid, p in patterns.items()
        }
        before = self._membership()
        # Tables holding a row of the rounds (a row carries one of its attributes).
        held = {
            sid
            for sid, t in self._tables.items()
            if t.attributes & attributes
            and self.db.fetchall(
                f"SELECT count(*) FROM {self.qualified(t)} WHERE source IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [found],
            )[0][0]
        }

        for attrs, n in sorted(uncount.items(), key=lambda x: sorted(x[0])):
            self.counts.remove(attrs, n)
        self._save_counts(set(uncount))
        report.records = sum(uncount.values())
        report.patterns_changed = len(uncount)
        report.patterns_removed = sum(1 for p in uncount if p not in self.counts.types)
        for meta in ("adamm_observations", "adamm_cast_problems"):
            self.db.execute(
                f"DELETE FROM {meta} WHERE user_id = ? AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.user_id, found],
            )

        decided = self._requalify(patterns, qualified_before)
        for sid, (pattern, reason) in sorted(decided.items()):
            table = self._tables[sid]
            self._ids.pop(table.attributes, None)
            at = self._patterns.index(table.attributes)
            if pattern is None:
                del self._patterns[at]
                del self._tables[sid]
                self._components.pop(sid, None)
                self._drop(table)
                report.dropped.append((table.table_name, reason))
                continue
            # Back to the pattern it grew from (or absorbed): the table keeps its
            # name and is rebuilt below.
            self._ids[pattern] = sid
            self._patterns[at] = pattern
            self._components[sid] = tuple(
                c for c in self._components.get(sid, ()) if c < pattern
            )
            self._tables[sid] = replace(table, attributes=pattern)
            report.shrunk.append(
                (table.table_name, sorted(table.attributes), sorted(pattern), reason)
            )

        after = self._membership()
        for sid, table in sorted(self._tables.items()):
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
            rebuilt = self._materialize(sid, table.attributes, None, after[sid])
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
        # a record is a row by all its attributes (as when it was appended);
        # its values in the table's columns are what the statistics counted
        rows = [
            {a: o for a, o in best.items() if a in table.attributes}
            for best in forgotten
            if is_row(frozenset(best), member, fraction)
        ]
        rows = [r for r in rows if r]
        stats = self._stats.get(sid)
        if stats is None:
            # Read back now, the rounds' observations being deleted: the rest.
            stats = self._table_stats(table, member)
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
                self._stats.pop(sid, None)  # the rebuild counts them again
                return False
        deleted = self.db.changed(
            f"DELETE FROM {self.qualified(table)} WHERE source IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [round_ids],
        )
        if deleted != len(rows):
            # the table did not hold what its statistics counted: rebuild
            self._stats.pop(sid, None)
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
            new = self._described(sid, table.attributes, plain, None)
        self._tables[sid] = new
        self._keep_stats(sid, stats)
        self._write_schema(new)
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
            f"AS k FROM {self.qualified(table)} WHERE {name} IS NOT NULL) AS t "
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
                support = self.counts.support(p)
                conf = explained_all_confidence(self.counts, p, current.values())
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
                support = self.counts.support(component)
                conf = explained_all_confidence(self.counts, component, kept)
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
                for c in self._components.get(sid, ())
                if c < pattern and len(c) >= self.config.min_schema_size
            },
            key=lambda c: (-len(c), sorted(c)),
        )
        for c in candidates:
            if not any(c <= o for o in others) and _qualifies(
                self.counts, c, self.config, others
            ):
                return c
        return None

    # -- correcting -------------------------------------------------------
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
        raw = _checked_value(value)
        if not isinstance(round_id, str) or not isinstance(attribute, str):
            raise ToolInputError("round_id and attribute must be strings.")
        if record is not None and (
            not isinstance(record, int) or isinstance(record, bool)
        ):
            raise ToolInputError(f"record must be a record number, not {record!r}.")
        return self._atomically(
            lambda: self._correct(round_id, attribute, raw, record, by)
        )

    def _correct(
        self,
        round_id: str,
        attribute: str,
        raw: object,
        record: int | None,
        by: str | None,
    ) -> AnalyticCorrection:
        rows = self.db.fetchall(
            f"SELECT o.rowid, coalesce(o.record, 0), {OBSERVATION_FIELDS} "
            "FROM adamm_observations o WHERE o.user_id = ? AND o.round_id = ? "
            "ORDER BY o.rowid",
            [self.user_id, round_id],
        )
        if not rows:
            status = self.db.fetchall(
                "SELECT status FROM adamm_rounds WHERE user_id = ? AND round_id = ?",
                [self.user_id, round_id],
            )
            if not status:
                raise ToolInputError(
                    f"No round {round_id!r} is stored for user {self.user_id!r}; "
                    "nothing was changed."
                )
            raise ToolInputError(
                f"Round {round_id!r} has no extracted values (status "
                f"{status[0][0]}); nothing was changed."
            )
        stored = [
            (rowid, observation_from_row(round_id, int(rec), fields))
            for rowid, rec, *fields in rows
        ]
        wanted = attribute.strip()
        normalized = normalize_attribute(wanted)[0]
        matching = [(rowid, o) for rowid, o in stored if o.attribute == wanted] or [
            (rowid, o)
            for rowid, o in stored
            if o.attribute == normalized or o.raw_attribute == wanted
        ]
        if not matching:
            have = sorted({o.attribute for _, o in stored})
            raise ToolInputError(
                f"Round {round_id!r} has no value for {attribute!r}; its attributes "
                f"are {have}. Nothing was changed."
            )
        by_record: dict[int, list[tuple[int, Observation]]] = {}
        for rowid, o in matching:
            by_record.setdefault(o.provenance.record, []).append((rowid, o))
        if record is None and len(by_record) > 1:
            options = ", ".join(
                f"record {rec} "
                f"({_best(obs).attribute} = {_best(obs).value.text[:40]!r})"
                for rec, obs in sorted(by_record.items())
            )
            raise ToolInputError(
                f"Round {round_id!r} has {attribute!r} in {len(by_record)} records: "
                f"{options}. Say which with record=N; nothing was changed."
            )
        if record is None:
            record = next(iter(by_record))
        if record not in by_record:
            raise ToolInputError(
                f"Round {round_id!r} has no record {record} with {attribute!r}; "
                f"records with it: {sorted(by_record)}. Nothing was changed."
            )
        chosen = by_record[record]
        best = _best(chosen)
        new = _parse_correction(best, raw)
        self.db.execute(
            "UPDATE adamm_observations SET value_text = ?, value_kind = ?, number = ?, "
            "unit = ?, boolean = ?, ts = ?, low = ?, high = ?, note = ?, scale = ?, "
            "alt = ?, original_text = coalesce(original_text, value_text), "
            "corrected_at = ?, corrected_by = ? WHERE user_id = ? AND rowid IN "
            "(SELECT unnest(?::BIGINT[]))",
            [
                new.text,
                new.kind,
                new.number,
                new.unit,
                new.boolean,
                new.timestamp,
                new.low,
                new.high,
                new.note,
                new.scale,
                new.alt,
                datetime.now(timezone.utc).replace(tzinfo=None),
                by,
                self.user_id,
                [rowid for rowid, _ in chosen],
            ],
        )
        # The round's attribute sets are unchanged, so counts, schemas and
        # membership are too: only the tables holding the row change.
        attr = best.attribute
        member = self._membership()
        rebuilt: list[str] = []
        for sid, table in sorted(self._tables.items()):
            if attr not in table.attributes or not self._holds(table, round_id):
                continue
            types = {c.name: c.sql_type for c in table.columns}
            new_table = self._materialize(sid, table.attributes, None, member[sid])
            self._check_fit(new_table, types, attr, round_id, record, raw)
            rebuilt.append(new_table.table_name)
        return AnalyticCorrection(
            round_id, record, attr, best.value.text, new.text, len(chosen), rebuilt
        )

    def _holds(self, table: TableSchema, round_id: str) -> bool:
        return bool(
            self.db.fetchall(
                f"SELECT count(*) FROM {self.qualified(table)} WHERE source = ?",
                [round_id],
            )[0][0]
        )

    def _check_fit(
        self,
        table: TableSchema,
        types_before: Mapping[str, str],
        attr: str,
        round_id: str,
        record: int,
        raw: object,
    ) -> None:
        """Refuse a value its column cannot hold, or that turns a column to text."""
        problem = self.db.fetchall(
            "SELECT reason FROM adamm_cast_problems WHERE user_id = ? AND "
            "schema_id = ? AND column_name = ? AND round_id = ? AND record = ?",
            [self.user_id, table.schema_id, attr, round_id, record],
        )
        column = table.column(attr)
        assert column is not None
        if problem:
            raise ToolInputError(
                f"{raw!r} does not fit column {attr} of table {table.table_name} "
                f"({TYPE_LABELS[column.sql_type]}"
                f"{', in ' + column.unit if column.unit else ''}): {problem[0][0]}. "
                "Nothing was changed."
            )
        for col in table.columns:
            was = types_before.get(col.name)
            if was is not None and was != "VARCHAR" and col.sql_type == "VARCHAR":
                raise ToolInputError(
                    f"{raw!r} would turn column {col.name} of table "
                    f"{table.table_name} from {TYPE_LABELS[was]} into text. "
                    "Nothing was changed."
                )


def _best(observations: list[tuple[int, Observation]]) -> Observation:
    """The observation of one record's attribute that tables use."""
    return next(iter(best_observations(o for _, o in observations).values()))


def _checked_value(value: object) -> object:
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ToolInputError(f"A corrected value must be finite, not {value!r}.")
        return value
    if isinstance(value, str):
        if not value.strip():
            raise ToolInputError("A corrected value must not be empty.")
        return value.strip()
    raise ToolInputError(
        "A corrected value must be a number, true/false or a text such as "
        f"'7.5 h', '$12.40' or '2026-03-01', not {type(value).__name__}."
    )


def _parse_correction(old: Observation, raw: object) -> ParsedValue:
    """The new value, read as extraction reads one under the same label.

    A unit the label states ("Total sleep (h)") applies to a bare number; any
    other bare number is read as its column reads bare numbers. The replaced
    value's unit is not inherited: "6 h 51 min" is stored in minutes, and a
    correction to 7.5 means hours.
    """
    prov = Provenance(old.provenance.round_id, old.provenance.source)
    obs = make_observation(old.raw_attribute or old.attribute, raw, prov)
    return obs.value if obs is not None else parse_value(raw)
