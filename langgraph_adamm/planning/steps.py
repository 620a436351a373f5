"""Steps that feed each other: references to earlier results, and the combine step.

A plan step's arguments may refer to what an earlier step returned (AdaMM §3.5:
"a time from EventLocate can bound a later Compute"). A reference is a string
``$<n>.<field>`` with ``n`` the 1-based step number and ``field`` one of

- ``day`` / ``time``: the anchored event's day or time (EventLocate), the top
  row's (Rank) or the top group's key when it is a time bucket;
- ``value``: a Compute's value, the top ranked row's value or group's value;
- ``group``: the top group's key (a grouped Rank or Compute).

A day takes an offset in days: ``$1.day-7``, ``$1.day+1``. References are
resolved after the step they name ran; the resolved arguments are what the step
shows. A reference to a step that failed or found nothing is not guessed: the
step that needs it is not run and says why.

The combine step does arithmetic over typed step results in code - difference,
ratio, percentage change, comparison - so that no model ever does it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

from pydantic import ConfigDict, Field

from langgraph_adamm.analytic.values import convert_units, convertible
from langgraph_adamm.planning.cards import MEMORY_WORD_ROUNDS, RecordWords
from langgraph_adamm.planning.context import Embed
from langgraph_adamm.planning.dating import Dating, dating, parse_time
from langgraph_adamm.planning.events import EventFrame, frame_named, told_like
from langgraph_adamm.planning.reader import fmt
from langgraph_adamm.planning.text import STOPWORDS, root, words
from langgraph_adamm.schemas import WireModel
from langgraph_adamm.tools.names import COMBINE, COMPUTE, EVENT_LOCATE, RANK

REFERENCE_RE = re.compile(
    r"^\$(?P<step>\d{1,2})\.(?P<field>day|time|value|group)(?P<offset>[+-]\d{1,4})?$"
)
EVENT_MATCH_FLOOR = 0.28
"""An EventLocate result below this score is no convincing match for an event
phrase: an anchor on it is reported as unresolved instead of bounding a period."""
EVENT_UNSHARED_FLOOR = 0.45
"""Below this score a round that holds none of an event phrase's words is no
match for it: a close vector alone does not tell an event that never happened
from an unrelated one."""
EVENT_SHARED_FLOOR = 0.2
"""The floor for a round that holds the words that tell the event apart."""
EVENT_DATED_FLOOR = 0.2
"""A round inside the days a later mention dates scores at least this to be the
event's telling (it seldom uses the phrase's words, so scores low)."""
EVENT_MATCH_GAP = 0.05
"""How far the anchoring event must score above the next one."""
EVENT_MENTION_MARGIN = 0.1
"""Rounds of one frame scoring this close to the best are the event and its
later mentions; the earliest of them is the event."""
EVENT_FRAME_FLOOR = 0.30
"""The floor for a search by a frame's telling: the telling is longer than the
phrase and lifts every round's score, the unrelated ones too."""
Operation = Literal["difference", "ratio", "percent_change", "share", "greater", "less"]


class CombineArgs(WireModel):
    """Arithmetic over two earlier steps' values, done in code."""

    model_config = ConfigDict(extra="forbid")
    operation: Operation = Field(
        description="difference (left - right), ratio (left / right), "
        "percent_change ((right - left) / left * 100, from left to right), "
        "share (left / right * 100: the part left is of the whole right), "
        "greater / less (yes/no: is left greater / less than right)"
    )
    left: str = Field(pattern=r"^\$\d{1,2}(\.value)?$", description="e.g. '$1'")
    right: str = Field(pattern=r"^\$\d{1,2}(\.value)?$", description="e.g. '$2'")


class ReferenceError_(Exception):
    """A reference that cannot be resolved (kept inside this module's callers)."""


@dataclass(frozen=True)
class StepValue:
    """The typed value one executed step stands for."""

    value: Any
    unit: str | None
    evidence: tuple[str, ...]


