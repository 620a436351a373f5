"""Ingestion into analytic memory: raw rounds first, then extracted batches.

Ingestion writes in two phases. Raw rounds (and their image references) are
stored first, as ``pending``, so that nothing is lost if extraction fails. Then
pending rounds are processed in batches; each batch - its observations, support
counts, schema changes, table rows and round statuses - commits in one
transaction, so a process killed mid-way leaves every committed round intact and
the rest pending for the next run.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph_adamm.analytic.catalog import AnalyticCatalog
from langgraph_adamm.analytic.extraction.base import Extracted, Observation
from langgraph_adamm.analytic.materialize import Row, TableMaterializer, membership
from langgraph_adamm.analytic.schema_induction import (
    DATE_ATTRIBUTES,
    Pattern,
    SchemaChange,
    fold_optional_parts,
    induce_schemas,
)
from langgraph_adamm.analytic.tables import best_observations
from langgraph_adamm.history import Round
from langgraph_adamm.storage.bulk import insert_columns
from langgraph_adamm.storage.rounds import load_rounds

LONE_MEASURE_SHARE = 0.8
"""The share of the values an attribute was stated with alone that must be
numbers (no clock) for it to be a kind alone (see ``_measured``)."""

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


class RoundIngestor:
    """Stores a user's rounds and applies their extraction results.

    Args:
        catalog: The state every applied batch changes.
        materializer: Builds the tables a batch discovers, grows or re-decides.
    """

    def __init__(
        self, catalog: AnalyticCatalog, materializer: TableMaterializer
    ) -> None:
        self.catalog = catalog
        self.materializer = materializer
        self.db = catalog.db
        self.user_id = catalog.user_id
        self.config = catalog.config

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

    # -- processing -------------------------------------------------------
    def apply_batch(
        self,
        batch: Sequence[tuple[int, Round, list[Observation] | Exception]],
    ) -> BatchOutcome:
        """Record one batch of extraction results, mine it and update the tables.

        Everything commits in one transaction; on any error nothing is written and
        the in-memory state is reloaded from the database.
        """
        self.catalog.generation += 1
        try:
            with self.db.transaction():
                return self._apply_batch(batch)
        except BaseException:
            self.catalog.reload()
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

        before = self.catalog.membership()
        touched: set[Pattern] = set()
        changed: dict[int, str] = {}  # schema id -> kind
        retired: set[int] = set()
        names: dict[int, str] = {}  # schema id -> the established name it keeps
        observed: dict[str, list[Observation]] = {}
        for obs in all_obs:
            observed.setdefault(obs.provenance.round_id, []).append(obs)
        measured, seen = self._measured(list(observed))
        counted: set[str] = set()
        for round_id, _, _, _, best in records:
            if round_id not in counted:  # the round's values, before its records
                counted.add(round_id)
                seen(observed.get(round_id, []))
            attrs = self.catalog.counts.add(best)
            touched.add(attrs)
            for change in induce_schemas(
                self.catalog.counts, self.catalog.patterns, attrs, self.config, measured
            ):
                self._record_change(change, changed, retired, names)
        for change in fold_optional_parts(
            self.catalog.counts, self.catalog.patterns, self.config
        ):
            self._record_change(change, changed, retired, names)
        self.catalog.save_counts(touched)

        for sid in sorted(retired):
            table = self.catalog.tables.pop(sid, None)
            self.catalog.components.pop(sid, None)
            if table is not None:
                self.catalog.drop(table)
                outcome.merged.append(table.table_name)
        current_order = max((r[2] for r in records), default=None)
        pattern_of = {sid: p for p, sid in self.catalog.schema_ids.items()}
        # New and grown schemas take part in everyone's membership rule.
        after = membership(
            {
                sid: (p, self.catalog.components.get(sid, ()))
                for sid, p in pattern_of.items()
            },
            self.catalog.counts,
            self.config.all_confidence_threshold,
        )
        for sid, kind in sorted(changed.items()):
            table = self.materializer.materialize(
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
        for sid, table in list(self.catalog.tables.items()):
            if sid in changed:
                continue
            if before.get(sid) != after[sid]:
                # Another schema now shares its attributes: its rows are re-decided.
                self.materializer.materialize(sid, table.attributes, None, after[sid])
            else:
                self.materializer.append_or_rebuild(
                    table, records, after[sid], batch_rounds
                )

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

    def _measured(
        self, batch: list[str]
    ) -> tuple[Callable[[str], bool], Callable[[list[Observation]], None]]:
        """Whether an attribute's values stated alone so far are mostly measures.

        Asked of an attribute stated alone often enough to be a kind of its own
        (``schema_induction.lone_kind``): a measure logged alone ("weight: 89.2
        kg") is a kind. A line of text repeated alone is not, nor a label misread
        over a clock ("mg/dL 07:35"), nor a line beside other fields of its round
        ("Imported 5 readings" over an export's rows).

        Returns the test and the counter the batch's rounds are fed to, one
        round at a time, before their records are counted: the stored values of
        earlier batches are read once per attribute, the batch's own as they
        come, so a round is judged by the rounds up to it however the history
        was batched. ``batch``: the round ids of this batch (stored already).
        """
        earlier: dict[str, tuple[int, int]] = {}
        alone: Counter[str] = Counter()  # values stated alone in their round
        numbers: Counter[str] = Counter()  # of those, numbers (no clock)

        def seen(observations: list[Observation]) -> None:
            attrs = {o.attribute for o in observations}
            if len(attrs) != 1:
                return
            for o in observations:
                alone[o.attribute] += 1
                numbers[o.attribute] += (
                    o.value.number is not None and o.value.kind != "clock"
                )

        def measured(attribute: str) -> bool:
            if attribute not in earlier:
                rows = self.db.fetchall(
                    "SELECT count(*), count(o.number) FILTER (WHERE o.value_kind "
                    "<> 'clock') FROM adamm_observations o WHERE o.user_id = ? "
                    "AND o.attribute = ? AND o.round_id NOT IN (SELECT "
                    "unnest(?::VARCHAR[])) AND NOT EXISTS (SELECT 1 FROM "
                    "adamm_observations p WHERE p.user_id = o.user_id AND "
                    "p.round_id = o.round_id AND p.attribute <> o.attribute)",
                    [self.user_id, attribute, batch],
                )
                earlier[attribute] = rows[0] if rows else (0, 0)
            n = earlier[attribute][0] + alone[attribute]
            measures = earlier[attribute][1] + numbers[attribute]
            return bool(n) and measures >= LONE_MEASURE_SHARE * n

        return measured, seen

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
            sid = (
                max(
                    [
                        *self.catalog.schema_ids.values(),
                        *self.catalog.tables,
                        *retired,
                        0,
                    ]
                )
                + 1
            )
            self.catalog.schema_ids[change.attributes] = sid
            changed[sid] = "discovered"
            self.catalog.components[sid] = ()
        elif change.kind == "evolved":
            assert change.base is not None
            sid = self.catalog.schema_ids.pop(change.base)
            self.catalog.schema_ids[change.attributes] = sid
            changed.setdefault(sid, "evolved")
            self.catalog.components[sid] = (
                *self.catalog.components.get(sid, ()),
                change.base,
            )
        else:
            assert change.base is not None
            sid = self.catalog.schema_ids.pop(change.attributes)
            survivor = self.catalog.schema_ids.get(change.base)
            retired.add(sid)
            changed.pop(sid, None)
            if survivor is not None:
                changed.setdefault(survivor, "evolved")  # its rows and columns grew
                have = self.catalog.components.get(survivor, ())
                # a folded part joins without its dates: a component holding
                # a date would let any dated record in by its date alone
                part = change.attributes
                if change.kind == "folded":
                    part = part - DATE_ATTRIBUTES
                added = (part,) if part else ()
                self.catalog.components[survivor] = tuple(
                    dict.fromkeys(
                        (*have, *added, *self.catalog.components.get(sid, ()))
                    )
                )
                mine, theirs = (
                    self.catalog.tables.get(sid),
                    self.catalog.tables.get(survivor),
                )
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
