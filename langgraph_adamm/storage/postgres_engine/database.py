"""PostgreSQL: the server engine, many processes on one database.

A connection string opens its own connection; a psycopg ``ConnectionPool``
lends one, adapted per cursor and given back as it came. Writers of the same
user take the user's advisory lock, and each committed change bumps the user's
version so that readers in other processes read again. The planner's
statistics are kept up as tables grow (ANALYZE, VACUUM), and materialized
tables are laid out and indexed for a row store.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.database import MemoryDatabase, _is_pool, quote_ident
from langgraph_adamm.storage.dialect import redacted, to_postgres
from langgraph_adamm.storage.migrations import POSTGRES_EXTRAS
from langgraph_adamm.storage.postgres_engine import pgvector
from langgraph_adamm.storage.vectors import ViewSearch

_WARNED_CTYPE: set[str] = set()
"""Databases whose non-UTF-8 character type was reported (once per process)."""

_MIGRATION_LOCK = 0x6164616D6D  # "adamm": the advisory lock migrations hold

_SESSION_SETTINGS = ("TimeZone", "application_name", "default_transaction_read_only")
"""What a borrowed connection's session is given (``_set_up``), and gets back."""

_PHYSICAL_RANK = {"BIGINT": 0, "DOUBLE": 0, "TIMESTAMP": 0, "BOOLEAN": 1}
"""Column order by type: fixed widths first, text last."""


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


