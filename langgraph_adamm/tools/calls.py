"""The six memory access tools as plain calls with a shared budget (AdaMM App. B).

One implementation serves the query graph's executor and the LangChain tools:
arguments are validated by pydantic models, the cost of a call is checked
against what is left of the budget before it runs, and the outcome carries a
JSON-ready result, its cost, the evidence round ids and a one-line summary.
The tool names come from the registry, :mod:`langgraph_adamm.tools.names`
(``ToolName``, ``ANALYTIC_TOOLS`` and ``RETRIEVAL_TOOLS`` stay importable from
here).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from langgraph_adamm.analytic import operators
from langgraph_adamm.errors import AdaMMError, ToolInputError
from langgraph_adamm.schemas import WireModel
from langgraph_adamm.tools.names import ANALYTIC_TOOLS as ANALYTIC_TOOLS
from langgraph_adamm.tools.names import (
    COMPUTE,
    EVENT_LOCATE,
    FILTER,
    LOOKUP,
    RANK,
    SEMANTIC_MATCH,
    TOOL_NAMES,
)
from langgraph_adamm.tools.names import RETRIEVAL_TOOLS as RETRIEVAL_TOOLS
from langgraph_adamm.tools.names import ToolName as ToolName

if TYPE_CHECKING:
    from langgraph_adamm.retrieval.search import MemoryUnit

MAX_QUERY_CHARS = 2000


class ToolMemory(Protocol):
    """What the six tools read of a memory (:class:`Memory` is one)."""

    @property
    def retrieval(self) -> object | None:
        """The retrieval memory; only tested for None (retrieval off)."""
        ...

    def lookup(self, args: Any) -> operators.RowsResult:
        """Lookup."""
        ...

    def filter(self, args: Any) -> operators.RowsResult:
        """Filter."""
        ...

    def compute(self, args: Any) -> operators.ComputeResult:
        """Compute."""
        ...

    def rank(self, args: Any) -> operators.RowsResult:
        """Rank."""
        ...

    def semantic_match(
        self, query_content: str, retrieval_scope: Any = ..., result_budget: int = ...
    ) -> Sequence[MemoryUnit]:
        """SemanticMatch."""
        ...

    def event_locate(
        self, query_content: str, result_budget: int = ...
    ) -> Sequence[MemoryUnit]:
        """EventLocate."""
        ...


class SemanticMatchArgs(WireModel):
    """Memory units of one hierarchy level that match a query."""

    model_config = ConfigDict(extra="forbid")
    query_content: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    retrieval_scope: Literal["topic", "episode", "event"] = "event"
    result_budget: int = Field(default=10, ge=1, le=operators.MAX_RESULT_BUDGET)


class EventLocateArgs(WireModel):
    """Events that match a query, each with its neighbours in its session."""

    model_config = ConfigDict(extra="forbid")
    query_content: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    result_budget: int = Field(default=10, ge=1, le=operators.MAX_RESULT_BUDGET)


ARG_MODELS: dict[str, type[BaseModel]] = {
    LOOKUP: operators.LookupArgs,
    FILTER: operators.FilterArgs,
    COMPUTE: operators.ComputeArgs,
    RANK: operators.RankArgs,
    SEMANTIC_MATCH: SemanticMatchArgs,
    EVENT_LOCATE: EventLocateArgs,
}

TOOL_DESCRIPTIONS: dict[str, str] = {
    LOOKUP: (
        "Lookup: rows of an analytic table whose columns equal given values, e.g. "
        "the sleep record of one date. Arguments: table, key_values "
        "{column: value}, result_budget (rows to return). Exact, not fuzzy."
    ),
    FILTER: (
        "Filter: rows of an analytic table that satisfy column filters "
        "(=, !=, <, <=, >, >=, between [low, high], in [..], contains). Use it to "
        "list records; use compute to aggregate them. Arguments: table, "
        "column_filters, result_budget."
    ),
    COMPUTE: (
        "Compute: an exact aggregate over EVERY matching row of an analytic table "
        "- count, sum, avg, min, max, median, first, latest, change (latest minus "
        "first). Use it for averages, totals, counts and extremes; it returns the "
        "value with its unit and the contributing rows. Arguments: table, "
        "operator, target_column_expression (a column or arithmetic such as "
        "'duration / distance'; omit for count), optional_column_filters (e.g. "
        "{column: 'time', op: 'between', value: ['2026-03-01', '2026-03-31']}). "
        "With group_by (a column such as 'cafe', or 'day'/'week'/'month'/'year' "
        "of the time column) it returns one value per group with its row count "
        "- 'average sleep per week', 'total spent per shop'; each group costs 1 "
        "of the budget (result_budget caps the groups)."
    ),
    RANK: (
        "Rank: the rows with the highest (desc) or lowest (asc) value of an "
        "expression, e.g. the day with the best score or the biggest expense. "
        "Arguments: table, target_column_expression, order, "
        "optional_column_filters, result_budget. To rank GROUPS ('which cafe "
        "costs me the most in total', 'which drink do I order most often', "
        "'which week did I sleep least on average') give group_by (a column or "
        "day/week/month/year) and operator (sum, count, avg, min, max, median; "
        "count needs no expression)."
    ),
    SEMANTIC_MATCH: (
        "SemanticMatch: memories (events = single rounds, episodes, topics) whose "
        "content matches a query, for open questions about what was said or shown "
        "that no table holds. Arguments: query_content, retrieval_scope "
        "(event|episode|topic), result_budget."
    ),
    EVENT_LOCATE: (
        "EventLocate: the rounds where something happened, each with the rounds "
        "around it and their times - for 'when did I ...' questions, or to find a "
        "time that bounds a later compute. Arguments: query_content, "
        "result_budget."
    ),
}


class BudgetExceeded(ToolInputError):
    """A call would return more units than the shared budget has left."""


def _args_problem(tool: str, exc: ValidationError) -> ToolInputError:
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
        for e in exc.errors()[:5]
    )
    return ToolInputError(f"Invalid {tool} arguments: {problems}."[:600])


def validate_arguments(tool: str, arguments: Any) -> BaseModel:
    """The tool's typed arguments, or a ToolInputError a model can act on."""
    model = ARG_MODELS.get(tool)
    if model is None:
        raise ToolInputError(
            f"Unknown tool {str(tool)[:60]!r}; use one of {', '.join(TOOL_NAMES)}."
        )
    if isinstance(arguments, model):
        return arguments
    if not isinstance(arguments, dict):
        raise ToolInputError(f"Arguments of {tool} must be an object.")
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise _args_problem(tool, exc) from None


