"""How well a question's words name a table, a column, a unit or a value.

Scores the rule planner uses to map a question onto the tables of the planning
context through their metadata: column and table names (with abbreviations
and acronyms), the words records are written with, units and column values.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from langgraph_adamm.analytic.guided import WORD_FORMS
from langgraph_adamm.analytic.units import CURRENCIES
from langgraph_adamm.analytic.values import (
    convert_units,
    convertible,
)
from langgraph_adamm.planning.context import (
    ColumnCard,
    TableCard,
)
from langgraph_adamm.planning.intent import (
    Condition,
    unit_of,
)
from langgraph_adamm.planning.text import (
    STOPWORDS,
    initials,
    name_acronyms,
    stem,
    words,
)

_OPERATOR_TOKENS = frozenset(
    stem(w)
    for w in (
        "average avg mean typical median total sum overall combined latest last "
        "current recent first earliest highest max maximum most longest biggest "
        "largest best top peak lowest min minimum least shortest smallest worst "
        "fewest change difference number count"
    ).split()
)
_GENERIC_MEASURE = frozenset({"total", "overall", "daily", "net", "all"})
_HOW_DIMENSION = {"far": "km", "long": "min", "heavy": "kg"}
""""how far" asks for a length, "how long" a duration, "how heavy" a mass."""
_COMPARATIVE_DIMENSION = {
    "further": "km",
    "farther": "km",
    "furthest": "km",
    "farthest": "km",
    "heavier": "kg",
    "heaviest": "kg",
}
"""Comparatives that name a dimension ("ride further": a length)."""
_NOUN_DIMENSION = {"length": "km"}
"""Nouns that name a dimension: "the average length of my trips" is a distance
where the trips have one (a column named ``length`` is named by the word)."""
_NAME_FILLER = frozenset({"log", "value", "a"})


def is_abbreviation(token: str, word: str) -> bool:
    """Whether a column token abbreviates a word: avg/average, temp/temperature."""
    if len(token) < 3 or len(token) >= len(word) or token[0] != word[0]:
        return False
    it = iter(word)
    return all(ch in it for ch in token)


@dataclass
class QuestionTokens:
    """Tokens of a question prepared once for matching."""

    words: list[str]
    stems: list[str]
    acronyms: set[str]
    how: list[str]
    """Words after "how" ("how far", "how long")."""

    @classmethod
    def of(cls, text: str) -> QuestionTokens:
        """The tokens of a question's text."""
        ws = [w for w in words(text) if w not in ("s", "t")]
        content = [w for w in ws if w not in STOPWORDS]
        acr = set(initials(content, 2)) | set(initials(content, 3))
        how = [ws[i + 1] for i, w in enumerate(ws[:-1]) if w == "how"]
        return cls(ws, [stem(w) for w in content], acr, how)

    def token_hit(self, token: str) -> float:
        """How strongly the question names one token of a name (0: not at all)."""
        t = stem(token)
        if t in self.stems:
            return 0.25 if t in _OPERATOR_TOKENS else 1.0
        if token in self.acronyms:
            return 1.0
        if any(is_abbreviation(token, w) for w in self.stems):
            return 0.25 if token in _OPERATOR_TOKENS else 0.9
        return 0.0


def naming_score(q: QuestionTokens, name: str) -> float:
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


LABEL_SHORTFALL = 0.01
"""How much less a column's label naming counts than its own name ("pieces
lost": ``lost``, not ``loaded`` written "14 pieces")."""


def column_naming(q: QuestionTokens, col: ColumnCard) -> float:
    """How well a question names a column, by its name or another label.

    A label its values were written with counts only when the question names
    all of it ("time control" names ``tc``, "time" alone does not).
    """
    score = naming_score(q, col.name)
    for label in col.labels:
        tokens = [t for t in words(label) if t not in _NAME_FILLER]
        if tokens and all(q.token_hit(t) for t in tokens):
            # a column the question names by its own word comes first
            score = max(score, naming_score(q, label) - LABEL_SHORTFALL)
    return score


def value_in(text: str, value: str) -> bool:
    """Whether the question names a column value ("cafe luna", "running" ~ run)."""
    v = value.strip().lower()
    if len(v) < 2 or v in STOPWORDS or v.isdigit():
        return False
    if re.search(rf"(?<![\w]){re.escape(v)}(?:s|es)?(?![\w])", text):
        return True
    if any(  # "did I lose" names "loss"; "games I won", "win"
        re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", text)
        for form in WORD_FORMS.get(v, ())
    ):
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
                if unit_of(w) is None:
                    lead.add(w)
    return frozenset(lead)


def lead_score(q: QuestionTokens, table: TableCard) -> float:
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


