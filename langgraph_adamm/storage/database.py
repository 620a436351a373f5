"""The memory database: connection, migrations, transactions and identifiers."""

from __future__ import annotations

import hashlib
import inspect
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage import pgvector
from langgraph_adamm.storage.dialect import (
    is_postgres_url,
    redacted,
    to_postgres,
    upsert,
)
from langgraph_adamm.storage.migrations import (
    LATEST_VERSION,
    MIGRATIONS,
    POSTGRES_EXTRAS,
)

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


def _errors() -> tuple[tuple[type[Exception], ...], tuple[type[Exception], ...]]:
    """(errors of values, errors of either engine), psycopg's where installed."""
    values: tuple[type[Exception], ...] = (
        duckdb.ConversionException,
        duckdb.OutOfRangeException,
    )
    engines: tuple[type[Exception], ...] = (duckdb.Error,)
    try:
        import psycopg
    except ImportError:
        return values, engines
    return (*values, psycopg.DataError), (*engines, psycopg.Error)


VALUE_ERRORS, _ENGINE_ERRORS = _errors()
"""Errors a tool call's values cause (a text that is not a number, a date out
of range), on either engine; the operators turn them into ToolInputError. And
every error either engine raises."""

_WARNED_CTYPE: set[str] = set()
"""Databases whose non-UTF-8 character type was reported (once per process)."""

_MIGRATION_LOCK = 0x6164616D6D  # "adamm": the advisory lock migrations hold


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
    key: Sequence[str] = (),
) -> None:
    """Insert many rows at once, column-wise, with bound list parameters.

    With a ``key`` (the table's primary key columns), rows whose key is stored
    replace the stored ones.
    """
    if not values or not values[0]:
        return
    names = [quote_ident(c) for c in columns]
    head, tail = (
        upsert(table, names, [quote_ident(c) for c in key])
        if key
        else (f"INSERT INTO {table} ({', '.join(names)}) ", "")
    )
    if db.engine == "postgres" and any(t.endswith("[]") for t in types):
        # PostgreSQL arrays are not lists of lists: unnest would flatten a
        # column of arrays, so rows are sent one by one (in one pipeline).
        marks = ", ".join("?" for _ in columns)
        db.executemany(f"{head}VALUES ({marks}){tail}", list(zip(*values, strict=True)))
        db.added(len(values[0]), table)
        return
    unnests = "SELECT " + ", ".join(f"unnest(?::{t}[])" for t in types)
    db.execute(head + unnests + tail, list(values))
    db.added(len(values[0]), table)


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


_SESSION_SETTINGS = ("TimeZone", "application_name", "default_transaction_read_only")
"""What a borrowed connection's session is given (``_set_up``), and gets back."""


class _NoConnection:
    """Where a pooled connection was, between giving it back and the next borrow."""

    broken = True
    closed = True

    def execute(self, *_: Any, **__: Any) -> Any:
        raise StorageError("the memory database has no connection now")


_NO_CONNECTION = _NoConnection()
_SIDE_WAIT = 10.0
"""Seconds to wait for a pool's second connection (side_connection)."""


def _pool_conninfo(pool: Any) -> str:
    conninfo = getattr(pool, "conninfo", "")
    return conninfo if isinstance(conninfo, str) and conninfo else "postgresql (pool)"


def _adapt(context: Any, vector_info: Any) -> None:
    """Read and write values as DuckDB does, on a connection or one cursor.

    JSON as its text, numpy scalars as the numbers they are (timestamps are
    read in UTC: the session's time zone). NUMERIC (what sum and avg of
    integers return) stays an exact Decimal; the operators convert it.
    """
    from psycopg.types.numeric import FloatDumper, IntDumper
    from psycopg.types.string import TextLoader

    for name in ("json", "jsonb"):
        context.adapters.register_loader(name, TextLoader)
    for number, dumper in (
        (np.float64, FloatDumper),
        (np.float32, FloatDumper),
        (np.int64, IntDumper),
        (np.int32, IntDumper),
    ):
        context.adapters.register_dumper(number, dumper)
    if vector_info is not None:
        pgvector.install(context, vector_info)


