"""DuckDB: the embedded engine (one file, or ``":memory:"``).

One process writes a file at a time (DuckDB's file lock, which a second opener
waits for or is told about, with the holder's PID); within a process one
instance is shared per file, so the library counts its own openers
(:func:`open_in_this_process`, which compacting checks).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.database import MemoryDatabase

_OPEN: dict[str, int] = {}
"""Database files this process has open, by resolved path, with how many
connections (DuckDB shares one instance per file within a process, so its
lock does not keep a second opener out)."""
_OPEN_LOCK = threading.Lock()


def open_in_this_process(path: str | Path) -> bool:
    """Whether a MemoryDatabase of this process has the file open."""
    with _OPEN_LOCK:
        return _OPEN.get(str(Path(path).expanduser().resolve()), 0) > 0


def _lock_holder(message: str) -> str | None:
    """The holder ("PID 8351") named by a DuckDB lock conflict, else None."""
    if "lock" not in message.lower():
        return None
    match = re.search(r"PID (\d+)", message)
    return f"PID {match.group(1)}" if match else "another process"


class DuckDBDatabase(MemoryDatabase):
    """A memory database in a DuckDB file or in memory (see :class:`MemoryDatabase`)."""

    engine = "duckdb"
    asof_joins = True
    storage_order = "rowid"
    """Insertion order."""

    _key: str | None = None

    def _connect(
        self,
        path: Any,
        read_only: bool,
        wait: float,
        on_wait: Callable[[str], None] | None,
    ) -> duckdb.DuckDBPyConnection:
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StorageError(
                    f"cannot create memory database {self.path}: folder {parent} "
                    "does not exist"
                )
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

    def _opened(self) -> None:
        if self.path != ":memory:":
            self._key = str(Path(self.path).expanduser().resolve())
            with _OPEN_LOCK:
                _OPEN[self._key] = _OPEN.get(self._key, 0) + 1

    @property
    def file(self) -> Path | None:
        """The database file, resolved (None in memory)."""
        return (
            None if self.path == ":memory:" else Path(self.path).expanduser().resolve()
        )

    def _statement(self, sql: str, params: list[Any]) -> Any:
        return self.con.execute(sql, params)

    def _statements(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.con.executemany(sql, rows)

    def _rows_changed(self, cursor: Any) -> int:
        row = cursor.fetchone()
        return int(row[0]) if row else 0

    def _columns(self, cursor: Any) -> dict[str, Any]:
        return dict(cursor.fetchnumpy())

    def _failure(self, exc: Exception, message: str) -> StorageError | None:
        if "corrupt" in message.lower() or "checksum" in message.lower():
            return StorageError(
                f"the memory database {self.path} is damaged ({message[:160]}); "
                "restore it from a copy, or re-ingest the histories into a new file"
            )
        return None

    def _disconnect(self) -> None:
        self.con.close()
        key, self._key = self._key, None
        if key is not None:
            with _OPEN_LOCK:
                _OPEN[key] -= 1
                if not _OPEN[key]:
                    del _OPEN[key]
