"""The memory database: connection, migrations, transactions and identifiers."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.migrations import LATEST_VERSION, MIGRATIONS

IDENTIFIER_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


_OPEN: dict[str, int] = {}
"""Database files this process has open, by resolved path, with how many
connections (DuckDB shares one instance per file within a process, so its
lock does not keep a second opener out)."""
_OPEN_LOCK = threading.Lock()


def open_in_this_process(path: str | Path) -> bool:
    """Whether a MemoryDatabase of this process has the file open."""
    with _OPEN_LOCK:
        return _OPEN.get(str(Path(path).expanduser().resolve()), 0) > 0


_PASS_THROUGH = (duckdb.ConversionException, duckdb.OutOfRangeException)
"""Errors a tool call's values cause; the operators turn them into ToolInputError."""


def _lock_holder(message: str) -> str | None:
    """The holder ("PID 8351") named by a DuckDB lock conflict, else None."""
    if "lock" not in message.lower():
        return None
    match = re.search(r"PID (\d+)", message)
    return f"PID {match.group(1)}" if match else "another process"


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


def insert_columns(
    db: MemoryDatabase,
    table: str,
    columns: Sequence[str],
    types: Sequence[str],
    values: Sequence[list[Any]],
    *,
    replace: bool = False,
) -> None:
    """Insert many rows at once, column-wise, with bound list parameters.

    With ``replace``, rows whose primary key exists replace the stored ones.
    """
    if not values or not values[0]:
        return
    names = ", ".join(quote_ident(c) for c in columns)
    unnests = ", ".join(f"unnest(?::{t}[])" for t in types)
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    db.execute(f"{verb} INTO {table} ({names}) SELECT {unnests}", list(values))


