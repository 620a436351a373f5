"""The offline rule planner: analytic question forms mapped onto the planning context.

It reads what a question asks for (an operator, a date range, value conditions,
categorical conditions, the quantity) and maps each part onto the tables of the
planning context through their metadata: column names, units, descriptions and
the values the columns hold - never through names known in advance. A question
it cannot map goes to retrieval (EventLocate for "when" questions, SemanticMatch
otherwise).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

import numpy as np

from langgraph_adamm.analytic.units import CURRENCIES, dimension, is_volume
from langgraph_adamm.analytic.values import (
    canonical_unit,
    convert_units,
    convertible,
    parse_value,
)
from langgraph_adamm.planning.context import (
    ColumnCard,
    PlanningContext,
    TableCard,
    cached,
)
from langgraph_adamm.planning.dates import (
    DateRange,
    find_date_range,
    fix_month_spelling,
)
from langgraph_adamm.planning.text import (
    STOPWORDS,
    initials,
    name_acronyms,
    stem,
    words,
)

Answer = Literal["value", "date", "column"]
WordEmbed = Callable[[list[str]], np.ndarray]

_OPERATOR_WORDS: list[tuple[str, str]] = [
    (
        "change",
        r"\b(?:change[ds]?|changing|difference|differ|delta|increased?|decreased?|"
        r"drop(?:ped)?|went\s+(?:up|down)|go(?:ne)?\s+(?:up|down)|improved?|"
        r"progress(?:ed)?|compared?\s+to)\b",
    ),
    (
        "avg",
        r"\b(?:average|avg|mean|typical(?:ly)?|on\s+average|per\s+(?:day|night))\b",
    ),
    ("median", r"\bmedian\b"),
    (
        "count",
        r"\b(?:how\s+many|number\s+of|how\s+often|count\s+(?:of|the|all|my)|"
        r"times)\b|^count\b",
    ),
    (
        "sum",
        r"\b(?:total|sum|altogether|in\s+all|combined|overall|cumulative)\b",
    ),
    (
        "latest",
        r"\b(?:latest|most\s+recent(?:ly)?|last|current(?:ly)?|recent|now|lately|"
        r"newest|today'?s)\b",
    ),
    ("first", r"\b(?:first|earliest|initial|oldest|starting)\b"),
    (
        "max",
        r"\b(?:highest|max|maximum|most|longest|biggest|largest|best|top|peak|"
        r"greatest|heaviest|furthest|farthest|fastest|record|priciest)\b",
    ),
    (
        "min",
        r"\b(?:lowest|min|minimum|least|shortest|smallest|worst|fewest|lightest|"
        r"cheapest|slowest)\b",
    ),
    ("sum", r"\bhow\s+much\b"),
]
_OPERATOR_RES = [(op, re.compile(p)) for op, p in _OPERATOR_WORDS]
_OPERATOR_TOKENS = frozenset(
    stem(w)
    for w in (
        "average avg mean typical median total sum overall combined latest last "
        "current recent first earliest highest max maximum most longest biggest "
        "largest best top peak lowest min minimum least shortest smallest worst "
        "fewest change difference number count"
    ).split()
)
_AGGREGATE_WORDS = frozenset(
    "avg average mean median sum total count number overall typical".split()
)
"""Operator words that name no quantity ("avg" is no hint for a column named
avg_hr); "longest" or "heaviest" stay, as hints of a duration or a mass."""
_GENERIC_MEASURE = frozenset({"total", "overall", "daily", "net", "all"})
_WHICH_RE = re.compile(
    r"\b(?:which|what)\s+(?:(?:was|were|is)\s+(?:the\s+)?)?"
    r"(?:(?:kind|type|sort)\s+of\s+)?([a-z]+)"
)
_DAY_WITH_RE = re.compile(
    r"\b(?:day|date|night|morning|evening)\s+(?:with|of|when|that|did|had|was)\b"
)
_WHEN_RE = re.compile(r"\bwhen\b|\bwhat\s+time\b")
_VALUE_ASKED_RE = re.compile(
    r"\bwhat(?:\s+(?:was|is|were|are)|'s)\s+(?:my|the|our)\s+(?:[a-z]+est|most|"
    r"least|top|best|worst|max\w*|min\w*)\b"
)
""""What was my longest night of sleep": the value is asked, though a day word
follows ("night of")."""
_DATE_WORDS = frozenset({"day", "date", "night", "morning", "evening", "week", "time"})
_RETRIEVAL_RE = re.compile(
    r"\b(?:when\s+did|where\s+did|who|remember|remind|what\s+did\s+(?:i|you)\s+"
    r"(?:say|tell|mention|suggest|recommend)|recipe|suggest(?:ion)?)\b"
)
_NEGATION_RE = re.compile(r"\b(?:not|didn'?t|did\s+not|never|no|without|n't)\b")
_OPPOSITES: dict[str, frozenset[str]] = {
    "win": frozenset({"lose", "loss", "losse", "lost", "defeat"}),
    "pass": frozenset({"fail", "failure"}),
    "success": frozenset({"fail", "failure"}),
    "complete": frozenset({"incomplete", "miss", "skip"}),
    "done": frozenset({"miss", "skip", "undone"}),
    "present": frozenset({"absent", "miss"}),
}
"""Stems that state a boolean column's false value ("games I lost" -> won = false)."""
_HOW_DIMENSION = {"far": "km", "long": "min", "heavy": "kg"}
_COMPARATIVE_DIMENSION = {
    "further": "km",
    "farther": "km",
    "furthest": "km",
    "farthest": "km",
    "heavier": "kg",
    "heaviest": "kg",
}
"""Comparatives that name a dimension ("ride further": a length)."""
""""how far" asks for a length, "how long" a duration, "how heavy" a mass."""
_NAME_FILLER = frozenset({"log", "value", "a"})
_MONEY_STEMS = frozenset(
    {"spend", "pay", "cost", "money", "expense", "expens", "expensive"}
)
"""Stems that ask for an amount of money: only a currency column answers them."""
_TIME_STEMS = frozenset(
    {"time", "hour", "minute", "min", "h", "day", "week", "long", "while"}
)
"""Stems that make "spent" a matter of time ("spent the most time reading")."""
_GUESSED_TARGET = 0.2
"""The match score of a target no question word names (the only number left)."""
_WEAK_TARGET = 0.25
"""Below this the target was guessed or matched only loosely by embedding
similarity (cosine under 0.5): the answer must check that the question names
the table at all. ("walk" ~ steps is 0.56, "weigh" ~ amount 0.48.)"""
LEAD_WEIGHT = 1.0
"""How much a question naming a table's records by their own words counts."""
TABLE_NAME_WEIGHT = 1.0
"""How much a question naming a table ("sleep" for sleep_log) counts."""
CONTEXT_WEIGHT = 0.2
"""How much a table's planning-context score counts when mapping a question."""
_CONDITION_OPS: list[tuple[str, str]] = [
    (
        ">=",
        r"(?:at\s+least|no\s+less\s+than|not\s+less\s+than|minimum\s+of|>=|≥|"
        r"hit|hits|reached|reach)",
    ),
    ("<=", r"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|<=|≤)"),
    (
        ">",
        r"(?:more\s+than|greater\s+than|over|above|longer\s+than|higher\s+than|"
        r"bigger\s+than|larger\s+than|exceeding|beyond|>)",
    ),
    (
        "<",
        r"(?:less\s+than|fewer\s+than|under|below|shorter\s+than|lower\s+than|"
        r"smaller\s+than|<)",
    ),
    ("=", r"(?:exactly|equal\s+to)"),
]
_NUM = r"[$€£]?\s?-?\d[\d,]*(?:\.\d+)?(?:\s?k\b)?\s*(?:%|[$€£]|[a-z]+(?:/[a-z]+)?)?"
_PREFIX_COND = re.compile(
    r"(?P<op>"
    + "|".join(f"(?:{p})" for _, p in _CONDITION_OPS)
    + rf")\s+(?P<val>{_NUM})"
)
_SUFFIX_COND = re.compile(
    rf"(?P<val>{_NUM})\s*(?P<op>or\s+(?:more|above|higher|longer|greater|over|"
    r"less|fewer|below|lower|under|shorter)|plus|\+)"
)
_PER_RE = re.compile(r"\b([a-z]+)\s+(?:per|/|an?)\s+([a-z]+)\b")
_IN_UNIT_RE = re.compile(r"\bin\s+([a-z%$€£]+)\b")


