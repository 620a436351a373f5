"""The DuckDB engine: its database class, and compacting (what only a file does)."""

from langgraph_adamm.storage.duckdb_engine.database import (
    DuckDBDatabase,
    open_in_this_process,
)

__all__ = ["DuckDBDatabase", "open_in_this_process"]
