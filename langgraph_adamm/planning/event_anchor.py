"""Which round an event phrase names: the anchor of an EventLocate step.

An EventLocate step searches the memory for an event phrase ("since the
storm"); the rounds it returns are candidates, and :func:`anchor_unit` decides
which one told the event, or that none did. A round that holds the words that
tell the event apart is it; a later mention that dates the event ("a week
since the wind took the slates") moves the anchor to the day it counts back
to; a life-event frame's telling is checked against the rounds; an event whose
telling words no round of the memory says, and that nothing dates, is taken as
never told. Where unsure, nothing is anchored and the step says why
(``anchor_unsure``): a period bounded by a guessed event would be a wrong
number stated as fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from langgraph_adamm.planning.cards import MEMORY_WORD_ROUNDS, RecordWords
from langgraph_adamm.planning.context import Embed
from langgraph_adamm.planning.dating import Dating, dating, parse_time
from langgraph_adamm.planning.events import EventFrame, frame_named, told_like
from langgraph_adamm.planning.text import STOPWORDS, root, words

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


def read_whole(memory: RecordWords | None) -> bool:
    """Whether a memory's words were read from every one of its rounds.

    Only the latest :data:`~.cards.MEMORY_WORD_ROUNDS` are read: beyond them a
    word no round read holds may still be in an older one.
    """
    return memory is not None and 0 < memory.rounds < MEMORY_WORD_ROUNDS


def unheard_name(names: Iterable[str], memory: RecordWords | None) -> str | None:
    """A name of an event phrase that no round of the memory holds, if any.

    "Since joining the Clontarf club" where no round says "Clontarf" names an
    event that never happened. Only the memory's latest rounds are read for
    its words (:data:`~.cards.MEMORY_WORD_ROUNDS`): where they are not all
    of its rounds, no name is said unheard.
    """
    if memory is None or not read_whole(memory):
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
    said: Callable[[str], float] | None = None,
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

    Without a frame, an event told in other words than the question's ("the
    wind ripped the slates off" for "the storm") is found where a later
    mention among the candidates counts the days from it to the day of one
    of them ("two days on from that gale", :func:`_corroborated`). Where the
    noun the phrase names its event by is said by no round of the memory at
    all (:func:`unsaid_word`; ``said``: a word's share of all its rounds,
    given only where every round was read) and nothing dates an event, it is
    taken as never told: "since the flood" is no round about the flat the
    flood was in.
    """
    if "anchor" in step:  # decided when the step ran
        return dict(step["anchor"]) if step["anchor"] else None
    if unheard is not None:
        step["anchor_unsure"] = f"no round of the memory mentions '{unheard}'"
        return None
    frame = frame_named(step.get("frame"))
    phrase = str((step.get("arguments") or {}).get("query_content") or "")
    detail = unsaid_detail(phrase, frame, said)
    if detail is not None:
        step["anchor_unsure"] = f"no round of the memory mentions '{detail}'"
        return None
    units = (step.get("result") or {}).get("units") or []
    if step.get("error") or not units:
        return None
    ranked = sorted(
        (u for u in units if u.get("unit_id") not in records and u.get("time")),
        key=lambda u: -_similarity(u),
    )
    told = telling_words(phrase, share)
    holding = [u for u in ranked if holds_words(told, u.get("content"))]
    if frame is not None:
        found = _frame_anchor(ranked, frame, embed)
        if found is not None and not _frame_supported(found, frame, phrase, said):
            step["anchor_unsure"] = (
                f"{found.get('unit_id')} reads like such an event but says "
                "nothing of it, and no round of the memory says any word of "
                f"'{_asked_part(phrase, frame)}'"
            )
            return None
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
    told_on = _corroborated(ranked)
    if told_on is not None and score >= EVENT_MATCH_FLOOR:
        return told_on
    silent = unsaid_word(phrase, said)
    if silent is not None:
        step["anchor_unsure"] = f"no round of the memory mentions '{silent}'"
        return None
    if score < EVENT_MATCH_FLOOR:
        return None
    if len(ranked) > 1 and score - _similarity(ranked[1]) < EVENT_MATCH_GAP:
        return None
    if score < EVENT_UNSHARED_FLOOR:
        return None  # "since I broke my wrist" is not a round about a lawnmower
    return _dated(best, ranked, step)


