"""Correcting a wrongly extracted value in analytic memory.

A correction rewrites every stored observation of the attribute in one record
and rebuilds the tables that show the record; the round's attribute sets do
not change, so neither do the counts, schemas or membership rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone

from langgraph_adamm.analytic.catalog import AnalyticCatalog
from langgraph_adamm.analytic.extraction.base import (
    Observation,
    Provenance,
    make_observation,
)
from langgraph_adamm.analytic.materialize import (
    OBSERVATION_FIELDS,
    Rebuild,
    TableMaterializer,
    observation_from_row,
)
from langgraph_adamm.analytic.tables import (
    TYPE_LABELS,
    TableSchema,
    best_observations,
)
from langgraph_adamm.analytic.values import (
    ParsedValue,
    normalize_attribute,
    parse_value,
)
from langgraph_adamm.errors import ToolInputError


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


class ValueCorrector:
    """Corrects values in a user's analytic memory.

    Args:
        catalog: The state whose tables show the values.
        materializer: Builds the tables' new versions.
        rebuild: Rebuilds one table from the stored observations (by default
            ``materializer.materialize``).
    """

    def __init__(
        self,
        catalog: AnalyticCatalog,
        materializer: TableMaterializer,
        rebuild: Rebuild | None = None,
    ) -> None:
        self.catalog = catalog
        self.rebuild = rebuild or materializer.materialize
        self.db = catalog.db
        self.user_id = catalog.user_id

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
        return self.catalog.atomically(
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
        member = self.catalog.membership()
        rebuilt: list[str] = []
        for sid, table in sorted(self.catalog.tables.items()):
            if attr not in table.attributes or not self._holds(table, round_id):
                continue
            types = {c.name: c.sql_type for c in table.columns}
            new_table = self.rebuild(sid, table.attributes, None, member[sid])
            self._check_fit(new_table, types, attr, round_id, record, raw)
            rebuilt.append(new_table.table_name)
        return AnalyticCorrection(
            round_id, record, attr, best.value.text, new.text, len(chosen), rebuilt
        )

    def _holds(self, table: TableSchema, round_id: str) -> bool:
        source = self.catalog.qualified(table)
        return bool(
            self.db.fetchall(
                f"SELECT count(*) FROM {source} WHERE source = ?", [round_id]
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