@dataclass(frozen=True)
class Condition:
    """A value condition read from the question ("more than 10 km")."""

    op: str
    number: float
    unit: str | None
    text: str


@dataclass(frozen=True)
class Intent:
    """What a question asks, before it is mapped onto any table."""

    operator: str | None
    answer: Answer
    date_range: DateRange | None
    conditions: tuple[Condition, ...]
    which_word: str | None
    output_unit: str | None
    text: str
    """The question, lower-cased, without its date phrase and value conditions."""
    operators: tuple[tuple[str, str], ...] = ()
    """Every operator the words suggest, most likely first, with the words."""
    count_noun: str | None = None
    """What "how many"/"number of" counts ("days", "runs", "steps")."""
    now: datetime | None = None
    """The question's time: a range that ends today ends at it."""


@dataclass(frozen=True)
class AnalyticCall:
    """One analytic tool call with what its answer should report."""

    tool: Literal["compute", "rank"]
    arguments: dict[str, Any]
    answer: Answer
    answer_column: str | None
    output_unit: str | None
    goal: str
    target_guessed: bool = False
    """The question names no column: the target is the table's only number."""


@dataclass
class RulePlan:
    """The rule planner's decision for one question."""

    intent: Intent
    analytic: AnalyticCall | None
    retrieval_tool: Literal["event_locate", "semantic_match"]
    notes: list[str] = field(default_factory=list)


