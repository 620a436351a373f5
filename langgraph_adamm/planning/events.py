"""Life-event frames: how people tell an event, for finding the round that told it.

A question names an event the way one refers back to it ("since the move",
"after getting the dog"); the history told it the way one tells news on the day
("Finally got the keys! We spent the whole day hauling boxes ..."). A sentence
embedding matches the two poorly: the words differ and the telling is long. The
offline planner therefore searches for a *telling*: the event phrase followed by
a short first-person account of that kind of event, written here (a
hypothetical document, as in HyDE, but fixed and inspectable). A phrase that
names no frame is searched as it is.

A telling draws in rounds of other events too, and an event's opposite most
of all ("since I got back from Lisbon" finds the round that told the departure
for Lisbon). So a round found for a frame's telling anchors only when, of all
the frames' tellings (a few per frame, told in different ways), it is closest
to one of that frame's family: the departure round is closer to the tellings
of leaving than to those of getting back, and is passed over.

The list is general knowledge about life events, not about any one history;
each frame is tried in order and the first whose pattern matches the phrase
wins, so the more specific frames come first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from langgraph_adamm.planning.context import Embed


@dataclass(frozen=True)
class EventFrame:
    """A kind of life event, how a phrase names it and how a history tells it."""

    name: str
    pattern: re.Pattern[str]
    tellings: tuple[str, ...]
    """First-person accounts of such an event on its day; the first is searched
    for, all of them tell a round of this kind from a round of another."""
    family: str
    """Frames of one family tell alike and stand in for each other (a GP's
    prescription is told like a visit to the doctor); opposites never share one."""

    @property
    def telling(self) -> str:
        """The account searched for."""
        return self.tellings[0]


def _frame(name: str, pattern: str, *tellings: str, family: str = "") -> EventFrame:
    return EventFrame(name, re.compile(pattern), tellings, family or name)


FRAMES: tuple[EventFrame, ...] = (
    _frame(
        "exams_end",
        r"\b(?:finish\w*|end\w*|over|done|last|final)\b.*\bexams?\b"
        r"|\bexams?\b.*\b(?:finish\w*|end\w*|over|done)\b",
        "Finished my last exam today: exams are over, no more revision.",
        "That was the final paper! Handed it in and walked out free for the summer.",
        "All my exams are done. Celebrated with friends after the last one.",
    ),
    _frame(
        "exams_start",
        r"\bexams?\b|\bfinals\b|\bexam\s+season\b",
        "Sat my first exam today: exam season has started, revising every night.",
        "First paper this morning, the exam hall was freezing. One down, five to go.",
    ),
    _frame(
        "job_end",
        r"\b(?:quit|left|leaving|lost|leave)\s+(?:my|the|that)\s+(?:old\s+)?job\b"
        r"|\blaid\s+off\b|\bredundan\w*|\bresign\w*|\bretire\w*|\blast\s+day\s+at\b",
        "My last day at work today: handed back my badge and said goodbye to the team.",
        "Cleared my desk and had leaving drinks with everyone. That chapter is closed.",
    ),
    _frame(
        "job_start",
        r"\b(?:new|first)\s+(?:job|role|position|gig|employer|office|contract)\b"
        r"|\bstart\w*\s+(?:at|work|working|the\s+job|my\s+job)\b"
        r"|\bjoin\w*\s+(?:the\s+)?(?:company|firm|practice|agency)\b"
        r"|\bfirst\s+day\b|\bbegan\s+(?:work|the\s+job)\b|\bhired\b|\bjob\b"
        r"|\bchang\w*\s+jobs?\b|\b(?:went|go|going|gone|got|get|back|return\w*)\s+"
        r"(?:back\s+)?to\s+work\b",
        "First day at my new job today: met the team, got my badge and laptop, "
        "lots of onboarding.",
        "Started at the new company this morning. Nice colleagues, a desk by the "
        "window and a mountain of forms.",
        "Day one in the new role done! My manager walked me round the office.",
    ),
    _frame(
        "trip_end",
        r"\b(?:got|get|getting|came|come|coming|flew|fly|flying|arrived|arriving)\s+"
        r"(?:back|home)\b|\breturn(?:ed|ing)?\b|\bback\s+(?:home|from)\b"
        r"|\bhome\s+again\b|\blanded\b(?!\s+(?:a|an|the|my|that|this|our|his|her|their)\b)"
        r"|\b(?:holiday|vacation|trip|travels?|break)\s+(?:ended|was\s+over|finished)\b"
        r"|\bend\s+of\s+(?:the|my|our)\s+(?:holiday|vacation|trip)\b",
        "Back home from the trip today: home again after the holiday, unpacking the "
        "suitcase and doing laundry.",
        "We landed last night and slept in our own bed again. Mountains of washing "
        "and an empty fridge.",
        "Home at last after the week away; the cat was very happy to see us.",
    ),
    _frame(
        "visit_end",
        r"\b(?:left|went\s+home|went\s+back|headed\s+home|flew\s+home|moved\s+out)\b",
        "They went home today after staying with us; the house is quiet again.",
        "Dropped my sister at the station this morning, the spare room is empty again.",
    ),
    _frame(
        "trip_start",
        r"\b(?:flew|fly|flying|flight|set\s+off|went\s+away|go\s+away|going\s+away|"
        r"went\s+abroad|left\s+for|leaving\s+for|headed\s+off|took\s+off)\b"
        r"|\b(?:holiday|vacation|trip|travel\w*|getaway|away)\b",
        "Off on holiday today: at the airport waiting for our flight, away for a "
        "whole week.",
        "Bags packed and the house locked up, we are on the early train to the coast "
        "for a few days.",
        "Leaving this morning to visit family abroad, the taxi to the station is "
        "booked.",
    ),
    _frame(
        "purchase",
        r"\b(?:new|bought|buying|got|delivered|arrived)\b.*\b(?:bike|car|oven|"
        r"laptop|phone|tv|sofa|bed|mattress|kitchen|boiler|van|machine|watch|"
        r"camera|fridge|freezer|cooker|washer|dryer|printer|console)\b",
        "The new one was delivered today: unboxed it, set it up and tried it out for "
        "the first time.",
        "Picked up my new bike from the shop this morning and took it for a first "
        "spin.",
        "Finally bought the new car! Signed the papers and drove it home.",
    ),
    _frame(
        "visit_start",
        r"\b(?:arrived|arrival|came\s+to\s+stay|come\s+to\s+stay|stay(?:ed|ing)?\s+with|"
        r"visit\w*|came\s+over|moved\s+in\s+with\s+(?:me|us))\b|\bstaying\b",
        "My family arrived today to stay with us for a while; made up the spare room.",
        "Picked my mum up from the airport, she is staying with us for two weeks.",
    ),
    _frame(
        "move",
        r"\bmov(?:e|ed|ing)\b(?!\s+(?:on|up|around|over))|\brelocat\w*"
        r"|\bnew\s+(?:flat|place|house|home|apartment|flatshare)\b|\bhouse\s*move\b"
        r"|\bgot\s+the\s+keys\b",
        "We moved house today: got the keys to the new flat, carried all the boxes "
        "in and started unpacking.",
        "First night in the new place, sleeping on a mattress on the floor among "
        "the boxes.",
        "The removal van came this morning; the old flat is empty and handed back.",
    ),
    _frame(
        "pet",
        r"\b(?:puppy|pup|dog|kitten|cat|pet|rescue|adopt\w*)\b",
        "We brought home our new pet today, a puppy from the breeder; he is asleep "
        "at my feet.",
        "Adopted a kitten from the shelter this afternoon, she is hiding under the "
        "sofa.",
    ),
    _frame(
        "baby",
        r"\b(?:baby|born|birth|newborn|labou?r|due\s+date)\b",
        "Our baby was born today at the hospital, a healthy little girl; we are "
        "exhausted and happy.",
    ),
    _frame(
        "wedding",
        r"\b(?:wedding|married|marry|honeymoon)\b",
        "We got married today: the ceremony, the reception and dancing with family "
        "and friends.",
    ),
    _frame(
        "breakup",
        r"\b(?:break\s*up|broke\s+up|split\s+up|divorce\w*|separat\w*|dumped)\b",
        "We broke up today; it is over between us and I am on my own now.",
    ),
    _frame(
        "surgery",
        r"\b(?:surgery|operation|op|procedure|hospital|anaesthe\w*|anesthe\w*)\b",
        "Had my operation at the hospital today; the surgery went fine and I am "
        "recovering from the anaesthetic.",
        "Out of theatre and back on the ward, the surgeon says it all went to plan.",
    ),
    _frame(
        "medication",
        r"\b(?:tablets?|pills?|medication|medicine|meds|prescri\w*|doses?|inhaler|"
        r"antibiotics|injections?|jabs?|statins?)\b|\bstart\w*\s+(?:on|taking)\b",
        "The doctor put me on new tablets today: a prescription, one a day, and I "
        "took the first dose.",
        "Picked up the prescription from the pharmacy and started the new medicine "
        "tonight.",
        family="doctor",
    ),
    _frame(
        "injury",
        r"\b(?:injur\w*|hurt|sprain\w*|broke(?:n)?(?!\s+(?:in|into|down)\b)|fractur\w*|twist\w*|pulled|"
        r"strain\w*|fell|fall|slipped|accident|crash\w*|knee|ankle|wrist|"
        r"shoulder|hamstring|leg|arm|foot)\b"
        # the body's back, not "got the boat back", "back from Lisbon"
        r"|\b(?:did|done|put|hurt)\s+(?:my|his|her|their)\s+back\b"
        r"|\b(?:my|his|her|their)\s+(?:lower\s+)?back\b"
        r"(?!\s+(?:from|home|to|in|garden|door|yard|seat|wall|pocket)\b)"
        r"|\bback\s+(?:pain|injury|spasms?)\b",
        "I got injured today: slipped and fell, hurt my knee, it is swollen and the "
        "physio says rest.",
        "Came off my bike on the way home and landed on my shoulder; it really hurts.",
        "Twisted my ankle badly on the stairs, it is bruised and I can barely walk.",
    ),
    _frame(
        "illness",
        r"\b(?:sick|ill|illness|flu|covid|cold|fever|virus|bug|infection|"
        r"migraine)\b",
        "I came down with something today: fever and a sore throat, staying in bed.",
        "Tested positive this morning and feel awful, cancelled everything for the "
        "week.",
    ),
    _frame(
        "appointment",
        r"\b(?:gp|doctor|doc|diagnos\w*|appointment|check-?up|consultant|"
        r"specialist|results?)\b",
        "Saw the doctor today about my results; got the diagnosis and some advice on "
        "what to change.",
        family="doctor",
    ),
    _frame(
        "habit",
        r"\b(?:gave|give|giving)\s+up\b|\bquit\w*\b|\bstopp?(?:ed|ing)\b|\bcut\s+out\b"
        r"|\bwent\s+(?:vegan|vegetarian|sober|dry)\b|\bdiet\b",
        "I have given it up as of today: no more from now on, a fresh start.",
        "That's it, no more sugar or alcohol for me, starting right now.",
    ),
    _frame(
        "joined",
        r"\b(?:join\w*|signed\s+up|sign(?:ing)?\s+up|membership|enrol\w*|enroll\w*)\b",
        "I joined today: signed up, got my membership and went to my first session "
        "with the club.",
        "Went to my first training with the club tonight and paid the membership fee.",
    ),
    _frame(
        "race",
        r"\b(?:race|marathon|10k|5k|triathlon|competition|tournament|match)\b",
        "Ran the race today and crossed the finish line; my legs are done.",
        "Competition day: got my number at registration and finished with a medal.",
    ),
    _frame(
        "graduation",
        r"\bgraduat\w*",
        "Graduated today: the ceremony, the gown and photos with my family.",
    ),
    _frame(
        "birthday",
        r"\bbirthday\b",
        "It was my birthday today: cake, presents and dinner out.",
    ),
)
_BY_NAME = {f.name: f for f in FRAMES}
_TELLINGS = [t for f in FRAMES for t in f.tellings]
_TELLER = [f for f in FRAMES for _ in f.tellings]
"""The frame of each telling in :data:`_TELLINGS`."""


def frame_of(phrase: str) -> EventFrame | None:
    """The first frame whose pattern names the (lower-cased) event phrase."""
    text = phrase.lower()
    for frame in FRAMES:
        if frame.pattern.search(text):
            return frame
    return None


def frame_named(name: str | None) -> EventFrame | None:
    """The frame of that name (None: no such frame)."""
    return _BY_NAME.get(name or "")


def telling_query(phrase: str, frame: EventFrame | None = None) -> str:
    """What to search for to find the round that told an event (of ``frame``)."""
    frame = frame or frame_of(phrase)
    return f"{phrase}. {frame.telling}" if frame else phrase


_STRETCHES = (
    ("trip_start", "trip_end"),
    ("visit_start", "visit_end"),
    ("exams_start", "exams_end"),
)


def stretch_frames(phrase: str) -> tuple[EventFrame, EventFrame] | None:
    """The events that open and close a stretch a phrase names, if it names one.

    "While I was away in Lisbon" runs from leaving to getting back, "while my
    daughter was staying" from her arrival to her leaving, "during exams" from
    the first exam to the last.
    """
    frame = frame_of(phrase)
    for start, end in _STRETCHES:
        if frame is not None and frame.name in (start, end):
            return _BY_NAME[start], _BY_NAME[end]
    return None


_OPPOSITES = {
    **{a: b for a, b in _STRETCHES},
    **{b: a for a, b in _STRETCHES},
    "job_start": "job_end",
    "job_end": "job_start",
}
TOLD_MARGIN = 0.05
"""How far below the closest telling a round's closeness to its frame's may fall."""


def told_like(content: str, frame: EventFrame, embed: Embed) -> bool:
    """Whether a round's text is told like an event of ``frame``.

    It is when a telling of the frame's family is about as close to the text
    as the closest telling of any frame (within :data:`TOLD_MARGIN`), and the
    closest is not a telling of the frame's opposite: the round that told a
    departure is not the return.
    """
    vectors = embed([content, *_TELLINGS])
    sims = vectors[1:] @ vectors[0]
    top = int(np.argmax(sims))
    if _TELLER[top].name == _OPPOSITES.get(frame.name):
        return False
    own = max(s for s, f in zip(sims, _TELLER, strict=True) if f.family == frame.family)
    return bool(own >= sims[top] - TOLD_MARGIN)
