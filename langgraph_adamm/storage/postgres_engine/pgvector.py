"""Event vectors as pgvector ``vector`` columns, searched in SQL (PostgreSQL only).

On a server with the ``vector`` extension (pgvector), each row of
``adamm_event_views`` carries its vector twice: ``vec``, the engine-neutral
bytes every reader understands, and ``emb``, a ``vector`` that SQL can score.
Every process writing to such a database fills ``emb``, whatever it searches
with, so the column never lags behind the rows; one opened on a database whose
rows predate the column fills it first (:func:`setup`).

Search (``vector_search.py``) scores with the negative inner product
operator ``<#>`` on unit vectors, the cosine similarity FAISS's inner product
gives on DuckDB. Past ``approximate_search_above`` views, searches go through
an HNSW index, built by the writer whose user first passes that threshold
(:func:`ensure_index`); below it they are exact, as on DuckDB. A column of mixed
dimensions cannot be indexed as such, so each (modality, dimension) gets a
partial expression index (pgvector's documented form for several models in
one column)::

    CREATE INDEX ... USING hnsw ((emb::vector(384)) vector_ip_ops)
        WHERE modality = 'text' AND vector_dims(emb) = 384
        AND NOT starts_with(view, 'turn:')

and a search repeats that predicate with the same literals, so the planner can
prove the index applies. The literals are the library's own (a modality name
from a fixed set, an integer dimension, the turn-view prefix), never a caller's
text; the query vector, the user and the limit stay bound parameters.
"""

from __future__ import annotations

import logging
import re
import struct
from functools import lru_cache
from typing import Any

import numpy as np

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.vectors import SqlVector, SqlVectors

logger = logging.getLogger(__name__)

MODALITIES = ("text", "visual")
TURN_PREFIX = "turn:"
"""Views of single turns stay out of the event search (``store.TURN_VIEW_PREFIX``)."""

HNSW_MAX_DIM = 2000
"""pgvector indexes ``vector`` columns of at most this many dimensions; wider
vectors are searched exactly."""

_WARNED: set[str] = set()
_FAILED: set[str] = set()
"""Indexes (database path # name) whose build failed in this process."""
_BACKFILL_BATCH = 2000


def type_info(con: Any) -> Any:
    """The vector type of this database (psycopg ``TypeInfo``), or None."""
    from psycopg.types import TypeInfo

    return TypeInfo.fetch(con, "vector")


@lru_cache(maxsize=16)
def _dumper(oid: int) -> type:
    from psycopg.adapt import Dumper
    from psycopg.pq import Format

    class VectorDumper(Dumper):
        format = Format.BINARY

        def dump(self, obj: SqlVector) -> bytes:
            # pgvector's binary form: int16 dimensions, int16 unused, float4s
            a = np.asarray(obj.values, dtype=">f4").reshape(-1)
            return struct.pack(">HH", a.shape[0], 0) + a.tobytes()

    VectorDumper.oid = oid
    return VectorDumper


def install(context: Any, info: Any) -> None:
    """Teach a connection, or one cursor, to send vectors (binary)."""
    from psycopg.types.array import ListBinaryDumper

    info.register(context)
    context.adapters.register_dumper(SqlVector, _dumper(info.oid))
    context.adapters.register_dumper(SqlVectors, ListBinaryDumper)


def _say_once(path: str, message: str) -> None:
    if path not in _WARNED:
        _WARNED.add(path)
        logger.warning(message)


def offered(db: Any) -> bool:
    """Whether the server has pgvector to install (or installed)."""
    return bool(
        db.fetchall(
            "SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'"
        )[0][0]
    )


