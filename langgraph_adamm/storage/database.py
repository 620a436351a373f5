"""The memory database every engine shares: one interface, two engines.

:class:`MemoryDatabase` is what the memories hold: statements, transactions,
migrations, per-user versions and write locks, namespaces. Opening one picks
its engine from the argument: :class:`~langgraph_adamm.storage.duckdb_engine.
DuckDBDatabase` for a file or ``":memory:"``, :class:`~langgraph_adamm.storage.
postgres_engine.PostgresDatabase` for a connection string or a psycopg pool.
Where the engines differ the caller asks a capability, never the engine's name:

- ``shared_writers``: many processes write one database, so a writer takes the
  user's write lock and bumps the user's version (PostgreSQL);
- ``asof_joins``: ``ASOF JOIN`` is there (DuckDB);
- ``bulk_array_columns``: a column of arrays binds as one list parameter;
- ``file``: the database file, beside which indexes may be kept (DuckDB);
- :meth:`~MemoryDatabase.physical_layout`, :meth:`~MemoryDatabase.time_order_indexes`,
  :meth:`~MemoryDatabase.estimated_rows`: how a table is laid out, indexed and
  sized; :meth:`~MemoryDatabase.refresh_statistics` and
  :meth:`~MemoryDatabase.refresh_vectors`: upkeep after changes.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import duckdb

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.dialect import is_postgres_url, redacted
from langgraph_adamm.storage.migrations import LATEST_VERSION, MIGRATIONS
from langgraph_adamm.storage.vectors import ViewSearch

IDENTIFIER_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


_DUCKDB_VALUE_ERRORS: tuple[type[Exception], ...] = (
    duckdb.ConversionException,
    duckdb.OutOfRangeException,
)


def value_errors() -> tuple[type[Exception], ...]:
    """Errors a tool call's values cause, on either engine.

    A text that is not a number, a date out of range: the operators turn them
    into ToolInputError.

    psycopg's are included once it is imported: a DuckDB memory never imports it
    (its import is a tenth of a cold ``adamm ask``), and no psycopg error can
    arise before it is.
    """
    psycopg = sys.modules.get("psycopg")
    if psycopg is None:
        return _DUCKDB_VALUE_ERRORS
    return (*_DUCKDB_VALUE_ERRORS, psycopg.DataError)


def engine_errors() -> tuple[type[Exception], ...]:
    """Every error either engine raises (psycopg's once it is imported)."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None:
        return (duckdb.Error,)
    return (duckdb.Error, psycopg.Error)


def quote_ident(name: str) -> str:
    """Quote an identifier that has already passed the strict pattern.

    Raises:
        StorageError: for anything but lower-case letters, digits and underscores
            (which is never the case for names this library generates).
    """
    if not IDENTIFIER_RE.match(name):
        raise StorageError(f"refusing unsafe SQL identifier {name!r}")
    return f'"{name}"'


def namespace_schema(user_id: str) -> str:
    """The DuckDB schema that holds one user's materialized tables.

    A readable slug plus a hash, so that distinct user ids never share a schema
    however they are spelled.
    """
    slug = re.sub(r"[^a-z0-9]+", "_", user_id.lower()).strip("_")[:24] or "user"
    digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:10]
    return f"mem_{slug}_{digest}"


def _is_pool(path: object) -> bool:
    """Whether a database argument is a psycopg connection pool."""
    if not (hasattr(path, "getconn") and hasattr(path, "putconn")):
        return False
    if inspect.iscoroutinefunction(getattr(path, "getconn", None)):
        raise StorageError(
            "an AsyncConnectionPool cannot hold a memory: pass a "
            "psycopg_pool.ConnectionPool (a Memory's calls are synchronous; "
            "its a-methods run them in a thread)"
        )
    return True


