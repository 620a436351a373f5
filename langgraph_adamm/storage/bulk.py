"""Rows written column-wise: many rows in one statement, with bound list parameters.

Each column's values go as one list parameter (``unnest``), which both engines
bind far faster than row by row; PostgreSQL takes rows one by one (in one
pipeline) where a column holds arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph_adamm.storage.database import MemoryDatabase, quote_ident
from langgraph_adamm.storage.dialect import upsert


def insert_columns(
    db: MemoryDatabase,
    table: str,
    columns: Sequence[str],
    types: Sequence[str],
    values: Sequence[list[Any]],
    *,
    key: Sequence[str] = (),
) -> None:
    """Insert many rows at once, column-wise, with bound list parameters.

    With a ``key`` (the table's primary key columns), rows whose key is stored
    replace the stored ones; the rows whose key is new are inserted apart, by a
    plain insert (an upsert costs DuckDB about twice as much per row).
    """
    if not values or not values[0]:
        return
    names = [quote_ident(c) for c in columns]
    if key:
        at = [list(columns).index(k) for k in key]
        stored = _stored_keys(
            db, table, key, [types[i] for i in at], [values[i] for i in at]
        )
        keys = list(zip(*(values[i] for i in at), strict=True))
        old = [i for i, k in enumerate(keys) if k in stored]
        if old:
            head, tail = upsert(table, names, [quote_ident(c) for c in key])
            _insert(db, table, head, tail, types, [[v[i] for i in old] for v in values])
            fresh = [i for i, k in enumerate(keys) if k not in stored]
            values = [[v[i] for i in fresh] for v in values]
            if not fresh:
                return
    head = f"INSERT INTO {table} ({', '.join(names)}) "
    _insert(db, table, head, "", types, values)


def _stored_keys(
    db: MemoryDatabase,
    table: str,
    key: Sequence[str],
    types: Sequence[str],
    values: Sequence[list[Any]],
) -> set[tuple[Any, ...]]:
    """The keys among the rows' (their key columns' types and values) stored."""
    names = ", ".join(quote_ident(k) for k in key)
    unnests = ", ".join(f"unnest(?::{t}[])" for t in types)
    return {
        tuple(row)
        for row in db.fetchall(
            f"SELECT {names} FROM {table} WHERE ({names}) IN (SELECT {unnests})",
            [list(v) for v in values],
        )
    }


def _insert(
    db: MemoryDatabase,
    table: str,
    head: str,
    tail: str,
    types: Sequence[str],
    values: Sequence[list[Any]],
) -> None:
    if not db.bulk_array_columns and any(t.endswith("[]") for t in types):
        # PostgreSQL arrays are not lists of lists: unnest would flatten a
        # column of arrays, so rows are sent one by one (in one pipeline).
        marks = ", ".join("?" for _ in types)
        db.executemany(f"{head}VALUES ({marks}){tail}", list(zip(*values, strict=True)))
        db.added(len(values[0]), table)
        return
    unnests = "SELECT " + ", ".join(f"unnest(?::{t}[])" for t in types)
    db.execute(head + unnests + tail, list(values))
    db.added(len(values[0]), table)