def setup(db: Any, *, writable: bool) -> bool:
    """Whether this database searches vectors in SQL; prepares it when it can.

    Creates the extension when the server offers it (and the role may), adds
    the ``emb`` column, and fills it for rows stored before it existed. Without
    pgvector, says once that vectors are searched in process with FAISS. Runs
    inside the caller's migration transaction (under its advisory lock).
    """
    from langgraph_adamm.storage.dialect import redacted

    where = redacted(db.path)
    has_column = _has_column(db)
    if not writable:
        if not (has_column and db.use_vectors()):
            return False
        db.vector_search = _searchable(db) is None
        return True
    if not has_column and not offered(db):
        _say_once(
            db.path,
            f"PostgreSQL at {where} has no pgvector extension: event vectors are "
            "stored as bytes and searched in this process with FAISS (the index "
            "is rebuilt on every open); install pgvector to search them in SQL",
        )
        return False
    db.execute("SAVEPOINT adamm_vector")
    try:
        db.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except Exception as exc:  # noqa: BLE001 - a role without the right: fall back
        db.execute("ROLLBACK TO SAVEPOINT adamm_vector")
        if not has_column:
            _say_once(
                db.path,
                f"cannot create the pgvector extension in {where} "
                f"({str(exc).strip().splitlines()[0][:200]}): event vectors are "
                "searched in this process with FAISS; ask the database owner to "
                "run CREATE EXTENSION vector",
            )
            return False
    db.execute("RELEASE SAVEPOINT adamm_vector")
    if not db.use_vectors():
        return False
    old = _searchable(db)
    db.vector_search = old is None
    if old is not None:
        _say_once(
            db.path + "#version",
            f"pgvector {old} in {where} is older than 0.8 (filtered HNSW "
            "scans): vectors are stored in it but searched in this process "
            "with FAISS; ALTER EXTENSION vector UPDATE",
        )
    if not has_column:
        db.execute("ALTER TABLE adamm_event_views ADD COLUMN emb vector")
        # Scans read emb in the row; the bytes go out of line first (TOAST),
        # so a row of two vectors does not halve the rows a page holds. MAIN,
        # not PLAIN: a vector too wide for a page may still go out of line.
        for column, storage in (("emb", "MAIN"), ("vec", "EXTERNAL")):
            db.execute(
                f"ALTER TABLE adamm_event_views ALTER COLUMN {column} "
                f"SET STORAGE {storage}"
            )
        # the rows still to fill, found without scanning the table (empty
        # once they are filled, so it costs nothing to keep)
        db.execute(
            "CREATE INDEX adamm_event_views_unfilled ON adamm_event_views "
            "(user_id) WHERE emb IS NULL"
        )
    _backfill(db)
    return True


def _backfill(db: Any) -> None:
    """Fill ``emb`` from ``vec`` where a row has none (rows written without it)."""
    filled = 0
    while True:
        rows = db.fetchall(
            "SELECT ctid::text, vec FROM adamm_event_views WHERE emb IS NULL LIMIT ?",
            [_BACKFILL_BATCH],
        )
        if not rows:
            break
        done = db.changed(
            "UPDATE adamm_event_views AS v SET emb = n.emb FROM "
            "(SELECT unnest(?::VARCHAR[])::tid AS at, unnest(?::vector[]) AS emb) AS n "
            "WHERE v.ctid = n.at",
            [
                [r[0] for r in rows],
                SqlVectors(
                    SqlVector(np.frombuffer(bytes(r[1]), dtype=np.float32))
                    for r in rows
                ),
            ],
        )
        if not done:  # nothing filled: never loop
            raise RuntimeError("could not fill the vector column of adamm_event_views")
        filled += done
    if filled:
        logger.info("pgvector: filled %d stored event vectors", filled)


def _has_column(db: Any) -> bool:
    """Whether ``adamm_event_views`` has the ``emb`` column yet."""
    return bool(
        db.fetchall(
            "SELECT count(*) FROM information_schema.columns WHERE "
            "table_schema = current_schema() AND table_name = 'adamm_event_views' "
            "AND column_name = 'emb'"
        )[0][0]
    )


