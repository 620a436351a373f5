"""The two SQL dialects the memory database speaks: DuckDB and PostgreSQL.

The library writes its SQL once, in the subset both engines read the same way
(``array_agg``, ``strpos``, ``percentile_cont ... WITHIN GROUP``,
``INSERT ... ON CONFLICT``, ``unnest(?::TYPE[])``). What still differs is
spelled here and nowhere else:

- placeholders: DuckDB binds ``?``; psycopg binds ``%s`` (and reads every
  other ``%`` as the start of one);
- two type names PostgreSQL lacks: ``DOUBLE`` (``DOUBLE PRECISION``) and
  ``BLOB`` (``BYTEA``);
- ``rowid``: DuckDB's storage row number; on PostgreSQL an ordinary
  ``BIGSERIAL`` column of that name, added by ``migrations.POSTGRES_EXTRAS``.

A translation is a pure function of the statement text, so it is cached: the
statements are the library's own constants with only known, quoted identifiers
spliced in, and every value stays a bound parameter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from langgraph_adamm.errors import StorageError

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_POSTGRES_TYPES = {"DOUBLE": "DOUBLE PRECISION", "BLOB": "BYTEA"}


def is_postgres_url(path: object) -> bool:
    """Whether a database argument names a PostgreSQL server."""
    return isinstance(path, str) and path.startswith(("postgresql://", "postgres://"))


@lru_cache(maxsize=4096)
def to_postgres(sql: str) -> str:
    """One statement of the shared dialect, as psycopg and PostgreSQL read it.

    Quoted text (``'...'`` literals and ``"..."`` identifiers) keeps its words;
    its ``%`` signs are doubled like all others.

    Raises:
        StorageError: for a statement with an unterminated quote (never the
            case for the library's own statements).
    """
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":
            end = sql.find(ch, i + 1)
            while end != -1 and end + 1 < n and sql[end + 1] == ch:
                end = sql.find(ch, end + 2)  # a doubled quote inside the text
            if end == -1:
                raise StorageError(f"unterminated quote in SQL: {sql[:80]!r}")
            out.append(sql[i : end + 1].replace("%", "%%"))
            i = end + 1
        elif ch == "?":
            out.append("%s")
            i += 1
        elif ch == "%":
            out.append("%%")
            i += 1
        elif ch.isalpha() or ch == "_":
            m = _WORD.match(sql, i)
            assert m is not None
            word = m.group(0)
            upper = word.upper()
            if upper in _POSTGRES_TYPES and not re.match(
                r"\s+PRECISION\b", sql[m.end() :], re.I
            ):
                out.append(_POSTGRES_TYPES[upper])
            else:
                out.append(word)
            i = m.end()
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> tuple[str, str]:
    """The head and tail of an insert that replaces rows with the same key.

    ``head + source + tail`` inserts the ``source`` rows (a ``VALUES`` list or a
    ``SELECT``); a row whose key is stored updates that row's other columns. The
    arguments are the library's own table and column names, already quoted
    where they need it.
    """
    others = [c for c in columns if c not in key]
    head = f"INSERT INTO {table} ({', '.join(columns)}) "
    if not others:
        return head, f" ON CONFLICT ({', '.join(key)}) DO NOTHING"
    sets = ", ".join(f"{c} = excluded.{c}" for c in others)
    return head, f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {sets}"


def redacted(path: str) -> str:
    """A database argument fit for messages: a connection string loses its password."""
    path = re.sub(r"(://[^:/@]+:)[^@/]*@", r"\1***@", path)
    return re.sub(r"(password=)[^&\s]*", r"\1***", path)
