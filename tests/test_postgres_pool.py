"""A Memory over a psycopg connection pool (PostgreSQL runs only).

The pool belongs to the caller (a LangGraph deployment shares one among its
workers): a Memory borrows one connection for its life, and the pool's other
users must get it back as it was lent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.errors import StorageError
from tools.datasets.synthetic_history import generate
from tools.support.memory_state import HashEncoder, user_state

psycopg_pool = pytest.importorskip("psycopg_pool")


@pytest.fixture
def url(postgres_url: str) -> str:
    """A fresh database, without the extension yet (PostgreSQL runs only)."""
    return postgres_url


def _open(where: Any, user: str = "ana", config: AdaMMConfig | None = None) -> Memory:
    return Memory(
        where,
        user_id=user,
        text_encoder=HashEncoder(),
        visual_encoder=None,
        config=config,
    )


def _configure(con: Any) -> None:
    """What an application's pool sets on each new connection."""
    con.execute("CREATE SCHEMA IF NOT EXISTS app")
    con.execute("SET search_path = app")
    con.execute("SET statement_timeout = '5s'")
    con.execute("SET TimeZone = 'Europe/Paris'")
    con.commit()


def _session(con: Any) -> tuple[Any, ...]:
    return (
        con.execute("SHOW search_path").fetchone()[0],
        con.execute("SHOW statement_timeout").fetchone()[0],
        con.execute("SHOW TimeZone").fetchone()[0],
        con.execute("SHOW application_name").fetchone()[0],
        con.execute("SHOW default_transaction_read_only").fetchone()[0],
        con.execute("""SELECT '{"a": 1}'::json""").fetchone()[0],
        con.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
            "AND pid = pg_backend_pid()"
        ).fetchone()[0],
        con.autocommit,
    )


def test_a_memory_borrows_a_pooled_connection_and_gives_it_back_as_it_came(
    url: str, tmp_path: Path
) -> None:
    hist, _ = generate(seed=3, days=10, user_id="ana").write(tmp_path / "h")
    with psycopg_pool.ConnectionPool(
        url, min_size=1, max_size=1, configure=_configure, open=True
    ) as pool:
        with pool.connection() as con:
            before = _session(con)
        assert before[:3] == ("app", "5s", "Europe/Paris")
        assert before[5] == {"a": 1}  # the pool's own adapters: JSON as a dict
        with _open(pool) as m:
            assert m.db.engine == "postgres" and m.db.vectors
            m.ingest(hist)
            with m.db.user_lock("ana"):  # still held when the Memory closes
                found = [u.unit_id for u in m.semantic_match("sleep", "event", 5)]
                state = user_state(m)
                m.close()
        with pool.connection() as con:  # the only connection: the one lent
            assert _session(con) == before
        with _open(url + "?options=-csearch_path%3Dapp") as again:
            assert user_state(again) == state  # stored in the pool's schema
            assert [u.unit_id for u in again.semantic_match("sleep", "event", 5)] == (
                found
            )
        with _open(pool) as m:  # and reads the same through the pool again
            assert user_state(m) == state


def test_memories_from_one_pool_hold_their_own_connections_and_locks(url: str) -> None:
    with psycopg_pool.ConnectionPool(url, min_size=2, max_size=2, open=True) as pool:
        first, second = _open(pool), _open(pool)
        assert first.db.con is not second.db.con
        assert first.db.try_user_lock("ana")
        assert not second.db.try_user_lock("ana")  # another session holds it
        first.close()  # gives the lock back with the connection
        third = _open(pool)
        assert second.db.try_user_lock("ana")
        assert not third.db.try_user_lock("ana")
        second.close()
        third.close()


def test_an_exhausted_pool_is_a_clear_error(url: str) -> None:
    with psycopg_pool.ConnectionPool(
        url, min_size=1, max_size=1, timeout=0.5, open=True
    ) as pool:
        with pool.connection():
            with pytest.raises(StorageError, match="from the pool"):
                _open(pool)
        _open(pool).close()  # the failed open took nothing from it


def test_a_closed_memory_no_longer_uses_the_connection_it_gave_back(url: str) -> None:
    with psycopg_pool.ConnectionPool(url, min_size=1, max_size=1, open=True) as pool:
        m = _open(pool)
        m.close()
        with pool.connection() as con:  # someone else's now
            with pytest.raises(StorageError, match="closed"):
                m.db.execute("SET TIME ZONE 'Asia/Tokyo'")
            assert con.execute("SHOW TimeZone").fetchone()[0] != "Asia/Tokyo"


def test_pools_whose_connections_make_dict_rows_or_client_cursors(
    url: str, tmp_path: Path
) -> None:
    from psycopg import ClientCursor
    from psycopg.rows import dict_row

    hist, _ = generate(seed=4, days=6, user_id="ana").write(tmp_path / "h")
    for kwargs in ({"row_factory": dict_row}, {"cursor_factory": ClientCursor}):
        with psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=1, kwargs=kwargs, open=True
        ) as pool:
            with _open(pool) as m:
                m.ingest(hist)
                assert m.semantic_match("sleep", "event", 3)
            with pool.connection() as con:  # still the pool's own kind
                row = con.execute("SELECT 1 AS one").fetchone()
                if "row_factory" in kwargs:
                    assert row == {"one": 1}
                else:
                    assert isinstance(con.cursor(), ClientCursor)


def test_a_failure_after_borrowing_gives_the_connection_back(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph_adamm.storage.postgres_engine import PostgresDatabase

    def broken(self: Any, con: Any, name: str) -> Any:
        con.execute("SELECT no_such_function()")

    with psycopg_pool.ConnectionPool(
        url, min_size=1, max_size=1, timeout=2, open=True
    ) as pool:
        monkeypatch.setattr(PostgresDatabase, "_set_up", broken)
        with pytest.raises(StorageError, match="no_such_function"):
            _open(pool)
        monkeypatch.undo()
        _open(pool).close()  # the one connection is back


def test_an_async_pool_is_refused_clearly(url: str) -> None:
    pool = psycopg_pool.AsyncConnectionPool(url, open=False)
    with pytest.raises(StorageError, match="AsyncConnectionPool"):
        _open(pool)


def test_an_hnsw_build_borrows_a_second_connection_and_gives_it_back(
    url: str, tmp_path: Path
) -> None:
    from langgraph_adamm.storage.postgres_engine import pgvector

    hist, _ = generate(seed=3, days=8, user_id="ana").write(tmp_path / "h")
    with psycopg_pool.ConnectionPool(
        url, min_size=2, max_size=2, configure=_configure, open=True
    ) as pool:
        with pool.connection() as con:
            lent = _session(con)
        with _open(pool, config=AdaMMConfig(approximate_search_above=5)) as m:
            m.ingest(hist)
            assert pgvector.index_name("text", 64) in m.db.vector_indexes
            assert pool.get_stats()["pool_available"] == 1  # the build's is back
        for _ in range(2):  # both connections, as lent
            with pool.connection() as con:
                assert _session(con) == lent
