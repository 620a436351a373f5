"""Realignment: stored rounds read again once the memory knows its kinds.

After a history's rounds are extracted, the memory knows more than any round
did alone: which attribute names are one attribute (:mod:`.kinds`) and what a
table's records look like (:mod:`.guided`). Realignment applies both to the
stored rounds:

1. observations whose name joins a group take the group's name;
2. rounds that a table's kind reads as more of its records (or as fuller ones)
   than extraction gave it are read with the kind as the guide
   (:func:`~langgraph_adamm.analytic.guided.guided_records`).

A round that changes is taken back and applied again, as ingestion applies a
round (``forget_rounds``, then ``apply_batch``, in one transaction), so counts,
schemas and tables stay what ingesting the new observations gives. Each
observation keeps the label it was written with (``raw_attribute``); a guided
one is marked ``guided`` in its note.

The rounds read are the user's latest :data:`REALIGN_ROUNDS` extracted ones.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from langgraph_adamm.analytic.extraction.base import Extracted, Observation
from langgraph_adamm.analytic.guided import (
    GUIDED_SHARE,
    KindGuide,
    build_guide,
    common_words,
    guided_records,
)
from langgraph_adamm.analytic.kinds import aliases
from langgraph_adamm.analytic.materialize import (
    OBSERVATION_FIELDS,
    observation_from_row,
)
from langgraph_adamm.analytic.tables import best_observations
from langgraph_adamm.storage.rounds import load_rounds

if TYPE_CHECKING:
    from langgraph_adamm.analytic.memory import AnalyticMemory

REALIGN_ROUNDS = 5000
"""The latest extracted rounds read again (a bound on the cost)."""
GUIDED_PASSES = 3
"""Guided readings in a row, each with the kinds the last one taught."""
KIND_PRESENCE = 0.25
"""An attribute this share of a kind's records state is one of its columns."""
MIN_KIND_RECORDS = 4
"""A kind guides reading once this many records show it (θ_s, as induction)."""


@dataclass
class RealignReport:
    """What realignment changed."""

    renamed: dict[str, str] = field(default_factory=dict)
    """Attribute name -> the name of its kind's attribute."""
    guided: dict[str, str] = field(default_factory=dict)
    """Round id -> the table whose kind read it again."""
    rounds: int = 0
    """Rounds applied again."""


def stored_observations(
    memory: AnalyticMemory, limit: int = REALIGN_ROUNDS
) -> dict[str, dict[int, list[Observation]]]:
    """The latest extracted rounds' observations: round id -> record -> list."""
    rows = memory.db.fetchall(
        f"SELECT o.round_id, coalesce(o.record, 0), o.span_start, o.span_end, "
        f"{OBSERVATION_FIELDS} FROM adamm_observations o WHERE o.user_id = ? AND "
        "o.round_id IN (SELECT round_id FROM adamm_rounds WHERE user_id = ? AND "
        "status = 'extracted' ORDER BY \"order\" DESC LIMIT ?)",
        [memory.user_id, memory.user_id, limit],
    )
    out: dict[str, dict[int, list[Observation]]] = {}
    for rid, record, start, end, *fields in rows:
        span = None if start is None or end is None else (int(start), int(end))
        obs = observation_from_row(rid, int(record), fields, span)
        out.setdefault(rid, {}).setdefault(int(record), []).append(obs)
    return out


def realign(memory: AnalyticMemory, limit: int = REALIGN_ROUNDS) -> RealignReport:
    """Give each kind one attribute name and read its rounds again with it."""
    report = RealignReport()
    stored = stored_observations(memory, limit)
    scope = [
        rid
        for (rid,) in memory.db.fetchall(
            "SELECT round_id FROM adamm_rounds WHERE user_id = ? AND "
            "status = 'extracted' ORDER BY \"order\" DESC LIMIT ?",
            [memory.user_id, limit],
        )
    ]
    current = {
        rid: [o for obs in stored.get(rid, {}).values() for o in obs] for rid in scope
    }
    records = [
        best_observations(observations)
        for by_record in stored.values()
        for observations in by_record.values()
    ]
    renamed = aliases(records)
    report.renamed = renamed
    changed = {
        rid for rid, obs in current.items() if any(o.attribute in renamed for o in obs)
    }
    for rid in changed:
        current[rid] = [
            replace(o, attribute=renamed.get(o.attribute, o.attribute))
            for o in current[rid]
        ]
    if changed:
        rebuild(memory, current)
    # Each pass's rows teach the kinds more values and labels: read again
    # until a pass reads nothing new (a few passes at most).
    for _ in range(GUIDED_PASSES):
        guided = _guided(memory, _by_record(current), limit)
        if not guided:
            break
        report.guided.update({rid: table for rid, (table, _) in guided.items()})
        current.update({rid: obs for rid, (_, obs) in guided.items()})
        rebuild(memory, current)
    report.rounds = len(changed | set(report.guided))
    return report


