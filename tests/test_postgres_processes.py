"""Many processes, one PostgreSQL memory: writers of different users, readers of all.

Four processes ingest four users into one database while four more run the
operators and SemanticMatch against it. Afterwards every table, row and value
of every user equals what one process ingesting the same history into a DuckDB
file gets; no reader saw an error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.database import MemoryDatabase
from tools.datasets.synthetic_history import generate
from tools.support.memory_state import HashEncoder, user_state

ROOT = Path(__file__).resolve().parent.parent
USERS = [f"person-{i}" for i in range(4)]
BATCH = 8

WRITER = textwrap.dedent(f"""
    import sys
    from langgraph_adamm import AdaMMConfig, Memory
    from tools.support.memory_state import HashEncoder
    url, user, history = sys.argv[1:4]
    with Memory(url, user_id=user, text_encoder=HashEncoder(), visual_encoder=None,
                config=AdaMMConfig(ingest_batch_size={BATCH})) as m:
        report = m.ingest(history)
    print("done", report.rounds_new, flush=True)
""")

READER = textwrap.dedent("""
    import json, os, sys, time, traceback
    from langgraph_adamm import Memory
    from tools.support.memory_state import HashEncoder
    url, stop = sys.argv[1], sys.argv[2]
    users = sys.argv[3:]
    memories = [Memory(url, user_id=u, text_encoder=HashEncoder(), visual_encoder=None)
                for u in users]
    calls, errors, rows_seen = 0, [], 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        last = os.path.exists(stop)  # one more full pass after the writers end
        for m in memories:
            try:
                for t in m.tables:
                    res = m.compute({"table": t.table_name, "operator": "count"})
                    rows_seen += res.row_count
                    m.filter({"table": t.table_name, "result_budget": 5})
                    m.rank({"table": t.table_name, "target_column_expression":
                            t.columns[0].name, "order": "desc", "result_budget": 3})
                    calls += 3
                m.semantic_match("how did I sleep", "event", 5)
                m.semantic_match("spending", "episode", 3)
                calls += 2
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}"[:300])
        if last:
            break
    print(json.dumps({"calls": calls, "errors": errors, "rows": rows_seen}), flush=True)
