"""SemanticMatch in SQL with pgvector answers as FAISS does (PostgreSQL runs only).

The same stored memory is searched two ways: in SQL (``pgvector_search``, the
default on a server with the extension) and by the in-process FAISS index that
``pgvector_search=False`` builds from the same rows. Exact searches must agree
event for event and score for score; HNSW searches must find what exact search
finds, with the same scores.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.storage.postgres_engine import pgvector
from tools.datasets.synthetic_history import generate
from tools.support.memory_state import HashEncoder

QUERIES = [
    "how long did I sleep",
    "coffee with a friend downtown",
    "what did the groceries cost",
    "went for a run in the park",
    "feeling tired with a headache",
    "meeting about the budget",
    "ok",
]


@pytest.fixture
def url(postgres_url: str) -> str:
    """A fresh database, without the extension yet (PostgreSQL runs only)."""
    return postgres_url


def _open(url: str, user: str, **config: object) -> Memory:
    return Memory(
        url,
        user_id=user,
        text_encoder=HashEncoder(),
        visual_encoder=None,
        config=AdaMMConfig(**config),  # type: ignore[arg-type]
    )


def _ingest(
    url: str, user: str, seed: int, tmp: Path, days: int = 25, **config: object
) -> None:
    hist, _ = generate(seed=seed, days=days, user_id=user).write(tmp / user)
    with _open(url, user, **config) as m:
        m.ingest(hist)


def _answers(m: Memory) -> list[list[tuple[str, float]]]:
    out = []
    for q in QUERIES:
        out.append([(u.unit_id, u.score) for u in m.semantic_match(q, "event", 10)])
        located = m.event_locate(q, 3)
        out.append([(u.unit_id, u.score) for u in located])
        out.append([(n.unit_id, 0.0) for u in located for n in u.neighbours])
        out.append([(r, 0.0) for r in m.retrieval.retrieve_rounds(q, 8)])
    return out


def _same(a: list[list[tuple[str, float]]], b: list[list[tuple[str, float]]]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert [i for i, _ in x] == [i for i, _ in y]
        assert [s for _, s in x] == pytest.approx([s for _, s in y], abs=2e-6)


def _vectors_agree(m: Memory) -> int:
    """Every stored view's pgvector column holds its bytes' vector; the count."""
    rows = m.db.fetchall("SELECT vec, emb::text FROM adamm_event_views")
    for vec, emb in rows:
        stored = np.frombuffer(bytes(vec), dtype=np.float32)
        assert emb is not None
        assert np.array_equal(
            np.asarray(emb.strip("[]").split(","), dtype=np.float32), stored
        )
    return len(rows)


def test_sql_search_equals_faiss_for_each_user_and_after_forgetting(
    url: str, tmp_path: Path
) -> None:
    _ingest(url, "ana", 3, tmp_path)
    _ingest(url, "ben", 4, tmp_path)  # same round ids, other texts
    with _open(url, "ana") as sql, _open(url, "ana", pgvector_search=False) as faiss:
        assert sql.db.vectors and sql.retrieval._sql is not None
        assert faiss.retrieval._sql is None and len(faiss.retrieval._text_index)
        assert not sql.retrieval._sql.approximate("text")
        _same(_answers(sql), _answers(faiss))
        assert _vectors_agree(sql) > 2 * sql.retrieval.event_count
        # episodes and topics are scored in process on both
        for scope in ("episode", "topic"):
            assert sql.semantic_match("sleep", scope, 3) == faiss.semantic_match(
                "sleep", scope, 3
            )
        gone = [u.unit_id for u in sql.semantic_match("coffee", "event", 4)]
        sql.forget(gone)
        assert not {u.unit_id for u in sql.semantic_match("coffee", "event", 50)} & set(
            gone
        )
        stored = sql.db.fetchall(
            "SELECT count(*) FROM adamm_event_views WHERE user_id = 'ana' "
            "AND modality = 'text' AND NOT starts_with(view, 'turn:')"
        )[0][0]
        assert sql.retrieval.view_count("text") == stored  # counts follow forgets
    with _open(url, "ana") as sql, _open(url, "ana", pgvector_search=False) as faiss:
        _same(_answers(sql), _answers(faiss))
    with _open(url, "ben") as sql, _open(url, "ben", pgvector_search=False) as faiss:
        _same(_answers(sql), _answers(faiss))


def test_hnsw_search_finds_what_exact_search_finds(url: str, tmp_path: Path) -> None:
    # the writer builds the index once ana's views pass 50; ben's go in after
    _ingest(url, "ana", 5, tmp_path, days=40, approximate_search_above=50)
    _ingest(url, "ben", 6, tmp_path, days=10)
    with (
        _open(url, "ana", approximate_search_above=50) as hnsw,
        _open(url, "ana", approximate_search_above=None) as exact,
    ):
        search = hnsw.retrieval._sql
        assert search is not None and search.approximate("text")
        plan = "\n".join(
            r[0]
            for r in hnsw.db.fetchall(
                "EXPLAIN " + search.statement("text", 64, approximate=True),
                [
                    pgvector.SqlVector(np.ones(64, np.float32) / 8),
                    "ana",
                    10,
                ],
            )
        )
        assert pgvector.index_name("text", 64) in plan
        found, wanted = 0, 0
        for q in QUERIES:
            got = {u.unit_id: u.score for u in hnsw.semantic_match(q, "event", 10)}
            best = {u.unit_id: u.score for u in exact.semantic_match(q, "event", 10)}
            found += len(got.keys() & best.keys())
            wanted += len(best)
            scores = {u.unit_id: u.score for u in exact.semantic_match(q, "event", 500)}
            for rid, s in got.items():  # what HNSW returns is scored exactly
                assert s == pytest.approx(scores[rid], abs=2e-6)
        assert found / wanted >= 0.9


def test_without_pgvector_faiss_searches_and_a_later_open_fills_the_column(
    url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(pgvector, "offered", lambda db: False)
    with caplog.at_level(logging.WARNING):
        _ingest(url, "ana", 7, tmp_path)
        _ingest(url, "ben", 8, tmp_path)
    said = [r for r in caplog.records if "no pgvector extension" in r.getMessage()]
    assert len(said) == 1  # once, not per open
    with _open(url, "ana") as m:
        assert not m.db.vectors and m.retrieval._sql is None
        before = _answers(m)
        assert not m.db.fetchall(
            "SELECT 1 FROM information_schema.columns WHERE column_name = 'emb'"
        )
    monkeypatch.undo()
    with _open(url, "ana") as m:  # the extension now: the column is filled
        assert m.db.vectors and m.retrieval._sql is not None
        assert _vectors_agree(m) > m.retrieval.event_count
        _same(_answers(m), before)


class WideEncoder(HashEncoder):
    """Wider vectors than pgvector's HNSW index takes (2,000 dimensions)."""

    name = "hash-trigrams-2048"
    dim = 2048


