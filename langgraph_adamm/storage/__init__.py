"""Storage: the memory database, one interface over two engines.

:class:`MemoryDatabase` opens the engine its argument names (a DuckDB file or
``":memory:"``; a PostgreSQL connection string or pool). Engine-only code lives
with its engine, in ``duckdb_engine/`` and ``postgres_engine/``; the rest of the
library asks the database's capabilities, never its engine's name.
"""

from langgraph_adamm.storage.database import (
    MemoryDatabase,
    namespace_schema,
    quote_ident,
)
from langgraph_adamm.storage.duckdb_engine.compact import CompactReport, compact

__all__ = [
    "CompactReport",
    "MemoryDatabase",
    "compact",
    "namespace_schema",
    "quote_ident",
]
