"""The offline rule planner: analytic question forms mapped onto the planning context.

It reads what a question asks for (an operator, a date range, value conditions,
categorical conditions, the quantity) and maps each part onto the tables of the
planning context through their metadata: column names, units, descriptions and
the values the columns hold - never through names known in advance. A question
it cannot map goes to retrieval (EventLocate for "when" questions, SemanticMatch
otherwise).

What the question asks is read in :mod:`.intent`; how well its words name a
table, column, unit or value is scored in :mod:`.matching`; this module maps
the one onto the tables with the other (:class:`RulePlanner`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

import numpy as np

from langgraph_adamm.analytic.units import is_volume
from langgraph_adamm.analytic.values import convertible
from langgraph_adamm.planning.context import (
    ColumnCard,
    PlanningContext,
    TableCard,
    cached,
)
from langgraph_adamm.planning.intent import (
    WHEN_RE,
    Answer,
    Condition,
    Intent,
    read_intent,
    unit_of,
)
from langgraph_adamm.planning.kind_words import KindWords
from langgraph_adamm.planning.matching import (
    CALENDAR_WORDS,
    QuestionTokens,
    asks_money,
    column_naming,
    column_of_kind,
    columns_text,
    date_in_values,
    in_plausible_range,
    is_abbreviation,
    lead_score,
    money_columns,
    names_spending,
    naming_score,
    per_expression,
    unit_hint,
    values_named,
)
from langgraph_adamm.planning.measure_words import (
    counted_quantity,
    judged_operator,
    long_measure,
    money_over_days,
    spent_time,
    substance_amount,
)
from langgraph_adamm.planning.text import (
    STOPWORDS,
    stem,
    words,
)
from langgraph_adamm.tools.names import (
    COMPUTE,
    EVENT_LOCATE,
    RANK,
    SEMANTIC_MATCH,
    RetrievalToolName,
)

WordEmbed = Callable[[list[str]], np.ndarray]
_AGGREGATE_WORDS = frozenset(
    "avg average mean median sum total count number overall typical".split()
)
"""Operator words that name no quantity ("avg" is no hint for a column named
avg_hr); "longest" or "heaviest" stay, as hints of a duration or a mass."""
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
_GUESSED_TARGET = 0.2
"""The match score of a target no question word names (the only number left)."""
_WEAK_TARGET = 0.25
"""Below this the target was guessed or matched only loosely by embedding
similarity (cosine under 0.5): the answer must check that the question names
the table at all. ("walk" ~ steps is 0.56, "weigh" ~ amount 0.48.)"""
COUNTED_KIND = 0.6
"""How related the counted noun is to a table whose records are called by it."""
LEAD_WEIGHT = 1.0
"""How much a question naming a table's records by their own words counts."""
TABLE_NAME_WEIGHT = 1.0
"""How much a question naming a table ("sleep" for sleep_log) counts."""
SPENT_NAME_WEIGHT = 1.0
"""How much a table named for money spent counts for a question of spending."""
CONTEXT_WEIGHT = 0.2
"""How much a table's planning-context score counts when mapping a question."""


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
    retrieval_tool: RetrievalToolName
    notes: list[str] = field(default_factory=list)