def test_vectors_too_wide_for_an_hnsw_index_are_searched_exactly(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    hist, _ = generate(seed=9, days=6, user_id="ana").write(tmp_path / "h")
    config = AdaMMConfig(approximate_search_above=5)
    with caplog.at_level(logging.WARNING):
        with Memory(
            url,
            user_id="ana",
            text_encoder=WideEncoder(),
            visual_encoder=None,
            config=config,
        ) as m:
            m.ingest(hist)
            assert m.retrieval._sql is not None
            found = [u.unit_id for u in m.semantic_match("coffee", "event", 5)]
    assert any("2048 dimensions" in r.getMessage() for r in caplog.records)
    with Memory(
        url,
        user_id="ana",
        text_encoder=WideEncoder(),
        visual_encoder=None,
        config=AdaMMConfig(pgvector_search=False, approximate_search_above=None),
    ) as exact:
        assert [u.unit_id for u in exact.semantic_match("coffee", "event", 5)] == found


def _chat(user: str, sessions: dict[str, list[str]]) -> object:
    return history_from_dict(
        {
            "user_id": user,
            "sessions": [
                {
                    "session_id": sid,
                    "date": f"2026-{3 + i // 28:02d}-{i % 28 + 1:02d}",
                    "rounds": [{"user": text} for text in texts],
                }
                for i, (sid, texts) in enumerate(sessions.items())
            ],
        }
    )


def test_a_search_widens_past_views_another_process_committed_since(
    url: str,
) -> None:
    """Rows newer than a Memory's state fill the top of a SQL search: it widens."""
    with _open(url, "ana") as reader, _open(url, "ana") as writer:
        reader.ingest(
            _chat(
                "ana",
                {
                    "A": [
                        "I slept six hours last night",
                        "lunch was a salad",
                        "the train was late",
                    ]
                },
            )
        )
        writer.refresh()
        sleep = [f"I slept {h} hours and woke up at {h}:30" for h in range(5, 10)]
        writer.ingest(_chat("ana", {f"B{i}": sleep for i in range(12)}))
        # straight to the retrieval memory: no refresh between
        units = reader.retrieval.semantic_match("how long did I slept", "event", 3)
        assert [u.unit_id for u in units][:1] == ["A:1"] and len(units) == 3
        reader.refresh()
        assert len(reader.semantic_match("how long did I slept", "event", 50)) == 50


def test_a_short_hnsw_scan_is_answered_exactly(url: str, tmp_path: Path) -> None:
    """pgvector stops a filtered HNSW scan among other users' rows (its
    ``hnsw.max_scan_tuples``, lowered here from 20,000 to 20 so that 3,000 of
    another user's views near the query are enough): the search is answered
    exactly instead of coming back short."""
    _ingest(url, "ana", 5, tmp_path, days=30, approximate_search_above=20)
    query = "how long did I sleep"
    near = HashEncoder().encode([query])[0]
    rng = np.random.default_rng(0)
    vecs = near[None, :] + 0.01 * rng.standard_normal((3000, 64)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with _open(url, "zed") as zed:  # another user's views, nearer than any of ana's
        zed.db.execute(
            "INSERT INTO adamm_event_views (user_id, round_id, view, modality, vec, "
            "emb) SELECT 'zed', 'Z' || n, 'round', 'text', ''::bytea, e "
            "FROM unnest(?::vector[]) WITH ORDINALITY AS t(e, n)",
            [pgvector.SqlVectors(pgvector.SqlVector(v) for v in vecs)],
        )
        name = zed.db.fetchall("SELECT current_database()")[0][0]
        zed.db.execute(f'ALTER DATABASE "{name}" SET hnsw.max_scan_tuples = 20')
    with (
        _open(url, "ana", approximate_search_above=20) as hnsw,
        _open(url, "ana", approximate_search_above=None) as exact,
    ):
        search = hnsw.retrieval._sql
        assert search is not None and search.approximate("text")
        got = [u.unit_id for u in hnsw.semantic_match(query, "event", 10)]
        want = [u.unit_id for u in exact.semantic_match(query, "event", 10)]
        assert got == want and len(got) == 10
        assert search.shortfalls > 0


def test_a_writer_opened_before_pgvector_fills_the_column_once_it_exists(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pgvector, "offered", lambda db: False)
    early = _open(url, "ana")
    assert not early.db.vectors
    monkeypatch.undo()
    with _open(url, "ben") as later:  # creates the extension and the column
        assert later.db.vectors
    hist, _ = generate(seed=7, days=10, user_id="ana").write(tmp_path / "ana")
    early.ingest(hist)
    assert early.db.vectors
    unfilled = early.db.fetchall(
        "SELECT count(*) FROM adamm_event_views WHERE emb IS NULL"
    )[0][0]
    assert unfilled == 0
    early.close()
    with _open(url, "ana") as m:
        assert m.retrieval._sql is not None
        stored = m.db.fetchall(
            "SELECT count(*) FROM adamm_event_views WHERE user_id = 'ana' "
            "AND NOT starts_with(view, 'turn:')"
        )[0][0]
        assert m.retrieval._sql.counts["text"] == stored > 0


def _valid_indexes(url: str) -> set[str]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        return {
            r[0]
            for r in con.execute(
                "SELECT c.relname FROM pg_index i JOIN pg_class c "
                "ON c.oid = i.indexrelid WHERE i.indisvalid "
                "AND c.relname LIKE 'adamm_event_views_hnsw_%'"
            )
        }


def test_writers_never_wait_for_a_build_and_a_later_batch_makes_it(
    url: str, tmp_path: Path
) -> None:
    """Two writers (two vector widths) ingest at once while another process
    holds the build lock: neither waits; later batches build both indexes, one
    of them while a reader's snapshot is open (the build waits it out)."""
    import threading

    import psycopg

    class Wide(HashEncoder):
        name = "hash-trigrams-128"
        dim = 128

    memories = {
        "ana": _open(url, "ana", approximate_search_above=1),
        "ben": Memory(
            url,
            user_id="ben",
            text_encoder=Wide(),
            visual_encoder=None,
            config=AdaMMConfig(approximate_search_above=1),
        ),
    }
    errors: list[BaseException] = []

    def ingest(user: str, seed: int, days: int) -> None:
        hist, _ = generate(seed=seed, days=days, user_id=user).write(
            tmp_path / f"{user}{days}"
        )
        try:
            memories[user].ingest(hist)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    holder = psycopg.connect(url, autocommit=True)
    holder.execute("SELECT pg_advisory_lock(hashtext(%s))", [pgvector._BUILD_LOCK])
    threads = [
        threading.Thread(target=ingest, args=(u, s, 3))
        for u, s in (("ana", 1), ("ben", 2))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert not any(t.is_alive() for t in threads)
    assert _valid_indexes(url) == set()  # someone else was building
    holder.close()  # that build is over
    with _open(url, "cy") as reader, reader.db.snapshot():
        reader.db.fetchall("SELECT count(*) FROM adamm_event_views")
        later = threading.Thread(target=ingest, args=("ana", 1, 6))
        later.start()
        waiting = 0
        for _ in range(100):  # the build starts, and waits for this snapshot
            with psycopg.connect(url, autocommit=True) as con:
                waiting = con.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE starts_with(query, 'CREATE INDEX CONCURRENTLY')"
                ).fetchone()[0]
            if waiting:
                break
            later.join(timeout=0.1)
        assert waiting == 1
        # the building process's own reads go on meanwhile
        read = threading.Thread(
            target=lambda: memories["ana"].semantic_match("slept", "event", 3)
        )
        read.start()
        read.join(timeout=20)
        assert not read.is_alive()
    later.join(timeout=120)
    ingest("ben", 2, 6)
    for m in memories.values():
        m.close()
    assert not errors, errors
    assert not later.is_alive()
    assert _valid_indexes(url) == {pgvector.index_name("text", d) for d in (64, 128)}


def test_views_under_the_threshold_make_no_index_and_an_invalid_one_is_rebuilt(
    url: str, tmp_path: Path
) -> None:
    import psycopg

    _ingest(url, "zed", 4, tmp_path, days=6)  # the default threshold: exact
    assert _valid_indexes(url) == set()
    name = pgvector.index_name("text", 64)
    with psycopg.connect(url, autocommit=True) as con:
        # a concurrent build that failed part way leaves its index, invalid
        with pytest.raises(psycopg.errors.UniqueViolation):
            con.execute(
                f"CREATE UNIQUE INDEX CONCURRENTLY {name} "
                "ON adamm_event_views (user_id)"
            )
        assert (
            con.execute(
                f"SELECT count(*) FROM pg_class WHERE relname = '{name}'"
            ).fetchone()[0]
            == 1
        )
    _ingest(url, "ana", 5, tmp_path, days=6, approximate_search_above=10)
    assert _valid_indexes(url) == {name}
    with _open(url, "ana", approximate_search_above=10) as m:
        (definition,) = m.db.fetchall(
            "SELECT indexdef FROM pg_indexes WHERE indexname = ?", [name]
        )[0]
        assert "hnsw" in definition and "UNIQUE" not in definition


def test_a_build_that_fails_is_said_once_and_not_tried_again(
    url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import psycopg

    tries: list[str] = []

    def refused(con: object, name: str, *args: object) -> bool:
        tries.append(name)
        raise psycopg.errors.InsufficientPrivilege("must be owner of table")

    monkeypatch.setattr(pgvector, "_build", refused)
    with caplog.at_level(logging.WARNING):
        _ingest(url, "ana", 5, tmp_path, days=8, approximate_search_above=5)
        _ingest(url, "ana", 5, tmp_path / "again", days=9, approximate_search_above=5)
    assert len(tries) == 1  # not again in this process, even by a new Memory
    said = [
        r.getMessage() for r in caplog.records if "could not be built" in r.getMessage()
    ]
    assert len(said) == 1 and "must be owner" in said[0]
    assert _valid_indexes(url) == set()
    with (
        _open(url, "ana", approximate_search_above=5) as hnsw,
        _open(url, "ana", approximate_search_above=None) as exact,
    ):
        assert hnsw.retrieval._sql is not None and hnsw.retrieval._sql.approximate(
            "text"
        )
        for q in QUERIES:  # no index: answered by an exact scan, same events
            got = [u.unit_id for u in hnsw.semantic_match(q, "event", 10)]
            assert got == [u.unit_id for u in exact.semantic_match(q, "event", 10)]


def test_a_build_lifts_the_session_timeouts_and_puts_them_back(
    url: str, tmp_path: Path
) -> None:
    import psycopg

    _ingest(url, "ana", 5, tmp_path, days=40)  # no index: the default threshold
    name = pgvector.index_name("text", 64)
    with psycopg.connect(url, autocommit=True) as con:
        con.execute("SET statement_timeout = '20ms'")
        con.execute("SET lock_timeout = '7ms'")
        assert pgvector._build(con, name, "text", 64, 32, 80)
        assert con.execute("SHOW statement_timeout").fetchone()[0] == "20ms"
        assert con.execute("SHOW lock_timeout").fetchone()[0] == "7ms"
        held = con.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
            "AND pid = pg_backend_pid()"
        ).fetchone()[0]
        assert held == 0
    assert _valid_indexes(url) == {name}