class MemoryDatabase:
    """One memory database holding any number of user namespaces.

    Args:
        path: A DuckDB database file, ``":memory:"``, a PostgreSQL connection
            string (``postgresql://user@host:5432/dbname``; psycopg 3 must be
            installed: ``pip install 'langgraph-adamm[postgres]'``), or a
            psycopg ``ConnectionPool``: one connection is borrowed until
            :meth:`close`, adapted per cursor (the pool's other users see no
            change), and given back without transaction or locks, its session
            settings as they were.
        read_only: Open without write access (no migrations are applied).
        wait: Seconds to keep retrying while another process holds the file
            (DuckDB allows one writing process); 0 fails at once. PostgreSQL
            admits many processes and does not wait here.
        on_wait: Called once with a message when the open has to wait.
    """

    engine: ClassVar[str] = ""
    """The engine's name, for messages and benchmark output (never a branch)."""
    shared_writers: ClassVar[bool] = False
    """Whether many processes write the database: then a writer holds the
    user's write lock, and every change bumps the user's version."""
    asof_joins: ClassVar[bool] = False
    """Whether the engine joins rows as of the nearest earlier one (ASOF JOIN)."""
    bulk_array_columns: ClassVar[bool] = True
    """Whether a column of arrays binds as one list parameter (``unnest``)."""
    storage_order: ClassVar[str] = "rowid"
    """Where a row of a materialized table is stored, the tie-break of a
    column's examples (see the engines)."""

    def __new__(cls, path: Any = ":memory:", **_: Any) -> MemoryDatabase:
        """The engine's class for ``path`` (see :func:`engine_class`)."""
        if cls is MemoryDatabase:
            cls = engine_class(path)
        return super().__new__(cls)

    def __init__(
        self,
        path: str | Path | Any = ":memory:",
        *,
        read_only: bool = False,
        wait: float = 0.0,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._shut = False
        self._lock = threading.RLock()
        self.ingest_lock = threading.Lock()
        """Held by one ingestion at a time (Memory.ingest / aingest): concurrent
        calls on any Memory over this connection queue, in arrival order."""
        self.index_lock = threading.RLock()
        """Held while pending rounds are indexed into retrieval memory."""
        self._in_transaction = False
        self._writers: dict[str, int] = {}
        """Users whose write lock this connection holds, with how many times."""
        self._own: dict[str, int] = {}
        self.vectors = False
        """Whether event vectors are pgvector columns searched in SQL (PostgreSQL
        with the extension; see ``storage/postgres_engine/pgvector.py``)."""
        self.vector_search = False
        """Whether this pgvector can search them (0.8 or later: filtered HNSW
        scans); older ones store the column and FAISS searches."""
        self.vector_indexes: set[str] = set()
        """The HNSW indexes this process knows exist."""
        self.con: Any = self._connect(path, read_only, wait, on_wait)
        try:
            self._prepare(read_only)
        except BaseException:
            self.close()  # a pooled connection goes back to its pool
            raise
        self._opened()

    # -- what each engine provides ----------------------------------------
    def _connect(
        self,
        path: Any,
        read_only: bool,
        wait: float,
        on_wait: Callable[[str], None] | None,
    ) -> Any:
        """Open the connection (and set ``self.path`` to what messages name)."""
        raise NotImplementedError

    def _opened(self) -> None:
        """Called once the database is open and migrated."""

    def _statement(self, sql: str, params: list[Any]) -> Any:
        """Run one statement on the connection; the engine's cursor."""
        raise NotImplementedError

    def _rows_changed(self, cursor: Any) -> int:
        """How many rows the INSERT, UPDATE or DELETE behind ``cursor`` changed."""
        raise NotImplementedError

    def _disconnect(self) -> None:
        """Close (or give back) the connection."""
        self.con.close()

    def _failure(self, exc: Exception, message: str) -> StorageError | None:
        """The engine's own reading of a failed statement (None: the general one)."""
        return None

    @contextmanager
    def _migrating(self) -> Iterator[None]:
        """Held around a migration run (PostgreSQL: one process at a time)."""
        yield

    def _migration_extras(self, version: int) -> Sequence[str]:
        """The engine's own statements of one migration."""
        return ()

    def _after_commit(self) -> None:
        """Upkeep once a transaction has committed (hints to a planner)."""

    @property
    def file(self) -> Path | None:
        """The database file, resolved (None: in memory, or on a server)."""
        return None

    def physical_layout(self, columns: list[Any]) -> list[Any]:
        """Columns (with ``sql_type``) in the order a new table stores them."""
        return columns

    def time_order_indexes(self, table: str) -> list[str]:
        """Statements that index a materialized table by its time order."""
        return []

    def estimated_rows(self, table: str) -> float | None:
        """The planner's estimate of a table's rows (None: none kept, or none yet)."""
        return None

    def refresh_statistics(self, tables: Sequence[str] = ()) -> None:
        """Bring the planner's statistics up to date after a forget (see engines)."""

    def view_search(self, user_id: str, config: Any) -> ViewSearch | None:
        """A searcher of the user's event views where they are stored.

        None where the engine does not search vectors itself (FAISS does).
        """
        return None

    def refresh_vectors(self) -> None:
        """Start filling SQL-searchable vectors if another process enabled them."""

    def added(self, rows: int, table: str | None = None) -> None:
        """Count rows inserted (an engine may keep its statistics by them)."""

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one committed state of the database.

        DuckDB has one writing process, so nothing is needed there; inside a
        transaction, that transaction's view.
        """
        yield

    # -- shared -----------------------------------------------------------
    def _prepare(self, read_only: bool) -> None:
        """Migrate, or check a read-only database; vectors on PostgreSQL."""
        if not read_only:
            self.migrate()
        elif self.schema_version() == 0:
            raise StorageError(
                f"{redacted(self.path)} is not a langgraph_adamm memory database "
                "(it has no "
                "adamm tables); nothing was changed"
            )
        elif self.schema_version() < LATEST_VERSION:
            raise StorageError(
                f"{redacted(self.path)} needs migrating; open it once without read_only"
            )
        else:
            self._opened_read_only()

    def _opened_read_only(self) -> None:
        """What an engine sets up on a checked read-only database."""

    def schema_version(self) -> int:
        """The highest migration applied to this database (0 when new)."""
        exists = self.fetchall(
            "SELECT count(*) FROM information_schema.tables "
            "WHERE table_schema = current_schema() "
            "AND table_name = 'adamm_migrations'"
        )
        if not exists or not exists[0][0]:
            return 0
        row = self.fetchall("SELECT max(version) FROM adamm_migrations")
        return int(row[0][0] or 0) if row else 0

    def migrate(self) -> None:
        """Apply every migration not yet applied; safe to call any number of times.

        On PostgreSQL the whole run holds an advisory lock, so processes that
        open a new database at once apply each migration once.
        """
        with self._lock, self._migrating():
            self._migrate()

    def _migrate(self) -> None:
        self.execute(
            "CREATE TABLE IF NOT EXISTS adamm_migrations ("
            "version INTEGER PRIMARY KEY, description VARCHAR, "
            "applied_at TIMESTAMP DEFAULT current_timestamp)"
        )
        current = self.schema_version()
        if current > LATEST_VERSION:
            raise StorageError(
                f"{redacted(self.path)} was written by a newer langgraph_adamm "
                f"(schema version {current}, this one knows {LATEST_VERSION}); "
                "upgrade the package"
            )
        for version, description, statements in MIGRATIONS:
            if version <= current:
                continue
            with self.transaction():
                for sql in statements:
                    self.execute(sql)
                for sql in self._migration_extras(version):
                    self.execute(sql)
                self.execute(
                    "INSERT INTO adamm_migrations (version, description) VALUES (?, ?)",
                    [version, description],
                )

    @property
    def in_transaction(self) -> bool:
        """Whether this thread has a transaction open (``transaction()`` joins it).

        Another thread's transaction is waited for first, so True always means
        the calling thread's own.
        """
        with self._lock:
            return self._in_transaction

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """All writes inside commit together or not at all. Nested use joins."""
        with self._lock:
            if self._in_transaction:
                yield self.con
                return
            self.execute("BEGIN TRANSACTION")
            self._in_transaction = True
            try:
                yield self.con
            except BaseException:
                try:
                    self.con.execute("ROLLBACK")
                except Exception:  # noqa: BLE001 - the original error says what went wrong
                    pass
                raise
            else:
                for user_id in list(self._writers):  # with the data it versions
                    self.bump_user_version(user_id)
                self.execute("COMMIT")
                self._in_transaction = False
                self._after_commit()
            finally:
                self._in_transaction = False

    def execute(self, sql: str, params: list[Any] | None = None) -> Any:
        """Run one statement under the connection lock.

        Returns the engine's cursor (``fetchone``/``fetchall`` read its rows).
        """
        with self._lock:
            return self._run(sql, params)

    @contextmanager
    def _engine_errors(self) -> Iterator[None]:
        """An engine's error as the library's (values' errors pass through)."""
        try:
            yield
        except value_errors():
            raise
        except engine_errors() as exc:
            raise self._closed(exc) from None

    def _run(self, sql: str, params: list[Any] | None) -> Any:
        with self._engine_errors():
            return self._statement(sql, params or [])

    def changed(self, sql: str, params: list[Any] | None = None) -> int:
        """Run an INSERT, UPDATE or DELETE; how many rows it changed."""
        with self._lock:
            return self._rows_changed(self._run(sql, params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        with self._lock, self._engine_errors():
            self._statements(sql, rows)

    def _statements(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def fetchall(
        self, sql: str, params: list[Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Run a query and return all rows."""
        with self._lock:
            return list(self._run(sql, params).fetchall())

    def fetchnumpy(self, sql: str, params: list[Any] | None = None) -> dict[str, Any]:
        """Run a query and return its columns as numpy arrays (large reads)."""
        with self._lock:
            return self._columns(self._run(sql, params))

    def _columns(self, cursor: Any) -> dict[str, Any]:
        """A query's result as numpy arrays by column."""
        raise NotImplementedError

    def _closed(self, exc: Exception) -> StorageError:
        """The library's error for a failed statement, naming the database."""
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        where = redacted(self.path)
        if (
            isinstance(exc, duckdb.ConnectionException) and "closed" in message.lower()
        ) or (self._shut and "connection is closed" in message):
            return StorageError(
                f"the memory database {where} is closed; open a new Memory"
            )
        own = self._failure(exc, message)
        if own is not None:
            return own
        return StorageError(f"memory database {where}: {message[:240]}")

    def user_version(self, user_id: str) -> int:
        """The user's version: it changes whenever a writer took the user's memory."""
        row = self.fetchall(
            "SELECT version FROM adamm_user_versions WHERE user_id = ?", [user_id]
        )
        return int(row[0][0]) if row else 0

    def bump_user_version(self, user_id: str) -> int:
        """Count one more change of the user's memory; the new version."""
        version = int(
            self.fetchall(
                "INSERT INTO adamm_user_versions (user_id, version) VALUES (?, 1) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                "version = adamm_user_versions.version + 1 RETURNING version",
                [user_id],
            )[0][0]
        )
        self._own[user_id] = version
        return version

    def own_version(self, user_id: str) -> int | None:
        """The user's version as this connection last set it, if it did."""
        return self._own.get(user_id)

    def try_user_lock(self, user_id: str) -> bool:
        """Take the right to write one user's memory if no other process has it.

        Where one process writes (DuckDB's file lock) always True. Each True
        must be paired with :meth:`release_user_lock`.
        """
        return True

    def release_user_lock(self, user_id: str) -> None:
        """Give back what :meth:`try_user_lock` took."""

    def user_lock_message(self, user_id: str, wait: float | None) -> str:
        """What a writer waiting for ``user_id`` is told."""
        bound = "" if wait is None else f" up to {wait:g} s"
        return f"user {user_id!r} is being written by another process; waiting{bound}"

    def user_lock_timeout(self, user_id: str) -> StorageError:
        """The error of a writer that waited for ``user_id`` as long as allowed."""
        return StorageError(
            f"user {user_id!r} is being written by another process; retry when "
            "it is done, or wait longer (Memory(..., wait=SECONDS))"
        )

    @contextmanager
    def user_lock(
        self,
        user_id: str,
        *,
        wait: float | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> Iterator[None]:
        """Hold the right to write one user's memory, across processes.

        A second process writing the same user on PostgreSQL waits for the
        first, told once through ``on_wait``; ``wait`` bounds the wait in
        seconds (None: no bound). While held, every committed transaction of
        this connection bumps the user's version, so that readers elsewhere see
        each batch (and a killed writer's last one).

        Raises:
            StorageError: when ``wait`` runs out.
        """
        deadline = None if wait is None else time.monotonic() + max(0.0, wait)
        told = False
        while not self.try_user_lock(user_id):
            if deadline is not None and time.monotonic() >= deadline:
                raise self.user_lock_timeout(user_id)
            if on_wait is not None and not told:
                on_wait(self.user_lock_message(user_id, wait))
                told = True
            time.sleep(0.05)
        try:
            yield
        finally:
            self.release_user_lock(user_id)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._shut

    def ensure_namespace(self, user_id: str) -> str:
        """Create the user's schema for materialized tables if needed."""
        schema = namespace_schema(user_id)
        self.execute(f"CREATE SCHEMA IF NOT EXISTS {quote_ident(schema)}")
        return schema

    def close(self) -> None:
        """Close the connection (checkpointing the write-ahead log)."""
        with self._lock:
            if self._shut:
                return
            self._shut = True
            self._disconnect()

    def __enter__(self) -> MemoryDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def engine_class(path: Any) -> type[MemoryDatabase]:
    """The engine a database argument names: a connection string or pool, or a file."""
    if _is_pool(path) or is_postgres_url(str(path)):
        from langgraph_adamm.storage.postgres_engine import PostgresDatabase

        return PostgresDatabase
    from langgraph_adamm.storage.duckdb_engine import DuckDBDatabase

    return DuckDBDatabase