def _asked_part(phrase: str, frame: EventFrame) -> str:
    """The question's own event phrase, without the frame's telling added."""
    if phrase.endswith(frame.telling):
        return phrase[: -len(frame.telling)].rstrip(". ")
    return phrase


def _telling_roots(frame: EventFrame) -> set[str]:
    """The roots of the words a frame's tellings use."""
    return {root(w) for t in frame.tellings for w in words(t)}


def _frame_supported(
    unit: dict[str, Any],
    frame: EventFrame,
    phrase: str,
    said: Callable[[str], float] | None,
) -> bool:
    """Whether a frame's anchor is more than a round that reads like its event.

    A round told like the frame that shares a word with the frame's tellings
    or the phrase ("got the keys", "the baby came" / "was born") is the
    event's telling. One that shares none ("Packaged another one." read as a
    move among boxes) is kept only where the memory says some word of the
    phrase somewhere ("the subbing job": "job" is said): a life that never
    says "moved" or "house" told no move, whatever reads like one. Without
    ``said`` (not every round read) it is kept.
    """
    own = words(_asked_part(phrase, frame))
    asked = {w for w in own if w not in STOPWORDS and len(w) > 2}
    vocabulary = _telling_roots(frame) | {root(w) for w in asked}
    held = {
        root(w)
        for w in words(_user_said(unit.get("content")))
        if w not in STOPWORDS and len(w) > 2
    }
    if held & vocabulary or said is None:
        return True
    return any(said(w) > 0 for w in asked)


def _corroborated(ranked: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The best candidate, where another dates it as a later mention would.

    A candidate that counts days from an event to one day ("two days on
    from that gale", "a week since the wind took the slates", "day three of")
    and lands on another candidate's day tells the two apart: the earlier is
    the event, the later its mention. The pair must hold the best candidate;
    "yesterday" or "the new ..." date too much to count.
    """
    best = ranked[0]
    for mention in ranked:
        found = dating(
            _user_said(mention.get("content")), parse_time(mention.get("time"))
        )
        if found is None or not found.counts_from_event:
            continue
        inside = _inside(found, ranked, mention)
        if best in inside:
            return dict(best)
        if inside and mention is best:
            told: dict[str, Any] = max(inside, key=_similarity)
            return dict(told)
    return None


_DETERMINERS = frozenset("the my our his her their this that a an".split())


def unsaid_word(phrase: str, said: Callable[[str], float] | None) -> str | None:
    """The noun an event phrase is named by, where no round says it.

    "The flood in flat 1", "my accident": the word after the determiner the
    phrase opens with names the event; where no round of the memory holds it
    it is returned. A phrase told by its verb ("I went onto nights") names no
    such noun: a verb is said in other tenses and words. None without
    ``said``.
    """
    if said is None:
        return None
    tokens = words(phrase)
    if len(tokens) < 2 or tokens[0] not in _DETERMINERS:
        return None
    noun = tokens[1]
    if noun in STOPWORDS or len(noun) <= 2 or not noun.isalpha():
        return None
    return noun if said(noun) == 0 else None


_POSSESSIVE_RE = re.compile(r"\b(?:my|our|his|her|their)\s+([a-z]+)(?:\s+([a-z]+))?")


def unsaid_detail(
    phrase: str, frame: EventFrame | None, said: Callable[[str], float] | None
) -> str | None:
    """A thing of the asker's an event phrase names, where no round says it.

    "Since I broke my wrist" in a memory that never says "wrist" is no
    injury it told, though a knee injury is told like one: the words after
    a possessive (up to two) past the phrase's first word are the event's own
    detail ("my crash" is the event's name, told in other words). Words of the
    frame's tellings ("my new job": a first day at work seldom says "job")
    and words any phrase may use are no such detail. None without ``said``
    (only where every round of the memory was read).
    """
    if said is None:
        return None
    if frame is not None:
        phrase = _asked_part(phrase, frame)
    known = _telling_roots(frame) if frame is not None else set()
    for m in _POSSESSIVE_RE.finditer(phrase.lower()):
        if not phrase[: m.start()].strip():
            continue  # "my crash": the phrase names the event itself
        for word in filter(None, m.groups()):
            if (
                word in STOPWORDS
                or len(word) <= 2
                or root(word) in known
                or said(word) > 0
            ):
                continue
            return word
    return None


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