def leading_names(text: str, values: tuple[str, ...]) -> list[str]:
    """Values a question names by some of their words only.

    "Moss Side" names "Moss Side Leisure Centre", "Texaco" names "Texaco
    Glasnevin", "Marlay" and "the Saturday market" name "Marlay Park Saturday
    Market", when no other value of the column holds those words in a row. A
    single word stands for a value only when it is long enough to be a name
    (five letters), no weekday or month, and not the value's last word (the
    kind it is of: "coffee" of "filter coffee").
    """
    found = []
    have = words(text)
    for v in values:
        vw = words(v)
        if len(vw) < 2:
            continue
        for part in _runs(vw):
            n = len(part)
            if n == 1 and (
                len(part[0]) < 5
                or part[0] in STOPWORDS
                or part[0] in _DATE_NAMES
                or part[0] == vw[-1]  # "coffee" is no name for "filter coffee"
            ):
                continue
            holding = [o for o in values if _holds_run(words(o), part)]
            if len(holding) != 1:
                continue
            if _holds_run(have, part):
                found.append(v)
                break
    return found


def _runs(vw: list[str]) -> list[list[str]]:
    """A value's runs of words, longest first, the value itself left out."""
    return [
        vw[i : i + n] for n in range(len(vw) - 1, 0, -1) for i in range(len(vw) - n + 1)
    ]


def _holds_run(have: list[str], part: list[str]) -> bool:
    n = len(part)
    return any(have[i : i + n] == part for i in range(len(have) - n + 1))


def values_named(
    text: str, values: tuple[str, ...], question: str = "", date: Any = None
) -> list[str]:
    """The values of a column a question names, whole or by some of their words.

    ``text`` is the question without its date phrase; where that phrase's day
    or month word is part of a value ("the Saturday market"), the whole
    ``question`` is read for it too. A longer value that holds a shorter one
    wins ("cafe luna" over "cafe").
    """
    hits = [v for v in values if value_in(text, v)]
    hits += [
        v
        for v in leading_names(text, values)
        if v not in hits and not any(v.lower() in h.lower() for h in hits)
    ]
    if question and date is not None:
        hits += [
            v
            for v in leading_names(question, values)
            + [o for o in values if value_in(question, o)]
            if v not in hits and date_in_values(date, [v])
        ]
    seen: dict[str, str] = {}
    for h in hits:  # "black" and "Black" are one value named
        seen.setdefault(h.lower(), h)
    hits = list(seen.values())
    hits = [h for h in hits if not any(h != o and h.lower() in o.lower() for o in hits)]
    if len(hits) != 1:  # "Marek or Anna": two sides, each as written
        return hits
    return hits + [o for o in _written_out(hits[0], values) if o not in hits]


def _written_out(name: str, values: tuple[str, ...]) -> list[str]:
    """The one longer value a name is the first name of ("Marek Nowak").

    People log a person by first name one day and in full the next: both are
    the person the question names. Only a capitalised one-word value, and one
    capitalised two-word value that begins with it.
    """
    if " " in name or len(name) < 3 or not name[:1].isupper():
        return []
    longer = [
        o
        for o in values
        if len(o.split()) == 2 and o.split()[0] == name and o.split()[1][:1].isupper()
    ]
    return longer if len(longer) == 1 else []


_SPEND_STEMS = frozenset({"spend", "pay", "cost", "expense", "expens", "expensive"})
_MONEY_STEMS = _SPEND_STEMS | {"money", "invoice", "invoiced", "bill", "billed"}
_INCOME_STEMS = frozenset(
    stem(w) for w in "earn earnings income revenue revenues profit takings sale".split()
)
_MADE_RE = re.compile(
    r"\bhow\s+much\s+(?:more\s+|less\s+)?(?:money\s+)?(?:did|do|have|had)\s+(?:i|we)\s+"
    r"(?:make|made|take\s+in|took\s+in|bring\s+in|brought\s+in)\b"
)
""""How much did I make (at ...)": money in; what was made would stand before "did"."""
_TAKEN_IN_RE = re.compile(
    r"\b(?:bring|brings|brought|bringing|take|takes|took|taken|taking)\s+in\b"
)
"""Money in: "which market brought in the most", "what did I take in"."""
_PAID_ME_RE = re.compile(
    r"\b(?:paid|pay|pays|paying|made|make|makes|earned|earns|brought|brings)"
    r"\s+(?:me|us)\b"
    r"|\b(?:i|we)\s+(?:\w+\s+)?(?:got|get|was|were|been|getting)\s+paid\b"
)
"""Money in: "which client paid me the most", "which market made me the most",
"how much did I get paid"."""
_INCOME_COLUMN_RE = re.compile(
    r"(?:^|_)(?:takings?|revenue|income|earn\w*|sales?|sold|profit|turnover|wages?|"
    r"salary|payout)(?:_|$)"
)
_RATE_RE = re.compile(r"(?:^|_)(?:per|unit|rate)(?:_|$)")


