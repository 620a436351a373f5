import pytest

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage import MemoryDatabase, quote_ident
from langgraph_adamm.storage.migrations import LATEST_VERSION


def test_migrations_apply_once(tmp_path):
    path = tmp_path / "m.duckdb"
    with MemoryDatabase(path) as db:
        assert db.schema_version() == LATEST_VERSION
        db.migrate()  # idempotent
        rows = db.fetchall("SELECT version FROM adamm_migrations")
        assert rows == [(v,) for v in range(1, LATEST_VERSION + 1)]
    with MemoryDatabase(path) as db:
        assert db.schema_version() == LATEST_VERSION
    with MemoryDatabase(path, read_only=True) as db:
        assert db.schema_version() == LATEST_VERSION


def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "m.duckdb"
    with MemoryDatabase(path) as db:
        db.execute(
            "INSERT INTO adamm_migrations (version, description) VALUES (999, 'x')"
        )
    with pytest.raises(StorageError, match="newer langgraph_adamm"):
        MemoryDatabase(path)


def test_transactions_roll_back(tmp_path):
    with MemoryDatabase(tmp_path / "m.duckdb") as db:
        with pytest.raises(RuntimeError):
            with db.transaction():
                db.execute(
                    'INSERT INTO adamm_rounds (user_id, round_id, session_id, "order") '
                    "VALUES ('u', 'r', 's', 1)"
                )
                raise RuntimeError("boom")
        assert db.fetchall("SELECT count(*) FROM adamm_rounds") == [(0,)]


def test_identifiers_are_checked():
    assert quote_ident("sleep_log") == '"sleep_log"'
    for bad in ['a"b', "A", "a b", "1a", "", "x" * 64]:
        with pytest.raises(StorageError):
            quote_ident(bad)


def test_unopenable_paths(tmp_path):
    with pytest.raises(StorageError, match="does not exist"):
        MemoryDatabase(tmp_path / "missing" / "m.duckdb")
    bad = tmp_path / "not_a_db.duckdb"
    bad.write_text("hello")
    with pytest.raises(StorageError, match="cannot open"):
        MemoryDatabase(bad)


def test_keyed_inserts_replace_stored_rows_and_add_new_ones():
    """New keys go in by a plain insert, stored keys are replaced, in one call."""
    from langgraph_adamm.storage.bulk import insert_columns

    columns = ("user_id", "topic_id", "description", "episode_ids")
    types = ("VARCHAR", "INTEGER", "VARCHAR", "INTEGER[]")
    key = ("user_id", "topic_id")
    with MemoryDatabase(":memory:") as db:
        with db.transaction():
            insert_columns(
                db,
                "adamm_topics",
                columns,
                types,
                [["u", "v"], [1, 1], ["old", "other user"], [[1], [9]]],
                key=key,
            )
        with db.transaction():
            insert_columns(
                db,
                "adamm_topics",
                columns,
                types,
                [["u", "u"], [2, 1], ["new", "changed"], [[3, 4], [1, 2]]],
                key=key,
            )
        rows = db.fetchall(
            "SELECT user_id, topic_id, description, episode_ids FROM adamm_topics "
            "ORDER BY user_id, topic_id"
        )
    assert [(u, t, d, list(e)) for u, t, d, e in rows] == [
        ("u", 1, "changed", [1, 2]),
        ("u", 2, "new", [3, 4]),
        ("v", 1, "other user", [9]),
    ]