def _by_record(
    observations: Mapping[str, list[Observation]],
) -> dict[str, dict[int, list[Observation]]]:
    out: dict[str, dict[int, list[Observation]]] = {}
    for rid, obs in observations.items():
        for o in obs:
            out.setdefault(rid, {}).setdefault(o.provenance.record, []).append(o)
    return out


def kind_guides(
    memory: AnalyticMemory, stored: Mapping[str, Mapping[int, list[Observation]]]
) -> list[tuple[KindGuide, set[str]]]:
    """Each kind's guide, with the attribute names of its tables.

    A kind is a table, or tables whose rows come from the same records (one
    kind that all-confidence split because some layouts lack a column).
    """
    records = {
        (rid, rec): best_observations(obs)
        for rid, by_record in stored.items()
        for rec, obs in by_record.items()
    }
    tables = [t for t in memory.tables if len(t.attributes) >= 2]
    members: dict[str, set[tuple[str, int]]] = {}
    for table in tables:
        attrs = set(table.attributes)
        need = max(2, math.ceil(GUIDED_SHARE * len(attrs)))
        members[table.table_name] = {
            key for key, rec in records.items() if len(attrs & set(rec)) >= need
        }
    group = {t.table_name: t.table_name for t in tables}
    ordered = sorted(tables, key=lambda t: -len(members[t.table_name]))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            ma, mb = members[a.table_name], members[b.table_name]
            if ma and mb and len(ma & mb) >= 0.5 * min(len(ma), len(mb)):
                if group[b.table_name] == b.table_name:
                    group[b.table_name] = group[a.table_name]
    out = []
    for head in sorted(set(group.values())):  # one order, whatever the hash seed
        parts = [t for t in tables if group[t.table_name] == head]
        columns: dict[str, tuple[str, str | None]] = {}
        for table in parts:
            for column in table.columns:
                if column.attribute in table.column_attributes:
                    columns.setdefault(column.attribute, (column.sql_type, column.unit))
        keys = sorted(set().union(*(members[t.table_name] for t in parts)))
        # Attributes most of the kind's records state belong to it too,
        # though all-confidence kept them out of the table.
        seen = Counter(a for k in keys for a in records[k])
        for attr, count in seen.items():
            if attr not in columns and count >= max(2, KIND_PRESENCE * len(keys)):
                columns[attr] = _column_type(
                    records[k][attr] for k in keys if attr in records[k]
                )
        guide = build_guide(head, columns, (records[k] for k in keys))
        if guide is not None and len(keys) >= MIN_KIND_RECORDS:
            filled = sorted(len(set(columns) & set(records[k])) for k in keys)
            guide.typical = filled[len(filled) // 2]
            out.append((guide, set(columns)))
    return out


def _column_type(observations: Iterable[Observation]) -> tuple[str, str | None]:
    """A column's SQL type and unit as its observations suggest them."""
    obs = list(observations)
    numbers = [
        o for o in obs if o.value.number is not None and o.value.kind != "timestamp"
    ]
    if len(numbers) > len(obs) / 2:
        units = Counter(o.value.unit for o in numbers)
        return "DOUBLE", units.most_common(1)[0][0]
    if sum(1 for o in obs if o.value.kind == "timestamp") > len(obs) / 2:
        return "TIMESTAMP", None
    return "VARCHAR", None


def _guided(
    memory: AnalyticMemory,
    stored: Mapping[str, Mapping[int, list[Observation]]],
    limit: int = REALIGN_ROUNDS,
) -> dict[str, tuple[str, list[Observation]]]:
    """Rounds a kind reads as more (or fuller) records than they gave."""
    kinds = kind_guides(memory, stored)
    if not kinds:
        return {}
    # Every extracted round, with observations or none ("won against Ruth
    # O'Neill as white (90+30), 153 mins" gave the rule extractor nothing).
    texts = dict(
        memory.db.fetchall(
            "SELECT round_id, user_text FROM adamm_rounds WHERE user_id = ? AND "
            "status = 'extracted' ORDER BY \"order\" DESC LIMIT ?",
            [memory.user_id, limit],
        )
    )
    common = common_words(t or "" for t in texts.values())
    known = frozenset(
        o.value.text.strip().lower()
        for by_record in stored.values()
        for obs in by_record.values()
        for o in obs
        if o.value.kind == "text" and o.value.text
    )
    kinds = [(replace(g, common=common, known=known), attrs) for g, attrs in kinds]
    # Rounds stating each attribute: one stated once ("crystal 60 malt 1 kg",
    # a receipt's item read as a field) is no sign of a kind not known yet,
    # unless the kind would take its value for a column of its own
    # ("Tournament: Leinster Open" is no lesson's coach).
    stating = Counter(
        a
        for by_record in stored.values()
        for a in {o.attribute for obs in by_record.values() for o in obs}
    )
    out: dict[str, tuple[str, list[Observation]]] = {}
    for rid, text in texts.items():
        by_record = stored.get(rid, {})
        text = text or ""
        if not any(ch.isdigit() for ch in text):
            continue
        if sum(1 for ln in text.split("\n") if ln.strip()) <= 1 and any(
            attrs <= {o.attribute for o in obs}
            for obs in by_record.values()
            for _, attrs in kinds
        ):
            continue  # one line (one record at most) already read whole
        best: tuple[int, str, list[list[Observation]]] | None = None
        fills = {
            guide.table: sorted(
                (len(attrs & {o.attribute for o in obs}) for obs in by_record.values()),
                reverse=True,
            )
            for guide, attrs in kinds
        }
        for guide, attrs in kinds:
            found = guided_records(guide, text, rid)
            if not found:
                continue
            had = [n for n in fills[guide.table] if n >= 2]
            new = [len(r) for r in found]
            # A round that already gives another kind a record as full is that
            # kind's; and one whose record holds more of what this kind lacks
            # is a record of a kind not known yet.
            elsewhere = max(
                (f[0] for t, f in fills.items() if t != guide.table and f), default=0
            )
            taken = {_said(o) for rec in found for o in rec}
            other = max(
                (
                    _unknown_kind(obs, attrs, stating, taken)
                    for obs in by_record.values()
                ),
                default=0,
            )
            if elsewhere >= max(new) or other >= max(new):
                continue
            gain = sum(new) - sum(had)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, guide.table, found)
        if best is None:
            continue
        _, table, found = best
        kept = [
            o
            for obs in by_record.values()
            for o in obs
            if o.provenance.source != "user"
        ]
        out[rid] = (table, [o for rec in found for o in rec] + kept)
    return out