def asks_money(q: QuestionTokens, text: str) -> bool:
    """Whether a question asks an amount of money, spent or taken in."""
    return bool(set(q.stems) & (_MONEY_STEMS | _INCOME_STEMS) or _MADE_RE.search(text))


def money_columns(
    q: QuestionTokens,
    text: str,
    numeric: list[ColumnCard],
    table: str = "",
    chosen: bool = False,
) -> list[ColumnCard]:
    """The currency columns that can answer a money question, by direction.

    Money taken in ("earn", "takings", "how much did I make") is a column
    named as income, or any amount of a table named for it (``table``: a
    ``sold_via_total_log`` holds what sales brought in), or - where the
    question's other words chose the table (``chosen``: "earn from gigs",
    "rent takings" of a ``type`` = rent) - its amounts not named as spent;
    money spent is any other. A price per unit is no amount spent, unless the
    question names it.
    """
    money = [c for c in numeric if c.unit in CURRENCIES]
    incoming = (
        set(q.stems) & _INCOME_STEMS
        or _MADE_RE.search(text)
        or _TAKEN_IN_RE.search(text)
        or _PAID_ME_RE.search(text)
    )
    named = [c for c in money if column_naming(q, c) >= 0.5]
    if incoming:
        income = named or [c for c in money if _INCOME_COLUMN_RE.search(c.name)]
        if income:
            return income
        if _INCOME_COLUMN_RE.search(table):
            return [c for c in money if not _RATE_RE.search(c.name)]
        if chosen and not _BOUGHT_NAME_RE.search(table):
            return [
                c
                for c in money
                if not _RATE_RE.search(c.name) and not _BOUGHT_NAME_RE.search(c.name)
            ]
        return []
    if set(q.stems) & _SPEND_STEMS:  # "spent", "paid": never the takings
        money = [c for c in money if not _INCOME_COLUMN_RE.search(c.name)] or named
    amounts = [c for c in money if not _RATE_RE.search(c.name)]
    if amounts and not named:
        return amounts
    return money


_SPENT_NAMES = r"spen[dt]\w*|costs?|expenses?|expenditures?|purchases?|bills?"
_SPENT_NAME_RE = re.compile(rf"(?:^|_)(?:{_SPENT_NAMES})(?:_|$)")
"""Names that say money went out: a "cost" column, a "business expense" kind."""
_BOUGHT_NAME_RE = re.compile(
    rf"(?:^|_)(?:{_SPENT_NAMES}|orders?|prices?|bought|buy\w*|receipts?|shop\w*"
    r"|groceries)(?:_|$)"
)
"""Names of money out, with the things bought and their prices: money in is
never read from them."""


_CALENDAR_STEMS = frozenset(
    stem(w) for w in "day days week weeks month months year years date".split()
)


def names_spending(q: QuestionTokens, table: TableCard) -> bool:
    """Whether a question of money spent meets a table named for money spent.

    "What did I spend in April" over a memory of invoices (``amount``,
    ``client``) and of expenses (``business_expense_log``: ``cost``) is the
    expenses: the verb chooses the kind where both hold a currency column and
    the question names nothing else ("spent on petrol": the petrol chooses).
    """
    if not set(q.stems) & _SPEND_STEMS:
        return False
    if any(
        s not in _MONEY_STEMS and s not in _OPERATOR_TOKENS and s not in _CALENDAR_STEMS
        for s in q.stems
    ):
        return False  # "spend on petrol": the petrol chooses the kind
    names = [table.name] + [
        n for c in table.columns if c.unit in CURRENCIES for n in c.names
    ]
    return any(_SPENT_NAME_RE.search("_".join(words(n))) for n in names)


_HIGHER_WORSE = frozenset(
    stem(w)
    for w in """
    pain ache aches headache headaches migraine migraines symptom symptoms severity
    stress anxiety fatigue tiredness soreness itch itching nausea
    cost costs price prices fee fees spend spent spending expense expenses bill
    bills debt loss losses error errors mistake mistakes fault faults delay delays
    wait waiting penalty penalties
    """.split()
)
_HIGHER_BETTER = frozenset(
    stem(w)
    for w in """
    score scores rating ratings grade grades mark marks mood energy quality
    points takings income revenue sales profit profits earnings tips wins
    """.split()
)


def higher_is_better(names: Sequence[str]) -> bool | None:
    """Whether more of a measure is better, by its column's names (None: unknown).

    "Worse" pain is more pain, a "worse" score a lower one; of a measure
    neither list names (distance, sleep, weight) better and worse say
    nothing, and an answer that had to guess is no answer.
    """
    stems = {stem(w) for name in names for w in words(name)}
    worse, better = bool(stems & _HIGHER_WORSE), bool(stems & _HIGHER_BETTER)
    if worse == better:
        return None
    return better