class MemoryDatabase:
    """One DuckDB database holding any number of user namespaces.

    Args:
        path: A database file, or ``":memory:"``.
        read_only: Open without write access (no migrations are applied).
        wait: Seconds to keep retrying while another process holds the file
            (DuckDB allows one writing process); 0 fails at once.
        on_wait: Called once with a message when the open has to wait.
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        read_only: bool = False,
        wait: float = 0.0,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StorageError(
                    f"cannot create memory database {self.path}: folder {parent} "
                    "does not exist"
                )
        self.con = self._connect(read_only, wait, on_wait)
        self._key: str | None = None
        self._lock = threading.RLock()
        self.ingest_lock = threading.Lock()
        """Held by one ingestion at a time (Memory.ingest / aingest): concurrent
        calls on any Memory over this connection queue, in arrival order."""
        self.index_lock = threading.RLock()
        """Held while pending rounds are indexed into retrieval memory."""
        self._in_transaction = False
        if not read_only:
            self.migrate()
        elif self.schema_version() == 0:
            self.con.close()
            raise StorageError(
                f"{self.path} is not a langgraph_adamm memory database (it has no "
                "adamm tables); nothing was changed"
            )
        elif self.schema_version() < LATEST_VERSION:
            self.con.close()
            raise StorageError(
                f"{self.path} needs migrating; open it once without read_only"
            )
        if self.path != ":memory:":
            self._key = str(Path(self.path).expanduser().resolve())
            with _OPEN_LOCK:
                _OPEN[self._key] = _OPEN.get(self._key, 0) + 1

    def _connect(
        self,
        read_only: bool,
        wait: float,
        on_wait: Callable[[str], None] | None,
    ) -> duckdb.DuckDBPyConnection:
        deadline = time.monotonic() + max(0.0, wait)
        told = False
        while True:
            try:
                return duckdb.connect(self.path, read_only=read_only)
            except duckdb.IOException as exc:
                holder = _lock_holder(str(exc))
                if holder is None:
                    raise StorageError(
                        f"cannot open memory database {self.path}: {exc}"
                    ) from None
                if time.monotonic() >= deadline:
                    raise StorageError(
                        f"memory database {self.path} is in use by {holder} "
                        "(one process may write to it at a time); retry when it "
                        "is done, or wait for it with --wait SECONDS "
                        "(Memory(..., wait=SECONDS))"
                    ) from None
                if on_wait is not None and not told:
                    on_wait(
                        f"{self.path} is in use by {holder}; waiting up to {wait:g} s"
                    )
                    told = True
                time.sleep(min(0.25, max(0.0, deadline - time.monotonic())))
            except duckdb.Error as exc:
                raise StorageError(
                    f"cannot open memory database {self.path}: {exc}"
                ) from None

    # -- migrations -----------------------------------------------------
    def schema_version(self) -> int:
        """The highest migration applied to this database (0 when new)."""
        exists = self.con.execute(
            "SELECT count(*) FROM information_schema.tables "
            "WHERE table_schema = 'main' AND table_name = 'adamm_migrations'"
        ).fetchone()
        if not exists or not exists[0]:
            return 0
        row = self.con.execute("SELECT max(version) FROM adamm_migrations").fetchone()
        return int(row[0] or 0) if row else 0

    def migrate(self) -> None:
        """Apply every migration not yet applied; safe to call any number of times."""
        with self._lock:
            self.con.execute(
                "CREATE TABLE IF NOT EXISTS adamm_migrations ("
                "version INTEGER PRIMARY KEY, description VARCHAR, "
                "applied_at TIMESTAMP DEFAULT current_timestamp)"
            )
            current = self.schema_version()
            if current > LATEST_VERSION:
                raise StorageError(
                    f"{self.path} was written by a newer langgraph_adamm (schema "
                    f"version {current}, this one knows {LATEST_VERSION}); upgrade "
                    "the package"
                )
            for version, description, statements in MIGRATIONS:
                if version <= current:
                    continue
                with self.transaction():
                    for sql in statements:
                        self.con.execute(sql)
                    self.con.execute(
                        "INSERT INTO adamm_migrations (version, description) "
                        "VALUES (?, ?)",
                        [version, description],
                    )

    # -- transactions ---------------------------------------------------
    @property
    def in_transaction(self) -> bool:
        """Whether this thread has a transaction open (``transaction()`` joins it).

        Another thread's transaction is waited for first, so True always means
        the calling thread's own.
        """
        with self._lock:
            return self._in_transaction

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
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
                except duckdb.Error:
                    pass  # the original error says what went wrong
                raise
            else:
                self.execute("COMMIT")
            finally:
                self._in_transaction = False

    def execute(
        self, sql: str, params: list[Any] | None = None
    ) -> duckdb.DuckDBPyConnection:
        """Run one statement under the connection lock."""
        with self._lock:
            try:
                return self.con.execute(sql, params or [])
            except _PASS_THROUGH:
                raise
            except duckdb.Error as exc:
                raise self._closed(exc) from None

    def fetchall(
        self, sql: str, params: list[Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Run a query and return all rows."""
        with self._lock:
            try:
                return self.con.execute(sql, params or []).fetchall()
            except _PASS_THROUGH:
                raise
            except duckdb.Error as exc:
                raise self._closed(exc) from None

    def fetchnumpy(self, sql: str, params: list[Any] | None = None) -> dict[str, Any]:
        """Run a query and return its columns as numpy arrays (large reads)."""
        with self._lock:
            try:
                return dict(self.con.execute(sql, params or []).fetchnumpy())
            except _PASS_THROUGH:
                raise
            except duckdb.Error as exc:
                raise self._closed(exc) from None

    def _closed(self, exc: Exception) -> StorageError:
        """The library's error for a failed statement, naming the database."""
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if isinstance(exc, duckdb.ConnectionException) and "closed" in message.lower():
            return StorageError(
                f"the memory database {self.path} is closed; open a new Memory"
            )
        if "corrupt" in message.lower() or "checksum" in message.lower():
            return StorageError(
                f"the memory database {self.path} is damaged ({message[:160]}); "
                "restore it from a copy, or re-ingest the histories into a new file"
            )
        return StorageError(f"memory database {self.path}: {message[:240]}")

    def ensure_namespace(self, user_id: str) -> str:
        """Create the user's schema for materialized tables if needed."""
        schema = namespace_schema(user_id)
        self.execute(f"CREATE SCHEMA IF NOT EXISTS {quote_ident(schema)}")
        return schema

    def close(self) -> None:
        """Close the connection (checkpointing the write-ahead log)."""
        with self._lock:
            self.con.close()
            key, self._key = self._key, None
            if key is not None:
                with _OPEN_LOCK:
                    _OPEN[key] -= 1
                    if not _OPEN[key]:
                        del _OPEN[key]

    def __enter__(self) -> MemoryDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
