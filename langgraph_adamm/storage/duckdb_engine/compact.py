"""Compacting a memory database file: the space of deleted rows given back.

DuckDB reuses the blocks that deleted rows free, but never gives them back to
the file system, and ``VACUUM`` does not either (measured: a file whose rows
were half deleted was larger after ``CHECKPOINT`` and ``VACUUM``). The freed
blocks also keep what was written in them until they are reused. Compacting
copies every schema, table and sequence into a new file (``COPY FROM
DATABASE``), checks that each table has as many rows in the copy, and only then
puts the copy in the original's place (with the original's permissions), while
it still holds the writer's lock, so that no other process writes in between;
on any failure the original is left as it was and the partial copy is deleted.
Persisted vector indexes stay valid: they are checked against the database's
content, which the copy keeps.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.dialect import is_postgres_url
from langgraph_adamm.storage.duckdb_engine.database import open_in_this_process

_COPY = "adamm_compacted"


@dataclass
class CompactReport:
    """File sizes before and after compacting, in bytes."""

    path: str
    bytes_before: int
    bytes_after: int
    tables: int
    """Tables copied (each with the same row count)."""

    def __str__(self) -> str:
        return (
            f"compacted {self.path}: {self.bytes_before / 1e6:,.1f} MB -> "
            f"{self.bytes_after / 1e6:,.1f} MB ({self.tables} tables)"
        )


def compact(path: str | Path, *, wait: float = 0.0) -> CompactReport:
    """Rewrite a memory database file without the space of deleted rows.

    The file must not be open elsewhere: not in this process (refused), and
    not in another one (a writer's lock is taken, waiting up to ``wait``
    seconds for it to finish).

    Raises:
        StorageError: for a missing file, one in use, or a copy that fails or
            does not match; the original is unchanged then.
    """
    if is_postgres_url(str(path)):
        raise StorageError(
            "compacting is for DuckDB files; PostgreSQL reclaims the space of "
            "forgotten rows itself (autovacuum, or VACUUM FULL by its owner)"
        )
    source = Path(path).expanduser().resolve()
    if not source.is_file():
        raise StorageError(f"no memory database at {path}")
    if open_in_this_process(source):
        raise StorageError(
            f"{source} is open in this process (a Memory or database over it): "
            "close it before compacting; nothing was changed"
        )
    target = source.with_name(source.name + ".compacting")
    wal = source.with_name(source.name + ".wal")
    _remove(target)
    db = MemoryDatabase(source, wait=wait)  # migrated, and locked for writing
    try:
        db.execute("CHECKPOINT")
        if wal.exists():
            raise StorageError(
                f"{source} still has a write-ahead log after CHECKPOINT; "
                "nothing was changed"
            )
        before = source.stat().st_size
        name = db.fetchall("SELECT current_database()")[0][0]
        tables = db.fetchall(
            "SELECT schema_name, table_name FROM duckdb_tables() "
            "WHERE database_name = current_database() AND NOT temporary "
            "ORDER BY ALL"
        )
        literal = str(target).replace("'", "''")
        db.execute(f"ATTACH '{literal}' AS {_COPY}")
        try:
            db.execute(f"COPY FROM DATABASE {_quoted(name)} TO {_COPY}")
            for schema, table in tables:
                here, there = (
                    db.fetchall(
                        f"SELECT count(*) FROM {_quoted(d)}."
                        f"{_quoted(schema)}.{_quoted(table)}"
                    )[0][0]
                    for d in (name, _COPY)
                )
                if here != there:
                    raise StorageError(
                        f"compacting {source}: table {schema}.{table} has {here} "
                        f"rows but its copy {there}; the original is unchanged"
                    )
            db.execute(f"CHECKPOINT {_COPY}")
        finally:
            db.execute(f"DETACH {_COPY}")
        _same_access(source, target)
        # Still holding the lock: a process waiting to write opens the copy.
        os.replace(target, source)
    except StorageError:
        _remove(target)
        raise
    except Exception as exc:
        _remove(target)
        raise StorageError(
            f"compacting {source} failed ({exc}); the original is unchanged"
        ) from exc
    finally:
        db.close()
    return CompactReport(str(source), before, source.stat().st_size, len(tables))


def _same_access(source: Path, target: Path) -> None:
    """Give the copy the original's permissions (and owner, where allowed)."""
    st = source.stat()
    os.chmod(target, st.st_mode & 0o7777)
    with contextlib.suppress(OSError):  # only a privileged process may chown
        os.chown(target, st.st_uid, st.st_gid)


def _quoted(name: str) -> str:
    """A catalog name (a database named after its file may hold any character)."""
    return '"' + name.replace('"', '""') + '"'


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + ".wal")):
        p.unlink(missing_ok=True)