def date_in_values(date: Any, values: list[str]) -> bool:
    """Whether a date phrase's day or month word belongs to a named value.

    "the Saturday market" names the value "Marlay Park Saturday Market"; its
    "Saturday" is no date.
    """
    date_text = str(getattr(date, "text", "") or "")
    last = words(date_text)[-1:] if date_text else []
    return (
        bool(last)
        and last[0] in _DATE_NAMES
        and any(last[0] in words(v) for v in values)
    )


_DATE_NAMES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february "
    "march april may june july august september october november december".split()
)


CALENDAR_WORDS = frozenset(
    "day days night nights week weeks month months year years d".split()
)
_NOT_UNIT_HINTS = CALENDAR_WORDS | {"min", "max", "m", "s", "a", "in"}


def unit_hint(q: QuestionTokens, col: ColumnCard) -> float:
    """Whether the question names a unit of the column ("how many km")."""
    if not col.unit:
        return 0.0
    hinted = [w for w in q.words if w not in _NOT_UNIT_HINTS]
    hinted += [_HOW_DIMENSION[w] for w in q.how if w in _HOW_DIMENSION]
    hinted += [
        _COMPARATIVE_DIMENSION[w] for w in q.words if w in _COMPARATIVE_DIMENSION
    ]
    hinted += [_NOUN_DIMENSION[w] for w in q.words if w in _NOUN_DIMENSION]
    best = 0.0
    for w in hinted:
        unit = unit_of(w)
        if unit is not None and convertible(unit, col.unit):
            # "how many km": km over a column of metres, both lengths
            best = max(best, 0.7 if unit == col.unit else 0.6)
    return best


def in_plausible_range(cond: Condition, col: ColumnCard) -> bool:
    """Whether a condition's value, in the column's unit, lies near its range."""
    if col.low is None or col.high is None:
        return False
    number = cond.number
    if cond.unit and col.unit and convertible(cond.unit, col.unit):
        number = convert_units(number, cond.unit, col.unit)
    span = max(col.high - col.low, 1e-9)
    return col.low - span <= number <= col.high + span


def columns_text(table: TableCard) -> str:
    """A table's column names as plain words."""
    return " ".join(" ".join(words(c.name)) for c in table.columns)


_PER_RE = re.compile(r"\b([a-z]+)\s+(?:per|/|an?)\s+([a-z]+)\b")


def per_expression(text: str, numeric: list[ColumnCard]) -> str | None:
    """A ratio such as "minutes per km", when both sides name columns."""
    for m in _PER_RE.finditer(text):
        if m.group(2) in CALENDAR_WORDS:  # "steps per day" is no ratio
            continue
        whole = {stem(w) for w in m.groups()}
        for col in numeric:  # a column named so already ("price_per_litre")
            if whole <= {stem(t) for t in words(col.name)}:
                return col.name
        a, b = (_column_for_word(w, numeric) for w in m.groups())
        if a is not None and b is not None and a != b:
            return f"{a} / {b}"
    return None


def _column_for_word(word: str, numeric: list[ColumnCard]) -> str | None:
    unit = unit_of(word)
    if unit is not None:
        fits = [c for c in numeric if c.unit and convertible(unit, c.unit)]
        if len(fits) == 1:
            return fits[0].name
    q = QuestionTokens.of(word)
    named = [c for c in numeric if column_naming(q, c) > 0]
    return named[0].name if len(named) == 1 else None


KIND_VALUES = 8
"""A column's most frequent values that show what kind of thing it holds."""
KIND_FLOOR = 0.35
"""The mean cosine of a word to a column's values for it to name their kind."""
KIND_MARGIN = 0.1
"""How much nearer than to any other column's values."""


def column_of_kind(
    word: str,
    candidates: Sequence[ColumnCard],
    vec: Callable[[list[str]], np.ndarray | None],
) -> ColumnCard | None:
    """The text column whose values are things of the kind a word names.

    "Which kind of tradesperson" over a column ``who`` of plumber, roofer,
    electrician: the word is near its values, on average, by
    :data:`KIND_FLOOR` and by :data:`KIND_MARGIN` more than near any other
    column's (``vec``: embeddings of short texts, None without an encoder).
    Names of people and places are near no kind word, so a column of them is
    not chosen this way.
    """
    if not word or word in STOPWORDS:
        return None
    scored: list[tuple[float, ColumnCard]] = []
    for col in candidates:
        values = [v for v in col.values[:KIND_VALUES] if words(v)]
        vecs = vec([word, *values]) if values else None
        if vecs is not None:
            scored.append((float(np.mean(vecs[1:] @ vecs[0])), col))
    scored.sort(key=lambda sc: -sc[0])
    if not scored or scored[0][0] < KIND_FLOOR:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < KIND_MARGIN:
        return None
    return scored[0][1]