def _unit_of(word: str) -> str | None:
    unit = canonical_unit(word)
    if unit is None and word in ("$", "dollars", "dollar", "usd", "bucks"):
        return "USD"
    if unit is None and word in ("%", "percent", "pct"):
        return "%"
    return unit


def _counts_things(unit: str | None) -> bool:
    """Whether a column with this unit counts things ("steps", "loaves", none).

    "How many steps" asks for the steps column's total; "how many naps" names
    the records, and a nap-length column in minutes is no number of naps.
    """
    return unit is None or dimension(unit) == f"[{unit}]"


def _names_whole(noun: str, column: str) -> bool:
    """Whether a counted noun names every word of a column ("active minutes")."""
    have = {stem(w) for w in words(noun)}
    return all(stem(w) in have for w in words(column))


def _conditions(rest: str) -> list[Condition]:
    found: list[Condition] = []
    for regex in (_PREFIX_COND, _SUFFIX_COND):
        for m in regex.finditer(rest):
            raw = m.group("val").strip()
            text = m.group(0)
            tail = re.search(r"\s+([a-z]+)$", raw)
            if tail and tail.group(1) in STOPWORDS:  # "over $25 at ..." is no unit
                raw = raw[: tail.start()]
                text = (
                    text[: text.rfind(tail.group(0))] if regex is _PREFIX_COND else text
                )
            parsed = parse_value(re.sub(r"(\d)\s?k\b", r"\g<1>000", raw))
            if parsed.number is None:
                continue
            unit = parsed.unit
            if unit is not None and _unit_of(unit) is not None:
                unit = _unit_of(unit)
            found.append(
                Condition(_condition_op(m.group("op")), parsed.number, unit, text)
            )
    return found


def read_intent(question: str, now: datetime | date) -> Intent:
    """The operator, answer form, date range and conditions of a question."""
    q = " ".join(fix_month_spelling(question).lower().split())
    date_range = find_date_range(q, now)
    rest = q.replace(date_range.text.lower(), " ") if date_range else q
    conditions = _conditions(rest)
    for c in conditions:
        rest = rest.replace(c.text, " ")
    found: list[tuple[str, str]] = []
    for op, regex in _OPERATOR_RES:
        m = regex.search(rest)
        if m is not None:
            found.append((op, m.group(0)))
    if found and found[0][0] == "latest" and not re.search(r"\bmost\s+recent", rest):
        if re.search(r"\bfirst\b.*\blast\b", rest):  # "from the first to the last"
            found.insert(0, ("change", "first ... last"))
    count_noun = None
    count_at = next((i for i, (op, _) in enumerate(found) if op == "count"), None)
    if count_at is not None:
        noun = re.search(
            r"\b(?:how\s+many|number\s+of|count\s+of)\s+([a-z]+(?:[\s-][a-z]+)?)", rest
        )
        count_noun = None
        if noun:  # "blood pressure readings": up to two words, stopwords dropped
            kept = [w for w in re.split(r"[\s-]", noun.group(1)) if w not in STOPWORDS]
            count_noun = " ".join(kept) or None
        first_word = count_noun.split()[0] if count_noun else ""
        if count_noun and _unit_of(first_word) is not None and not conditions:
            # "how many hours/km": a quantity, not a number of records
            found.pop(count_at)
            if not any(
                op in ("avg", "median", "max", "min", "first", "latest")
                for op, _ in found
            ):
                found.insert(0, ("sum", first_word))
            count_noun = None
        else:  # "number of days with avg glucose below 150" counts records
            found.insert(0, found.pop(count_at))
    if (
        not found
        and date_range is not None
        and re.search(r"\bhow\s+(?:far|long|much\s+time)\b", rest)
    ):  # "how far did I run during the week of the 16th": the distance in all
        found.append(("sum", "how far"))
    if not found and re.search(r"\b(?:spen[dt]|paid|pay|cost)\b", rest):
        found.append(("sum", "spent"))  # "what did I spend on coffees": a total
    operator = found[0][0] if found else None
    which = None
    answer: Answer = "value"
    superlative = any(op in ("max", "min") for op, _ in found)
    which_match = _WHICH_RE.search(rest)
    if superlative and (
        _WHEN_RE.search(rest)
        or (_DAY_WITH_RE.search(rest) and not _VALUE_ASKED_RE.search(rest))
        or (which_match and which_match.group(1) in _DATE_WORDS)
    ):
        answer = "date"
    elif superlative and which_match and which_match.group(1) not in STOPWORDS:
        answer, which = "column", which_match.group(1)
    out_unit = None
    for m in _IN_UNIT_RE.finditer(rest):
        unit = _unit_of(m.group(1))
        if unit is not None:
            out_unit = unit
    return Intent(
        operator,
        answer,
        date_range,
        tuple(conditions),
        which,
        out_unit,
        rest,
        tuple(found),
        count_noun,
        now if isinstance(now, datetime) else None,
    )