def unheard_name(names: Iterable[str], memory: RecordWords | None) -> str | None:
    """A name of an event phrase that no round of the memory holds, if any.

    "Since joining the Clontarf club" where no round says "Clontarf" names an
    event that never happened. Only the memory's latest rounds are read for
    its words (:data:`~.cards.MEMORY_WORD_ROUNDS`): where they are not all
    of its rounds, no name is said unheard.
    """
    if memory is None or not memory.rounds or memory.rounds >= MEMORY_WORD_ROUNDS:
        return None
    for name in names:
        parts = [w for w in words(name) if len(w) > 2 and w not in STOPWORDS]
        if parts and all(memory.counts.get(root(w), 0) == 0 for w in parts):
            return name
    return None


def anchor_unit(
    step: dict[str, Any],
    embed: Embed | None = None,
    records: frozenset[str] | set[str] = frozenset(),
    share: Callable[[str], float] | None = None,
    unheard: str | None = None,
) -> dict[str, Any] | None:
    """The event an EventLocate step anchors on: its best unit, if convincing.

    A round that holds most of the words that tell the phrase's event apart
    (:func:`telling_words`; ``share`` gives a word's share of the memory's
    rounds) is the event when it scores :data:`EVENT_SHARED_FLOOR`: "he was
    admitted" is the round that says "admitted", however close chat about him
    scores. Otherwise:

    A convincing match scores at least :data:`EVENT_MATCH_FLOOR` and stands out
    from the next event by :data:`EVENT_MATCH_GAP`: a phrase that matches
    several rounds about equally (everyday chat, two trips) names no one event,
    and the anchor is reported as unresolved instead of guessed.

    A step that searched a life-event frame's telling (``step["frame"]``, see
    :mod:`~langgraph_adamm.planning.events`) is read by :func:`_frame_anchor`;
    without ``embed`` it anchors on nothing, since nothing could check what its
    rounds tell. ``records`` are rounds that hold table rows: an event is told
    in chat, so they are passed over.
    """
    if "anchor" in step:  # decided when the step ran
        return dict(step["anchor"]) if step["anchor"] else None
    if unheard is not None:
        step["anchor_unsure"] = f"no round of the memory mentions '{unheard}'"
        return None
    units = (step.get("result") or {}).get("units") or []
    if step.get("error") or not units:
        return None
    ranked = sorted(
        (u for u in units if u.get("unit_id") not in records and u.get("time")),
        key=lambda u: -_similarity(u),
    )
    frame = frame_named(step.get("frame"))
    phrase = str((step.get("arguments") or {}).get("query_content") or "")
    told = telling_words(phrase, share)
    holding = [u for u in ranked if holds_words(told, u.get("content"))]
    if frame is not None:
        found = _frame_anchor(ranked, frame, embed)
        if found is not None:
            return _dated(found, ranked, step)
        # no round told like the frame's event: one that says the phrase's
        # own words may still be it ("a week on the new tablet now")
        if holding and _similarity(holding[0]) >= EVENT_FRAME_FLOOR:
            return _lexical_anchor(holding, ranked, step)
        return None
    if not ranked:
        return None
    if holding and _similarity(holding[0]) >= EVENT_SHARED_FLOOR:
        return _lexical_anchor(holding, ranked, step)
    best = ranked[0]
    score = _similarity(best)
    if score < EVENT_MATCH_FLOOR:
        return None
    if len(ranked) > 1 and score - _similarity(ranked[1]) < EVENT_MATCH_GAP:
        return None
    if score < EVENT_UNSHARED_FLOOR:
        return None  # "since I broke my wrist" is not a round about a lawnmower
    return _dated(best, ranked, step)


def _lexical_anchor(
    holding: list[dict[str, Any]],
    ranked: list[dict[str, Any]],
    step: dict[str, Any],
) -> dict[str, Any] | None:
    """The anchor among rounds that hold the event phrase's telling words.

    The best of them is the event unless another scores within
    :data:`EVENT_MATCH_GAP` and dates to another day: an event told and then
    mentioned ("the storm took the fence" / "a week since the storm") is one
    event, two trips to Cork are two.
    """
    top = _similarity(holding[0])
    close = [u for u in holding if top - _similarity(u) < EVENT_MATCH_GAP]
    anchors = [_dated(u, ranked, step) for u in close]
    days = {str(a.get("time"))[:10] for a in anchors if a}
    if None in anchors or len(days) != 1:
        if len(close) > 1:
            step.pop("anchor_unsure", None)
            return None
    return min(
        (a for a in anchors if a), key=lambda a: str(a.get("time")), default=None
    )


