"""Target column expressions: a column, or arithmetic over numeric columns.

Parsed by a small recursive-descent parser into a tree, then compiled to SQL in
which every column name has been resolved against the table's metadata and every
number is a bound parameter. Nothing a model writes is spliced into SQL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph_adamm.analytic.units import dimension, product_unit
from langgraph_adamm.errors import ToolInputError

MAX_EXPRESSION_LENGTH = 300
MAX_TOKENS = 80

_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?|\.\d+)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r'|"(?P<dq>[^"]{1,80})"|`(?P<bq>[^`]{1,80})`|(?P<op>[-+*/()]))'
)


@dataclass(frozen=True)
class Num:
    """A numeric literal."""

    value: float


@dataclass(frozen=True)
class Col:
    """A column reference, as written (resolved at compile time)."""

    name: str


@dataclass(frozen=True)
class Neg:
    """Unary minus."""

    operand: Expr


@dataclass(frozen=True)
class BinOp:
    """A binary arithmetic operation."""

    op: str
    left: Expr
    right: Expr


Expr = Num | Col | Neg | BinOp


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN_RE.match(text, pos)
        if not match or match.end() == pos:
            raise ToolInputError(
                f"Cannot read the expression {text!r} at position {pos}: use column "
                "names, numbers, + - * / and parentheses (quote names with spaces)."
            )
        kind = match.lastgroup or ""
        value = match.group(kind)
        tokens.append(("ident" if kind in ("dq", "bq") else kind, value))
        pos = match.end()
    if len(tokens) > MAX_TOKENS:
        raise ToolInputError("The expression is too long; use at most 80 tokens.")
    return tokens


def parse_expression(text: str) -> Expr:
    """Parse a target column expression.

    Raises:
        ToolInputError: with a message a model can act on.
    """
    if not isinstance(text, str) or not text.strip():
        raise ToolInputError("target_column_expression must name a column.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ToolInputError("The expression is too long (300 characters at most).")
    tokens = _tokenize(text)
    pos = 0

    def peek() -> tuple[str, str] | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> tuple[str, str]:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        return tok

    def expr() -> Expr:
        node = term()
        while (tok := peek()) and tok[1] in "+-" and tok[0] == "op":
            take()
            node = BinOp(tok[1], node, term())
        return node

    def term() -> Expr:
        node = factor()
        while (tok := peek()) and tok[1] in "*/" and tok[0] == "op":
            take()
            node = BinOp(tok[1], node, factor())
        return node

    def factor() -> Expr:
        tok = peek()
        if tok is None:
            raise ToolInputError(f"The expression {text!r} ends too early.")
        take()
        kind, value = tok
        if kind == "num":
            return Num(float(value))
        if kind == "ident":
            return Col(value)
        if value == "-":
            return Neg(factor())
        if value == "(":
            node = expr()
            closing = peek()
            if closing != ("op", ")"):
                raise ToolInputError(f"Missing ')' in the expression {text!r}.")
            take()
            return node
        raise ToolInputError(f"Unexpected {value!r} in the expression {text!r}.")

    tree = expr()
    if pos != len(tokens):
        raise ToolInputError(
            f"Unexpected {tokens[pos][1]!r} in the expression {text!r}."
        )
    return tree


def expression_columns(node: Expr) -> list[str]:
    """Column names the expression mentions, in order of appearance."""
    if isinstance(node, Col):
        return [node.name]
    if isinstance(node, Neg):
        return expression_columns(node.operand)
    if isinstance(node, BinOp):
        return expression_columns(node.left) + expression_columns(node.right)
    return []


def compile_expression(
    node: Expr, column_sql: Callable[[str], str], params: list[Any]
) -> str:
    """SQL for the expression; ``column_sql`` returns a resolved, quoted column.

    Numbers are appended to ``params``; division by zero yields NULL.
    """
    if isinstance(node, Num):
        params.append(node.value)
        return "CAST(? AS DOUBLE)"
    if isinstance(node, Col):
        return column_sql(node.name)
    if isinstance(node, Neg):
        return f"(-{compile_expression(node.operand, column_sql, params)})"
    left = compile_expression(node.left, column_sql, params)
    right = compile_expression(node.right, column_sql, params)
    if node.op == "/":
        return f"(CAST({left} AS DOUBLE) / NULLIF({right}, 0))"
    return f"({left} {node.op} {right})"


def expression_unit(node: Expr, units: dict[str, str | None]) -> str | None:
    """The unit of an expression whose columns have the given units.

    The columns are assumed already converted so that columns of one dimension
    share a unit (see :func:`common_units`). ``+``/``-`` need one dimension:
    adding a mass to a duration is an error a model can fix. A quotient of one
    dimension is dimensionless (``deep_sleep / total_sleep``); other products
    and quotients make a compound unit (``distance / duration`` is km/min).

    Raises:
        ToolInputError: for arithmetic that mixes dimensions in a sum.
    """
    unit, _ = _unit(node, units)
    return unit


def _unit(node: Expr, units: dict[str, str | None]) -> tuple[str | None, bool]:
    """(unit, whether the node is a bare number)."""
    if isinstance(node, Num):
        return None, True
    if isinstance(node, Col):
        return units.get(node.name), False
    if isinstance(node, Neg):
        return _unit(node.operand, units)
    (left, left_num), (right, right_num) = (
        _unit(node.left, units),
        _unit(node.right, units),
    )
    if left_num and right_num:
        return None, True
    if node.op in "+-":
        if left and right and left != right:
            raise ToolInputError(
                f"Cannot {'add' if node.op == '+' else 'subtract'} {right} "
                f"{'to' if node.op == '+' else 'from'} {left}: the columns measure "
                "different things."
            )
        return left or right, False
    return product_unit(left, right, node.op), False


def common_units(units: dict[str, str | None]) -> dict[str, str | None]:
    """For each column, the unit it is converted to before arithmetic.

    Columns of one dimension meet in the unit of the first of them, so that
    ``deep_sleep / total_sleep`` divides hours by hours whatever each column
    stores.
    """
    first: dict[str, str] = {}
    out: dict[str, str | None] = {}
    for name, unit in units.items():
        if unit is None:
            out[name] = None
            continue
        dim = str(dimension(unit))
        first.setdefault(dim, unit)
        out[name] = first[dim]
    return out
