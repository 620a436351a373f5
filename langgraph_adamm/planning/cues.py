"""Words that say how a question measures, and checks that it was all used.

Which aggregate a comparison or a grouped question means when it names none
("did I spend more" is a sum, "did I sleep more" an average, "which drink do I
order most often" a count), and which parts of a question no step used: a name
no column value holds, a quantity another table holds, a table no word names.
"""

from __future__ import annotations

import re

from langgraph_adamm.analytic.units import CURRENCIES, is_volume
from langgraph_adamm.analytic.values import convertible
from langgraph_adamm.planning.context import ColumnCard, PlanningContext, TableCard
from langgraph_adamm.planning.dates import MONTHS
from langgraph_adamm.planning.measure_words import count_labels
from langgraph_adamm.planning.rule_planner import AnalyticCall, RulePlan
from langgraph_adamm.planning.text import (
    STOPWORDS,
    name_acronyms,
    stem,
    without_possessive,
    words,
)

OPERATOR_STEMS = frozenset(
    stem(w)
    for w in (
        "average avg mean median total sum overall count number much many often "
        "highest lowest most least max min first last latest change typical day "
        "days week weeks month months year times record records value values "
        "usual usually normally generally typically far long"
    ).split()
)
"""Words of a question that ask how, not what: never a missing quantity."""
COMPARE_WORDS = (
    r"more|less|fewer|higher|lower|longer|shorter|bigger|smaller|faster|slower|"
    r"heavier|lighter|better|worse|further|farther|cheaper|pricier|greater"
)
LESS_WORDS = frozenset(
    "less fewer lower shorter smaller slower lighter worse cheaper".split()
)
MONEY_VERBS = frozenset(
    "spend spent spending pay paid paying cost costs costed money expense expenses "
    "expensive".split()
)
COUNT_CUES = re.compile(
    r"\bhow\s+many\b|\bnumber\s+of\b|\btimes\b|\boften\b|\bfrequent\w*|"
    r"\bcount\b|\bvisits?\b"
)
AVG_CUES = re.compile(
    r"\baverag(?:e|ed|es|ing)\b|\bavg\b|\bmean\b|\btypical\w*|\bper\s+(?:day|night)\b"
)
SUM_CUES = re.compile(
    r"\btotal\b|\bsum\b|\boverall\b|\baltogether\b|\bin\s+all\b|\bcombined\b|"
    r"\bcumulative\b"
)
MOST_RE = re.compile(
    r"\b(?:most|highest|biggest|largest|max|maximum|top|greatest|longest|heaviest|"
    r"furthest|farthest|best|priciest)\b"
)
LEAST_RE = re.compile(
    r"\b(?:least|lowest|smallest|fewest|min|minimum|shortest|lightest|worst|"
    r"cheapest)\b"
)
_NOT_NAMES = frozenset(
    {"i", "i'm", "i've", "i'd", "ok", "okay", "hi", "hey"}
    | set(MONTHS)
    | {
        d.lower()
        for d in ("Monday Tuesday Wednesday Thursday Friday Saturday Sunday").split()
    }
)


_ASKER = frozenset({"i", "i'm", "i've", "i'd", "i'll"})


def names_in(question: str) -> list[str]:
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
        # "What was the first FG I recorded": the asker is no part of a name
        name = " ".join(w for w in name.split() if w.lower() not in _ASKER)
        if name:
            found.append(name)
    return found


def unused_names(
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
        )
        card = context.table(args["table"])
        if card is not None:  # a name used as a filter value, or naming the table
            used_text += " " + card.name + " " + " ".join(c.name for c in card.columns)
    # words() splits "CityRail" as it splits the question's "CityRail"
    used = {stem(w) for w in words(used_text)} | {
        stem(w) for w in words(used_text.lower())
    }
    if plan is not None and plan.analytic is not None:
        card = context.table(plan.analytic.arguments["table"])
        for col in card.columns if card is not None else ():
            used |= set(name_acronyms(words(col.name)))  # "TIR": time_in_range
    unused = []
    for name in names_in(question):
        # "Fig's lowest weight" names Fig: the possessive is no word of the name
        core = without_possessive(name)
        tokens = [stem(w) for w in words(core)]
        lowered = [stem(w) for w in words(core.lower())]
        if tokens and not (
            all(t in used for t in tokens) or all(t in used for t in lowered)
        ):
            unused.append(name)
    return unused


