"""The offline planner's compositions: plans whose steps feed each other.

A question is read in parts before any part is mapped onto a table:

- **event anchors** - "since we moved", "between the move and the new job", "in
  the week before the surgery", "the first run after I hurt my knee": an
  EventLocate step for the event phrase, then the analytic step bounded by the
  day of the event it found (a ``$n.day`` reference);
- **two sides compared** - "more in April than in March", "difference between
  A and B", "did it go up from A to B", "higher at X than at Y": one analytic
  step per side and a combine step computed in code;
- **groups** - "which cafe do I spend the most at in total", "which week did I
  sleep least on average", "per week": a grouped Rank or Compute;
- whatever is left is the single-operator question the rule planner maps.

Bounds anchored on an event use the event's calendar day, as date phrases do:
"since/after E" starts on E's day, "before E" ends the day before it, "until E"
on it, "between E1 and E2" runs from E1's day to E2's day, "the week before E"
is the 7 days before E's day and "the N days/weeks after E" the days after it.
Every part the planner could not use is returned in ``unresolved``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from langgraph_adamm.analytic.values import convertible
from langgraph_adamm.planning.context import ColumnCard, PlanningContext
from langgraph_adamm.planning.dates import (
    MONTHS,
    DateRange,
    find_date_range,
    find_date_ranges,
    fix_month_spelling,
    unread_period,
)
from langgraph_adamm.planning.rules import (
    AnalyticCall,
    RulePlan,
    RulePlanner,
    read_intent,
)
from langgraph_adamm.planning.text import STOPWORDS, stem, words

_OPERATOR_STEMS = frozenset(
    stem(w)
    for w in (
        "average avg mean median total sum overall count number much many often "
        "highest lowest most least max min first last latest change typical day "
        "days week weeks month months year times record records value values "
        "usual usually normally generally typically far long"
    ).split()
)
"""Words of a question that ask how, not what: never a missing quantity."""
ANCHOR_BUDGET = 3
"""Events an anchoring EventLocate returns (each costs 1 of the shared budget)."""
_N_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
_CLAUSE_END = (
    r"(?=\s*(?:[?.!,;:]|\s[-–—]\s|\bthan\b|\bthen\b|\bcompared\b|\bvs\.?\b|"
    r"\bversus\b|\bin\s+total\b|\boverall\b|\bon\s+average\b|\baltogether\b|$))"
)
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
            r"\b(?:in|during|over|for)?\s*the\s+(?:(?P<n>\d+|a|one|two|three|four|"
            r"five|ten)\s+)?(?P<unit>days?|weeks?|months?)\s+(?P<dir>before|after|"
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
_META_EVENT = re.compile(
    r"\b(?:start(?:ed|ing)?|began|begun|beginning)\s+(?:to\s+)?(?:log|track|record|"
    r"keep|us|writ|not)\w*"
)
"""Events that are the log itself ("since I started logging"): they bound nothing."""
_DAY_OF_RE = re.compile(
    r"\b(?:on\s+)?the\s+day\s+(?:of\s+|when\s+|that\s+)?"
    r"(?P<e1>(?:i|we|my|our|the)\b.+?)" + _CLAUSE_END
)
_COMPARE_WORDS = (
    r"more|less|fewer|higher|lower|longer|shorter|bigger|smaller|faster|slower|"
    r"heavier|lighter|better|worse|further|farther|cheaper|pricier|greater"
)
_LESS_WORDS = frozenset(
    "less fewer lower shorter smaller slower lighter worse cheaper".split()
)
_THAN_RE = re.compile(
    rf"\b(?P<cmp>{_COMPARE_WORDS})\b(?P<mid>.*?)\b(?:than|then)\b(?P<b>.*)$"
)
_UP_RE = re.compile(
    r"\b(?:go(?:ne)?|went|gone)\s+up\b|\bincreas\w*|\brise\b|\brose\b|\bgrow\w*|"
    r"\bimprov\w*|\bclimb\w*"
)
_DOWN_RE = re.compile(
    r"\b(?:go(?:ne)?|went)\s+down\b|\bdecreas\w*|\bdrop\w*|\bfall\b|\bfell\b|"
    r"\bdeclin\w*|\bshrank\b|\breduc\w*"
)
_PERCENT_RE = re.compile(r"\bper\s*cent(?:age)?\b|\bpercent(?:age)?\b|%")
_FROM_TO_RE = re.compile(r"\bfrom\s+(?P<a>.+?)\s+(?:to|until|till)\s+(?P<b>.+?)$")
_BETWEEN_RE = re.compile(r"\bdifference\b.*?\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)$")
_VS_RE = re.compile(
    r"(?P<a>.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(?P<b>.+?)$"
)
_SIDE_PREFIX = re.compile(r"^(?:in|during|over|on|at|for|from|between|the|of)\s+")
_PRONOUN_EVENT = frozenset({"", "it", "that", "then", "this", "them", "there"})
_MONEY_VERBS = frozenset(
    "spend spent spending pay paid paying cost costs costed money expense expenses "
    "expensive".split()
)
_COUNT_CUES = re.compile(
    r"\bhow\s+many\b|\bnumber\s+of\b|\btimes\b|\boften\b|\bfrequent\w*|"
    r"\bcount\b|\bvisits?\b"
)
_AVG_CUES = re.compile(
    r"\baverage\b|\bavg\b|\bmean\b|\btypical\w*|\bper\s+(?:day|night)\b"
)
_SUM_CUES = re.compile(
    r"\btotal\b|\bsum\b|\boverall\b|\baltogether\b|\bin\s+all\b|\bcombined\b|"
    r"\bcumulative\b"
)
_GROUP_WHICH_RE = re.compile(
    r"\b(?:which|what)\s+(?:(?:was|were|is)\s+(?:the\s+|my\s+)?)?(?P<noun>[a-z]+)"
    r"(?:\s+(?P<noun2>[a-z]+))?"
)
_GROUP_EACH_RE = re.compile(
    r"\b(?:per|each|every|by|for\s+each)\s+(?P<noun>day|week|month|year|[a-z]+)\b"
)
_MOST_RE = re.compile(
    r"\b(?:most|highest|biggest|largest|max|maximum|top|greatest|longest|heaviest|"
    r"furthest|farthest|best|priciest)\b"
)
_LEAST_RE = re.compile(
    r"\b(?:least|lowest|smallest|fewest|min|minimum|shortest|lightest|worst|"
    r"cheapest)\b"
)
_SUPERLATIVE_NOUN_RE = re.compile(
    r"\b(?:my|the)\s+(?:most|least)\s+(?:expensive|visited|frequent|used|"
    r"popular|common)\s+(?P<noun>[a-z]+)|\b(?:my|the)\s+(?:priciest|cheapest|"
    r"favou?rite|busiest|usual)\s+(?P<noun2>[a-z]+)"
)
BUCKETS = {
    "day": "day",
    "date": "day",
    "week": "week",
    "month": "month",
    "year": "year",
}
_NOT_NAMES = frozenset(
    {"i", "i'm", "i've", "i'd", "ok", "okay", "hi", "hey"}
    | set(MONTHS)
    | {
        d.lower()
        for d in ("Monday Tuesday Wednesday Thursday Friday Saturday Sunday").split()
    }
)


@dataclass
class Anchor:
    """A period bound told by an event ("since we moved")."""

    kind: str
    """since, after, before, until, between, window_before, window_after, day."""
    events: list[str]
    text: str
    days: int = 0


@dataclass
class ComposedPlan:
    """The offline plan: abstract steps, their drafted calls, and what went unused."""

    plan: list[dict[str, Any]] = field(default_factory=list)
    drafts: list[dict[str, Any]] = field(default_factory=list)
    answer_form: str = "value"
    answer_column: str | None = None
    output_unit: str | None = None
    notes: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    composed: bool = False


# -- reading the parts -------------------------------------------------------------
_TRAILING_VERB = re.compile(r"\s+(?:take|last|cost|go|come|cover|run|get|make)$")
"""The main verb a "how long did ... take" question ends with, after the event."""


def _clean_event(text: str, question: str = "") -> str:
    event = re.sub(r"\s+", " ", text).strip(" ,.?!;")
    if re.match(r"^(?:how|what|when|where|which)\b.*\bdid\b", question):
        event = _TRAILING_VERB.sub("", event)
    return event


def find_anchors(text: str) -> tuple[list[Anchor], str]:
    """Event anchors in a (lower-cased) question, and the text without them."""
    anchors: list[Anchor] = []
    rest = text
    # date phrases are no events: masked while anchors are read, then put back
    dates = find_date_ranges(text, date(2026, 6, 30))
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
                _MOST_RE.search(m.group("e1")) or _LEAST_RE.search(m.group("e1"))
            ):
                # "during my longest session": a record the Rank finds, no stretch
                rest = rest.replace(m.group(0), m.group(0).replace("during", "in"), 1)
                continue
            if kind == "span":
                a = Anchor("span", [_clean_event(m.group("e1"), text)], m.group(0))
            elif kind == "between":
                a = Anchor(
                    "between",
                    [_clean_event(m.group("e1")), _clean_event(m.group("e2"), text)],
                    m.group(0),
                )
            elif kind == "window":
                n = m.group("n")
                count = 1 if n is None else (int(n) if n.isdigit() else _N_WORDS[n])
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
            if not any(_META_EVENT.search(e) for e in a.events):
                anchors.append(a)
            else:  # "since I started logging": every record, no bound
                rest = rest.replace(m.group(0), " ", 1)
                continue
            rest = rest.replace(m.group(0), " ", 1)
    for i, dr in enumerate(dates):
        rest = rest.replace(f"\x01{i}\x01", dr.text)
        for a in anchors:
            a.events = [e.replace(f"\x01{i}\x01", dr.text) for e in a.events]
            a.text = a.text.replace(f"\x01{i}\x01", dr.text)
    return anchors, " ".join(rest.split())


def _spans(anchors: list[Anchor]) -> bool:
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


def _names_in(question: str) -> list[str]:
    """Capitalised names in a question ("Blue Door"), not its first word."""
    found = []
    for m in re.finditer(r"(?<![\w'])([A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*)*)", question):
        name = m.group(1)
        if m.start() == 0 or question[: m.start()].rstrip().endswith((".", "?", "!")):
            first, _, more = name.partition(" ")
            if not more:
                continue
            name = more
        if name.lower() in _NOT_NAMES or name.lower().startswith(tuple(_NOT_NAMES)):
            name = " ".join(w for w in name.split() if w.lower() not in _NOT_NAMES)
        if name:
            found.append(name)
    return found


def _unused_names(
    question: str, plan: RulePlan | None, context: PlanningContext
) -> list[str]:
    """Names the question gives that no filter, table or column of the plan uses."""
    used_text = ""
    if plan is not None and plan.analytic is not None:
        args = plan.analytic.arguments
        used_text = " ".join(
            str(v)
            for f in args.get("optional_column_filters", [])
            for v in (
                f.get("value") if isinstance(f.get("value"), list) else [f.get("value")]
            )
        ).lower()
        card = context.table(args["table"])
        if card is not None:  # a name used as a filter value, or naming the table
            used_text += " " + card.name + " " + " ".join(c.name for c in card.columns)
            used_text = used_text.lower()
    unused = []
    for name in _names_in(question):
        tokens = [stem(w) for w in words(name)]
        if tokens and not all(t in {stem(w) for w in words(used_text)} for t in tokens):
            unused.append(name)
    return unused


def _measure_words(text: str, table: str, context: PlanningContext) -> str:
    """Words of a question that name another table's quantity (empty: none).

    Used only when the planner took a table's one number for want of a named
    one: "average total sleep" mapped onto a coffee table names "sleep", a
    column of another table, which this one does not hold.
    """
    card = context.table(table)
    if card is None:
        return ""
    here = {stem(w) for w in words(card.text())}
    elsewhere = {
        stem(w)
        for other, _ in context.tables
        if other.name != table
        for name in [other.name, *(c.name for c in other.columns)]
        for w in words(name)
    }
    skip = set(STOPWORDS) | _OPERATOR_STEMS
    left = [
        w
        for w in words(text)
        if w not in skip
        and stem(w) not in skip
        and stem(w) not in here
        and stem(w) in elsewhere
    ]
    return " ".join(dict.fromkeys(left))


def _names_table(
    text: str, question: str, call: AnalyticCall, context: PlanningContext
) -> bool:
    """Whether a question names its table at all.

    Its name, a column, a value or a word of how its records were written all
    count. A table that no word of the question chose, with a target the
    planner had to guess, does not answer it.
    """
    card = context.table(call.arguments["table"])
    if card is None:
        return False
    known = {
        stem(w)
        for t in [card.name, *(c.name for c in card.columns), *card.examples]
        + [v for c in card.columns for v in c.values]
        for w in words(t)
    }
    asked = {stem(w) for w in words(text + " " + question) if w not in STOPWORDS}
    return bool(asked & known) or any(
        f.get("column") != "time"
        for f in call.arguments.get("optional_column_filters") or []
    )


def _period_sides(a: str, b: str) -> tuple[str, str, str]:
    """Two sides cut to their period phrases, and the measure words they held.

    "my total km ridden in July" and "in June" are the periods "in July" and
    "in June" of the measure "my total km ridden".
    """
    inside = []
    sides = []
    for side in (a, b):
        found = find_date_ranges(side, date(2026, 6, 30), limit=1)
        anchors, rest = find_anchors(side)
        if found and found[0].text.strip() != side.strip():
            inside.append(side.replace(found[0].text, " "))
            sides.append(found[0].text)
        elif anchors and anchors[0].text.strip() != side.strip():
            inside.append(rest)
            sides.append(anchors[0].text)
        else:
            sides.append(side)
    return sides[0], sides[1], " ".join(inside)


# -- the operator for a measure ----------------------------------------------------
def _measure_operator(text: str, column: ColumnCard | None, counted: bool) -> str:
    """The aggregate a comparison or group question means when it names none."""
    if _AVG_CUES.search(text):
        return "avg"
    if _amount_words(text):
        return "sum"  # "the most hours", "how many km": an amount, not records
    if _COUNT_CUES.search(text) or counted:
        return "count"
    if _SUM_CUES.search(text) or set(words(text)) & _MONEY_VERBS:
        return "sum"
    if (
        column is not None
        and column.unit
        and (
            convertible(column.unit, "km")
            or convertible(column.unit, "EUR")
            or column.unit in ("USD", "EUR", "GBP", "CHF", "JPY")
        )
    ):
        return "sum"
    if column is not None and (
        re.search(r"step|count|calorie|kcal", column.name)
        or _names_plural(text, column.name)
    ):
        return "sum"  # "read the most pages", "more steps": an amount
    return "avg"


def _amount_words(text: str) -> bool:
    """Whether a question counts an amount in units ("the most hours", "most km")."""
    from langgraph_adamm.analytic.values import canonical_unit

    for w in words(text):
        if w in ("hours", "minutes", "mins", "km", "kilometres", "kilometers", "miles"):
            return True
        if len(w) > 2 and w.endswith("s") and canonical_unit(w) is not None:
            return True
    return False


def _names_plural(text: str, column: str) -> bool:
    """Whether a question names a column in the plural ("pages" for pages)."""
    last = stem(words(column)[-1]) if words(column) else ""
    return any(w.endswith("s") and stem(w) == last and w != last for w in words(text))


def _column_of(plan: RulePlan, context: PlanningContext) -> ColumnCard | None:
    if plan.analytic is None:
        return None
    card = context.table(plan.analytic.arguments["table"])
    target = plan.analytic.arguments.get("target_column_expression")
    return card.column(target) if card is not None and target else None


_TOP_GROUP_RE = re.compile(
    r"\b(?:at|of|on|for|in|from|with)?\s*(?:the|my)\s+(?:[a-z]+\s+)?(?P<noun>[a-z]+)\s+"
    r"(?:(?:where|that|which)\s+)?(?:i|i've|i'm|we|we've)\b(?P<rel>[^?,]*?)"
    r"\b(?P<sup>most\s+often|most\s+frequently|the\s+most|most|least\s+often|"
    r"the\s+least|least)\b(?:\s+(?:at|to|on|from|in|with))?"
)


def _fold(text: str) -> str:
    """Accents folded ("café" ~ "cafe"), other characters kept."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class Composer:
    """Reads a question in parts and composes the steps that answer it."""

    def __init__(self, planner: RulePlanner) -> None:
        self.planner = planner

    def _map(
        self,
        text: str,
        now: datetime | date,
        context: PlanningContext,
        *,
        operator: str | None = None,
        date_range: DateRange | None | bool = True,
        values_only: bool = False,
    ) -> RulePlan:
        """The rule planner's single-operator plan for (a part of) a question.

        ``values_only``: map the measure, not a "which X" answer (a grouped
        question names its group apart).
        """
        intent = read_intent(text, now)
        changes: dict[str, Any] = {}
        if values_only:
            changes.update(answer="value", which_word=None)
        if date_range is not True:
            changes["date_range"] = date_range
        if operator is not None:
            changes["operator"] = operator
            changes["operators"] = ((operator, operator),)
            if operator != "count":
                changes["count_noun"] = None
        if changes:
            intent = dataclasses.replace(intent, **changes)
        return self.planner.plan_intent(intent, context)

    # -- the entry point -----------------------------------------------------------
    def compose(
        self, question: str, now: datetime | date, context: PlanningContext
    ) -> tuple[ComposedPlan, RulePlan]:
        """The plan for a question; the single-operator plan when nothing composes."""
        q = " ".join(fix_month_spelling(_fold(question)).lower().split())
        out = ComposedPlan()
        composed = self._either(question, q, now, context, out)
        if composed is None:
            composed = self._compare(question, q, now, context, out)
        if composed is None:
            composed = self._of_top_group(question, q, now, context, out)
        if composed is None:
            composed = self._group(question, q, now, context, out)
        if composed is None:
            composed = self._anchored(question, q, now, context, out)
        if composed is not None:
            out.composed = True
            return out, composed
        out = ComposedPlan()
        single = self.planner.plan(question, now, context)
        if single.analytic is not None:
            self._check_rest(question, q, single, context, out)
            anchors, _ = find_anchors(q)
            for anchor in anchors:  # an anchor no composition could use
                why = (
                    "a period between two events, not resolved offline"
                    if anchor.kind == "span"
                    else "not used"
                )
                out.unresolved.append(f"'{anchor.text.strip()}' ({why})")
        return out, single

    # -- anchored --------------------------------------------------------------------
    def _locate_steps(self, out: ComposedPlan, anchor: Anchor) -> int:
        first = len(out.drafts) + 1
        for event in anchor.events:
            out.plan.append({"goal": f"when: {event}", "tool": "event_locate"})
            out.drafts.append(
                {
                    "tool": "event_locate",
                    "arguments": {
                        "query_content": event,
                        "result_budget": ANCHOR_BUDGET,
                    },
                    "about": f"the event '{event}'",
                }
            )
        return first

    def _analytic_step(
        self,
        out: ComposedPlan,
        call: AnalyticCall,
        extra_filters: list[dict[str, Any]],
        about: str,
        goal_suffix: str = "",
    ) -> int:
        args = dict(call.arguments)
        args["optional_column_filters"] = (
            list(args.get("optional_column_filters") or []) + extra_filters
        )
        out.plan.append({"goal": call.goal + goal_suffix, "tool": call.tool})
        out.drafts.append({"tool": call.tool, "arguments": args, "about": about})
        return len(out.drafts)

    def _anchored(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        anchors, rest = find_anchors(q)
        if not anchors or _spans(anchors):
            return None
        plan = self._map(rest, now, context)
        if plan.analytic is None and plan.intent.operator is None:
            # "what was my pulse the day after ...": the value in that period
            plan = self._map(rest, now, context, operator="latest")
        if plan.analytic is None:
            return None
        self._check_rest(question, rest, plan, context, out)
        filters: list[dict[str, Any]] = []
        for anchor in anchors:
            first = self._locate_steps(out, anchor)
            filters += anchor_filters(anchor, first, now)
        call = plan.analytic
        self._analytic_step(
            out, call, filters, "", f" ({'; '.join(a.text for a in anchors)})"
        )
        out.answer_form, out.answer_column = call.answer, call.answer_column
        out.output_unit = call.output_unit
        out.notes.extend(plan.notes)
        return plan

    def _check_rest(
        self,
        question: str,
        rest: str,
        plan: RulePlan,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> None:
        """Report the period words and names the plan leaves unused."""
        left = rest
        for anchor in find_anchors(question.lower())[0]:
            question = re.sub(re.escape(anchor.text.strip()), " ", question, flags=re.I)
        if plan.intent.date_range is not None:
            left = left.replace(plan.intent.date_range.text.lower(), " ")
        call = plan.analytic
        if (
            call is not None
            and call.target_guessed
            and call.arguments.get("operator") != "count"
        ):
            measure = _measure_words(left, call.arguments["table"], context)
            if not measure and not _names_table(left, question, call, context):
                measure = " ".join(
                    w
                    for w in words(left)
                    if w not in STOPWORDS and stem(w) not in _OPERATOR_STEMS
                )
            if measure:
                out.unresolved.append(
                    f"the quantity '{measure}' (no column of "
                    f"{call.arguments['table']} is named so)"
                )
        period = unread_period(left)
        if period is not None:
            out.unresolved.append(f"the period '{period}' (not understood)")
        for name in _unused_names(question, plan, context):
            if f"'{name}'" not in " ".join(out.unresolved):
                out.unresolved.append(
                    f"'{name}' (no column value of the table matches it)"
                )

    # -- compared ------------------------------------------------------------------
    def _sides(self, q: str) -> tuple[str, str, str, str] | None:
        """(measure text, side A, side B, how) of a comparison, or None."""
        m = _THAN_RE.search(q)
        if m is not None:
            head = q[: m.start()]
            cmp_word = m.group("cmp")
            how = "less" if cmp_word in _LESS_WORDS else "greater"
            if re.search(r"\bhow\s+(?:much|many)\s*$", head) or re.search(
                r"\bhow\s+(?:much|many)\s+$", head + " "
            ):
                how = "difference_less" if how == "less" else "difference"
            mid, b = m.group("mid"), m.group("b")
            ranges = find_date_ranges(mid, date(2000, 1, 1))
            anchors, _ = find_anchors(mid)
            side_a = ""
            if ranges:
                side_a = ranges[0].text
            elif anchors:
                side_a = anchors[0].text
            measure = head + " " + cmp_word + " " + mid.replace(side_a, " ")
            if not side_a:
                # "more at Blue Door than at Nero": categorical, read by the mapper
                side_a = mid
                measure = head + " " + cmp_word
            return " ".join(measure.split()), side_a.strip(), b.strip(" ?.!"), how
        for regex, how in ((_BETWEEN_RE, "difference"), (_VS_RE, "difference")):
            m = regex.search(q)
            if m is not None:
                measure = q[: m.start("a")]
                if regex is _BETWEEN_RE:
                    measure = measure.replace("between", " ")
                a, b = m.group("a"), m.group("b").strip(" ?.!")
                a, b, inside = _period_sides(a, b)
                return " ".join((measure + " " + inside).split()), a, b, how
        m = _FROM_TO_RE.search(q)
        if m is not None and (
            _UP_RE.search(q)
            or _DOWN_RE.search(q)
            or _PERCENT_RE.search(q)
            or re.search(r"\bchang\w*|\bdifference\b", q)
        ):
            if _PERCENT_RE.search(q):
                how = "percent_change"
            elif _UP_RE.search(q) and re.match(r"^(?:did|has|have|was|is|were)\b", q):
                how = "up"
            elif _DOWN_RE.search(q) and re.match(r"^(?:did|has|have|was|is|were)\b", q):
                how = "down"
            else:
                how = "change"
            measure = q[: m.start()]
            a, b, inside = _period_sides(m.group("a"), m.group("b").strip(" ?.!"))
            return " ".join((measure + " " + inside).split()), a, b, how
        return None

    def _side_filters(
        self, side: str, other: str, now: datetime | date, out: ComposedPlan
    ) -> list[dict[str, Any]] | None:
        """Filters for one side given as a period or an event anchor; None: neither."""
        text = _SIDE_PREFIX.sub("", side.strip())
        text = _SIDE_PREFIX.sub("", text)
        for candidate in (side, "in " + text, "on " + text):
            dr = find_date_range(candidate, now)
            if dr is not None and len(dr.text) >= len(candidate) - 6:
                if dr.start == date(1, 1, 1):
                    return [{"column": "time", "op": "<=", "value": dr.end.isoformat()}]
                return [{"column": "time", "op": "between", "value": dr.filter_value()}]
        anchors, _ = find_anchors(side)
        if not anchors:
            word = re.match(
                r"^(?:ever\s+)?(since|after|before|until)\b\s*(.*)$", side.strip()
            )
            if word is None:
                return None
            event = word.group(2).strip(" ?.!")
            if event in _PRONOUN_EVENT:
                others, _ = find_anchors(other)
                if not others:
                    return None
                event = others[0].events[0]
            anchors = [
                Anchor(
                    "before"
                    if word.group(1) == "before"
                    else "until"
                    if word.group(1) == "until"
                    else "since",
                    [event],
                    side,
                )
            ]
        anchor = anchors[0]
        if anchor.kind == "span":
            return None
        if anchor.events[0] in _PRONOUN_EVENT:  # "... than in the week before it"
            others, _ = find_anchors(other)
            if not others or others[0].events[0] in _PRONOUN_EVENT:
                return None
            anchor.events = list(others[0].events)
        # one event located once serves both sides ("before vs after the move")
        for i, d in enumerate(out.drafts, 1):
            if (
                d["tool"] == "event_locate"
                and d["arguments"]["query_content"] in anchor.events
            ):
                if len(anchor.events) == 1:
                    return anchor_filters(anchor, i, now)
        first = self._locate_steps(out, anchor)
        return anchor_filters(anchor, first, now)

    def _either(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        """Which of two values of one column wins ("more at A or B?").

        "Did I spend more at Pizza Nostra or Golden Wok", "which have I studied
        more, pharmacology or biochemistry": a grouped Rank over just those two
        values, answered with the winner's name.
        """
        if not re.search(r"\bor\b", q) or not re.search(
            rf"\b(?:{_COMPARE_WORDS}|most|least)\b", q
        ):
            return None
        plan = self._map(q, now, context, values_only=True)
        if plan.analytic is None:
            plan = self._map(q, now, context, values_only=True, operator="sum")
        analytic = plan.analytic
        if analytic is None:
            return None
        filters = list(analytic.arguments.get("optional_column_filters") or [])
        pair = [
            f
            for f in filters
            if f.get("op") == "in"
            and isinstance(f.get("value"), list)
            and len(f["value"]) == 2
        ]
        if not pair:
            return None
        card = context.table(analytic.arguments["table"])
        target = analytic.arguments.get("target_column_expression")
        column = card.column(target) if card is not None and target else None
        op = _measure_operator(q, column, column is None)
        less = bool(re.search(rf"\b(?:{'|'.join(sorted(_LESS_WORDS))}|least)\b", q))
        args: dict[str, Any] = {
            "table": analytic.arguments["table"],
            "group_by": pair[0]["column"],
            "operator": op,
            "order": "asc" if less else "desc",
            "optional_column_filters": filters,
            "result_budget": 2,
        }
        if op != "count" and target:
            args["target_column_expression"] = target
        values = " or ".join(str(v) for v in pair[0]["value"])
        out.plan.append({"goal": f"which of {values} by {op}", "tool": "rank"})
        out.drafts.append({"tool": "rank", "arguments": args})
        out.answer_form = "group"
        self._check_rest(question, q, plan, context, out)
        out.notes.extend(plan.notes)
        return plan

    def _compare(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        sides = self._sides(q)
        if sides is None:
            return None
        measure, side_a, side_b, how = sides
        whole = measure + " " + side_a + " " + side_b
        probe = self._map(whole, now, context, operator="avg", date_range=None)
        if probe.analytic is None:
            probe = self._map(whole, now, context, operator="count", date_range=None)
        if probe.analytic is None or probe.analytic.tool != "compute":
            return None
        column = _column_of(probe, context)
        counted = column is None or probe.analytic.arguments["operator"] == "count"
        op = _measure_operator(q, column, counted and not _AVG_CUES.search(q))
        base = self._map(measure, now, context, operator=op, date_range=None)
        if base.analytic is None:
            base = self._map(
                measure + " " + side_a + " " + side_b,
                now,
                context,
                operator=op,
                date_range=None,
            )
            if base.analytic is None:
                return None
        saved = (list(out.plan), list(out.drafts))
        fa = self._side_filters(side_a, side_b, now, out)
        fb = self._side_filters(side_b, side_a, now, out) if fa is not None else None
        base_filters = list(
            base.analytic.arguments.get("optional_column_filters") or []
        )
        if fa is None or fb is None:
            out.plan, out.drafts = saved
            # two values of one column: "higher at Blue Door than at Nero"
            both = self._map(
                measure + " " + side_a + " " + side_b, now, context, operator=op
            )
            if both.analytic is None:
                return None
            split = [
                f
                for f in both.analytic.arguments.get("optional_column_filters") or []
                if f.get("op") == "in"
                and isinstance(f.get("value"), list)
                and len(f["value"]) == 2
            ]
            if not split:
                return None
            flt = split[0]
            values = sorted(
                flt["value"],
                key=lambda v: (
                    q.find(str(v).lower()) if str(v).lower() in q else 1 << 20
                ),
            )
            base = both
            base_filters = [
                f
                for f in both.analytic.arguments["optional_column_filters"]
                if f is not flt
            ]
            fa = [{"column": flt["column"], "op": "=", "value": values[0]}]
            fb = [{"column": flt["column"], "op": "=", "value": values[1]}]
        call = base.analytic
        assert call is not None
        no_sides = dataclasses.replace(
            call, arguments=dict(call.arguments, optional_column_filters=base_filters)
        )
        i = self._analytic_step(out, no_sides, fa, f"'{side_a}'", f" [{side_a}]")
        j = self._analytic_step(out, no_sides, fb, f"'{side_b}'", f" [{side_b}]")
        operation, left, right = {
            "greater": ("greater", i, j),
            "less": ("less", i, j),
            "difference": ("difference", i, j),
            "difference_less": ("difference", j, i),
            "up": ("greater", j, i),
            "down": ("less", j, i),
            "change": ("difference", j, i),
            "percent_change": ("percent_change", i, j),
        }[how]
        out.plan.append(
            {"goal": f"{operation} of steps {left} and {right}", "tool": "combine"}
        )
        out.drafts.append(
            {
                "tool": "combine",
                "arguments": {
                    "operation": operation,
                    "left": f"${left}",
                    "right": f"${right}",
                },
            }
        )
        rest = measure
        self._check_rest(question, rest, base, context, out)
        out.notes.extend(base.notes)
        measured = call.arguments.get("target_column_expression") or "records"
        out.notes.append(f"compared with {op} of {measured}")
        return base

    # -- a measure of the top group ------------------------------------------------
    def _of_top_group(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        """The measure over the top group's rows, after the group is ranked.

        "How much have I spent at the shop I go to most often": a grouped Rank,
        then the Compute filtered by its top group (a ``$1.group`` reference).
        """
        m = _TOP_GROUP_RE.search(q)
        if m is None:
            return None
        rest = " ".join((q[: m.start()] + " " + q[m.end() :]).split())
        anchors, bare = find_anchors(rest)
        if _spans(anchors):
            return None
        plan = self._map(bare, now, context)
        if plan.analytic is None or plan.analytic.tool != "compute":
            return None
        card = context.table(plan.analytic.arguments["table"])
        if card is None:
            return None
        noun = m.group("noun")
        col = next(
            (
                c
                for c in card.columns
                if c.sql_type == "VARCHAR"
                and stem(noun) in [stem(t) for t in words(c.name)]
            ),
            None,
        )
        if col is None:  # "the place I pay most often": a synonym of a column
            col = self.planner._which_column(
                dataclasses.replace(plan.intent, which_word=noun),
                None,  # type: ignore[arg-type]
                [c for c in card.columns if c.sql_type == "VARCHAR"],
            )
        if col is None:
            return None
        rel = m.group("rel")
        money = bool(set(words(rel)) & _MONEY_VERBS) or "spent the most" in m.group(0)
        money_cols = [
            c.name
            for c in card.columns
            if c.numeric and c.unit in ("EUR", "USD", "GBP", "CHF", "JPY", "CAD", "AUD")
        ]
        op, target = ("sum", money_cols[0]) if money and money_cols else ("count", None)
        extra: list[dict[str, Any]] = []
        for anchor in anchors:
            first = self._locate_steps(out, anchor)
            extra += anchor_filters(anchor, first, now)
        base_filters = [
            f
            for f in plan.analytic.arguments.get("optional_column_filters") or []
            if f.get("column") != col.name
        ]
        rank_args: dict[str, Any] = {
            "table": card.name,
            "group_by": col.name,
            "operator": op,
            "order": "asc" if "least" in m.group("sup") else "desc",
            "optional_column_filters": base_filters + extra,
            "result_budget": 2,
        }
        if target:
            rank_args["target_column_expression"] = target
        out.plan.append(
            {"goal": f"the {col.name} by {op} of {target or 'rows'}", "tool": "rank"}
        )
        out.drafts.append(
            {"tool": "rank", "arguments": rank_args, "about": f"'{m.group(0).strip()}'"}
        )
        group_step = len(out.drafts)
        call = plan.analytic
        self._analytic_step(
            out,
            dataclasses.replace(
                call,
                arguments=dict(
                    call.arguments, optional_column_filters=base_filters + extra
                ),
            ),
            [{"column": col.name, "op": "=", "value": f"${group_step}.group"}],
            "",
            f" (for the {col.name} of step {group_step})",
        )
        out.answer_form, out.output_unit = "value", call.output_unit
        self._check_rest(question, bare, plan, context, out)
        out.notes.extend(plan.notes)
        return plan

    # -- grouped ---------------------------------------------------------------------
    def _group(
        self,
        question: str,
        q: str,
        now: datetime | date,
        context: PlanningContext,
        out: ComposedPlan,
    ) -> RulePlan | None:
        which = _GROUP_WHICH_RE.search(q)
        each = _GROUP_EACH_RE.search(q)
        superlative = _SUPERLATIVE_NOUN_RE.search(q)
        anchors, rest = find_anchors(q)
        if _spans(anchors):
            return None
        noun = None
        form = "group"
        aggregate = bool(
            _SUM_CUES.search(q)
            or _AVG_CUES.search(q)
            or _COUNT_CUES.search(q)
            or set(words(q)) & _MONEY_VERBS
            or _amount_words(q)
        )
        if which is not None and (_MOST_RE.search(q) or _LEAST_RE.search(q)):
            noun = which.group("noun")
            if not aggregate and noun not in ("week", "month", "year"):
                # "which cafe made my most caffeinated drink", "which day had the
                # highest X": one record, the Rank of rows as before
                return None
        elif superlative is not None:
            noun = superlative.group("noun") or superlative.group("noun2")
            form = "value"
        elif (
            each is not None
            and each.group("noun") not in ("day", "night")
            # "per drink" may mean each record; "per week" and "for each cafe"
            # name groups
            and (each.group("noun") in BUCKETS or not each.group(0).startswith("per"))
        ):
            noun = each.group("noun")
            form = "list"
        if noun is None:
            return None
        plan = self._map(rest, now, context, values_only=True)
        if plan.analytic is None:
            plan = self._map(rest, now, context, values_only=True, operator="sum")
        if plan.analytic is None:
            plan = self._map(rest, now, context, values_only=True, operator="count")
        analytic = plan.analytic
        if analytic is None:
            return None
        card = context.table(analytic.arguments["table"])
        if card is None:
            return None
        nouns = [noun] + (
            [which.group("noun2")]
            if form == "group" and which and which.group("noun2")
            else []
        )
        texts = [c for c in card.columns if c.sql_type == "VARCHAR"]
        named = [
            c.name
            for n in nouns
            for c in texts
            if stem(n) in [stem(t) for t in words(c.name)]
        ]
        if noun in BUCKETS:
            group_by = BUCKETS[noun]
        elif named:
            group_by = named[0]
        else:
            col = self.planner._which_column(
                dataclasses.replace(plan.intent, which_word=noun),
                None,  # type: ignore[arg-type]
                texts,
            )
            if col is None:
                return None
            group_by = col.name
        target = analytic.arguments.get("target_column_expression")
        column = card.column(target) if target else None
        counted = bool(
            re.search(
                r"\b(?:order|ordered|buy|bought|visit|visited|go|went|drink|drank)\b",
                q,
            )
        ) and not (set(words(q)) & _MONEY_VERBS)
        op = _measure_operator(q, column, counted or column is None)
        filters = [
            f
            for f in analytic.arguments.get("optional_column_filters") or []
            if f.get("column") != group_by
        ]
        order = "asc" if _LEAST_RE.search(q) and not _MOST_RE.search(q) else "desc"
        tool = "rank" if form != "list" else "compute"
        args: dict[str, Any] = {
            "table": card.name,
            "operator": op,
            "group_by": group_by,
            "optional_column_filters": filters,
            "result_budget": 2 if form != "list" else 10,
        }
        if form == "list":
            args.pop("result_budget")
            args["order"] = None
            args = {k: v for k, v in args.items() if v is not None}
        if op != "count" and target:
            args["target_column_expression"] = target
        if tool == "rank":
            args["order"] = order
        extra: list[dict[str, Any]] = []
        for anchor in anchors:
            first = self._locate_steps(out, anchor)
            extra += anchor_filters(anchor, first, now)
        out.plan.append(
            {
                "goal": f"{op} of {target or 'rows'} per {group_by} in {card.name}",
                "tool": tool,
            }
        )
        out.drafts.append(
            {
                "tool": tool,
                "arguments": args | {"optional_column_filters": filters + extra},
            }
        )
        out.answer_form = form
        self._check_rest(question, rest, plan, context, out)
        out.notes.extend(plan.notes)
        return plan
