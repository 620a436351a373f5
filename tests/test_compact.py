"""Compacting a memory file after forgetting: the deleted bytes leave the file."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import duckdb
import pytest

from langgraph_adamm import Memory, StorageError
from langgraph_adamm.cli import main
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.duckdb_engine.compact import compact
from tools.datasets.everyday_history import generate_everyday


def planted(tmp_path: Path) -> tuple[Path, str, str, str]:
    """A memory file whose one round carries a unique token; (file, token,
    round id, user id)."""
    doc = generate_everyday(days=30, seed=4).history
    token = secrets.token_hex(40)
    rnd = doc["sessions"][3]["rounds"][0]
    rnd["user"] += f" Note from the locksmith: {token}"
    path = tmp_path / "m.duckdb"
    with Memory(path, user_id=doc["user_id"], retrieval=False) as m:
        m.ingest(history_from_dict(doc))
    return path, token, rnd["round_id"], doc["user_id"]


def every_row(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        names = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() ORDER BY ALL"
        ).fetchall()
        return {
            f"{s}.{t}": con.execute(
                f'SELECT * FROM "{s}"."{t}" ORDER BY ALL'
            ).fetchall()
            for s, t in names
        }
    finally:
        con.close()


def test_compacting_removes_forgotten_bytes_and_keeps_every_row(tmp_path):
    path, token, rid, user = planted(tmp_path)
    assert token.encode() in path.read_bytes()  # the search can find it at all
    with Memory(path, user_id=user, retrieval=False) as m:
        m.forget([rid])
    rows = every_row(path)
    assert not any(token in repr(r) for r in rows.values())
    report = compact(path)
    assert token.encode() not in path.read_bytes()
    assert every_row(path) == rows
    assert report.tables == len(rows) and report.bytes_after == path.stat().st_size
    assert not path.with_name(path.name + ".compacting").exists()
    # the compacted file is a working memory: it reads, ingests and forgets
    with Memory(path, user_id=user, retrieval=False) as m:
        assert m.tables
        doc = generate_everyday(days=30, seed=4).history
        m.ingest(history_from_dict(doc))  # the forgotten round comes back
        assert rid in m.rounds_to_forget(everything=True)


def test_a_failed_compaction_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path, _, rid, user = planted(tmp_path)
    rows = every_row(path)
    real = MemoryDatabase.execute

    def failing(self: MemoryDatabase, sql: str, params: Any = None) -> Any:
        if sql.startswith("COPY FROM DATABASE"):
            raise duckdb.IOException("disk full")
        return real(self, sql, params)

    monkeypatch.setattr(MemoryDatabase, "execute", failing)
    with pytest.raises(StorageError, match="disk full.*original is unchanged"):
        compact(path)
    monkeypatch.undo()
    assert every_row(path) == rows
    assert not path.with_name(path.name + ".compacting").exists()
    with pytest.raises(StorageError, match="no memory database"):
        compact(tmp_path / "missing.duckdb")


def test_compaction_keeps_the_persisted_vector_index_valid(tmp_path):
    from tests.test_forget import history, open_memory

    path = tmp_path / "m.duckdb"
    with open_memory(path) as m:
        m.ingest(history_from_dict(history()))
        m.forget(["S2-3"])
        before = [(u.unit_id, round(u.score, 5)) for u in m.semantic_match("lock")]
    compact(path)
    with open_memory(path) as m:
        assert m.retrieval.index_source == "file"
        after = [(u.unit_id, round(u.score, 5)) for u in m.semantic_match("lock")]
    assert after == before


def test_command_line_forget_then_compact(tmp_path, capsys):
    path, token, rid, user = planted(tmp_path)
    db = str(path)
    args = ["forget", "--db", db, "--user-id", user, "--round", rid, "--yes"]
    assert main([*args, "--compact", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["round_ids"] == [rid] and out["compacted"]["bytes_after"] > 0
    assert token.encode() not in path.read_bytes()
    assert main(["compact", "--db", db]) == 0
    assert "compacted" in capsys.readouterr().out
    assert main(["compact", "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "no memory database" in capsys.readouterr().err


def test_compaction_refuses_a_file_open_in_this_process_and_keeps_its_mode(tmp_path):
    """DuckDB lets one process open a file twice, so its lock cannot keep an
    open Memory's file from being replaced under it: compact refuses. The
    compacted file keeps the original's permissions."""
    path, _, rid, user = planted(tmp_path)
    with Memory(path, user_id=user, retrieval=False) as m:
        with pytest.raises(StorageError, match="open in this process"):
            compact(path)
        m.forget([rid])  # the Memory still works on its file
    path.chmod(0o600)
    compact(path)
    assert path.stat().st_mode & 0o777 == 0o600
    with Memory(path, user_id=user, retrieval=False) as m:
        assert rid not in m.rounds_to_forget(everything=True)