def _settled(
    mappings: dict[str, _Mapping], bounds: dict[str, tuple[float, float]]
) -> _Mapping | None:
    """The mapping that wins whatever the context's scores turn out to be.

    Each table's final score is its mapping's plus ``CONTEXT_WEIGHT`` times its
    context score, which lies within ``bounds``. When one table's lowest
    final score beats every other's highest, scoring cannot change the pick
    (and the question need not be embedded); otherwise None.
    """
    if not mappings or any(name not in bounds for name in mappings):
        return None
    low = {n: m.score + CONTEXT_WEIGHT * bounds[n][0] for n, m in mappings.items()}
    high = {n: m.score + CONTEXT_WEIGHT * bounds[n][1] for n, m in mappings.items()}
    lead = max(low, key=lambda n: low[n])
    if all(low[lead] > high[n] for n in mappings if n != lead):
        return mappings[lead]
    return None


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

    def __init__(
        self, word_embed: WordEmbed | None = None, kinds: KindWords | None = None
    ) -> None:
        self.word_embed = cached(word_embed)
        self.kinds = kinds
        """What the tables' records are called; None: their first records' words."""

    def _vec(self, texts: list[str]) -> np.ndarray | None:
        if self.word_embed is None or not texts:
            return None
        return self.word_embed(texts)

    def synonyms(
        self, q: QuestionTokens, names: list[str], floor: float
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
        retrieval: RetrievalToolName = (
            EVENT_LOCATE if WHEN_RE.search(intent.text) else SEMANTIC_MATCH
        )
        plan = RulePlan(intent, None, retrieval)
        if intent.operator is None and _RETRIEVAL_RE.search(intent.text):
            plan.notes.append("no analytic question form: recalled from memory")
            return plan
        if intent.operator is None and not (intent.conditions or intent.date_range):
            plan.notes.append("no analytic question form: recalled from memory")
            return plan
        q = QuestionTokens.of(intent.text)
        mappings: dict[str, _Mapping] = {}
        for card in context.table_cards:
            mapping = self._map(intent, q, card)
            if mapping is not None:
                mappings[card.name] = mapping
        best = _settled(mappings, context.score_bounds())
        if best is None and mappings:
            for table, ctx_score in context.tables:  # scored, best first
                mapping = mappings.get(table.name)
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

    def _map(
        self, intent: Intent, q: QuestionTokens, table: TableCard
    ) -> _Mapping | None:
        op = intent.operator or "latest"
        text = intent.text
        filters: list[dict[str, Any]] = []
        score = 0.0
        notes: list[str] = []
        used: set[str] = set()
        named_values: list[str] = []
        # categorical conditions: column values named in the question
        for col in table.columns:
            if col.sql_type == "VARCHAR" and col.values:
                hits = values_named(
                    text, col.values, intent.question, intent.date_range
                )
                if hits and not (
                    intent.answer == "column" and self._is_which(intent, col)
                ):
                    filters.append(
                        {"column": col.name, "op": "=", "value": hits[0]}
                        if len(hits) == 1
                        else {"column": col.name, "op": "in", "value": hits}
                    )
                    used.add(col.name)
                    named_values += hits
                    score += 1.5
        # boolean columns named in the question ("did I win", "workouts I won")
        bools = [c for c in table.columns if c.sql_type == "BOOLEAN"]
        if bools:
            syn = self.synonyms(q, [c.name for c in bools], 0.72)
            for col in bools:
                opposite = _OPPOSITES.get(stem(words(col.name)[-1]), frozenset())
                against = bool(opposite & set(q.stems))
                if column_naming(q, col) > 0 or col.name in syn or against:
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
            fits = in_plausible_range(cond, about) or about.low is None
            score += (1.0 if fits else 0.3) + 0.5 * naming_score(q, about.name)
        if intent.date_range is not None and not date_in_values(
            intent.date_range, named_values
        ):
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
        name_score = naming_score(q, table.name)
        score += TABLE_NAME_WEIGHT * name_score
        lead = lead_score(q, table)
        if not lead and self.kinds is not None:
            lead = self.kinds.kind_named(q.words, table)
        score += LEAD_WEIGHT * lead
        answer_column = None
        if intent.answer == "column":
            candidates = [c for c in table.columns if c.sql_type == "VARCHAR"]
            answer_col = self._which_column(intent, q, candidates)
            if answer_col is not None:
                answer_column = answer_col.name
                score += 1.0
            elif op not in ("first", "latest"):
                return None
        if op == "count" and intent.count_noun and intent.count_noun != "times":
            # "how many steps", "how many pieces has Pip lost": a quantity
            quantity = counted_quantity(intent.count_noun, q, numeric, table)
            if quantity is not None and quantity.name not in used:
                rest = [o for o, _ in intent.operators if o != "count"]
                op = rest[0] if rest else "sum"
        target = None
        guessed = False
        if op != "count" and asks_money(q, text) and not spent_time(text):
            # "how much have I spent": money, so a currency column or no table
            chosen = bool(used or name_score >= 0.5 or lead)
            numeric = money_columns(q, text, numeric, table.name, chosen)
            if not numeric:
                return None
            money = True
            if names_spending(q, table):
                score += SPENT_NAME_WEIGHT
        else:
            money = False
        if op in ("first", "latest") and answer_column is not None:
            target = "time"  # the first or latest record's text
        elif op != "count":
            target, t_score = self._target(
                intent, q, numeric, used, [c for c in table.columns if not c.numeric]
            )
            if target is None:
                return None
            score += 2.0 * t_score
            guessed = t_score < _WEAK_TARGET and not money
            target = long_measure(q.words, numeric, target)
            op = judged_operator(intent, self._operator_for(intent, op, target), target)
            if intent.operator is None and money_over_days(intent, table, target):
                op = "sum"
        else:
            # what is counted: a table the question names, or whose values,
            # columns or conditions it mentions
            col_names = max((column_naming(q, c) for c in table.columns), default=0.0)
            score += 0.5 * col_names
            related = 0.0
            counted = intent.count_noun
            if counted and counted not in CALENDAR_WORDS and not col_names:
                # the columns, or the words the records were written with
                # ("runs" ~ "Run summary. distance: 7.1 km")
                related = max(
                    self._similarity(counted, text)
                    for text in [columns_text(table), *table.examples]
                )
                if self.kinds is not None and self.kinds.names_kind(
                    counted, table.name
                ):
                    related = max(related, COUNTED_KIND)
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
        if len(ops) > 1 and any(t == word or is_abbreviation(t, word) for t in tokens):
            return ops[1][0]
        return op

    def _is_which(self, intent: Intent, col: ColumnCard) -> bool:
        word = intent.which_word or ""
        return stem(word) in [stem(t) for t in words(col.name)] or any(
            stem(word) == stem(words(label)[-1]) for label in col.labels
        )

    def _which_column(
        self, intent: Intent, q: QuestionTokens, candidates: list[ColumnCard]
    ) -> ColumnCard | None:
        return self.column_named(intent.which_word or "", candidates)

    def column_named(
        self, word: str, candidates: list[ColumnCard]
    ) -> ColumnCard | None:
        """The column a word names ("cafe"), or its nearest synonym ("place")."""
        for col in candidates:
            if stem(word) in [stem(t) for t in words(col.name)]:
                return col
        for col in candidates:  # a label the column was written with
            if any(stem(word) == stem(words(label)[-1]) for label in col.labels):
                return col
        syn = self.synonyms(QuestionTokens.of(word), [c.name for c in candidates], 0.4)
        if syn:
            name = max(syn, key=lambda n: syn[n])
            return next(c for c in candidates if c.name == name)
        return column_of_kind(word, candidates, self._vec)

    def _condition_column(
        self, cond: Condition, q: QuestionTokens, numeric: list[ColumnCard]
    ) -> ColumnCard | None:
        def plausible(col: ColumnCard) -> float:
            return 0.5 if in_plausible_range(cond, col) else 0.0

        scored: list[tuple[float, ColumnCard]] = []
        for col in numeric:
            s = 0.0
            if cond.unit is not None:
                if cond.unit == col.unit:
                    s += 3.0
                elif col.unit and convertible(cond.unit, col.unit):
                    # 73 kg is no caffeine dose in mg: one dimension, other scale.
                    s += 2.5 if plausible(col) or col.low is None else 1.0
                elif naming_score(QuestionTokens.of(cond.unit), col.name) > 0:
                    s += 3.0  # "10,000 steps" on a column named steps
                elif col.unit is not None or unit_of(cond.unit) is not None:
                    continue  # a unit that does not fit the column
            s += column_naming(q, col) + plausible(col)
            scored.append((s, col))
        if not scored:
            return None
        scored.sort(key=lambda x: -x[0])
        return scored[0][1]

    def _target(
        self,
        intent: Intent,
        q: QuestionTokens,
        numeric: list[ColumnCard],
        used: set[str],
        texts: Sequence[ColumnCard] = (),
    ) -> tuple[str | None, float]:
        """The expression to aggregate or rank, and how sure the match is."""
        if not numeric:
            return None, 0.0
        per = per_expression(intent.text, numeric)
        if per is not None:
            return per, 1.5
        scores = {c.name: column_naming(q, c) + unit_hint(q, c) for c in numeric}
        best = max(scores.values())
        if best > 0.3:
            top = [c for c in numeric if scores[c.name] == best]
            return top[0].name, min(best, 1.5)
        if intent.operator == "sum" and used & {c.name for c in texts}:
            # "the total sumatriptan", "how much clay did I buy" (a value of
            # a kind): the one amount of a substance its records hold, before
            # any synonym ("buy" ~ price)
            amounts = [c for c in numeric if substance_amount(c.unit)]
            if len(amounts) == 1:
                return amounts[0].name, 0.4
        syn = self.synonyms(q, [c.name for c in numeric], 0.45)
        if syn:
            name = max(syn, key=lambda n: syn[n])
            return name, 0.5 * syn[name]
        if intent.answer == "value" and any(column_naming(q, c) >= 0.5 for c in texts):
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

    # -- the call ------------------------------------------------------------------
    def _call(self, intent: Intent, m: _Mapping) -> AnalyticCall:
        op = m.operator
        table = m.table.name
        # "what FG did the first beer I bottled finish at": the asked noun is
        # a number, the first record's value is the answer
        value_of_first = (
            intent.answer == "column"
            and m.answer_column is None
            and op in ("first", "latest")
        )
        if (
            intent.answer in ("date", "column")
            and m.target is not None
            and not (value_of_first)
        ):
            order = "desc" if op in ("max", "latest") else "asc"
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
            if m.target == "time":  # the text of the first or latest record
                goal = f"the {what} of the {op} record in {table}"
            return AnalyticCall(
                RANK,
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
            COMPUTE,
            args,
            "value",
            None,
            intent.output_unit,
            goal,
            m.target_guessed,
        )


__all__ = [
    "AnalyticCall",
    "Answer",
    "CONTEXT_WEIGHT",
    "Condition",
    "Intent",
    "LEAD_WEIGHT",
    "RulePlan",
    "RulePlanner",
    "TABLE_NAME_WEIGHT",
    "WordEmbed",
    "read_intent",
]