class PostgresDatabase(MemoryDatabase):
    """A memory database on a PostgreSQL server (see :class:`MemoryDatabase`)."""

    engine = "postgres"
    shared_writers = True
    bulk_array_columns = False
    """PostgreSQL arrays are not lists of lists: unnest would flatten a column
    of arrays, so such rows are sent one by one (in one pipeline)."""
    storage_order = "ctid"
    """The physical position, which is insertion order until a vacuum lets new
    rows fill the space of deleted ones; then examples may be listed in another
    order than DuckDB's (the rows and every operator's result are the same)."""

    def _connect(
        self,
        path: Any,
        read_only: bool,
        wait: float,
        on_wait: Callable[[str], None] | None,
    ) -> Any:
        self._pool: Any = path if _is_pool(path) else None
        self._borrowed: tuple[Any, bool, dict[str, str]] | None = None
        """A borrowed connection's cursor factory, autocommit and the session
        settings the library changes, all given back with it."""
        self._vector_info: Any = None
        if self._pool is not None:
            self.path = _pool_conninfo(path)
        self._added = 0
        """Rows this process added to the bookkeeping tables since their last
        ANALYZE: the planner's row counts are refreshed as the tables grow,
        instead of when autovacuum next looks."""
        self._analyzed = 0
        self._grown: dict[str, list[int]] = {}
        """Materialized tables this process inserted into: rows added since
        their last VACUUM by this process, and the rows vacuumed."""
        return self._open_connection()

    def _open_connection(self) -> Any:
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

    def _opened_read_only(self) -> None:
        self.vectors = pgvector.setup(self, writable=False)

    @contextmanager
    def _migrating(self) -> Iterator[None]:
        """One process migrates at a time.

        Processes that open a new database at once apply each migration once.
        """
        with self.transaction():
            self.execute("SELECT pg_advisory_xact_lock(?)", [_MIGRATION_LOCK])
            yield
            self.vectors = pgvector.setup(self, writable=True)

    def _migration_extras(self, version: int) -> Sequence[str]:
        return POSTGRES_EXTRAS.get(version, [])

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one committed state of the database.

        On PostgreSQL a REPEATABLE READ transaction (other processes commit
        between two statements otherwise); DuckDB has one writing process, so
        nothing is needed. Inside a transaction, that transaction's view.
        """
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

    def _after_commit(self) -> None:
        """ANALYZE the bookkeeping tables, and VACUUM materialized ones, as they grow.

        Without the ANALYZE, a fresh PostgreSQL database plans joins over
        thousands of rounds as if the tables were empty (0.5 s for a 5 ms
        query) until autovacuum analyzes them. A materialized table is
        vacuumed too: a scan of pages VACUUM has marked all-visible skips the
        per-row visibility check (0.7-0.86x for a whole-table aggregate on 1M
        rows; BENCHMARKS.md). Each runs once its table has about
        doubled: O(log n) times per process.
        """
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
            self.con = self._open_connection()  # none kept if this fails
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

    def _statement(self, sql: str, params: list[Any]) -> Any:
        return self._live().execute(to_postgres(sql), params)

    def _statements(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._live().cursor() as cursor:
            cursor.executemany(to_postgres(sql), rows)

    def _rows_changed(self, cursor: Any) -> int:
        return int(cursor.rowcount)

    def _columns(self, cursor: Any) -> dict[str, Any]:
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

    def _failure(self, exc: Exception, message: str) -> StorageError | None:
        if self.con.broken:
            return StorageError(
                f"lost the connection to the memory database {redacted(self.path)} "
                f"({message[:160]}); "
                "what was not committed was rolled back (ingesting again finishes "
                "it), and the next call connects again"
            )
        return None

    def _disconnect(self) -> None:
        if self._pool is not None:
            self._give_back()
        else:
            self.con.close()

    def added(self, rows: int, table: str | None = None) -> None:
        """Count rows inserted (see ``_analyze_if_grown``)."""
        if table is not None and not table.startswith("adamm_"):
            self._grown.setdefault(table, [0, 0])[0] += rows
            return
        self._added += rows

    def physical_layout(self, columns: list[Any]) -> list[Any]:
        """Fixed widths first: eight-byte columns, then booleans, then text.

        A row store finds the columns before the first text value at fixed
        offsets (0.79-0.82x for whole-table scans of 1M rows; BENCHMARKS.md).
        """
        return sorted(columns, key=lambda c: _PHYSICAL_RANK.get(c.sql_type, 2))

    def time_order_indexes(self, table: str) -> list[str]:
        """Both time orders indexed.

        A row store reads a table in time order (every operator's rows,
        first/latest, dates) from an index instead of sorting all of it.
        """
        return [
            f'CREATE INDEX ON {table} ("time" {direction} NULLS LAST, '
            f'"order" {direction})'
            for direction in ("ASC", "DESC")
        ]

    def estimated_rows(self, table: str) -> float | None:
        """The planner's ``reltuples`` (None before the first ANALYZE)."""
        rows = self.fetchall(
            "SELECT reltuples FROM pg_class WHERE oid = to_regclass(?)", [table]
        )
        # reltuples is the planner's estimate (-1 before the first ANALYZE)
        estimate = float(rows[0][0]) if rows and rows[0][0] is not None else -1.0
        return estimate if estimate > 0 else None

    def view_search(self, user_id: str, config: Any) -> ViewSearch | None:
        """Pgvector's search (0.8 or later) unless ``config.pgvector_search`` is off."""
        if not (self.vectors and self.vector_search and config.pgvector_search):
            return None
        from langgraph_adamm.storage.postgres_engine.vector_search import (
            SqlViewSearch,
        )

        return SqlViewSearch(self, user_id, config)

    def refresh_vectors(self) -> None:
        """See :func:`pgvector.refresh`."""
        pgvector.refresh(self)

    def try_user_lock(self, user_id: str) -> bool:
        """Take the right to write one user's memory if no other process has it.

        A session advisory lock (released if the process dies). Each True must
        be paired with :meth:`release_user_lock`.
        """
        with self._lock:
            key = _user_lock_key(user_id)
            if not self.fetchall("SELECT pg_try_advisory_lock(?)", [key])[0][0]:
                return False
            self._writers[user_id] = self._writers.get(user_id, 0) + 1
            return True

    def release_user_lock(self, user_id: str) -> None:
        """Give back what :meth:`try_user_lock` took."""
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

    def _advisory_holder(self, key: int) -> str:
        """Who holds an advisory lock, as its application names itself."""
        rows = self.fetchall(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
            "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid = ? AND l.objid = ? AND l.objsubid = 1",
            [(key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF],
        )
        return str(rows[0][0]) if rows and rows[0][0] else "another process"