""")


@pytest.fixture
def url(postgres_url: str) -> str:
    """A fresh database, without the extension yet (PostgreSQL runs only)."""
    return postgres_url


def _spawn(
    code: str, *args: str, stderr: Any = subprocess.PIPE
) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )


@pytest.mark.slow
def test_four_writers_and_four_readers_equal_one_process(
    url: str, tmp_path: Path
) -> None:
    histories = {
        u: generate(seed=40 + i, days=24, user_id=u).write(tmp_path / u)[0]
        for i, u in enumerate(USERS)
    }
    Memory(url, user_id=USERS[0], retrieval=False).close()  # migrated once, first
    stop = tmp_path / "writers-done"
    readers = [_spawn(READER, url, str(stop), *USERS) for _ in range(4)]
    writers = [_spawn(WRITER, url, u, str(histories[u])) for u in USERS]
    for w in writers:
        out, err = w.communicate(timeout=600)
        assert w.returncode == 0, err[-2000:]
        assert out.startswith("done")
    stop.touch()
    reports = []
    for r in readers:
        out, err = r.communicate(timeout=600)
        assert r.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    assert all(not rep["errors"] for rep in reports), [
        e for rep in reports for e in rep["errors"]
    ][:5]
    assert sum(rep["calls"] for rep in reports) > 100
    assert any(rep["rows"] for rep in reports)  # the last pass read the tables

    config = AdaMMConfig(ingest_batch_size=BATCH)
    for u in USERS:
        with (
            Memory(
                url, user_id=u, text_encoder=HashEncoder(), visual_encoder=None
            ) as m,
            Memory(
                tmp_path / f"{u}.duckdb",
                user_id=u,
                text_encoder=HashEncoder(),
                visual_encoder=None,
                config=config,
            ) as ref,
        ):
            ref.ingest(histories[u])
            assert m.tables and [t.table_name for t in m.tables] == [
                t.table_name for t in ref.tables
            ]
            shared, alone = user_state(m), user_state(ref)
            assert shared.keys() == alone.keys()
            for table in alone:
                assert shared[table] == alone[table], (u, table)


@pytest.mark.slow
def test_two_writers_of_one_user_take_turns(url: str, tmp_path: Path) -> None:
    """Two processes ingest the same user at once: each waits, nothing doubles."""
    user = USERS[0]
    hist = generate(seed=7, days=20, user_id=user).write(tmp_path / "h")[0]
    logs = [tmp_path / f"writer{i}.err" for i in range(2)]
    message = "is being written by langgraph_adamm"
    with MemoryDatabase(url) as db, db.user_lock(user):
        # both writers start while this process holds the user: both must wait
        writers = []
        for log in logs:
            with open(log, "w") as err:
                writers.append(_spawn(WRITER, url, user, str(hist), stderr=err))
        deadline = time.monotonic() + 120
        while not all(message in log.read_text() for log in logs):
            assert time.monotonic() < deadline, [log.read_text()[-500:] for log in logs]
            assert all(w.poll() is None for w in writers)
            time.sleep(0.1)
    outs = [w.communicate(timeout=600)[0] for w in writers]
    assert all(w.returncode == 0 for w in writers), [
        log.read_text()[-2000:] for log in logs
    ]
    new = sorted(int(o.split()[1]) for o in outs)
    assert new[0] == 0 and new[1] > 0  # the second found every round stored
    config = AdaMMConfig(ingest_batch_size=BATCH)
    with (
        Memory(url, user_id=user, text_encoder=HashEncoder(), visual_encoder=None) as m,
        Memory(
            tmp_path / "alone.duckdb",
            user_id=user,
            text_encoder=HashEncoder(),
            visual_encoder=None,
            config=config,
        ) as ref,
    ):
        ref.ingest(hist)
        assert user_state(m) == user_state(ref)


def test_a_dropped_connection_loses_no_committed_batch(
    url: str, tmp_path: Path
) -> None:
    """The server ends the connection mid-ingest: a clear error, then it goes on."""
    user = USERS[1]
    hist = generate(seed=11, days=12, user_id=user).write(tmp_path / "h")[0]
    config = AdaMMConfig(ingest_batch_size=BATCH)
    with (
        Memory(url, user_id=user, retrieval=False, config=config) as m,
        MemoryDatabase(url) as admin,
    ):
        backend = m.db.fetchall("SELECT pg_backend_pid()")[0][0]

        def progress(done: int, total: int) -> None:
            if done == 3 * BATCH + 1:  # three batches committed, the fourth open
                admin.execute("SELECT pg_terminate_backend(?)", [backend])

        with pytest.raises(StorageError, match="lost the connection"):
            m.ingest(hist, progress=progress)
        status = m.analytic.round_status()  # connects again
        assert m.db.fetchall("SELECT pg_backend_pid()")[0][0] != backend
        assert status["extracted"] == 3 * BATCH  # committed batches kept, no more
        m.ingest(hist)  # finishes the rest
        with Memory(
            tmp_path / "alone.duckdb", user_id=user, retrieval=False, config=config
        ) as ref:
            ref.ingest(hist)
            assert user_state(m) == user_state(ref)


SLOW_WRITER = textwrap.dedent("""
    import sys, time
    from langgraph_adamm import AdaMMConfig, Memory
    url, history, progress = sys.argv[1:4]
    m = Memory(url, user_id="demo", retrieval=False,
               config=AdaMMConfig(ingest_batch_size=5))
    def tick(done, total):
        with open(progress, "w") as f:
            f.write(str(done))
        time.sleep(0.02)
    m.ingest(history, progress=tick)
