"""DuckDB storage: one database per memory, namespaced by user id."""

from langgraph_adamm.storage.database import (
    MemoryDatabase,
    namespace_schema,
    quote_ident,
)

__all__ = ["MemoryDatabase", "namespace_schema", "quote_ident"]