def _searchable(db: Any) -> str | None:
    """None when the installed pgvector can search (0.8 or later), else its version."""
    row = db.fetchall("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    version = str(row[0][0]) if row else "?"
    parts = tuple(int(p) for p in re.findall(r"\d+", version)[:2])
    return None if parts >= (0, 8) else version


def refresh(db: Any) -> None:
    """A writer opened before the column existed starts filling it now.

    Another process may have installed pgvector since this one opened the
    database; a writer checks before it writes (one query), so that the
    column does not lag behind the rows for as long as it runs.
    """
    if db.vectors or db.read_only:
        return
    if _has_column(db) and db.use_vectors():
        db.vector_search = _searchable(db) is None
        db.vectors = True
        with db.transaction():  # what this process wrote before, too
            _backfill(db)


def index_name(modality: str, dim: int) -> str:
    """The HNSW index of one modality and dimension."""
    return f"adamm_event_views_hnsw_{modality}_{int(dim)}"


def predicate(modality: str, dim: int) -> str:
    """The rows one HNSW index holds, as literals (see the module's notes)."""
    if modality not in MODALITIES:
        raise ValueError(f"unknown modality {modality!r}")
    return (
        f"modality = '{modality}' AND vector_dims(emb) = {int(dim)} "
        f"AND NOT starts_with(view, '{TURN_PREFIX}')"
    )


_BUILD_LOCK = "adamm_event_views_hnsw"
"""One advisory key for every HNSW build: one process builds at a time."""


def ensure_index(
    db: Any, modality: str, dim: int, *, m: int, ef_construction: int
) -> bool:
    """Make the HNSW index of one modality and dimension; whether it exists now.

    Writers call it once a user's views pass ``approximate_search_above``
    (below that, searches are exact and an index would only slow every
    insert). ``CREATE INDEX CONCURRENTLY`` builds it over the rows already
    stored without blocking other writers or readers, on a connection of its
    own (:meth:`MemoryDatabase.side_connection`) so that this process's reads
    go on too; the calling writer waits for it. It cannot run inside a
    transaction, so a caller inside one is answered False and a later batch
    builds it. Builds take one advisory lock, tried, never waited for: two
    concurrent builds on one table would each wait for the other's
    transaction; a writer that finds the lock taken goes on, its searches
    exact until the index is there. An index a killed build left invalid is
    dropped and built again. The session's statement and lock timeouts are
    lifted for the build and put back. A build that fails is said once and
    not tried again in this process. Past pgvector's :data:`HNSW_MAX_DIM`
    there is none: said once, and searches of such vectors stay exact.
    """
    name = index_name(modality, dim)
    if name in db.vector_indexes:
        return True
    if dim > HNSW_MAX_DIM:
        _say_once(
            f"{db.path}#{name}",
            f"{modality} vectors of {dim} dimensions are wider than pgvector's "
            f"HNSW index allows ({HNSW_MAX_DIM}): they are searched exactly, "
            "however many there are",
        )
        return False
    key = f"{db.path}#{name}"
    if db.in_transaction or key in _FAILED:
        return False
    import psycopg

    try:
        with db.side_connection() as con:
            built = _build(con, name, modality, dim, m, ef_construction)
    except (psycopg.Error, StorageError) as exc:  # nothing stored depends on it
        first = str(exc).strip().splitlines() or [type(exc).__name__]
        _FAILED.add(key)
        logger.warning(
            f"the HNSW index {name} could not be built ({first[0][:200]}); "
            "searches past approximate_search_above stay exact (same results, "
            "slower) until another process builds it",
        )
        return False
    if built:
        db.vector_indexes.add(name)
    return built


def _build(
    con: Any, name: str, modality: str, dim: int, m: int, ef_construction: int
) -> bool:
    """Build the index on ``con`` unless another process is building one."""
    if not con.execute(
        "SELECT pg_try_advisory_lock(hashtext(%s))", [_BUILD_LOCK]
    ).fetchone()[0]:
        return False
    try:
        valid = con.execute(
            "SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(%s)",
            [name],
        ).fetchone()
        if valid and valid[0]:
            return True
        timeouts = con.execute(
            "SELECT current_setting('statement_timeout'), "
            "current_setting('lock_timeout')"
        ).fetchone()
        con.execute(
            "SELECT set_config('statement_timeout', '0', false), "
            "set_config('lock_timeout', '0', false)"
        )
        try:
            if valid:  # a build killed part way left it invalid
                logger.info("dropping the invalid HNSW index %s, to build again", name)
                con.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            logger.info(
                "building the HNSW index %s over the %s vectors stored so far "
                "(once; other processes, and this one's reads, go on meanwhile)",
                name,
                modality,
            )
            con.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} "
                f"ON adamm_event_views USING hnsw ((emb::vector({int(dim)})) "
                f"vector_ip_ops) WITH (m = {int(m)}, "
                f"ef_construction = {int(ef_construction)}) "
                f"WHERE {predicate(modality, dim)}"
            )
        finally:
            con.execute(
                "SELECT set_config('statement_timeout', %s, false), "
                "set_config('lock_timeout', %s, false)",
                list(timeouts),
            )
        return True
    finally:
        con.execute("SELECT pg_advisory_unlock(hashtext(%s))", [_BUILD_LOCK])