TELLING_SHARE = 0.05
"""A phrase word held by fewer of the memory's rounds than this is what tells its
event apart ("broken" in "the car was broken into" where every round is about
the car)."""


def telling_words(
    phrase: str, share: Callable[[str], float] | None = None
) -> list[tuple[str, ...]]:
    """The words of an event phrase that tell it apart, each with its compounds.

    Each entry is a word's root and the roots of the compounds it makes with
    the next or previous word ("heat wave": "heatwave"). Words fewer than
    :data:`TELLING_SHARE` of the memory's rounds hold are kept when there are
    any; else all content words.
    """
    content = [w for w in words(phrase) if w not in STOPWORDS and len(w) > 2]
    entries = []
    for n, w in enumerate(content):
        forms = [root(w)]
        if n + 1 < len(content):
            forms.append(root(w + content[n + 1]))
        if n > 0:
            forms.append(root(content[n - 1] + w))
        entries.append((w, tuple(forms)))
    if share is not None:
        rare = [e for e in entries if share(e[0]) < TELLING_SHARE]
        entries = rare or entries
    return [forms for _, forms in entries]


def _user_said(content: Any) -> str:
    """The user's words of a unit's content (before its "Assistant:" line)."""
    return str(content or "").split("\nAssistant:", 1)[0]


def holds_words(told: list[tuple[str, ...]], content: Any) -> bool:
    """Whether a round holds more than half of an event phrase's telling words."""
    if not told:
        return False
    held = {root(w) for w in words(_user_said(content))}
    # more than half: "the car was broken into" is not "reversed into the car"
    return 2 * sum(1 for forms in told if held & set(forms)) > len(told)


def _dated(
    unit: dict[str, Any], ranked: list[dict[str, Any]], step: dict[str, Any]
) -> dict[str, Any] | None:
    """The anchor, moved to the start a later mention of the event dates.

    A round that dates the event ("last Saturday's meltdown", "day three of the
    strike", "second week of physio": :mod:`~langgraph_adamm.planning.dating`)
    is a later mention. An earlier candidate round inside the dated days is the
    telling and becomes the anchor; else an exact day moves the anchor there,
    saying so (``dated_by``); a window of days with no telling in it anchors
    nothing, and the step says why (``anchor_unsure``).
    """
    when = parse_time(unit.get("time"))
    found = dating(_user_said(unit.get("content")), when)  # the user's words
    if found is None or when is None:
        return dict(unit)
    inside = _inside(found, ranked, unit)
    if inside:
        best: dict[str, Any] = max(inside, key=_similarity)
        return dict(best)
    if found.exact:
        start = datetime.combine(found.first, when.time())
        return dict(
            unit,
            time=start.isoformat(),
            dated_by=f"'{found.phrase}' told {when.date().isoformat()}",
        )
    step["anchor_unsure"] = (
        f"{unit.get('unit_id')} dates it '{found.phrase}', between "
        f"{found.first.isoformat()} and {found.last.isoformat()}, and no round "
        "found there tells it"
    )
    return None


def _similarity(unit: dict[str, Any]) -> float:
    """A unit's embedding similarity: the floors and gaps here are cosines.

    With lexical search on, a unit's ``score`` also holds its BM25 part, on
    another scale; its ``dense_score`` is the cosine the floors were set for.
    """
    dense = unit.get("dense_score")
    return float(unit.get("score", 0.0) if dense is None else dense)


def _frame_anchor(
    ranked: list[dict[str, Any]], frame: EventFrame, embed: Embed | None
) -> dict[str, Any] | None:
    """The round that told a frame's event, among rounds ranked by score.

    Rounds not told like the frame's event are passed over (see
    :func:`~langgraph_adamm.planning.events.told_like`). An event is told
    on its day and mentioned later ("the new place still smells of paint"): of
    the rounds scoring within :data:`EVENT_MENTION_MARGIN` of the best, the
    earliest is the event. The same text on several days is everyday chat, no
    one event.
    """
    if embed is None:
        return None
    told = [
        u
        for u in ranked
        if _similarity(u) >= EVENT_FRAME_FLOOR
        and told_like(str(u.get("content", "")), frame, embed)
    ]
    if not told:
        return None
    dated = _dated_by_mention(told, ranked)
    if dated:
        best: dict[str, Any] = max(dated, key=_similarity)
        return dict(best)
    top = _similarity(told[0])
    close: list[dict[str, Any]] = [
        u for u in told if top - _similarity(u) < EVENT_MENTION_MARGIN
    ]
    texts = [" ".join(str(u.get("content", "")).split()) for u in close]
    if len(set(texts)) < len(texts):
        return None
    first = min(close, key=lambda u: str(u.get("time")))
    return dict(first)


