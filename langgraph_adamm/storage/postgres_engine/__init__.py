"""The PostgreSQL engine: the database class and pgvector, what only a server does."""

from langgraph_adamm.storage.postgres_engine.database import PostgresDatabase

__all__ = ["PostgresDatabase"]
