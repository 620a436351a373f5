"""The words of a question that ask rather than name: read by every form.

Question words, the asker's pronouns, politeness, record nouns ("reading",
"session"), how a question compares, aggregates or bounds, money and ratio
words, and the main verb ("how many loaves did I *shift*"). The accounting
(:mod:`.accounting`) sets a question's words against these before it looks
for what they name. Adding a phrasing's scaffolding is a word here and a test.
"""

from __future__ import annotations

import re

from langgraph_adamm.planning.cues import OPERATOR_STEMS
from langgraph_adamm.planning.dates import MONTHS
from langgraph_adamm.planning.intent import unit_of
from langgraph_adamm.planning.text import STOPWORDS, root, stem

SCAFFOLDING = frozenset(
    stem(w)
    for w in """
    i i'm i've i'd me my mine myself we we've us our ours ourselves you your
    he him his she her they them their it its
    what which who whom whose when where why how whats what's
    is are was were be been being am do does did done doing have has had
    will would shall should can could may might must
    please thanks thank tell say know remind show give let figure find work
    out check look see wonder wondering curious want like need
    roughly approximately about around exactly just only even also still yet
    really actually pretty quite so very ever never altogether overall together
    the a an of in on at to for from by with as into onto over under and or but
    than then that this these those there here if not no yes any some all
    each every both either neither one ones thing things stuff lot lots bit
    go goes went gone going come comes came coming get got getting make made take
    took taken put bring brings brought bringing
    keep kept log logged logging record recorded track tracked note noted
    entry entries time times
    so far up down off back
    im ive id dont didnt wasnt werent isnt arent haven't didn't don't wasn't
    okay ok hey hi hello ve ll re
    reading readings level levels session sessions bill bills purchase purchases
    order orders visit visits trip trips workout workouts value values score
    scores figure figures stat stats reading result results
    through something anything single whole given give put pick picked rack
    racked clock clocked manage managed into use used using fill fills refill
    sitting sittings outing outings
    wise pls plz
    """.split()
)
"""Words that ask, never what is asked about."""

WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed "
    "thu thurs fri sat sun weekday weekdays weekend weekends".split()
)
CALENDAR = frozenset(
    stem(w)
    for w in "day days night nights week weeks month months year years today "
    "yesterday tonight morning evening afternoon date dates period stretch "
    "fortnight daily weekly monthly".split()
)
COMPARE = frozenset(
    stem(w)
    for w in """
    more less fewer higher lower longer shorter bigger smaller faster slower
    heavier lighter better worse further farther cheaper pricier greater
    most least highest lowest biggest largest max maximum top greatest
    longest heaviest furthest farthest best priciest smallest fewest min
    minimum shortest lightest worst cheapest fastest slowest peak record
    compare compared comparison versus vs difference differ between
    change changed increase increased decrease decreased drop dropped rise
    rose up down went gone improve improved
    per each every average avg mean median typical typically usual usually
    normally generally total sum count number amount altogether combined
    overall cumulative much many often frequent frequently times
    first last latest earliest recent recently previous next current
    common popular frequent usual kind kinds type types sort sorts
    since after before until till during across within between around
    than same
    """.split()
)
"""How a question compares, aggregates, orders or bounds: read by the forms."""
COMPARE_ROOTS = frozenset(root(w) for w in COMPARE if len(w) > 4)
MONEY = frozenset(
    stem(w)
    for w in "spend spent spending pay paid cost costs money expense expenses "
    "expensive cheap price prices bought buy buying".split()
)
"""Words a currency column answers."""
RATIO_WORDS = frozenset({"pace", "speed", "rate", "ratio", "efficiency"})
"""What a ratio of two columns is called."""
SPEND = frozenset({"spend", "spent", "spending"})
"""Spent time: a duration column answers it too."""
FORM_WORDS = frozenset(
    stem(w) for w in "share percent percentage proportion fraction ratio".split()
)
"""Words only a form that computes them uses: a plan without it leaves them out."""


_SHORT_STOPWORDS = {"".join(sorted(w)): w for w in STOPWORDS if 3 <= len(w) <= 5}


def is_scaffolding(word: str) -> bool:
    """Whether a word asks (how, when, whose) rather than names what is asked."""
    s = stem(word)
    return (
        word in STOPWORDS
        or "".join(sorted(word)) in _SHORT_STOPWORDS  # "teh", "adn"
        or s in SCAFFOLDING
        or s in OPERATOR_STEMS
        or s in COMPARE
        or root(word) in COMPARE_ROOTS
        or s in CALENDAR
        or word in MONTHS
        or word in WEEKDAYS
        or any(ch.isdigit() for ch in word)
        or len(word) < 2
        or unit_of(word) is not None
    )


_MAIN_VERB_RE = re.compile(
    r"\b(?:(?:did|do|does|have|has|had|will|would|can|could)\s+(?:i|we|you|they|"
    r"he|she)|i|we|i've|we've|i'd|we'd)\s+(?:[a-z]+ly\s+)?([a-z]+)"
    r"|\b(?:which|what)\s+[a-z]+\s+([a-z]+(?:s|ed))\b"
)


def main_verbs(text: str) -> set[str]:
    """The question's main verbs: what the asker did, read by the table chosen.

    "How many loaves did I shift", "which market brings in the most": the
    verb tells how the records were made, not which of them count.
    """
    out = set()
    for m in _MAIN_VERB_RE.finditer(text):
        verb = m.group(1) or m.group(2)
        if verb and verb not in STOPWORDS:
            out.add(verb)
    return out


PARTICIPLES = frozenset(
    "sold bought made done run ridden driven eaten drunk swum taken given spent "
    "paid read written won lost grown picked caught kept".split()
)


def participles(tokens: list[str], named: set[str]) -> set[str]:
    """A participle after a word of the plan ("loaves sold", "km driven")."""
    return {
        b
        for a, b in zip(tokens, tokens[1:], strict=False)
        if stem(a) in named and (b in PARTICIPLES or b.endswith("ed"))
    }