def _user_lock_key(user_id: str) -> int:
    """A signed 64-bit advisory lock key for one user's memory."""
    digest = hashlib.sha256(b"adamm-user\0" + user_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


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

    def __init__(
        self,
        path: str | Path | Any = ":memory:",
        *,
        read_only: bool = False,
        wait: float = 0.0,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        self._pool: Any = path if _is_pool(path) else None
        self._borrowed: tuple[Any, bool, dict[str, str]] | None = None
        """A borrowed connection's cursor factory, autocommit and the session
        settings the library changes, all given back with it."""
        self._vector_info: Any = None
        self.path = _pool_conninfo(path) if self._pool is not None else str(path)
        self.engine = (
            "postgres"
            if self._pool is not None or is_postgres_url(self.path)
            else "duckdb"
        )
        self.storage_order = "ctid" if self.engine == "postgres" else "rowid"
        """Where a row of a materialized table is stored, the tie-break of a
        column's examples: insertion order on DuckDB. On PostgreSQL the physical
        position, which is insertion order until a vacuum lets new rows fill
        the space of deleted ones; then examples may be listed in another order
        than DuckDB's (the rows and every operator's result are the same)."""
        if self.engine == "duckdb" and self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StorageError(
                    f"cannot create memory database {self.path}: folder {parent} "
                    "does not exist"
                )
        self.read_only = read_only
        self._shut = False
        self.con: Any = (
            self._connect_postgres()
            if self.engine == "postgres"
            else self._connect(read_only, wait, on_wait)
        )
        self._key: str | None = None
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
        self._added = 0
        """Rows this process added to the bookkeeping tables since their last
        ANALYZE (PostgreSQL): the planner's row counts are refreshed as the
        tables grow, instead of when autovacuum next looks."""
        self._analyzed = 0
        self._grown: dict[str, list[int]] = {}
        """Materialized tables this process inserted into (PostgreSQL): rows
        added since their last VACUUM by this process, and the rows vacuumed."""
        self.vectors = False
        """Whether event vectors are pgvector columns searched in SQL (PostgreSQL
        with the extension; see ``storage/pgvector.py``)."""
        self.vector_search = False
        """Whether this pgvector can search them (0.8 or later: filtered HNSW
        scans); older ones store the column and FAISS searches."""
        self.vector_indexes: set[str] = set()
        """The HNSW indexes this process knows exist."""
        try:
            self._prepare(read_only)
        except BaseException:
            self.close()  # a pooled connection goes back to its pool
            raise
        if self.engine == "duckdb" and self.path != ":memory:":
            self._key = str(Path(self.path).expanduser().resolve())
            with _OPEN_LOCK:
                _OPEN[self._key] = _OPEN.get(self._key, 0) + 1

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
        elif self.engine == "postgres":
            self.vectors = pgvector.setup(self, writable=False)

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

    def _connect_postgres(self) -> Any:
        try:
            import psycopg
        except ImportError:
            raise StorageError(
                "a PostgreSQL memory needs psycopg 3: pip install "
                "'langgraph-adamm[postgres]'"
            ) from None
        name = f"langgraph_adamm (PID {os.getpid()})"
        if self._pool is not None:
            con = self._borrow()
        else:
            try:
                con = psycopg.connect(self.path, autocommit=True, application_name=name)
            except psycopg.Error as exc:  # libpq's last line names the cause
                raise self._open_error(exc, line=-1) from None
            _adapt(con, None)
        try:
            return self._set_up(con, name)
        except BaseException as exc:  # nothing is kept of a connection not set up
            if self._pool is not None:
                self._return(con)
            else:
                con.close()
            if isinstance(exc, psycopg.Error):
                raise self._open_error(exc) from None
            raise

    def _open_error(self, exc: Exception, line: int = 0) -> StorageError:
        """Why the database could not be opened: one line of the engine's error."""
        lines = str(exc).strip().splitlines() or [type(exc).__name__]
        return StorageError(
            f"cannot open memory database {redacted(self.path)}: {lines[line][:240]}"
        )

    def _set_up(self, con: Any, name: str) -> Any:
        """Session settings: UTC, the application name, read-only when asked."""
        if self._pool is not None:
            con.execute("SELECT set_config('application_name', %s, false)", [name])
        con.execute("SET TIME ZONE 'UTC'")
        ctype = con.execute(
            "SELECT datctype FROM pg_database WHERE datname = current_database()"
        ).fetchone()
        if (
            ctype
            and not re.search(r"utf-?8", str(ctype[0]), re.I)
            and self.path not in _WARNED_CTYPE
        ):
            _WARNED_CTYPE.add(self.path)
            logging.getLogger(__name__).warning(
                "database %s has character type %s: lower() folds only ASCII "
                "there, so case-insensitive matches of other letters (é, ä) "
                "differ from DuckDB's; create the database with a UTF-8 locale",
                redacted(self.path),
                ctype[0],
            )
        if self.read_only:
            con.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        return con

    def _borrow(self) -> Any:
        """A connection from the caller's pool, adapted per cursor.

        The pool's other users must find the connection as it was: the
        library's adapters (JSON as text, numpy numbers, vectors) and row
        shape (tuples) are set on each of its cursors through a cursor factory,
        not on the connection, and :meth:`_return` restores the rest.
        """
        import psycopg
        from psycopg.rows import tuple_row

        try:
            con = self._pool.getconn()
        except Exception as exc:  # noqa: BLE001 - the pool's timeout or closed pool
            raise StorageError(
                f"cannot get a connection to {redacted(self.path)} from the pool: "
                f"{str(exc).strip()[:240]}"
            ) from None
        if not isinstance(con, psycopg.Connection) or con.info.transaction_status:
            self._pool.putconn(con)
            raise StorageError(
                "the pool gave a connection that is not an idle psycopg Connection"
            )
        # what the library changes in the session, to put back as it was (not
        # RESET ALL: that would undo what the pool's configure callback set)
        try:
            with con.cursor(row_factory=tuple_row) as cur:
                cur.execute(
                    "SELECT "
                    + ", ".join(f"current_setting('{n}')" for n in _SESSION_SETTINGS)
                )
                row = cur.fetchone() or ()
            if con.info.transaction_status:  # autocommit off: the SELECT began one
                con.rollback()
        except psycopg.Error as exc:  # a dead connection: the pool drops it
            self._pool.putconn(con)
            raise self._open_error(exc) from None
        settings = dict(zip(_SESSION_SETTINGS, row, strict=True))
        self._borrowed = (con.cursor_factory, con.autocommit, settings)
        con.autocommit = True
        db = self

        class Cursor(psycopg.Cursor):
            """The library's cursor, whatever the pool's connections make."""

            def __init__(self, connection: Any, **_: Any) -> None:
                super().__init__(connection, row_factory=tuple_row)
                _adapt(self, db._vector_info)

        con.cursor_factory = Cursor
        return con

    def _return(self, con: Any) -> None:
        """Give a borrowed connection back as it came: no transaction, lock, setting."""
        factory, autocommit, settings = self._borrowed or (
            con.cursor_factory,
            con.autocommit,
            {},
        )
        self._borrowed = None
        try:
            if not con.closed and not con.broken:
                if con.info.transaction_status:
                    con.execute("ROLLBACK")
                con.execute("SELECT pg_advisory_unlock_all()")
                for name, value in settings.items():
                    con.execute("SELECT set_config(%s, %s, false)", [name, value])
                con.cursor_factory = factory
                con.autocommit = autocommit
        except Exception:  # noqa: BLE001 - a broken connection: the pool drops it
            pass
        finally:
            self._pool.putconn(con)

    def _give_back(self) -> None:
        """Return the borrowed connection, once; until the next borrow there is none."""
        if self._borrowed is not None:
            self._return(self.con)
        self.con = _NO_CONNECTION

    def use_vectors(self) -> bool:
        """Send and read pgvector values on this connection; False without the type."""
        with self._lock, self._engine_errors():  # psycopg's own transaction inside
            con = self._live()
            info = pgvector.type_info(con)
            if info is None:
                return False
            self._vector_info = info
            if self._pool is None:
                pgvector.install(con, info)
            return True

    # -- migrations -----------------------------------------------------
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
        with self._lock:
            if self.engine == "postgres":
                with self.transaction():
                    self.execute("SELECT pg_advisory_xact_lock(?)", [_MIGRATION_LOCK])
                    self._migrate()
                    self.vectors = pgvector.setup(self, writable=True)
            else:
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
                if self.engine == "postgres":
                    for sql in POSTGRES_EXTRAS.get(version, []):
                        self.execute(sql)
                self.execute(
                    "INSERT INTO adamm_migrations (version, description) VALUES (?, ?)",
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
                if self.engine == "postgres":
                    for user_id in list(self._writers):  # with the data it versions
                        self.bump_user_version(user_id)
                self.execute("COMMIT")
                self._in_transaction = False
                self._analyze_if_grown()
            finally:
                self._in_transaction = False

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one committed state of the database.

        On PostgreSQL a REPEATABLE READ transaction (other processes commit
        between two statements otherwise); DuckDB has one writing process, so
        nothing is needed. Inside a transaction, that transaction's view.
        """
        if self.engine != "postgres":
            yield
            return
        with self._lock:
            if self._in_transaction:
                yield
                return
            self.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            self._in_transaction = True
            try:
                yield
            finally:
                self._in_transaction = False
                try:
                    self.con.execute("COMMIT")
                except Exception:  # noqa: BLE001 - only reads were made
                    pass

    def _analyze_if_grown(self) -> None:
        """ANALYZE the bookkeeping tables, and VACUUM materialized ones, as they grow.

        Without the ANALYZE, a fresh PostgreSQL database plans joins over
        thousands of rounds as if the tables were empty (0.5 s for a 5 ms
        query) until autovacuum analyzes them. A materialized table is
        vacuumed too: a scan of pages VACUUM has marked all-visible skips the
        per-row visibility check (0.7-0.86x for a whole-table aggregate on 1M
        rows; BENCHMARKS.md). Each runs once its table has about
        doubled: O(log n) times per process.
        """
        if self.engine != "postgres":
            return
        # the transaction has committed: these are only hints to the planner
        # and to later scans, and skip what another session holds
        if self._added >= max(500, self._analyzed):
            self._analyzed += self._added
            self._added = 0
            self._maintain(
                "ANALYZE (SKIP_LOCKED) adamm_rounds, adamm_observations, "
                "adamm_events, adamm_event_views"
            )
        for table, counts in list(self._grown.items()):
            if counts[0] >= max(500, counts[1]):
                counts[1] += counts[0]
                counts[0] = 0
                self._maintain(f"VACUUM (ANALYZE, SKIP_LOCKED) {table}")

    def refresh_statistics(self, tables: Sequence[str] = ()) -> None:
        """ANALYZE the library's tables and ``tables`` (PostgreSQL), after a forget.

        The planner's statistics keep sampled values of each column (its most
        common values, histogram bounds) until the next ANALYZE: without one,
        a forgotten value could still be read there. Not skipped when another
        session holds a table: it waits, since what it removes is the point.
        ``adamm_event_views`` is left out: it holds vectors and ids, no text,
        and an HNSW build may hold it for minutes (an ANALYZE waiting on it
        inside a transaction the build waits for would deadlock).
        """
        if self.engine != "postgres":
            return
        own = [
            quote_ident(name)
            for (name,) in self.fetchall(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "AND starts_with(tablename, 'adamm_') "
                "AND tablename <> 'adamm_event_views' ORDER BY tablename"
            )
        ]
        self.execute(f"ANALYZE {', '.join(own + list(tables))}")

    def _maintain(self, sql: str) -> None:
        try:
            self.execute(sql)
        except StorageError as exc:  # a table dropped meanwhile, say
            logging.getLogger(__name__).debug("%s skipped: %s", sql.split()[0], exc)

    def execute(self, sql: str, params: list[Any] | None = None) -> Any:
        """Run one statement under the connection lock.

        Returns the engine's cursor (``fetchone``/``fetchall`` read its rows).
        """
        with self._lock:
            return self._run(sql, params)

    def _live(self) -> Any:
        """The PostgreSQL connection, opened again if it was lost between calls.

        Never inside a transaction: that one is gone with its connection, and
        its statements fail until it is left.
        """
        if self._shut:
            raise StorageError(f"memory database {redacted(self.path)} is closed")
        if self.con.broken and not self._in_transaction:
            if self._writers:
                # the write locks went with the connection: a new session would
                # write without them, beside another process that took them
                raise StorageError(
                    f"lost the connection to the memory database "
                    f"{redacted(self.path)} while writing user(s) "
                    f"{', '.join(map(repr, sorted(self._writers)))}; the write "
                    "stopped (what was not committed was rolled back)"
                )
            if self._pool is not None:
                self._give_back()  # the pool drops a broken connection
            self.con = self._connect_postgres()  # none kept if this fails
            if self.vectors and self._pool is None:
                pgvector.install(self.con, self._vector_info)
        return self.con

    @contextmanager
    def side_connection(self) -> Iterator[Any]:
        """A second PostgreSQL connection (autocommit) for long maintenance.

        Statements on it do not hold this database's lock, so this process's
        reads and searches go on meanwhile. A pooled one is borrowed from the
        pool and given back with its autocommit as lent; what else the caller
        changes in the session it must put back itself.
        """
        import psycopg

        if self._pool is not None:
            # a second one of the pool's: a pool of one waits, then errs
            con = self._pool.getconn(timeout=_SIDE_WAIT)
            autocommit = con.autocommit
            try:
                con.autocommit = True
                yield con
            finally:
                try:
                    con.autocommit = autocommit
                finally:
                    self._pool.putconn(con)
            return
        try:
            con = psycopg.connect(
                self.path,
                autocommit=True,
                application_name=f"langgraph_adamm (PID {os.getpid()}, upkeep)",
            )
        except psycopg.Error as exc:
            raise self._open_error(exc, line=-1) from None
        with con:
            yield con

    @contextmanager
    def _engine_errors(self) -> Iterator[None]:
        """An engine's error as the library's (values' errors pass through)."""
        try:
            yield
        except VALUE_ERRORS:
            raise
        except _ENGINE_ERRORS as exc:
            raise self._closed(exc) from None

    def _run(self, sql: str, params: list[Any] | None) -> Any:
        with self._engine_errors():
            if self.engine == "postgres":
                return self._live().execute(to_postgres(sql), params or [])
            return self.con.execute(sql, params or [])

    def added(self, rows: int, table: str | None = None) -> None:
        """Count rows inserted (see ``_analyze_if_grown``)."""
        if table is not None and not table.startswith("adamm_"):
            if self.engine == "postgres":
                self._grown.setdefault(table, [0, 0])[0] += rows
            return
        self._added += rows

    def changed(self, sql: str, params: list[Any] | None = None) -> int:
        """Run an INSERT, UPDATE or DELETE; how many rows it changed."""
        with self._lock:
            cursor = self._run(sql, params)
            if self.engine == "postgres":
                return int(cursor.rowcount)
            row = cursor.fetchone()
            return int(row[0]) if row else 0

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        with self._lock, self._engine_errors():
            if self.engine == "postgres":
                with self._live().cursor() as cursor:
                    cursor.executemany(to_postgres(sql), rows)
            else:
                self.con.executemany(sql, rows)

    def fetchall(
        self, sql: str, params: list[Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Run a query and return all rows."""
        with self._lock:
            return list(self._run(sql, params).fetchall())

    def fetchnumpy(self, sql: str, params: list[Any] | None = None) -> dict[str, Any]:
        """Run a query and return its columns as numpy arrays (large reads)."""
        with self._lock:
            cursor = self._run(sql, params)
            if self.engine == "duckdb":
                return dict(cursor.fetchnumpy())
            names = [d.name for d in cursor.description]
            rows = cursor.fetchall()
        columns = list(zip(*rows, strict=True)) if rows else [()] * len(names)
        out: dict[str, Any] = {}
        for name, values in zip(names, columns, strict=True):
            kinds = {type(v) for v in values}
            if kinds <= {int} and values:
                out[name] = np.array(values, dtype=np.int64)
            elif kinds <= {float, int} and values:
                out[name] = np.array(values, dtype=np.float64)
            else:
                out[name] = np.array(values, dtype=object)
        return out

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
        if self.engine == "postgres" and self.con.broken:
            return StorageError(
                f"lost the connection to the memory database {where} "
                f"({message[:160]}); "
                "what was not committed was rolled back (ingesting again finishes "
                "it), and the next call connects again"
            )
        if self.engine == "duckdb" and (
            "corrupt" in message.lower() or "checksum" in message.lower()
        ):
            return StorageError(
                f"the memory database {self.path} is damaged ({message[:160]}); "
                "restore it from a copy, or re-ingest the histories into a new file"
            )
        return StorageError(f"memory database {where}: {message[:240]}")

    # -- one writer per user across processes ------------------------------
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

        On PostgreSQL a session advisory lock (released if the process dies);
        on DuckDB always True (the file lock admits one writing process). Each
        True must be paired with :meth:`release_user_lock`.
        """
        if self.engine != "postgres":
            return True
        with self._lock:
            key = _user_lock_key(user_id)
            if not self.fetchall("SELECT pg_try_advisory_lock(?)", [key])[0][0]:
                return False
            self._writers[user_id] = self._writers.get(user_id, 0) + 1
            return True

    def release_user_lock(self, user_id: str) -> None:
        """Give back what :meth:`try_user_lock` took."""
        if self.engine != "postgres":
            return
        with self._lock:
            held = self._writers.get(user_id, 0)
            if not held:
                return
            if held == 1:
                del self._writers[user_id]
            else:
                self._writers[user_id] = held - 1
            try:
                self.execute("SELECT pg_advisory_unlock(?)", [_user_lock_key(user_id)])
            except StorageError:
                pass  # a lost connection has released it already

    def user_lock_message(self, user_id: str, wait: float | None) -> str:
        """What a writer waiting for ``user_id`` is told."""
        holder = self._advisory_holder(_user_lock_key(user_id))
        bound = "" if wait is None else f" up to {wait:g} s"
        return f"user {user_id!r} is being written by {holder}; waiting{bound} for it"

    def user_lock_timeout(self, user_id: str) -> StorageError:
        """The error of a writer that waited for ``user_id`` as long as allowed."""
        holder = self._advisory_holder(_user_lock_key(user_id))
        return StorageError(
            f"user {user_id!r} is being written by {holder}; retry when it is "
            "done, or wait longer (Memory(..., wait=SECONDS))"
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

    def _advisory_holder(self, key: int) -> str:
        """Who holds an advisory lock, as its application names itself."""
        rows = self.fetchall(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid = ? AND l.objid = ? AND l.objsubid = 1",
            [(key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF],
        )
        return str(rows[0][0]) if rows and rows[0][0] else "another process"

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
            if self._pool is not None:
                self._give_back()
            else:
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