def _unknown_kind(
    obs: Iterable[Observation],
    attrs: set[str],
    stating: Mapping[str, int],
    taken: set[str],
) -> int:
    """Attributes of a stored record that point to a kind not known yet.

    Those outside the kind's columns stated in two rounds at least, or whose
    value the kind's reading would take for a column of its own.
    """
    return len(
        {
            o.attribute
            for o in obs
            if o.attribute not in attrs
            and (stating[o.attribute] >= 2 or _said(o) in taken)
        }
    )


def _said(o: Observation) -> str:
    """An observation's text as compared across readings (lower case, trimmed)."""
    return (o.value.text or "").strip().lower()


def rebuild(memory: AnalyticMemory, observations: dict[str, list[Observation]]) -> None:
    """Apply these rounds again, from scratch, with the given observations.

    Every round is taken back and the rounds are applied again in history
    order, in ingestion's batches, so that counts, schemas and tables are what
    ingesting these observations from the start builds (induction is
    incremental: taking back only the changed rounds would leave the order of
    their discovery in the tables).
    """
    if not observations:
        return
    ids = sorted(observations)
    db = memory.db
    size = max(1, memory.config.ingest_batch_size)

    def work() -> None:
        loaded = load_rounds(
            db, memory.user_id, "round_id IN (SELECT unnest(?::VARCHAR[]))", [ids]
        )
        ungrounded = dict(
            db.fetchall(
                "SELECT round_id, ungrounded FROM adamm_rounds WHERE user_id = ? AND "
                "round_id IN (SELECT unnest(?::VARCHAR[]))",
                [memory.user_id, ids],
            )
        )
        memory.forget_rounds(ids)
        # schema ids are given again to the tables rebuilt: a heading read for
        # a table taken back must not name the one that gets its id
        memory.catalog.headings.clear()
        db.execute(
            "UPDATE adamm_rounds SET status = 'pending' WHERE user_id = ? AND "
            "round_id IN (SELECT unnest(?::VARCHAR[]))",
            [memory.user_id, ids],
        )
        batch = []
        for order, rnd in loaded:
            found = Extracted(observations[rnd.round_id])
            found.dropped = int(ungrounded.get(rnd.round_id) or 0)
            batch.append((order, rnd, found))
        for i in range(0, len(batch), size):
            memory.apply_batch(batch[i : i + size])

    memory.catalog.atomically(work)