def _condition_op(text: str) -> str:
    t = " ".join(text.split())
    if t.startswith("or ") or t in ("plus", "+"):
        more = re.search(r"more|above|higher|longer|greater|over|plus|\+", t)
        return ">=" if more else "<="
    for op, pattern in _CONDITION_OPS:
        if re.fullmatch(pattern, t):
            return op
    return "="


# -- mapping onto tables ---------------------------------------------------------
def _abbreviates(token: str, word: str) -> bool:
    """Whether a column token abbreviates a word: avg/average, temp/temperature."""
    if len(token) < 3 or len(token) >= len(word) or token[0] != word[0]:
        return False
    it = iter(word)
    return all(ch in it for ch in token)


@dataclass
class _Question:
    """Tokens of a question prepared once for matching."""

    words: list[str]
    stems: list[str]
    acronyms: set[str]
    how: list[str]
    """Words after "how" ("how far", "how long")."""

    @classmethod
    def of(cls, text: str) -> _Question:
        ws = [w for w in words(text) if w not in ("s", "t")]
        content = [w for w in ws if w not in STOPWORDS]
        acr = set(initials(content, 2)) | set(initials(content, 3))
        how = [ws[i + 1] for i, w in enumerate(ws[:-1]) if w == "how"]
        return cls(ws, [stem(w) for w in content], acr, how)

    def token_hit(self, token: str) -> float:
        t = stem(token)
        if t in self.stems:
            return 0.25 if t in _OPERATOR_TOKENS else 1.0
        if token in self.acronyms:
            return 1.0
        if any(_abbreviates(token, w) for w in self.stems):
            return 0.25 if token in _OPERATOR_TOKENS else 0.9
        return 0.0


def _name_score(q: _Question, name: str) -> float:
    """How well a question names a column or table (0: not at all)."""
    named = [t for t in words(name) if t not in _NAME_FILLER]
    tokens = named
    if not tokens:
        return 0.0
    if name_acronyms(named) & set(q.words):
        return 1.0 + 0.1 * len(tokens)
    hits = [q.token_hit(t) for t in tokens]
    found = sum(hits)
    if found == 0:
        return 0.0
    bonus = 0.05 * sum(
        1 for t, h in zip(tokens, hits, strict=True) if not h and t in _GENERIC_MEASURE
    )
    return found / len(tokens) + 0.1 * found + bonus


def _value_in(text: str, value: str) -> bool:
    """Whether the question names a column value ("cafe luna", "running" ~ run)."""
    v = value.strip().lower()
    if len(v) < 2 or v in STOPWORDS or v.isdigit():
        return False
    if re.search(rf"(?<![\w]){re.escape(v)}(?:s|es)?(?![\w])", text):
        return True
    want = [stem(w) for w in words(v)]
    have = [stem(w) for w in words(text)]
    n = len(want)
    for i in range(len(have) - n + 1):
        # "riding" stems to "rid": the dropped e of "ride" is allowed back
        if all(
            h in (w, w.rstrip("e")) for h, w in zip(have[i : i + n], want, strict=True)
        ):
            return True
    return False