def requested_units(tool: str, args: BaseModel) -> int:
    """Budget units a call may use: 1 for a computed value, else its result budget.

    A grouped Compute returns one value per group, and a group costs what a row
    costs.
    """
    if tool == COMPUTE and getattr(args, "group_by", None) is None:
        return 1
    return int(getattr(args, "result_budget", 1))


def fit_to_budget(tool: str, args: BaseModel, left: int) -> BaseModel:
    """The same call with its result budget cut to what is left."""
    if requested_units(tool, args) <= left:
        return args
    return args.model_copy(update={"result_budget": max(1, left)})


@dataclass
class ToolOutcome:
    """What one executed call returned."""

    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any] = field(default_factory=dict)
    cost: int = 0
    evidence: list[str] = field(default_factory=list)
    summary: str = ""
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (graph state, command line output)."""
        return {
            "tool": self.tool,
            "arguments": self.arguments,
            "result": self.result,
            "cost": self.cost,
            "evidence": self.evidence,
            "summary": self.summary,
            "error": self.error,
        }


def _dedupe(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(i for i in ids if i))


def _short(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def run_tool(
    memory: ToolMemory, tool: str, arguments: Any, *, budget_left: int | None = None
) -> ToolOutcome:
    """Validate, check the budget, and run one tool call.

    Raises:
        ToolInputError: for anything a model can fix (unknown tool, table or
            column, bad types, a call over the budget - :class:`BudgetExceeded`).
        AdaMMError: when the memory cannot serve the call (retrieval is off).
    """
    args = validate_arguments(tool, arguments)
    need = requested_units(tool, args)
    if budget_left is not None and need > budget_left:
        raise BudgetExceeded(
            f"This {tool} call asks for up to {need} units but only {budget_left} "
            f"of the shared budget are left; lower result_budget to {budget_left}"
            " or less."
            if budget_left > 0
            else "The shared budget is spent; answer from the results so far."
        )
    plain = args.model_dump(mode="json", exclude_none=True)
    if tool == COMPUTE and plain.get("group_by") is not None:
        res = memory.compute(args)
        groups = res.groups or []
        evidence = _dedupe([r for g in groups for r in g["sources"]])
        unit = f" {res.unit}" if res.unit else ""
        shown = ", ".join(f"{g['group']}: {_short(g['value'])}" for g in groups[:3])
        summary = (
            f"{res.operator}({res.expression or 'rows'}) per {res.group_by}"
            f"{unit}: {len(groups)} of {res.group_count} groups of {res.table}"
            f"{'; ' + shown if shown else ''}"
        )
        return ToolOutcome(
            tool,
            plain,
            res.model_dump(mode="json"),
            max(1, len(groups)),
            evidence,
            summary,
        )
    if tool == COMPUTE:
        res = memory.compute(args)
        evidence = _dedupe([r.get("source", "") for r in res.contributing_rows])
        unit = f" {res.unit}" if res.unit else ""
        summary = (
            f"{res.operator}({res.expression or 'rows'}) = {_short(res.value)}{unit} "
            f"over {res.row_count} rows of {res.table}"
        )
        return ToolOutcome(
            tool, plain, res.model_dump(mode="json"), 1, evidence, summary
        )
    if tool in (LOOKUP, FILTER, RANK):
        run: dict[str, Any] = {
            LOOKUP: memory.lookup,
            FILTER: memory.filter,
            RANK: memory.rank,
        }
        rows = run[tool](args)
        if rows.group_by is not None:
            evidence = _dedupe([r for g in rows.rows for r in g["sources"][:5]])
            top = rows.rows[0] if rows.rows else None
            summary = (
                f"{len(rows.rows)} of {rows.row_count} groups of {rows.table} by "
                f"{rows.operator}({plain.get('target_column_expression') or 'rows'})"
                + (f"; top: {top['group']} ({_short(top['value'])})" if top else "")
            )
            return ToolOutcome(
                tool,
                plain,
                rows.model_dump(mode="json"),
                len(rows.rows),
                evidence,
                summary,
            )
        evidence = _dedupe([r.get("source", "") for r in rows.rows])
        total = rows.row_count if rows.row_count is not None else len(rows.rows)
        summary = f"{len(rows.rows)} of {total} rows of {rows.table}"
        if tool == RANK and rows.rows:
            top = rows.rows[0]
            summary += (
                f"; top: {_short({k: v for k, v in top.items() if k != 'order'})}"
            )
        return ToolOutcome(
            tool, plain, rows.model_dump(mode="json"), len(rows.rows), evidence, summary
        )
    if memory.retrieval is None:
        raise AdaMMError(
            "retrieval memory is off for this memory; SemanticMatch and EventLocate "
            "are unavailable"
        )
    if tool == SEMANTIC_MATCH:
        sm: SemanticMatchArgs = args  # type: ignore[assignment]
        units = memory.semantic_match(
            sm.query_content, sm.retrieval_scope, sm.result_budget
        )
    else:
        el: EventLocateArgs = args  # type: ignore[assignment]
        units = memory.event_locate(el.query_content, el.result_budget)
    evidence = _dedupe([r for u in units for r in u.round_ids])
    best = f"; best: {units[0].unit_id} ({units[0].score:.3f})" if units else ""
    summary = f"{len(units)} memory units{best}"
    return ToolOutcome(
        tool,
        plain,
        {"units": [u.model_dump(mode="json") for u in units]},
        len(units),
        evidence,
        summary,
    )
