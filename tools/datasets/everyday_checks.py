"""Run an everyday history's checks against a memory with direct operator calls.

Shared by the end-to-end tests and ``tools/benchmarks/bench_exact.py``. A check names
its record kind by attributes, an operator, a target, filters and the exact
expected value (see ``tools/datasets/everyday_history.py``); the table is the one whose
attributes include the kind's, and the call is the one a correct planner makes.
"""

from __future__ import annotations

import math
from typing import Any

from langgraph_adamm import Memory
from langgraph_adamm.analytic.values import convert_units
from langgraph_adamm.errors import AdaMMError


def table_for(memory: Memory, attributes: list[str]) -> Any:
    """The table holding a record kind (the smallest that has all its attributes)."""
    tables = [t for t in memory.tables if set(attributes) <= t.attributes]
    if not tables:
        return None
    return min(tables, key=lambda t: len(t.attributes))


def _filters(check: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for f in check["filters"]:
        value = f["value"]
        if f.get("unit") and not isinstance(value, list):
            value = f"{value} {f['unit']}"
        out.append({"column": f["column"], "op": f["op"], "value": value})
    return out


def answer(memory: Memory, check: dict[str, Any]) -> Any:
    """The memory's answer to one check, in the check's unit."""
    table = table_for(memory, check["table_attributes"])
    if table is None:
        return None
    op = check["operator"]
    if op in ("argmax_text", "argmin_text"):
        res = memory.rank(
            {
                "table": table.table_name,
                "target_column_expression": check["target"],
                "order": "desc" if op == "argmax_text" else "asc",
                "optional_column_filters": _filters(check),
                "result_budget": 1,
            }
        )
        return res.rows[0][check["answer_column"]] if res.rows else None
    res = memory.compute(
        {
            "table": table.table_name,
            "operator": op,
            "target_column_expression": check["target"],
            "optional_column_filters": _filters(check),
        }
    )
    value = res.value
    if value is not None and check["unit"] and res.unit and res.unit != check["unit"]:
        value = convert_units(value, res.unit, check["unit"])
    return value


def matches(got: Any, check: dict[str, Any]) -> bool:
    """Whether an answer reproduces the check's value exactly (within rel_tol)."""
    want = check["value"]
    if isinstance(want, str) or got is None or isinstance(got, str):
        return got == want
    tol = check.get("rel_tol", 1e-9)
    return math.isclose(float(got), float(want), rel_tol=tol, abs_tol=1e-9)


def run_checks(memory: Memory, checks: list[dict[str, Any]]) -> list[str]:
    """Every failing check, described; empty when all pass."""
    failed = []
    for check in checks:
        try:
            got = answer(memory, check)
        except AdaMMError as exc:
            got = f"error: {exc}"
        if not matches(got, check):
            failed.append(
                f"{check['check_id']} {check.get('description', '')}: "
                f"got {got!r}, want {check['value']!r} {check['unit'] or ''}"
            )
    return failed


def snapshot(memory: Memory) -> list[Any]:
    """Every table's name, attributes, column types and units, and rows.

    Two memories built from one history in different batchings compare equal.
    """
    out = []
    for t in sorted(memory.tables, key=lambda t: sorted(t.attributes)):
        rows = memory.filter({"table": t.table_name, "result_budget": 1000}).rows
        out.append(
            (
                t.table_name,
                sorted(t.attributes),
                [(c.name, c.sql_type, c.unit) for c in t.columns],
                sorted(map(str, rows)),
            )
        )
    return out