@functools.lru_cache(maxsize=256)
def _lead_words(table: TableCard) -> frozenset[str]:
    """The words a table's records are written with, beside labels and values.

    "Swim watch summary. Swim | Pool: ... | Lengths: 33" gives swim, watch,
    summary: what the user calls these records, which the attribute-named
    table (lengths_pool_log) does not say.
    """
    taken = {w for c in table.columns for w in words(c.name)}
    taken |= {w for c in table.columns for v in c.values for w in words(v)}
    lead: set[str] = set()
    for example in table.examples:
        for w in words(example):
            if w.isalpha() and len(w) > 2 and w not in taken and w not in STOPWORDS:
                if _unit_of(w) is None:
                    lead.add(w)
    return frozenset(lead)


def _lead_score(q: _Question, table: TableCard) -> float:
    """How many of a question's words are among a table's record words (0..1)."""
    lead = _lead_words(table)
    if not lead:
        return 0.0
    prefixes = {w[:5] for w in lead if len(w) >= 5}
    hits = 0
    for w in set(q.words):
        if w in STOPWORDS or w in _OPERATOR_TOKENS:
            continue
        if (
            w in lead
            or stem(w) in {stem(x) for x in lead}
            or (len(w) >= 5 and w[:5] in prefixes)
        ):
            hits += 1
    return min(1.0, 0.5 * hits)


def _leading_names(text: str, values: tuple[str, ...]) -> list[str]:
    """Values a question names by their first words only.

    "Moss Side" names "Moss Side Leisure Centre" and "Texaco" names "Texaco
    Glasnevin" when no other value of the column begins so.
    """
    found = []
    have = words(text)
    for v in values:
        vw = words(v)
        if len(vw) < 2:
            continue
        for n in range(len(vw) - 1, 0, -1):
            lead = vw[:n]
            if n == 1 and (len(lead[0]) < 5 or lead[0] in STOPWORDS):
                continue
            starts = [o for o in values if words(o)[:n] == lead]
            if len(starts) != 1:
                continue
            if any(have[i : i + n] == lead for i in range(len(have) - n + 1)):
                found.append(v)
                break
    return found


_CALENDAR_WORDS = frozenset(
    "day days night nights week weeks month months year years d".split()
)
_NOT_UNIT_HINTS = _CALENDAR_WORDS | {"min", "max", "m", "s", "a", "in"}


def _unit_hint(q: _Question, col: ColumnCard) -> float:
    """Whether the question names a unit of the column ("how many km")."""
    if not col.unit:
        return 0.0
    hinted = [w for w in q.words if w not in _NOT_UNIT_HINTS]
    hinted += [_HOW_DIMENSION[w] for w in q.how if w in _HOW_DIMENSION]
    hinted += [
        _COMPARATIVE_DIMENSION[w] for w in q.words if w in _COMPARATIVE_DIMENSION
    ]
    best = 0.0
    for w in hinted:
        unit = _unit_of(w)
        if unit is not None and convertible(unit, col.unit):
            # "how many km": km over a column of metres, both lengths
            best = max(best, 0.7 if unit == col.unit else 0.6)
    return best


def _plausible(cond: Condition, col: ColumnCard) -> bool:
    """Whether a condition's value, in the column's unit, lies near its range."""
    if col.low is None or col.high is None:
        return False
    number = cond.number
    if cond.unit and col.unit and convertible(cond.unit, col.unit):
        number = convert_units(number, cond.unit, col.unit)
    span = max(col.high - col.low, 1e-9)
    return col.low - span <= number <= col.high + span


def _columns_text(table: TableCard) -> str:
    return " ".join(" ".join(words(c.name)) for c in table.columns)


@dataclass
class _Mapping:
    table: TableCard
    operator: str
    score: float
    filters: list[dict[str, Any]]
    target: str | None
    answer_column: str | None
    notes: list[str]
    target_guessed: bool = False


