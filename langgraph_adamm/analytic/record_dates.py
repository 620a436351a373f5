"""The day a record is about, where it is not the day it was told.

People log late: "Forgot to log yesterday's shoot: ...", "Never logged
yesterday - Spiddal Pier, two pollack ...", or an app export pasted the next
morning with its own ``Date: Sat 14 Feb 2026``. A table's ``time`` is the
round's time unless the record says otherwise:

* a date the record itself states (a field named as a date: ``date``,
  ``day`` ...) a few days
  before the round (at most :data:`STATED_DAYS`) dates it: the stated day, at
  the round's clock time (a stated date in the future, or long before, is
  some other date - a due date, a birthday - and is not the record's);
* else the word "yesterday" in the sentence that tells the record (from the
  sentence's start to the record's last value) dates it the day before.

Nothing else moves a record: "last night" is how a morning's sleep log is
told, and words outside the record's sentence ("Yesterday was long. Today:
...") are about something else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from langgraph_adamm.analytic.extraction.base import Observation
from langgraph_adamm.analytic.schema_induction import DATE_ATTRIBUTES

STATED_DAYS = 7
"""How many days before its round a stated date may date a record."""

_YESTERDAY_RE = re.compile(
    r"(?<!before\s)(?<!than\s)(?<!as\s)\byesterday(?:'s|’s)?\b", re.IGNORECASE
)
""""yesterday" as the record's day: not "the day before yesterday" (two days),
not "same as yesterday" or "more than yesterday" (a comparison)."""
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s)|\n")

Row = tuple[str, int, int, "datetime | None", dict[str, Observation]]


def record_times(db: Any, user_id: str, rows: Sequence[Row]) -> list[datetime | None]:
    """Each row's time: its round's, or the day its record says it is about."""
    told = _told(db, user_id, [r for r in rows if r[3] is not None])
    return [_record_time(row, told.get((row[0], row[1]))) for row in rows]


def _record_time(row: Row, told: tuple[str, int, int] | None) -> datetime | None:
    time = row[3]
    if time is None:
        return None
    stated = _stated_day(time, row[4].values())
    if stated is not None:
        return stated
    if told is not None and _says_yesterday(*told):
        return time - timedelta(days=1)
    return time


def _stated_day(time: datetime, observations: Any) -> datetime | None:
    """The round's clock on the latest earlier day the record states, if near."""
    days = []
    for obs in observations:
        if obs.attribute not in DATE_ATTRIBUTES:
            continue  # "Last gala: 2026-03-05" is some other day, not the record's
        ts = obs.value.timestamp
        if ts is None:
            continue
        gap = (time.date() - ts.date()).days
        if 0 < gap <= STATED_DAYS:
            days.append(ts.date())
    if not days:
        return None
    return datetime.combine(max(days), time.time(), tzinfo=time.tzinfo)


def _says_yesterday(text: str, start: int, end: int) -> bool:
    """Whether "yesterday" stands in the sentence that tells text[start:end]."""
    if not 0 <= start < end <= len(text):
        return False
    begin = 0
    for m in _SENTENCE_END_RE.finditer(text, 0, start):
        begin = m.end()
    return bool(_YESTERDAY_RE.search(text, begin, end))


def _told(
    db: Any, user_id: str, rows: Sequence[Row]
) -> dict[tuple[str, int], tuple[str, int, int]]:
    """Where each row's record is told: its round's user text, and its span.

    Keyed by (round, record); the span runs from the record's first value to
    its last.
    """
    ids = sorted({r[0] for r in rows})
    if ids:  # most batches tell nothing of yesterday: one light query then
        ids = [
            str(rid)
            for (rid,) in db.fetchall(
                "SELECT round_id FROM adamm_rounds WHERE user_id = ? "
                "AND user_text ILIKE '%yesterday%' "
                "AND round_id IN (SELECT unnest(?::VARCHAR[]))",
                [user_id, ids],
            )
        ]
    if not ids:
        return {}
    found = db.fetchall(
        "SELECT o.round_id, coalesce(o.record, 0), min(o.span_start), "
        "max(o.span_end), any_value(r.user_text) FROM adamm_observations o "
        "JOIN adamm_rounds r USING (user_id, round_id) WHERE o.user_id = ? "
        "AND o.source = 'user' AND o.span_start IS NOT NULL "
        "AND o.round_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY 1, 2",
        [user_id, ids],
    )
    return {
        (str(rid), int(record)): (str(text or ""), int(start), int(end))
        for rid, record, start, end, text in found
    }