def measure_words(text: str, table: str, context: PlanningContext) -> str:
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
        for other in context.table_cards
        if other.name != table
        for name in [other.name, *(c.name for c in other.columns)]
        for w in words(name)
    }
    skip = set(STOPWORDS) | OPERATOR_STEMS
    left = [
        w
        for w in words(text)
        if w not in skip
        and stem(w) not in skip
        and stem(w) not in here
        and stem(w) in elsewhere
    ]
    return " ".join(dict.fromkeys(left))


def names_table(
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


def measure_operator(
    text: str,
    column: ColumnCard | None,
    counted: bool,
    table: TableCard | None = None,
) -> str:
    """The aggregate a comparison or group question means when it names none.

    ``table``: the column's table, whose count columns' labels say what its
    counts count ("pieces": "lose more pieces" over ``lost`` adds them up).
    """
    if AVG_CUES.search(text):
        return "avg"
    if amount_words(text):
        return "sum"  # "the most hours", "how many km": an amount, not records
    if COUNT_CUES.search(text) or counted:
        return "count"
    if SUM_CUES.search(text) or set(words(text)) & MONEY_VERBS:
        return "sum"
    if (
        column is not None
        and column.unit
        and (
            convertible(column.unit, "km")
            or column.unit in CURRENCIES
            or (
                is_volume(column.unit)
                and re.search(r"\bhow\s+much\b|\bdr[ai]nk\b|\bdrunk\b", text)
            )
        )
    ):
        # a distance, money, "how much more milk", "drank the most milk":
        # amounts that add up ("did my water intake go up" compares the daily
        # intake, an average)
        return "sum"
    if column is not None and (
        re.search(r"step|count|calorie|kcal", column.name)
        or _names_plural(text, column.name)
        or _names_counted(text, column, table)
    ):
        return "sum"  # "read the most pages", "more steps": an amount
    if column is not None and _names_records(text, column.name):
        return "count"  # "the most naps" over nap_length: how many naps
    return "avg"


def _names_records(text: str, column: str) -> bool:
    """Whether a question names the records, in the plural, by a column's lead word.

    "Most naps" over ``nap_length``, "more rides" over ``ride_distance``: the
    word before the measured quantity names the thing logged.
    """
    parts = words(column)
    if len(parts) < 2:
        return False
    lead = stem(parts[0])
    return any(
        w.endswith("s") and stem(w) == lead and w != parts[0] for w in words(text)
    )


def amount_words(text: str) -> bool:
    """Whether a question counts an amount in units ("the most hours", "most km")."""
    from langgraph_adamm.analytic.values import canonical_unit

    for w in words(text):
        if w in ("hours", "minutes", "mins", "km", "kilometres", "kilometers", "miles"):
            return True
        if len(w) > 2 and w.endswith("s") and canonical_unit(w) is not None:
            return True
    return False


def _names_plural(text: str, column: str) -> bool:
    """Whether a question names a column in the plural.

    "pages" for ``pages``; "the most bottles" for ``bottles_filled``, a count
    the column holds.
    """
    parts = words(column)
    last = stem(parts[-1]) if parts else ""
    asked = words(text)
    return any(w.endswith("s") and stem(w) == last and w != last for w in asked) or any(
        p.endswith("s") and len(p) > 3 and p in asked for p in parts
    )


def _names_counted(text: str, column: ColumnCard, table: TableCard | None) -> bool:
    """Whether a question names, in the plural, what a count column counts."""
    counted = count_labels(table, column)
    return any(
        w.endswith("s") and stem(w) in counted and w != stem(w) for w in words(text)
    )


def column_of(plan: RulePlan, context: PlanningContext) -> ColumnCard | None:
    """The column a plan's analytic step aggregates, when it is one column."""
    if plan.analytic is None:
        return None
    card = context.table(plan.analytic.arguments["table"])
    target = plan.analytic.arguments.get("target_column_expression")
    return card.column(target) if card is not None and target else None
