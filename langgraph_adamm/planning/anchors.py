"""Event anchors: periods told by what happened ("since we moved").

"since / after / before / until E", "between E1 and E2", "the week before E",
"the N days/weeks after E" and "the day of E" are read from a question as
:class:`Anchor`s; each becomes an EventLocate step for the event phrase and a
time filter on the analytic step that refers to the day it found (``$n.day``).

Bounds use the event's calendar day, as date phrases do: "since/after E" starts
on E's day, "before E" ends the day before it, "until E" on it, "between E1 and
E2" runs from E1's day to E2's day, "the week before E" is the 7 days before
E's day and "the N days/weeks after E" the days after it. "During / while E"
names a stretch: one whose ends are life events of their own (a trip from
leaving to getting back, a visit, exams; see ``events.stretch_frames``) runs
from the first end's day to the other's, as "between" does; any other stretch
is reported, not resolved.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from langgraph_adamm.planning.cues import LEAST_RE, MOST_RE
from langgraph_adamm.planning.dates import (
    NUMBER_WORDS,
    PHRASE_PROBE_DAY,
    find_date_ranges,
)
from langgraph_adamm.planning.events import stretch_frames

ANCHOR_BUDGET = 3
"""Events an anchoring EventLocate returns (each costs 1 of the shared budget)."""
_CLAUSE_END = (
    r"(?=\s*(?:[?.!,;:]|\s[-–—]\s|\bthan\b|\bthen\b|\bcompared\b|\bvs\.?\b|"
    r"\bversus\b|\bin\s+total\b|\boverall\b|\bon\s+average\b|\baltogether\b|"
    r"\b(?:did|do|does|have|has|was|were)\s+(?:i|we)\b|$))"
)
"""Where an event clause ends: punctuation, a comparison, an aggregate word, or
the question going on ("which week since my wedding did I sleep least")."""
_EVENT_START = (
    r"(?!(?:then|that|this|now|so|and|or|than|then|on|in|at|of|to|for|with)\b)"
    r"[a-z][a-z'-]*\b"
)
"""Any word may open an event clause ("before signing up", "after quitting
sugar", "since exams started"); dates are read before events, so "since March 5"
never gets here."""
_ANCHOR_RES: list[tuple[str, re.Pattern[str]]] = [
    (
        "between",
        re.compile(
            rf"\bbetween\s+(?P<e1>{_EVENT_START}.*?)\s+and\s+(?P<e2>{_EVENT_START}.*?)"
            + _CLAUSE_END
        ),
    ),
    (
        "window",
        re.compile(
            r"\b(?:in|during|over|for)?\s*the\s+(?:(?P<n>\d+|"
            + "|".join(NUMBER_WORDS)
            + r")\s+)?(?P<unit>days?|weeks?|months?)\s+(?P<dir>before|after|"
            rf"following|leading\s+up\s+to|prior\s+to)\s+(?P<e1>{_EVENT_START}.*?)"
            + _CLAUSE_END
        ),
    ),
    (
        "span",
        re.compile(
            rf"\b(?:during|while|throughout)\s+(?P<e1>{_EVENT_START}.*?)" + _CLAUSE_END
        ),
    ),
    (
        "since",
        re.compile(
            r"\b(?P<dir>(?:ever\s+)?since|after|following|before|until|till|"
            rf"prior\s+to|up\s+to)\s+(?P<e1>{_EVENT_START}.*?)" + _CLAUSE_END
        ),
    ),
]
_NOT_AN_EVENT = re.compile(
    r"^(?:my\s+|the\s+)?(?:first|last|latest|earliest|previous|next|highest|lowest|"
    r"most|least|best|worst|longest|shortest|biggest|smallest)\b"
)
"""Clauses that name records, not events ("between my first and latest score",
"since the first weigh-in"); in a window ("the 2 weeks after my first night
shift") the clause is an event."""
_META_EVENT = re.compile(
    r"\b(?:start(?:ed|ing)?|began|begun|beginning)\s+(?:to\s+)?(?:log|track|record|"
    r"keep|us|writ|not)\w*"
)
"""Events that are the log itself ("since I started logging"): they bound nothing."""
_DAY_OF_RE = re.compile(
    r"\b(?:on\s+)?the\s+day\s+(?:of\s+|when\s+|that\s+)?"
    r"(?P<e1>(?:i|we|my|our|the)\b.+?)" + _CLAUSE_END
)
ANCHOR_CUE = re.compile(
    r"\b(?:between|before|after|following|since|until|till|prior\s+to|up\s+to|"
    r"during|while|throughout|the\s+day)\b"
)
"""Words every event anchor opens with (a cheap first test)."""
PRONOUN_EVENT = frozenset({"", "it", "that", "then", "this", "them", "there"})


@dataclass
class Anchor:
    """A period bound told by an event ("since we moved")."""

    kind: str
    """since, after, before, until, between, window_before, window_after, day."""
    events: list[str]
    text: str
    days: int = 0
    frames: list[str] = dataclasses.field(default_factory=list)
    """Per event, the life-event frame to search it by (empty: read from the
    phrase); a stretch names both its ends' frames."""


# -- reading the parts -------------------------------------------------------------
_TRAILING_VERB = re.compile(r"\s+(?:take|last|cost|go|come|cover|run|get|make)$")
"""The main verb a "how long did ... take" question ends with, after the event."""


def _clean_event(text: str, question: str = "") -> str:
    event = re.sub(r"\s+", " ", text).strip(" ,.?!;")
    if re.match(r"^(?:how|what|when|where|which)\b.*\bdid\b", question):
        event = _TRAILING_VERB.sub("", event)
    return event


def find_anchors(text: str) -> tuple[list[Anchor], str]:
    """Event anchors in a (lower-cased) question, and the text without them.

    The reading is cached per text (a question is read by several
    compositions); each call gets anchors of its own to change.
    """
    anchors, rest = _read_anchors(text)
    return [dataclasses.replace(a, events=list(a.events)) for a in anchors], rest


@functools.lru_cache(maxsize=1024)
def _read_anchors(text: str) -> tuple[tuple[Anchor, ...], str]:
    anchors, rest = _find_anchors(text)
    return tuple(anchors), rest


def _find_anchors(text: str) -> tuple[list[Anchor], str]:
    anchors: list[Anchor] = []
    skipped: list[str] = []
    rest = text
    # date phrases are no events: masked while anchors are read, then put back
    dates = find_date_ranges(text, PHRASE_PROBE_DAY)
    for i, dr in enumerate(dates):
        rest = rest.replace(dr.text, f"\x01{i}\x01", 1)
    m = _DAY_OF_RE.search(rest)
    if m is not None and not re.search(r"\bday\s+(?:before|after)\b", m.group(0)):
        anchors.append(Anchor("day", [_clean_event(m.group("e1"))], m.group(0)))
        rest = rest.replace(m.group(0), " ")
    for kind, regex in _ANCHOR_RES:
        while True:
            m = regex.search(rest)
            if m is None:
                break
            if kind == "span" and (
                MOST_RE.search(m.group("e1")) or LEAST_RE.search(m.group("e1"))
            ):
                # "during my longest session": a record the Rank finds, no stretch
                rest = rest.replace(m.group(0), m.group(0).replace("during", "in"), 1)
                continue
            if kind == "span":
                event = _clean_event(m.group("e1"), text)
                ends = stretch_frames(event)
                if ends is None:
                    a = Anchor("span", [event], m.group(0))
                else:  # "while I was away": from leaving to getting back
                    a = Anchor(
                        "between", [event, event], m.group(0), 0, [f.name for f in ends]
                    )
            elif kind == "between":
                a = Anchor(
                    "between",
                    [_clean_event(m.group("e1")), _clean_event(m.group("e2"), text)],
                    m.group(0),
                )
            elif kind == "window":
                n = m.group("n")
                count = 1 if n is None else (int(n) if n.isdigit() else NUMBER_WORDS[n])
                unit = m.group("unit")
                days = count * (
                    7
                    if unit.startswith("week")
                    else 30
                    if unit.startswith("month")
                    else 1
                )
                before = m.group("dir") in ("before", "prior to") or m.group(
                    "dir"
                ).startswith("leading")
                a = Anchor(
                    "window_before" if before else "window_after",
                    [_clean_event(m.group("e1"), text)],
                    m.group(0),
                    days,
                )
            else:
                word = m.group("dir").replace("ever ", "")
                kind_of = {
                    "since": "since",
                    "after": "since",
                    "following": "since",
                    "before": "before",
                    "prior to": "before",
                    "until": "until",
                    "till": "until",
                    "up to": "until",
                }.get(word, "since")
                a = Anchor(kind_of, [_clean_event(m.group("e1"), text)], m.group(0))
            if kind != "window" and any(_NOT_AN_EVENT.match(e) for e in a.events):
                # "between my first and latest sleep score": records, not events;
                # kept as written, out of the way of the other rules
                skipped.append(m.group(0))
                rest = rest.replace(m.group(0), f"\x02{len(skipped) - 1}\x02", 1)
                continue
            if not any(_META_EVENT.search(e) for e in a.events):
                anchors.append(a)
            else:  # "since I started logging": every record, no bound
                rest = rest.replace(m.group(0), " ", 1)
                continue
            rest = rest.replace(m.group(0), " ", 1)
    for k, phrase in enumerate(skipped):
        rest = rest.replace(f"\x02{k}\x02", phrase)
    for i, dr in enumerate(dates):
        rest = rest.replace(f"\x01{i}\x01", dr.text)
        for a in anchors:
            a.events = [e.replace(f"\x01{i}\x01", dr.text) for e in a.events]
            a.text = a.text.replace(f"\x01{i}\x01", dr.text)
    return anchors, " ".join(rest.split())


def has_span(anchors: list[Anchor]) -> bool:
    """Whether a period is told as a stretch ("during the exam period")."""
    return any(a.kind == "span" for a in anchors)


def anchor_filters(
    anchor: Anchor, first_step: int, today: datetime | date | None = None
) -> list[dict[str, Any]]:
    """Time filters for an anchor whose events are located by steps from ``first_step``.

    "Since E" ends at ``today`` (the question's time), as "since March 5" does.
    """
    ref = f"${first_step}.day"
    if anchor.kind == "since":
        if today is not None:
            return [
                {"column": "time", "op": "between", "value": [ref, today.isoformat()]}
            ]
        return [{"column": "time", "op": ">=", "value": ref}]
    if anchor.kind == "before":
        return [{"column": "time", "op": "<=", "value": ref + "-1"}]
    if anchor.kind == "until":
        return [{"column": "time", "op": "<=", "value": ref}]
    if anchor.kind == "between":
        return [
            {
                "column": "time",
                "op": "between",
                "value": [ref, f"${first_step + 1}.day"],
            }
        ]
    if anchor.kind == "window_before":
        return [
            {
                "column": "time",
                "op": "between",
                "value": [f"{ref}-{anchor.days}", f"{ref}-1"],
            }
        ]
    if anchor.kind == "window_after":
        return [
            {
                "column": "time",
                "op": "between",
                "value": [f"{ref}+1", f"{ref}+{anchor.days}"],
            }
        ]
    return [{"column": "time", "op": "between", "value": [ref, ref]}]
