"""Persisted vector indexes (fast reopen) and approximate search past a size."""

from __future__ import annotations

from array import array

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, Memory

pytest.importorskip("faiss")
pytest.importorskip("sentence_transformers")

from langgraph_adamm.history import History  # noqa: E402
from langgraph_adamm.retrieval.index import VectorIndex  # noqa: E402
from tests.test_forest_discovery import TEXT, garden_history  # noqa: E402

QUERIES = ("tomato seedlings", "bike chain", "pruning basil", "water")


def clustered(n: int, dim: int = 32, seed: int = 0) -> np.ndarray:
    """Unit vectors around 20 centres: structured like real embeddings."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, dim))
    v = centres[rng.integers(0, 20, n)] + 0.4 * rng.standard_normal((n, dim))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def test_hnsw_past_the_threshold_finds_what_exact_search_finds():
    data = clustered(3000)
    exact = VectorIndex(32, use_gpu=False)
    approx = VectorIndex(32, use_gpu=False, approximate_above=1000)
    for part in np.array_split(data, 5):  # crosses the threshold midway
        exact.add(part)
        approx.add(part)
    assert approx.approximate and not exact.approximate and len(approx) == 3000
    queries = clustered(50, seed=1)
    overlap = []
    for q in queries:
        es, er = exact.search(q, 10)
        a_s, ar = approx.search(q, 10)
        overlap.append(len(set(er) & set(ar)) / 10)
        # scores are the same inner products, for the rows both found
        common = {int(r): float(s) for s, r in zip(es, er, strict=True)}
        for s, r in zip(a_s, ar, strict=True):
            if int(r) in common:
                assert s == pytest.approx(common[int(r)], abs=1e-5)
    assert np.mean(overlap) >= 0.95
    # rows keep their ids: reconstruct returns the vector added at that row
    assert np.allclose(approx.reconstruct([0, 2999]), data[[0, 2999]], atol=1e-6)


def open_memory(path, **config) -> Memory:
    return Memory(
        path,
        user_id="u",
        text_encoder=TEXT,
        visual_encoder=None,
        config=AdaMMConfig(**config),
    )


def answers(m: Memory) -> list:
    return [
        [(u.unit_id, round(u.score, 5)) for u in m.semantic_match(q, "event", 4)]
        for q in QUERIES
    ]


def test_memory_with_a_tiny_threshold_answers_like_exact_search():
    with (
        open_memory(":memory:") as exact,
        open_memory(":memory:", approximate_search_above=3) as approx,
    ):
        exact.ingest(garden_history())
        approx.ingest(garden_history())
        assert approx.retrieval.approximate_search
        assert answers(approx) == answers(exact)


def test_reopen_reads_the_persisted_index(tmp_path):
    path = tmp_path / "m.duckdb"
    with open_memory(path) as m:
        m.ingest(garden_history())
        expected = answers(m)
    folder = tmp_path / "m.duckdb.index"
    assert list(folder.rglob("text.faiss")) and list(folder.rglob("meta.json"))
    with open_memory(path) as m:
        assert m.retrieval.index_source == "file"
        assert answers(m) == expected


def test_a_stale_or_damaged_index_is_rebuilt(tmp_path):
    path = tmp_path / "m.duckdb"
    history = garden_history()
    first, second = history.sessions
    with open_memory(path) as m:
        m.ingest(History(history.user_id, (first,)))
    # another writer indexes more rounds without updating the files
    with open_memory(path, persist_index=False) as m:
        m.ingest(History(history.user_id, (second,)))
    with open_memory(":memory:") as fresh:
        fresh.ingest(history)
        expected = answers(fresh)
    with open_memory(path) as m:
        assert m.retrieval.index_source == "database"  # stale: rebuilt
        assert answers(m) == expected
    with open_memory(path) as m:
        assert m.retrieval.index_source == "file"  # and written again
    (text,) = (tmp_path / "m.duckdb.index").rglob("text.faiss")
    text.write_bytes(b"not an index")
    with open_memory(path) as m:
        assert m.retrieval.index_source == "database"
        assert answers(m) == expected


def test_small_additions_are_saved_on_close(tmp_path, monkeypatch):
    path = tmp_path / "m.duckdb"
    history = garden_history()
    first, second = history.sessions
    with open_memory(path) as m:
        m.ingest(History(history.user_id, (first,)))
        # as in a large memory, where 2 new rounds are far below the fraction
        monkeypatch.setattr(type(m.retrieval), "save_fraction", 1.0)
        m.ingest(History(history.user_id, (second,)))
        assert m.retrieval._unsaved == 2
        expected = answers(m)
    with open_memory(path) as m:  # close wrote them
        assert m.retrieval.index_source == "file"
        assert m.retrieval.event_count == 5
        assert answers(m) == expected


def test_an_hnsw_index_is_persisted_and_read_back(tmp_path):
    path = tmp_path / "m.duckdb"
    with open_memory(path, approximate_search_above=3) as m:
        m.ingest(garden_history())
        expected = answers(m)
    with open_memory(path, approximate_search_above=3) as m:
        assert m.retrieval.index_source == "file"
        assert m.retrieval._text_index.approximate
        assert answers(m) == expected
    with open_memory(path) as m:  # another layout asked for: rebuilt exact
        assert m.retrieval.index_source == "database"
        assert not m.retrieval._text_index.approximate
        assert answers(m) == expected


def test_a_database_rebuilt_at_the_same_path_never_reads_the_old_index(tmp_path):
    path = tmp_path / "m.duckdb"
    with open_memory(path) as m:
        m.ingest(garden_history())
    path.unlink()
    # same round ids and views, other words: counts and names all match
    raw = garden_history()
    renamed = [
        type(s)(
            s.session_id,
            s.date,
            tuple(
                type(r)(r.round_id, r.session_id, r.time, "hello " + r.user,
                        r.assistant, r.images, r.metadata)
                for r in s.rounds
            ),
        )
        for s in raw.sessions
    ]  # fmt: skip
    other = History(raw.user_id, tuple(renamed))
    with open_memory(path, persist_index=False) as m:  # leaves the old files be
        m.ingest(other)
    with open_memory(":memory:") as fresh:
        fresh.ingest(other)
        expected = answers(fresh)
    with open_memory(path) as m:
        # the old files match in counts and names, not in the database's token
        assert m.retrieval.index_source == "database"
        assert answers(m) == expected


def test_closing_saves_every_users_index(tmp_path, monkeypatch):
    path = tmp_path / "m.duckdb"
    monkeypatch.setattr(
        "langgraph_adamm.retrieval.memory.RetrievalMemory.save_fraction", 2.0
    )  # never written while ingesting
    with open_memory(path) as m:
        m.ingest(garden_history())
        other = m.for_user("v").for_user("w")  # a view of a view
        other.ingest(History("w", garden_history().sessions))
    monkeypatch.undo()
    for user in ("u", "w"):
        with Memory(
            path, user_id=user, text_encoder=TEXT, visual_encoder=None
        ) as m:  # fmt: skip
            assert m.retrieval.index_source == "file", user


def full_answers(m: Memory) -> list:
    """Every field of event, neighbour and episode results."""
    out = []
    for q in QUERIES:
        out.append([u.model_dump() for u in m.event_locate(q, 3)])
        out.append([u.model_dump() for u in m.semantic_match(q, "episode", 2)])
    return out


def test_reopen_maps_the_index_and_reads_events_on_demand(tmp_path):
    path = tmp_path / "m.duckdb"
    history = garden_history()
    first, second = history.sessions
    with open_memory(path) as m:
        m.ingest(History(history.user_id, (first,)))
        expected = full_answers(m)
    with open_memory(path) as m:
        r = m.retrieval
        assert r.index_source == "file" and r._text_index.mapped
        assert not r.hierarchy.events._cache  # nothing read before a search
        events = r.hierarchy.events
        assert len(events._hints) == len(events)  # storage rows known for all
        queries = []
        real = m.db.fetchall
        m.db.fetchall = lambda sql, params=None: (
            queries.append(sql) or real(sql, params)
        )
        events.many_at(range(len(events)))
        m.db.fetchall = real
        assert len(queries) == 1 and "rowid" in queries[0]  # found where hinted
        events.clear_loaded()
        assert full_answers(m) == expected
        # storage-row hints that point elsewhere are checked, not trusted
        r.hierarchy.events._cache.clear()
        r.hierarchy.events._hints = array("q", reversed(r.hierarchy.events._hints))
        assert full_answers(m) == expected
        # growing a mapped index first copies it; the result is a fresh build's
        m.ingest(History(history.user_id, (second,)))
        assert not r._text_index.mapped
        grown = full_answers(m)
    with open_memory(":memory:") as fresh:
        fresh.ingest(history)
        assert full_answers(fresh) == grown
    with open_memory(path) as m:
        assert m.retrieval.index_source == "file"
        assert full_answers(m) == grown


def test_a_damaged_owner_file_is_rebuilt(tmp_path):
    path = tmp_path / "m.duckdb"
    with open_memory(path) as m:
        m.ingest(garden_history())
        expected = full_answers(m)
    (owners,) = (tmp_path / "m.duckdb.index").rglob("text.owner.npy")
    np.save(owners, np.arange(3, dtype=np.int64)[::-1])  # wrong length and order
    with open_memory(path) as m:
        assert m.retrieval.index_source == "database"
        assert full_answers(m) == expected
    stored = np.load(owners)
    np.save(owners, stored + 1000)  # right length, events that do not exist
    with open_memory(path) as m:
        assert m.retrieval.index_source == "database"
        assert full_answers(m) == expected


def test_episode_members_on_reopen_equal_the_stored_lists(tmp_path):
    path = tmp_path / "m.duckdb"
    with open_memory(path) as m:
        m.ingest(garden_history())
        built = {
            e: list(ep.event_ids) for e, ep in m.retrieval.hierarchy.episodes.items()
        }
    with open_memory(path) as m:
        stored = dict(
            m.db.fetchall(
                "SELECT episode_id, event_ids FROM adamm_episodes WHERE user_id = 'u'"
            )
        )
        reopened = {e: ep.event_ids for e, ep in m.retrieval.hierarchy.episodes.items()}
        assert reopened == built == {e: list(v) for e, v in stored.items()}
        assert len(built) >= 2


@pytest.mark.parametrize("above", [None, 1000])
def test_deleted_rows_are_skipped_erased_and_persisted(tmp_path, above):
    """Deleting marks rows dead: searches, row ids and files are as if the
    rows had never been added, and past a share of dead rows it compacts."""
    data = clustered(3000)
    rng = np.random.default_rng(3)
    gone = rng.choice(3000, 300, replace=False)
    keep = np.setdiff1d(np.arange(3000), gone)
    index = VectorIndex(32, use_gpu=False, approximate_above=above)
    index.add(data)
    index.remove(gone[:100])
    index.remove(gone[100:] - np.searchsorted(np.sort(gone[:100]), gone[100:]))
    fresh = VectorIndex(32, use_gpu=False, approximate_above=above)
    fresh.add(data[keep])
    assert len(index) == len(fresh) == 2700 and len(index.dead_rows) == 300
    queries = clustered(40, seed=1)
    got, want = index.search_many(queries, 10), fresh.search_many(queries, 10)
    overlap = [
        len({r for _, r in g} & {r for _, r in w}) / 10
        for g, w in zip(got, want, strict=True)
    ]
    assert np.mean(overlap) >= (1.0 if above is None else 0.95)
    if above is None:
        assert got == want
    rows = [0, 1234, 2699]
    assert np.allclose(index.reconstruct(rows), data[keep][rows], atol=1e-6)
    # written with the dead rows zeroed, read back with them dead
    index.write(tmp_path / "i.faiss")
    read = VectorIndex.read(
        tmp_path / "i.faiss", dead=index.dead_rows, approximate_above=above
    )
    assert read.mapped and len(read) == 2700
    assert read.search_many(queries, 10) == got
    raw = VectorIndex.read(tmp_path / "i.faiss", mmap=False, approximate_above=above)
    assert not np.any(raw.reconstruct(sorted(gone.tolist())))  # all zeros
    # deleting from a mapped index defers the zeroing to the next write
    more = np.arange(0, 2700, 100)
    read.remove(more)
    assert read.mapped and len(read) == 2700 - len(more)
    read.write(tmp_path / "j.faiss")
    assert not read.mapped
    dead = VectorIndex.read(tmp_path / "j.faiss", mmap=False, approximate_above=above)
    erased = np.asarray(sorted(set(read.dead_rows.tolist())))
    assert len(erased) == 327 and not np.any(dead.reconstruct(erased.tolist()))
    # past 20% dead the index compacts: no dead rows, the same live rows
    before = read.reconstruct(list(range(len(read))))
    read.remove(np.arange(0, len(read), 3))
    assert len(read.dead_rows) == 0
    assert np.allclose(
        read.reconstruct(list(range(len(read)))),
        np.delete(before, np.arange(0, len(before), 3), 0),
        atol=1e-6,
    )
    with pytest.raises(IndexError):
        read.remove(np.asarray([len(read)]))
    with pytest.raises(ValueError, match="dead rows"):
        VectorIndex.read(tmp_path / "i.faiss", dead=np.asarray([5, 3]))