""")


def test_a_reader_sees_every_batch_a_killed_writer_committed(
    url: str, tmp_path: Path
) -> None:
    """No release ever comes from a killed writer: its batches still reach readers."""
    from langgraph_adamm.data import sample_history_path

    progress = tmp_path / "progress"

    def done() -> int:
        try:
            return int(progress.read_text() or 0)
        except (FileNotFoundError, ValueError):
            return 0

    with Memory(url, user_id="demo", retrieval=False) as reader:
        child = _spawn(SLOW_WRITER, url, str(sample_history_path()), str(progress))
        deadline = time.monotonic() + 120
        while done() < 12:
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        reader.refresh()  # mid-write
        while done() < 60:
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        child.kill()
        child.communicate()
        assert reader.refresh()
        with Memory(url, user_id="demo", retrieval=False) as fresh:
            assert fresh.tables
            assert user_state(reader) == user_state(fresh)


def test_a_lost_connection_stops_a_writer_instead_of_writing_unlocked(url: str) -> None:
    with Memory(url, user_id="u", retrieval=False) as m, MemoryDatabase(url) as other:
        backend = m.db.fetchall("SELECT pg_backend_pid()")[0][0]
        with m._writing():
            assert not other.try_user_lock("u")
            other.execute("SELECT pg_terminate_backend(?)", [backend])
            with pytest.raises(StorageError, match="lost the connection"):
                m.db.fetchall("SELECT 1")
            with pytest.raises(StorageError, match="while writing user"):
                m.db.fetchall("SELECT 1")  # no new session without the lock
            assert other.try_user_lock("u")  # the server released it
            other.release_user_lock("u")
        assert m.db.fetchall("SELECT 1") == [(1,)]  # connects again after


def test_readers_in_threads_never_see_a_reload_half_done(url: str) -> None:
    """Another process's writes make every thread reload; none sees no tables."""
    import threading

    from langgraph_adamm.data import sample_history_path

    with (
        Memory(url, user_id="demo", retrieval=False) as m,
        MemoryDatabase(url) as other,
    ):
        m.ingest(sample_history_path())
        args = {"table": m.tables[0].table_name, "column_filters": []}
        stop = time.monotonic() + 3
        errors: list[str] = []
        calls = [0]

        def bump() -> None:
            while time.monotonic() < stop:
                other.bump_user_version("demo")  # what another writer does
                time.sleep(0.01)

        def read() -> None:
            while time.monotonic() < stop:
                try:
                    m.filter(args)
                    calls[0] += 1
                except Exception as exc:  # noqa: BLE001 - counted
                    errors.append(f"{type(exc).__name__}: {exc}"[:200])

        threads = [threading.Thread(target=bump)] + [
            threading.Thread(target=read) for _ in range(3)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert calls[0] > 50 and not errors, errors[:3]


def test_views_and_questions_read_what_another_process_wrote(
    url: str, tmp_path: Path
) -> None:
    from langgraph_adamm.data import sample_history_path

    with Memory(url, user_id="a", retrieval=False) as reader:
        # user a's own writes move a's version past demo's
        reader.ingest(generate(seed=2, days=3, user_id="a").write(tmp_path)[0])
        view = reader.for_user("demo")
        question = "What was my average total sleep?"
        assert "average" not in reader.ask(question, user_id="demo")["answer"]
        with Memory(url, user_id="demo", retrieval=False) as writer:
            writer.ingest(sample_history_path())
        assert view.tables  # the view's own version, not user a's
        assert "average total sleep" in reader.ask(question, user_id="demo")["answer"]


def test_a_table_dropped_between_refresh_and_query_is_read_again(url: str) -> None:
    """The race a refresh cannot close: the query fails, the user is read again."""
    from langgraph_adamm.data import sample_history_path
    from langgraph_adamm.errors import ToolInputError

    with (
        Memory(url, user_id="demo", retrieval=False) as reader,
        Memory(url, user_id="demo", retrieval=False) as writer,
    ):
        writer.ingest(sample_history_path())
        table = reader.tables[0].table_name
        writer.forget(everything=True)  # drops every table
        real, calls = reader.refresh, []

        def late() -> bool:  # the first refresh comes just before the commit
            calls.append(1)
            return False if len(calls) == 1 else real()

        reader.refresh = late  # type: ignore[method-assign]
        with pytest.raises(ToolInputError, match="Unknown table"):
            reader.compute({"table": table, "operator": "count"})
        assert len(calls) == 2 and not reader.tables
