"""Memory.forget: rounds, sessions, dates or a whole user, on both memories."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, AdaMMError, Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.retrieval.hierarchy import extractive_summary
from tests.conftest import stored_rows

pytest.importorskip("faiss")
pytest.importorskip("sentence_transformers")

from tests.test_forest_discovery import TEXT  # noqa: E402

PLANT = "Zyxquorp"


def history(user: str = "u", plant: bool = True) -> dict:
    day1 = [
        {
            "user": "Sleep log - Total sleep: 7.5 h, Deep sleep: 52 min",
            "assistant": "Nice, that is close to your usual.",
        },
        {
            "user": "Expense - Merchant: Cafe Luna, Amount: $4.20",
            "assistant": "Logged the expense.",
        },
        {
            "user": "Planted tomatoes along the south fence.",
            "assistant": "Water them twice a week.",
        },
    ]
    day2 = [
        {
            "user": "Sleep log - Total sleep: 6 h, Deep sleep: 40 min",
            "assistant": "Try less screen time.",
        },
        {
            "user": "Expense - Merchant: Noodle Bar, Amount: $12.80",
            "assistant": "Logged the expense.",
        },
        {
            "user": f"The locksmith {PLANT} fixed the back door. Expense - "
            f"Merchant: {PLANT} Locks, Amount: $85.50",
            "assistant": f"Noted: {PLANT}, back door lock.",
            "images": [
                {
                    "image_id": "IMG9",
                    "caption": f"Invoice from {PLANT}",
                    "ocr": f"{PLANT} Locks - total 85.50",
                }
            ],
        },
        {
            "user": "Sleep log - Total sleep: 8 h, Deep sleep: 61 min",
            "assistant": "Well rested then.",
        },
    ]
    day3 = [
        {"user": "Expense - Merchant: Fresh Market, Amount: $46.10",
         "assistant": "Logged."},
        {"user": "Sleep log - Total sleep: 7 h, Deep sleep: 49 min",
         "assistant": "Steady."},
        {"user": "My bike chain keeps slipping on the hills.",
         "assistant": "Check the chain stretch and the cassette."},
    ]  # fmt: skip
    for sid, day in (("S1", day1), ("S2", day2), ("S3", day3)):
        for i, rnd in enumerate(day, 1):
            rnd["round_id"] = f"{sid}-{i}"  # stable whichever rounds are left out
    if not plant:
        day2 = [r for r in day2 if PLANT not in r["user"]]
    sessions = [
        {"session_id": "S1", "date": "2026-05-01", "rounds": day1},
        {"session_id": "S2", "date": "2026-05-02", "rounds": day2},
        {"session_id": "S3", "date": "2026-05-03", "rounds": day3},
    ]
    return {"user_id": user, "sessions": sessions}


def open_memory(path=":memory:", user="u", **config) -> Memory:
    return Memory(
        path,
        user_id=user,
        text_encoder=TEXT,
        visual_encoder=None,
        config=AdaMMConfig(**config),
    )


QUERIES = ("locksmith invoice", "sleep hours", "expenses at a cafe", "bike chain")


def search_state(m: Memory) -> list:
    out = []
    for q in QUERIES:
        out.append([(u.unit_id, round(u.score, 4)) for u in m.semantic_match(q)])
        out.append(
            [
                (u.unit_id, [n.unit_id for n in u.neighbours])
                for u in m.event_locate(q, 3)
            ]
        )
    return out


def planted_round(m: Memory) -> str:
    (rid,) = m.db.fetchall(
        "SELECT round_id FROM adamm_rounds WHERE user_id = ? AND user_text LIKE ?",
        [m.user_id, f"%{PLANT}%"],
    )[0]
    return rid


def text_cells(m: Memory, needle: str) -> list[tuple[str, str]]:
    """(table, column) of every stored text cell, in any table, holding needle."""
    hits = []
    for (table,) in m.db.fetchall(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema()"
    ):
        for column, dtype in m.db.fetchall(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = ? AND table_schema = current_schema()",
            [table],
        ):
            # DuckDB: VARCHAR, VARCHAR[], JSON; PostgreSQL: character varying,
            # ARRAY (of it), json
            text = ("character varying", "ARRAY", "json", "JSON")
            if "VARCHAR" not in dtype and dtype not in text:
                continue
            found = m.db.fetchall(
                f'SELECT count(*) FROM "{table}" WHERE CAST("{column}" AS VARCHAR) '
                "ILIKE ?",
                [f"%{needle}%"],
            )[0][0]
            if found:
                hits.append((table, column))
    return hits


def episodes_of_events(m: Memory) -> dict[str, int]:
    """How many episodes (stored) list each event."""
    count: dict[str, int] = {}
    for (ids,) in m.db.fetchall(
        "SELECT event_ids FROM adamm_episodes WHERE user_id = ?", [m.user_id]
    ):
        for rid in ids:
            count[rid] = count.get(rid, 0) + 1
    return count


def test_forgotten_round_is_gone_from_every_table_text_and_vector(tmp_path):
    path = tmp_path / "m.duckdb"
    with open_memory(path) as m:
        m.ingest(history_from_dict(history()))
        rid = planted_round(m)
        assert text_cells(m, PLANT)  # it was there
        assert PLANT.lower() in m.retrieval._lexical.terms()
        vec = TEXT.encode([f"The locksmith {PLANT} charged $85.50"])[0]
        report = m.forget([rid])
        assert report.round_ids == [rid] and report.retrieval.events == 1
        # the files that hold the forgotten vectors go at once (rewritten on close)
        assert not list((tmp_path / "m.duckdb.index").rglob("text.faiss"))
        assert report.retrieval.views >= 3  # round, dialogue, caption, OCR
        assert text_cells(m, PLANT) == []
        r = m.retrieval
        assert PLANT.lower() not in r._lexical.terms()  # no word of it is left
        stored = r._text_index.reconstruct(list(range(len(r._text_index))))
        assert (
            len(stored)
            == m.db.fetchall(
                "SELECT count(*) FROM adamm_event_views WHERE modality = 'text'"
            )[0][0]
        )
        for q in ("locksmith", PLANT, "invoice back door lock"):
            assert rid not in {u.unit_id for u in m.semantic_match(q, "event", 20)}
            for scope in ("episode", "topic"):
                for u in m.semantic_match(q, scope, 20):
                    assert rid not in u.round_ids and PLANT not in u.content
        best = float(np.max(stored @ vec))
        assert best < 0.95  # no row is the forgotten round's text
        counts = episodes_of_events(m)
        events = {e for (e,) in m.db.fetchall("SELECT round_id FROM adamm_events")}
        assert counts == dict.fromkeys(events, 1)  # each event in exactly one episode
        after = search_state(m)
    with open_memory(path) as m:  # the persisted index was written again
        assert m.retrieval.index_source == "file"
        assert search_state(m) == after
        assert text_cells(m, PLANT) == []
        assert PLANT.lower() not in m.retrieval._lexical.terms()
    assert list((tmp_path / "m.duckdb.index").rglob("lexical.npz"))
    assert not any(
        word in f.read_bytes()
        for f in tmp_path.rglob("*") if f.is_file() and f.suffix != ".duckdb"
        for word in (PLANT.encode(), PLANT.lower().encode())
    )  # fmt: skip


def test_after_forgetting_search_answers_as_a_memory_that_never_had_the_rounds():
    with open_memory() as m, open_memory() as fresh:
        m.ingest(history_from_dict(history()))
        m.forget([planted_round(m)])
        fresh.ingest(history_from_dict(history(plant=False)))
        # event scores come from each event's own vectors, and neighbours from
        # the sessions' remaining rounds: the same either way
        assert search_state(m) == search_state(fresh)


@pytest.mark.parametrize("approximate", [None, 3])
def test_forgetting_a_session_keeps_every_other_event_findable(approximate):
    with open_memory(approximate_search_above=approximate) as m:
        m.ingest(history_from_dict(history()))
        before = {e for (e,) in m.db.fetchall("SELECT round_id FROM adamm_events")}
        report = m.forget(session_id="S2")
        gone = set(report.round_ids)
        assert len(gone) == 4 and all(r.startswith("S2-") for r in gone)
        left = before - gone
        r = m.retrieval
        assert r.event_count == len(left)
        assert r.approximate_search == (approximate is not None)
        for rid in sorted(left):
            text = r.hierarchy.events[rid].text
            units = m.semantic_match(text, "event", 1)
            assert units[0].unit_id == rid  # its own text finds it first
        counts = episodes_of_events(m)
        assert counts == dict.fromkeys(left, 1)
        in_memory = [e for ep in r.hierarchy.episodes.values() for e in ep.event_ids]
        assert sorted(in_memory) == sorted(left)
        for topic in r.hierarchy.topics.values():
            assert topic.episode_ids and all(
                e in r.hierarchy.episodes for e in topic.episode_ids
            )


def test_forgetting_one_user_leaves_another_byte_for_byte(database):
    path = database("m")
    with open_memory(path, user="a") as a:
        a.ingest(history_from_dict(history("a")))
        b = a.for_user("b")
        b.ingest(history_from_dict(history("b")))

        def dump() -> dict:
            out = {}
            for (table,) in a.db.fetchall(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_name LIKE 'adamm%'"
            ):
                cols = [c for (c,) in a.db.fetchall(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_name = ?", [table])]  # fmt: skip
                if "user_id" in cols:
                    out[table] = stored_rows(a.db, f"{table} WHERE user_id = 'b'")
            for t in b.tables:
                out[t.table_name] = stored_rows(a.db, b.analytic.qualified(t))
            return out

        before = dump()
        b_search = search_state(b)
        report = a.forget(everything=True)
        assert len(report.round_ids) == 10
        assert dump() == before
        assert search_state(b) == b_search
        assert (
            a.db.fetchall("SELECT count(*) FROM adamm_rounds WHERE user_id = 'a'")[0][0]
            == 0
        )
        assert a.retrieval.event_count == 0
        assert a.semantic_match("sleep") == []


def test_forest_catalogue_is_built_again_after_forgetting():
    from langgraph_adamm.forest.rerank import ForestReranker

    with open_memory(turn_views=True) as m:
        m.ingest(history_from_dict(history()))
        reranker = ForestReranker(m.retrieval)
        rid = planted_round(m)
        assert any(mem.startswith(rid) for mem in reranker.catalogue.index_of)
        m.forget([rid])
        assert not any(mem.startswith(rid) for mem in reranker.catalogue.index_of)


def test_selectors_dry_run_and_errors():
    with open_memory() as m:
        m.ingest(history_from_dict(history()))
        n = m.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0]
        dry = m.forget(before=datetime(2026, 5, 2), dry_run=True)
        assert dry.dry_run and dry.round_ids == ["S1-1", "S1-2", "S1-3"]
        assert m.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0] == n
        assert "would forget 3 round(s)" in str(dry)
        with pytest.raises(AdaMMError, match="exactly one"):
            m.forget()
        with pytest.raises(AdaMMError, match="exactly one"):
            m.forget(["S1-1"], session_id="S1")
        with pytest.raises(AdaMMError, match="list of round ids"):
            m.forget("S1-1")
        assert m.forget(["no-such-round"]).round_ids == []
        done = asyncio.run(m.aforget(before=datetime(2026, 5, 2)))
        assert len(done.round_ids) == 3
        assert m.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0] == n - 3


def test_a_failed_forget_changes_nothing(monkeypatch):
    with open_memory() as m:
        m.ingest(history_from_dict(history()))
        before = search_state(m)
        rid = planted_round(m)

        def broken(self, *args):
            raise RuntimeError("disk full")

        # fails after the events were deleted, before the commit
        monkeypatch.setattr(type(m.retrieval), "_write", broken)
        with pytest.raises(RuntimeError, match="disk full"):
            m.forget([rid])
        monkeypatch.undo()
        assert (
            m.db.fetchall(
                "SELECT count(*) FROM adamm_rounds WHERE round_id = ?", [rid]
            )[0][0]
            == 1
        )
        assert search_state(m) == before
        assert text_cells(m, PLANT)


def test_an_episode_that_loses_an_event_is_pooled_from_the_rest(database):
    with open_memory(database("m"), episode_threshold=0.0) as m:
        m.ingest(history_from_dict(history()))  # every session one episode
        h = m.retrieval.hierarchy
        ep = next(e for e in h.episodes.values() if len(e.event_ids) >= 3)
        first, *rest = ep.event_ids
        forgotten_text = h.events[first].text
        m.forget([first])
        ep = m.retrieval.hierarchy.episodes[ep.episode_id]  # read again
        assert ep.event_ids == rest
        vecs = dict(
            m.db.fetchall(
                "SELECT round_id, text_vec FROM adamm_events WHERE round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [rest],
            )
        )
        expected = np.sum([np.frombuffer(vecs[r], "<f4") for r in rest], axis=0)
        assert np.allclose(ep.text_sum, expected, atol=1e-5)
        texts = [m.retrieval.hierarchy.events[r].text for r in rest]
        assert ep.description == extractive_summary(texts)
        assert forgotten_text not in ep.description
        stored = m.db.fetchall(
            "SELECT event_ids, description, text_sum FROM adamm_episodes "
            "WHERE episode_id = ?",
            [ep.episode_id],
        )[0]
        assert list(stored[0]) == rest and stored[1] == ep.description
        assert np.allclose(np.frombuffer(stored[2], "<f4"), expected, atol=1e-5)
        topic = m.retrieval.hierarchy.topics.get(ep.topic_id) if ep.topic_id else None
        if topic is not None:
            eps = [m.retrieval.hierarchy.episodes[e] for e in topic.episode_ids]
            assert np.allclose(
                topic.text_sum, np.sum([e.text_vec for e in eps], axis=0), atol=1e-5
            )


def test_command_line_dry_run_then_forget(database, tmp_path, capsys):
    import json

    from langgraph_adamm.cli import main

    hist = tmp_path / "h.json"
    hist.write_text(json.dumps(history()))
    db = database("m")
    assert main(["ingest", str(hist), "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["forget", "--db", db, "--user-id", "u", "--session", "S2"]) == 0
    out = capsys.readouterr().out
    assert "would forget 4 round(s)" in out and "--yes" in out
    with open_memory(db) as m:
        assert len(m.rounds_to_forget(session_id="S2")) == 4  # nothing changed
    args = ["forget", "--db", db, "--user-id", "u", "--session", "S2", "--yes"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["round_ids"]) == 4 and not report["dry_run"]
    with open_memory(db) as m:
        assert m.rounds_to_forget(session_id="S2") == []
        assert text_cells(m, PLANT) == []
    assert main(["forget", "--db", db, "--user-id", "u", "--before", "May 3"]) == 2
    assert "not a date" in capsys.readouterr().err
    assert main(["forget", "--db", db, "--user-id", "nobody", "--everything"]) == 2


def test_the_forget_tool_is_off_by_default_and_forgets_what_the_model_names():
    from langgraph_adamm.tools.langchain import create_memory_tools

    with open_memory() as m:
        m.ingest(history_from_dict(history()))
        assert "Forget" not in {t.name for t in create_memory_tools(m)}
        (tool,) = [
            t for t in create_memory_tools(m, allow_forget=True) if t.name == "Forget"
        ]
        rid = planted_round(m)
        out = tool.invoke({"round_ids": [rid]})
        assert rid in out and text_cells(m, PLANT) == []
        assert "nothing forgotten" in tool.invoke({"round_ids": [rid]})
        both = tool.invoke({"round_ids": ["S1-1"], "session_id": "S1"})
        assert "exactly one" in both
        assert "exactly one" in tool.invoke({})
        assert m.rounds_to_forget(session_id="S1")  # unchanged by the refusal


def test_correct_through_the_memory_changes_the_aggregate():
    with open_memory() as m:
        m.ingest(history_from_dict(history()))
        attr, number = m.db.fetchall(
            "SELECT attribute, number FROM adamm_observations WHERE round_id = 'S1-2' "
            "AND number = 4.2"
        )[0]  # the coffee's price
        assert m.tables  # sleep and expenses
        table = next(t for t in m.tables if attr in t.attributes)
        column = next(c.name for c in table.columns if c.attribute == attr)
        args = {"table": table.table_name, "operator": "sum",
                "target_column_expression": column}  # fmt: skip
        before = m.compute(args).value
        fix = m.correct("S1-2", attr, "$5.70", by="test")
        assert fix.new_text and m.compute(args).value == pytest.approx(
            before - number + 5.70
        )
        assert (
            m.db.fetchall(
                "SELECT corrected_by FROM adamm_observations WHERE round_id = 'S1-2' "
                "AND attribute = ?",
                [attr],
            )[0][0]
            == "test"
        )


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_random_forgets_of_generated_histories_keep_the_hierarchy_whole(
    tmp_path, seed, database
):
    import random

    from tools.datasets.everyday_history import generate_everyday

    path, _ = generate_everyday(days=12, seed=seed).write(tmp_path)
    user = f"everyday-{seed}"
    with open_memory(database("m"), user=user) as m:
        m.ingest(path)
        rounds = m.rounds_to_forget(everything=True)
        pick = random.Random(seed)
        forgotten = set(pick.sample(rounds, len(rounds) // 4))
        texts = {
            r: m.retrieval.hierarchy.events[r].text
            for r in list(forgotten)[:5]
            if r in m.retrieval.hierarchy.events
        }
        m.forget(sorted(forgotten))
        r = m.retrieval
        left = set(rounds) - forgotten
        assert set(r.hierarchy.events) == left
        assert episodes_of_events(m) == dict.fromkeys(left, 1)
        for rid, text in texts.items():
            found = {u.unit_id for u in m.semantic_match(text, "event", 20)}
            assert rid not in found
        for ep in r.hierarchy.episodes.values():
            assert ep.event_ids and not forgotten & set(ep.event_ids)
        for topic in r.hierarchy.topics.values():
            assert all(e in r.hierarchy.episodes for e in topic.episode_ids)
        assert (
            r.view_count("text")
            == m.db.fetchall(
                "SELECT count(*) FROM adamm_event_views WHERE modality = 'text' "
                "AND NOT starts_with(view, 'turn:')"
            )[0][0]
        )
    with open_memory(database("m"), user=user) as again:
        assert set(again.retrieval.hierarchy.events) == left


def test_a_round_forgotten_between_extraction_and_apply_stays_forgotten():
    with open_memory() as m:
        stages = m.construction
        stages.store_history(history_from_dict(history()))
        (batch,) = stages.pending_batches()
        extracted = stages.extract_batch(batch)
        rid = "S2-3"
        m.forget([rid])
        from langgraph_adamm.memory import IngestReport

        stages.apply_extracted(extracted, IngestReport())
        assert (
            m.db.fetchall(
                "SELECT count(*) FROM adamm_observations WHERE round_id = ?", [rid]
            )[0][0]
            == 0
        )
        assert text_cells(m, PLANT) == []


def test_forget_and_indexing_in_two_threads_both_finish():
    import threading

    with open_memory() as m:
        stages = m.construction
        stages.store_history(history_from_dict(history()))
        for batch in stages.pending_batches():
            from langgraph_adamm.memory import IngestReport

            stages.apply_extracted(stages.extract_batch(batch), IngestReport())
        m.forget(["S1-1"])  # rounds not yet indexed: nothing in retrieval yet
        done = []
        indexing = threading.Thread(
            target=lambda: done.append(stages.index_pending(IngestReport()))
        )
        forgetting = threading.Thread(target=lambda: done.append(m.forget(["S1-2"])))
        indexing.start()
        forgetting.start()
        indexing.join(60)
        forgetting.join(60)
        assert not indexing.is_alive() and not forgetting.is_alive()
        assert len(done) == 2
        assert "S1-2" not in m.retrieval.hierarchy.events


def test_many_async_forgets_and_an_ingest_all_finish():
    async def run(m: Memory) -> list:
        other = history_from_dict(history("u", plant=False))
        calls = [m.aforget([f"S3-{i}"]) for i in range(1, 4)]
        calls += [m.aforget(session_id="S1"), m.aingest(other)]
        return await asyncio.wait_for(asyncio.gather(*calls), 60)

    with open_memory() as m:
        m.ingest(history_from_dict(history()))
        *forgets, ingested = asyncio.run(run(m))
        assert [f.round_ids for f in forgets] == [
            ["S3-1"],
            ["S3-2"],
            ["S3-3"],
            ["S1-1", "S1-2", "S1-3"],
        ]
        # whatever the order: the ingest stores again what was gone when it ran
        assert ingested.rounds_read == 9 and not ingested.failures
        assert ingested.rounds_new + ingested.rounds_already_stored == 9
        stored = {
            r
            for (r,) in m.db.fetchall(
                "SELECT round_id FROM adamm_rounds WHERE user_id = ?", ["u"]
            )
        }
        day2 = {"S2-1", "S2-2", "S2-3", "S2-4"}
        assert day2 <= stored and len(stored - day2) == ingested.rounds_new
        assert set(m.retrieval.hierarchy.events) == stored
        observed = {
            r
            for (r,) in m.db.fetchall(
                "SELECT DISTINCT round_id FROM adamm_observations"
            )
        }
        assert observed <= stored


def test_an_analytic_only_memory_forgets_without_a_model():
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history_from_dict(history()))
        report = m.forget([planted_round(m)])
        assert report.retrieval is None and text_cells(m, PLANT) == []


def test_searches_running_while_rounds_are_forgotten_never_see_half_a_forget(
    tmp_path,
):
    """A search holds the retrieval state while it reads it, and a forget
    changes it whole: no search fails, and once a forget has returned no
    search returns its round."""
    import random
    import threading

    from tools.datasets.everyday_history import generate_everyday

    path, _ = generate_everyday(days=12, seed=2).write(tmp_path)
    with open_memory(user="everyday-2", approximate_search_above=50) as m:
        m.ingest(path)
        assert m.retrieval.approximate_search
        rounds = m.rounds_to_forget(everything=True)
        doomed = random.Random(0).sample(rounds, 30)
        gone: set[str] = set()
        errors: list[BaseException] = []
        stop = threading.Event()

        def search() -> None:
            try:
                while not stop.is_set():
                    before = set(gone)
                    for q in ("sleep", "coffee receipt", "a run in the park"):
                        units = m.semantic_match(q, "event", 15)
                        units += m.event_locate(q, 3)
                        units += m.semantic_match(q, "episode", 5)
                        found = {u.unit_id for u in units}
                        found |= {n.unit_id for u in units for n in u.neighbours}
                        assert not found & before, found & before
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        searchers = [threading.Thread(target=search) for _ in range(2)]
        for t in searchers:
            t.start()
        for rid in doomed:
            m.forget([rid])
            gone.add(rid)
        stop.set()
        for t in searchers:
            t.join(60)
        assert not errors, errors[0]
        assert len(m.retrieval.hierarchy.events) == len(rounds) - 30


def test_forget_rounds_inside_a_transaction_needs_the_state_lock_first():
    """A search holds the retrieval state, then reads the database: taking
    the state inside a transaction could deadlock with it, so it is refused
    unless taken before (as Memory.forget does)."""
    with open_memory() as m:
        m.ingest(history_from_dict(history()))
        r = m.retrieval
        with m.db.transaction():
            with pytest.raises(AdaMMError, match="state_lock"):
                r.forget_rounds(["S2-3"])
        with m.db.index_lock, r.state_lock, m.db.transaction():
            r.forget_rounds(["S2-3"])
        assert "S2-3" not in r.hierarchy.events


def test_a_failed_indexing_batch_is_undone_before_any_search_reads_it(monkeypatch):
    """Indexing a batch changes the retrieval state under its lock and, when
    the batch fails, reloads it under the same lock: a search never sees the
    batch's uncommitted events or a half-reloaded index."""
    import threading

    with open_memory() as m:
        doc = history()
        first = {**doc, "sessions": doc["sessions"][:2]}
        m.ingest(history_from_dict(first))
        r = m.retrieval
        before = search_state(m)
        seen: list[Any] = []
        searches: list[threading.Thread] = []
        real_load = r._load_indexes

        def load_with_a_search() -> None:
            # a search started while the reload holds the state waits for it
            t = threading.Thread(target=lambda: seen.append(search_state(m)))
            searches.append(t)
            t.start()
            t.join(0.5)
            seen.append(t.is_alive())
            real_load()

        def failing(*args: Any, **kw: Any) -> None:
            raise RuntimeError("disk full")

        monkeypatch.setattr(r, "_write", failing)
        monkeypatch.setattr(r, "_load_indexes", load_with_a_search)
        with pytest.raises(RuntimeError, match="disk full"):
            m.ingest(history_from_dict(doc))
        searches[0].join(60)
        assert seen[0] is True  # blocked until the reload was done
        assert seen[1] == before  # and then saw the committed state