class RulePlanner:
    """Maps questions onto the planning context without a model.

    Args:
        word_embed: The text encoder, used for synonyms ("spent" ~ "amount",
            "win" ~ "won") when lexical matching finds nothing; None: lexical only.
    """

    def __init__(self, word_embed: WordEmbed | None = None) -> None:
        self.word_embed = cached(word_embed)

    def _vec(self, texts: list[str]) -> np.ndarray | None:
        if self.word_embed is None or not texts:
            return None
        return self.word_embed(texts)

    def _synonym(
        self, q: _Question, names: list[str], floor: float
    ) -> dict[str, float]:
        """Embedding similarity of the question's words to column names."""
        content = [
            w
            for w in q.words
            if w not in STOPWORDS and not w.isdigit() and w not in _AGGREGATE_WORDS
        ]
        if not names or not content:
            return {}
        wv = self._vec(content)
        nv = self._vec([" ".join(words(n)) for n in names])
        if wv is None or nv is None:
            return {}
        sims = (nv @ wv.T).max(axis=1)
        return {n: float(s) for n, s in zip(names, sims, strict=True) if s >= floor}

    def _similarity(self, a: str, b: str) -> float:
        """Embedding cosine of two short texts (0 without an encoder)."""
        vecs = self._vec([a, b])
        return 0.0 if vecs is None else max(0.0, float(vecs[0] @ vecs[1]))

    # -- the plan ----------------------------------------------------------------
    def plan(
        self, question: str, now: datetime | date, context: PlanningContext
    ) -> RulePlan:
        """Read the question and map it onto the best table of the context."""
        return self.plan_intent(read_intent(question, now), context)

    def plan_intent(self, intent: Intent, context: PlanningContext) -> RulePlan:
        """Map an intent (read from a question or a part of one) onto a table."""
        retrieval: Literal["event_locate", "semantic_match"] = (
            "event_locate" if _WHEN_RE.search(intent.text) else "semantic_match"
        )
        plan = RulePlan(intent, None, retrieval)
        if intent.operator is None and _RETRIEVAL_RE.search(intent.text):
            plan.notes.append("no analytic question form: recalled from memory")
            return plan
        if intent.operator is None and not (intent.conditions or intent.date_range):
            plan.notes.append("no analytic question form: recalled from memory")
            return plan
        q = _Question.of(intent.text)
        best: _Mapping | None = None
        for table, ctx_score in context.tables:
            mapping = self._map(intent, q, table)
            if mapping is None:
                continue
            mapping.score += CONTEXT_WEIGHT * ctx_score
            if best is None or mapping.score > best.score:
                best = mapping
        if best is None:
            plan.notes.append(
                "no table of the planning context matches the question: recalled "
                "from memory instead"
            )
            return plan
        plan.analytic = self._call(intent, best)
        plan.notes.extend(best.notes)
        return plan

    def _map(self, intent: Intent, q: _Question, table: TableCard) -> _Mapping | None:
        op = intent.operator or "latest"
        text = intent.text
        filters: list[dict[str, Any]] = []
        score = 0.0
        notes: list[str] = []
        used: set[str] = set()
        # categorical conditions: column values named in the question
        for col in table.columns:
            if col.sql_type == "VARCHAR" and col.values:
                hits = [v for v in col.values if _value_in(text, v)]
                hits += [
                    v
                    for v in _leading_names(text, col.values)
                    if v not in hits and not any(v.lower() in h.lower() for h in hits)
                ]
                # a longer value that contains a shorter one wins ("cafe luna" > "cafe")
                hits = [
                    h
                    for h in hits
                    if not any(h != o and h.lower() in o.lower() for o in hits)
                ]
                if hits and not (
                    intent.answer == "column" and self._is_which(intent, col)
                ):
                    filters.append(
                        {"column": col.name, "op": "=", "value": hits[0]}
                        if len(hits) == 1
                        else {"column": col.name, "op": "in", "value": hits}
                    )
                    used.add(col.name)
                    score += 1.5
        # boolean columns named in the question ("did I win", "workouts I won")
        bools = [c for c in table.columns if c.sql_type == "BOOLEAN"]
        if bools:
            syn = self._synonym(q, [c.name for c in bools], 0.72)
            for col in bools:
                opposite = _OPPOSITES.get(stem(words(col.name)[-1]), frozenset())
                against = bool(opposite & set(q.stems))
                if _name_score(q, col.name) > 0 or col.name in syn or against:
                    negated = (_NEGATION_RE.search(text) is not None) != against
                    filters.append(
                        {"column": col.name, "op": "=", "value": not negated}
                    )
                    used.add(col.name)
                    score += 1.0
        numeric = [c for c in table.columns if c.numeric]
        # value conditions on the numeric column they are about
        for cond in intent.conditions:
            about = self._condition_column(cond, q, numeric)
            if about is None:
                return None
            value: Any = (
                cond.number
                if cond.unit is None or cond.unit == about.unit
                else (
                    f"{cond.number:g} {cond.unit}"
                    if convertible(cond.unit, about.unit)
                    else cond.number
                )
            )
            filters.append({"column": about.name, "op": cond.op, "value": value})
            used.add(about.name)
            fits = _plausible(cond, about) or about.low is None
            score += (1.0 if fits else 0.3) + 0.5 * _name_score(q, about.name)
        if intent.date_range is not None:
            dr = intent.date_range
            # a range that ends today ends at the question's time: a record
            # logged after it had not happened yet when the question was asked
            end = (
                intent.now.isoformat()
                if intent.now is not None and dr.end == intent.now.date()
                else dr.end.isoformat()
            )
            if dr.start == date(1, 1, 1):
                filters.append({"column": "time", "op": "<=", "value": end})
            else:
                filters.append(
                    {
                        "column": "time",
                        "op": "between",
                        "value": [dr.start.isoformat(), end],
                    }
                )
        name_score = _name_score(q, table.name)
        score += TABLE_NAME_WEIGHT * name_score
        lead = _lead_score(q, table)
        score += LEAD_WEIGHT * lead
        answer_column = None
        if intent.answer == "column":
            candidates = [c for c in table.columns if c.sql_type == "VARCHAR"]
            answer_col = self._which_column(intent, q, candidates)
            if answer_col is None:
                return None
            answer_column = answer_col.name
            score += 1.0
        if op == "count" and intent.count_noun and intent.count_noun != "times":
            # "how many steps": a quantity when the noun names a numeric column
            noun = _Question.of(intent.count_noun)
            named = [c for c in numeric if _name_score(noun, c.name) >= 0.5]
            if (
                named
                and named[0].name not in used
                and (
                    _counts_things(named[0].unit)
                    or _names_whole(intent.count_noun, named[0].name)
                )
            ):
                rest = [o for o, _ in intent.operators if o != "count"]
                op = rest[0] if rest else "sum"
        target = None
        guessed = False
        if (
            op != "count"
            and set(q.stems) & _MONEY_STEMS
            and not set(q.stems) & _TIME_STEMS
        ):
            # "how much have I spent": money, so a currency column or no table
            numeric = [c for c in numeric if c.unit in CURRENCIES]
            if not numeric:
                return None
            money = True
        else:
            money = False
        if op != "count":
            target, t_score = self._target(
                intent, q, numeric, used, [c for c in table.columns if not c.numeric]
            )
            if target is None:
                return None
            score += 2.0 * t_score
            guessed = t_score < _WEAK_TARGET and not money
            op = self._operator_for(intent, op, target)
        else:
            # what is counted: a table the question names, or whose values,
            # columns or conditions it mentions
            col_names = max(
                (_name_score(q, c.name) for c in table.columns), default=0.0
            )
            score += 0.5 * col_names
            related = 0.0
            counted = intent.count_noun
            if counted and counted not in _CALENDAR_WORDS and not col_names:
                # the columns, or the words the records were written with
                # ("runs" ~ "Run summary. distance: 7.1 km")
                related = max(
                    self._similarity(counted, text)
                    for text in [_columns_text(table), *table.examples]
                )
                score += 2.0 * related
            if not (used or name_score or col_names or lead or related >= 0.3):
                return None  # nothing says these are the records counted
        return _Mapping(
            table, op, score, filters, target, answer_column, notes, guessed
        )

    def _operator_for(self, intent: Intent, op: str, target: str) -> str:
        """The operator, unless its word belongs to the column's own name.

        "total sleep" may be a column: "first recorded total sleep" asks for
        the first value, not a sum.
        """
        tokens = [stem(t) for t in words(target)]
        ops = [(o, w) for o, w in intent.operators if o != "count" or o == op]
        if intent.answer != "value":  # "which day had the highest average X"
            return next((o for o, _ in ops if o in ("max", "min")), op)
        if not ops or ops[0][0] != op:
            return op
        word = stem(ops[0][1])
        if len(ops) > 1 and any(t == word or _abbreviates(t, word) for t in tokens):
            return ops[1][0]
        return op

    def _is_which(self, intent: Intent, col: ColumnCard) -> bool:
        word = intent.which_word or ""
        return stem(word) in [stem(t) for t in words(col.name)]

    def _which_column(
        self, intent: Intent, q: _Question, candidates: list[ColumnCard]
    ) -> ColumnCard | None:
        return self.column_named(intent.which_word or "", candidates)

    def column_named(
        self, word: str, candidates: list[ColumnCard]
    ) -> ColumnCard | None:
        """The column a word names ("cafe"), or its nearest synonym ("place")."""
        for col in candidates:
            if stem(word) in [stem(t) for t in words(col.name)]:
                return col
        syn = self._synonym(_Question.of(word), [c.name for c in candidates], 0.4)
        if syn:
            name = max(syn, key=lambda n: syn[n])
            return next(c for c in candidates if c.name == name)
        return None

    def _condition_column(
        self, cond: Condition, q: _Question, numeric: list[ColumnCard]
    ) -> ColumnCard | None:
        def plausible(col: ColumnCard) -> float:
            return 0.5 if _plausible(cond, col) else 0.0

        scored: list[tuple[float, ColumnCard]] = []
        for col in numeric:
            s = 0.0
            if cond.unit is not None:
                if cond.unit == col.unit:
                    s += 3.0
                elif col.unit and convertible(cond.unit, col.unit):
                    # 73 kg is no caffeine dose in mg: one dimension, other scale.
                    s += 2.5 if plausible(col) or col.low is None else 1.0
                elif _name_score(_Question.of(cond.unit), col.name) > 0:
                    s += 3.0  # "10,000 steps" on a column named steps
                elif col.unit is not None or _unit_of(cond.unit) is not None:
                    continue  # a unit that does not fit the column
            s += _name_score(q, col.name) + plausible(col)
            scored.append((s, col))
        if not scored:
            return None
        scored.sort(key=lambda x: -x[0])
        return scored[0][1]

    def _target(
        self,
        intent: Intent,
        q: _Question,
        numeric: list[ColumnCard],
        used: set[str],
        texts: Sequence[ColumnCard] = (),
    ) -> tuple[str | None, float]:
        """The expression to aggregate or rank, and how sure the match is."""
        if not numeric:
            return None, 0.0
        per = self._per_expression(intent.text, numeric)
        if per is not None:
            return per, 1.5
        scores = {c.name: _name_score(q, c.name) + _unit_hint(q, c) for c in numeric}
        best = max(scores.values())
        if best > 0.3:
            top = [c for c in numeric if scores[c.name] == best]
            return top[0].name, min(best, 1.5)
        syn = self._synonym(q, [c.name for c in numeric], 0.45)
        if syn:
            name = max(syn, key=lambda n: syn[n])
            return name, 0.5 * syn[name]
        if intent.answer == "value" and any(
            _name_score(q, c.name) >= 0.5 for c in texts
        ):
            # "how much milk did she drink", "the week she drank the most milk"
            # (milk: the kind of each feed): the one volume logged
            amounts = [c for c in numeric if is_volume(c.unit)]
            if len(amounts) == 1:
                return amounts[0].name, 0.4
        free = [c for c in numeric if c.name not in used]
        if len(free) == 1:
            return free[0].name, _GUESSED_TARGET
        if len(numeric) == 1:
            return numeric[0].name, _GUESSED_TARGET
        return None, 0.0

    def _per_expression(self, text: str, numeric: list[ColumnCard]) -> str | None:
        """A ratio such as "minutes per km", when both sides name columns."""
        for m in _PER_RE.finditer(text):
            if m.group(2) in _CALENDAR_WORDS:  # "steps per day" is no ratio
                continue
            a, b = (self._column_for_word(w, numeric) for w in m.groups())
            if a is not None and b is not None and a != b:
                return f"{a} / {b}"
        return None

    def _column_for_word(self, word: str, numeric: list[ColumnCard]) -> str | None:
        unit = _unit_of(word)
        if unit is not None:
            fits = [c for c in numeric if c.unit and convertible(unit, c.unit)]
            if len(fits) == 1:
                return fits[0].name
        q = _Question.of(word)
        named = [c for c in numeric if _name_score(q, c.name) > 0]
        return named[0].name if len(named) == 1 else None

    # -- the call ------------------------------------------------------------------
    def _call(self, intent: Intent, m: _Mapping) -> AnalyticCall:
        op = m.operator
        table = m.table.name
        if intent.answer in ("date", "column") and m.target is not None:
            order = "desc" if op == "max" else "asc"
            args: dict[str, Any] = {
                "table": table,
                "target_column_expression": m.target,
                "order": order,
                "optional_column_filters": m.filters,
                "result_budget": 1,
            }
            what = "day" if intent.answer == "date" else m.answer_column
            extreme = "highest" if order == "desc" else "lowest"
            goal = f"the {what} with the {extreme} {m.target} in {table}"
            return AnalyticCall(
                "rank",
                args,
                intent.answer,
                m.answer_column,
                None,
                goal,
                m.target_guessed,
            )
        args = {"table": table, "operator": op, "optional_column_filters": m.filters}
        if m.target is not None:
            args["target_column_expression"] = m.target
        goal = f"{op} of {m.target or 'rows'} in {table}"
        if intent.date_range is not None:
            dr = intent.date_range
            goal += f" from {dr.start} to {dr.end}"
        return AnalyticCall(
            "compute",
            args,
            "value",
            None,
            intent.output_unit,
            goal,
            m.target_guessed,
        )