def _dated_by_mention(
    told: list[dict[str, Any]], ranked: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Rounds on the day, or in the days, a later mention of the event dates.

    "A week on the new tablet now" (told on the 22nd) dates the start to the
    15th: the round of the 15th found for the event ("she's put him on
    amlodipine") is the event, not an earlier one that scores as close ("he
    has high blood pressure"). The mention must be told like the frame's
    event; the round need only score :data:`EVENT_DATED_FLOOR`, as a telling
    seldom uses the words a question later does.
    """
    out = []
    for mention in told:
        when = parse_time(mention.get("time"))
        found = dating(_user_said(mention.get("content")), when)
        if found is not None:
            out += _inside(found, ranked, mention)
    return out


def _inside(
    found: Dating, ranked: list[dict[str, Any]], mention: dict[str, Any]
) -> list[dict[str, Any]]:
    """Candidates for the event's telling: rounds inside the days a mention dates.

    The mention itself is not one; each scores :data:`EVENT_DATED_FLOOR`.
    """
    return [
        u
        for u in ranked
        if u is not mention
        and _similarity(u) >= EVENT_DATED_FLOOR
        and (t := parse_time(u.get("time"))) is not None
        and found.first <= t.date() <= found.last
    ]


def _groups(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The groups of a grouped Compute or Rank result (empty: not grouped)."""
    if result.get("groups") is not None:
        return list(result["groups"])
    return list(result.get("rows") or []) if result.get("group_by") else []


def step_value(step: dict[str, Any]) -> StepValue | None:
    """The value a step produced (None: it failed or found nothing)."""
    if step.get("error"):
        return None
    result = step.get("result") or {}
    evidence = tuple(step.get("evidence") or [])
    tool = step.get("tool")
    if tool == COMBINE:
        return StepValue(result.get("value"), result.get("unit"), evidence)
    if tool == COMPUTE and not result.get("group_by"):
        if result.get("operator") != "count" and not result.get("row_count"):
            return None
        return StepValue(result.get("value"), result.get("unit"), evidence)
    if tool in (COMPUTE, RANK):
        groups = _groups(result)
        if groups:
            return StepValue(groups[0]["value"], result.get("unit"), evidence)
        rows = result.get("rows") or []
        if rows and tool == RANK and not result.get("group_by"):
            expr = (step.get("arguments") or {}).get("target_column_expression", "")
            top = rows[0]
            return StepValue(top.get(expr, top.get("_value")), None, evidence)
    return None


def _field(step: dict[str, Any], name: str) -> Any:
    tool = step.get("tool")
    result = step.get("result") or {}
    if name in ("day", "time"):
        if tool == EVENT_LOCATE:
            unit = anchor_unit(step)
            when = unit.get("time") if unit else None
        elif tool == RANK and result.get("rows") and not result.get("group_by"):
            when = result["rows"][0].get("time")
        else:
            groups = _groups(result)
            label = str(result.get("group_by") or "")
            when = (
                groups[0].get("group") if groups and label.startswith("time:") else None
            )
        if not when:
            return None
        return str(when)[:10] if name == "day" else str(when)
    if name == "group":
        groups = _groups(result)
        if groups and len(groups) > 1 and groups[1]["value"] == groups[0]["value"]:
            raise ReferenceError_(
                f"the top groups tie ({groups[0]['group']}, {groups[1]['group']})"
            )
        return groups[0]["group"] if groups else None
    found = step_value(step)
    return None if found is None else found.value


def resolve_reference(text: str, steps: list[dict[str, Any]]) -> Any:
    """The value a reference names, or :class:`ReferenceError_` saying why not."""
    m = REFERENCE_RE.match(text.strip())
    if m is None:
        raise ReferenceError_(f"{text!r} is no reference ($<step>.<field>)")
    n = int(m.group("step"))
    if not 1 <= n <= len(steps):
        raise ReferenceError_(f"{text} names step {n}, which has not run")
    step = steps[n - 1]
    value = _field(step, m.group("field"))
    if value is None:
        what = (
            "found no convincing event"
            if step.get("tool") == EVENT_LOCATE
            else "found nothing"
        )
        raise ReferenceError_(f"step {n} ({step.get('tool')}) {what}")
    offset = m.group("offset")
    if offset:
        if m.group("field") != "day":
            raise ReferenceError_(f"{text}: only a day takes an offset in days")
        value = (date.fromisoformat(value) + timedelta(days=int(offset))).isoformat()
    return value


def is_reference(value: Any) -> bool:
    """Whether a value is a step reference string."""
    return isinstance(value, str) and REFERENCE_RE.match(value.strip()) is not None


def resolve_arguments(
    arguments: Any, steps: list[dict[str, Any]]
) -> tuple[Any, dict[str, Any]]:
    """The arguments with every reference replaced, and what each resolved to.

    Raises:
        ReferenceError_: when a reference names a step that failed or found
            nothing.
    """
    resolved: dict[str, Any] = {}

    def walk(value: Any) -> Any:
        if is_reference(value):
            got = resolve_reference(value, steps)
            resolved[value] = got
            return got
        if isinstance(value, dict):
            # a query is text to search for, never a reference ("since $1.day?")
            return {k: v if k == "query_content" else walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(arguments), resolved


def _number(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return None if math.isnan(float(v)) else float(v)


def combine(args: CombineArgs, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Run a combine step over earlier steps; the outcome as an executed step.

    The right value is converted into the left's unit when both have units of
    one dimension; values without a number, or of units that do not convert,
    give an error instead of a guess.
    """
    record: dict[str, Any] = {
        "tool": COMBINE,
        "arguments": args.model_dump(),
        "cost": 0,
        "evidence": [],
    }
    sides: list[StepValue] = []
    for ref in (args.left, args.right):
        n = int(ref.lstrip("$").split(".")[0])
        if not 1 <= n <= len(steps):
            return record | {"error": f"{ref} names step {n}, which has not run"}
        got = step_value(steps[n - 1])
        if got is None or _number(got.value) is None:
            return record | {
                "error": f"step {n} gave no number to combine"
                + (f" ({steps[n - 1]['error']})" if steps[n - 1].get("error") else "")
            }
        sides.append(got)
    left, right = sides
    a, b = float(left.value), float(right.value)
    unit = left.unit
    if left.unit != right.unit:
        if left.unit and right.unit and convertible(right.unit, left.unit):
            b = convert_units(b, right.unit, left.unit)
        elif left.unit or right.unit:
            return record | {
                "error": f"cannot combine {left.unit or 'a plain number'} with "
                f"{right.unit or 'a plain number'}"
            }
    evidence = list(dict.fromkeys(left.evidence + right.evidence))
    op = args.operation
    value: Any
    if op == "difference":
        value = a - b
    elif op == "ratio":
        if b == 0:
            return record | {"error": "the ratio's right side is 0"}
        value, unit = a / b, None
    elif op == "share":
        if b == 0:
            return record | {"error": "the share's whole is 0"}
        value, unit = a / b * 100.0, "%"
    elif op == "percent_change":
        if a == 0:
            return record | {"error": "a percentage change from 0 is undefined"}
        value, unit = (b - a) / abs(a) * 100.0, "%"
    else:
        value = a > b if op == "greater" else a < b
        unit = None
    summary = f"{op}({fmt(a)}, {fmt(b)}{' ' + left.unit if left.unit else ''})"
    return record | {
        "result": {
            "operation": op,
            "value": value,
            "unit": unit,
            "left": {"value": a, "unit": left.unit, "step": args.left},
            "right": {"value": b, "unit": left.unit, "step": args.right},
            "equal": a == b,
        },
        "evidence": evidence,
        "summary": f"{summary} = {fmt(value)}",
        "error": None,
    }
