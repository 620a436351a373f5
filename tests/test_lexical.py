"""The lexical index: tokens, BM25, growth, removal, files, and its use in search."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.retrieval.lexical import (
    BM25Params,
    LexicalIndex,
    lexical_text,
    tokenize,
)


def test_tokens_fold_case_and_accents_and_keep_numbers_dates_and_names():
    tokens = tokenize("Zoë's CAFÉ on 2023-05-08: 7.5 hours, $1,500, room B12")
    assert tokens[:2] == ["zoe", "cafe"]  # possessive dropped, accents folded
    for kept in ("2023-05-08", "2023", "05", "08", "7.5", "1,500", "b12"):
        assert kept in tokens
    assert "on" not in tokens  # a stop word
    assert "on" in tokenize("on", stop_words=None)
    assert tokenize("don't") == ["dont"]


def test_tokens_of_other_scripts_survive():
    assert tokenize("Встреча в Москве") == ["встреча", "в", "москве"]
    assert tokenize("東京タワー") == ["東京", "京タ", "タワ", "ワー"]
    assert tokenize("Ελληνικά καφέ") == ["ελληνικα", "καφε"]


def test_lexical_text_drops_the_labels_every_round_shares():
    text = (
        "User: hi\nAssistant: ok\n[Image S1:IMG_1] a cat\n[Text in image S1:IMG_1] SALE"
    )
    assert lexical_text(text) == "hi\nok\na cat\nSALE"


def _reference_bm25(docs: list[list[str]], query: list[str]) -> list[float]:
    """BM25 with Lucene's idf, written out term by term."""
    k1, b = 1.2, 0.75
    n = len(docs)
    avg = sum(map(len, docs)) / n
    out = []
    for d in docs:
        score = 0.0
        for t in query:
            df = sum(1 for x in docs if t in x)
            tf = d.count(t)
            if not tf:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(d) / avg))
        out.append(score)
    return out


def test_scores_are_bm25_whatever_the_batches():
    texts = [
        "the cat sat on the mat",
        "a dog and a cat",
        "dogs dogs dogs everywhere",
        "nothing in common",
        "cat cat cat cat dog",
    ] * 7
    whole = LexicalIndex(stop_words=None)
    whole.add(texts)
    grown = LexicalIndex(stop_words=None)
    for i in range(0, len(texts), 3):  # segments merge as the index grows
        grown.add(texts[i : i + 3])
    ref = _reference_bm25([t.split() for t in texts], ["cat", "dog"])
    for index in (whole, grown):
        docs, scores = index.scores("cat dog")
        got = np.zeros(len(texts))
        got[docs] = scores
        np.testing.assert_allclose(got, ref, rtol=1e-9)
    assert len(grown._segments) < len(texts) // 3  # merged, not one per batch
    assert whole.search("cat dog", 3) == grown.search("cat dog", 3)
    assert whole.search("unseen", 3) == []


def test_removing_documents_shifts_positions_and_drops_their_words():
    index = LexicalIndex()
    index.add(["Zyxquorp fixed the lock", "sleep 7.5 hours", "lunch at Cafe Luna"])
    index.add(["Cafe Luna again"])
    index.remove([0, 2])
    assert len(index) == 2
    assert "zyxquorp" not in index.terms() and "lock" not in index.terms()
    assert [p for p, _ in index.search("cafe luna", 5)] == [1]
    assert [p for p, _ in index.search("7.5", 5)] == [0]
    fresh = LexicalIndex()
    fresh.add(["sleep 7.5 hours", "Cafe Luna again"])
    assert index.search("cafe luna sleep", 5) == fresh.search("cafe luna sleep", 5)
    with pytest.raises(IndexError):
        index.remove([5])


def test_files_round_trip_and_refuse_other_settings(tmp_path: Path):
    index = LexicalIndex()
    index.add(["first note about 2024-03-02", "second note"])
    index.add(["third"])
    path = tmp_path / "lexical.npz"
    index.write(path)
    back = LexicalIndex.read(path)
    assert back.search("note 2024-03-02", 5) == index.search("note 2024-03-02", 5)
    assert back.terms() == index.terms()
    with pytest.raises(ValueError, match="stop-word"):
        LexicalIndex.read(path, stop_words=None)
    with pytest.raises(ValueError, match="BM25"):
        LexicalIndex.read(path, BM25Params(k1=2.0))
    empty = LexicalIndex()
    empty.write(path)
    assert len(LexicalIndex.read(path)) == 0


def test_ceiling_bounds_every_score():
    index = LexicalIndex()
    index.add(["apple apple apple pie", "apple", "pie crust", "banana"])
    _, scores = index.scores("apple pie")
    assert 0 < scores.max() < index.ceiling("apple pie")
    assert index.ceiling("unseen words") == 0.0


# -- in the retrieval memory ---------------------------------------------------
pytest.importorskip("faiss")
pytest.importorskip("sentence_transformers")

WANTED = {
    "name": "Busy Saturday: laundry, groceries, and I finally handed Ярослава "
    "the spare key.",
    "number": "Long week at work; I wrote 48213 on the back of the card so I "
    "don't forget it.",
    "date": "Sorted the paperwork, paid two bills; 2024-11-07 at nine is booked now.",
}
NEAR_MISSES = [  # the same shape of word, for an embedding: another name, number, date
    "Ярослав came over for dinner and stayed late.",
    "Владислава sent a postcard from the coast.",
    "I walked 48,213 steps this week.",
    "Reference number 4821-3 for the parcel.",
    "The locker code is 48 213.",
    "The dentist appointment is on 2024-11-08.",
    "The dentist appointment was on 2024-10-07.",
]


def _history() -> dict:
    texts = [WANTED["name"], *NEAR_MISSES[:2], WANTED["number"], *NEAR_MISSES[2:5]]
    texts += [WANTED["date"], *NEAR_MISSES[5:]]
    rounds = [{"user": t, "assistant": "Noted."} for t in texts]
    return {"user_id": "u", "sessions": [{"session_id": "S1", "rounds": rounds}]}


def test_lexical_hits_what_dense_search_misses(database):
    """A rare name, a number and a date, on either engine.

    MiniLM ranks a near miss first for each (a name one letter off, a number
    with other separators, a date one day off); BM25 matches the exact token.
    """
    path = database("m")
    with Memory(path, user_id="u") as m:
        m.ingest(history_from_dict(_history()))
    for kind, query in (
        ("name", "Ярослава"),
        ("number", "48213"),
        ("date", "2024-11-07"),
    ):
        wanted = WANTED[kind]
        tops = {}
        for on in (False, True):
            config = AdaMMConfig(lexical_search=on)
            with Memory(path, user_id="u", config=config) as m:
                units = m.semantic_match(query, "event", 3)
                tops[on] = [u.content for u in units]
                rounds = m.retrieval.retrieve_rounds(query, 3, hierarchical=False)
                assert rounds == [u.unit_id for u in units]
        assert wanted not in tops[False][0]  # the embedding alone misses it
        assert wanted in tops[True][0], kind
        assert units[0].lexical_score > max(u.lexical_score for u in units[1:])


@pytest.fixture(scope="module")
def lexical_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("lexical") / "m.duckdb")
    with Memory(path, user_id="u") as m:
        m.ingest(history_from_dict(_history()))
    return path


def test_units_carry_their_dense_and_lexical_parts(lexical_db: str):
    with Memory(lexical_db, user_id="u") as m:
        units = m.semantic_match("Ярослава spare key", "event", 3)
        w = m.config.lexical_weight
        for u in units:
            assert u.dense_score is not None and u.lexical_score is not None
            assert u.score == pytest.approx(
                (1 - w) * u.dense_score + w * u.lexical_score, abs=2e-6
            )
        assert units[0].lexical_score > 0
        for scope in ("episode", "topic"):
            for u in m.semantic_match("Ярослава spare key", scope, 3):
                assert u.lexical_score is not None
    with Memory(lexical_db, user_id="u", config=AdaMMConfig(lexical_search=False)) as m:
        unit = m.semantic_match("Ярослава spare key", "event", 1)[0]
        assert unit.dense_score is None and unit.lexical_score is None


def test_reopening_reads_the_lexical_file_and_rebuilds_a_stale_one(tmp_path: Path):
    path = tmp_path / "m.duckdb"
    with Memory(str(path), user_id="u") as m:
        m.ingest(history_from_dict(_history()))
        before = [
            (u.unit_id, u.score) for u in m.semantic_match("48213 card", "event", 5)
        ]
    (file,) = (tmp_path / "m.duckdb.index").rglob("lexical.npz")
    stamp = file.stat().st_mtime_ns
    with Memory(str(path), user_id="u") as m:
        assert m.retrieval.index_source == "file"
        assert file.stat().st_mtime_ns == stamp  # read, not rebuilt and written
        assert [
            (u.unit_id, u.score) for u in m.semantic_match("48213 card", "event", 5)
        ] == before
    file.write_bytes(b"not an index")  # a damaged file: rebuilt from the events
    with Memory(str(path), user_id="u") as m:
        assert [
            (u.unit_id, u.score) for u in m.semantic_match("48213 card", "event", 5)
        ] == before
    assert LexicalIndex.read(file).search("48213", 1)  # and written again


def test_forgetting_removes_a_rounds_words_on_either_engine(database):
    path = database("m")
    with Memory(path, user_id="u") as m:
        m.ingest(history_from_dict(_history()))
        (rid,) = [
            u.unit_id for u in m.semantic_match("Ярослава", "event", 1)
        ]  # the round that names her
        assert "ярослава" in m.retrieval._lexical.terms()
        m.forget([rid])
        assert "ярослава" not in m.retrieval._lexical.terms()
        assert "spare" not in m.retrieval._lexical.terms()  # no other round has it
        assert len(m.retrieval._lexical) == m.retrieval.event_count
        after = [
            (u.unit_id, u.score) for u in m.semantic_match("48213 card", "event", 5)
        ]
    with Memory(path, user_id="u") as m:  # read or rebuilt: the same words
        assert "ярослава" not in m.retrieval._lexical.terms()
        assert [
            (u.unit_id, u.score) for u in m.semantic_match("48213 card", "event", 5)
        ] == after


def test_a_stale_lexical_file_is_rebuilt(tmp_path: Path):
    """A file from an older state (fewer events than the memory) is not read."""
    path = tmp_path / "m.duckdb"
    doc = _history()
    first = {"user_id": "u", "sessions": [dict(doc["sessions"][0])]}
    first["sessions"][0]["rounds"] = doc["sessions"][0]["rounds"][:4]
    with Memory(str(path), user_id="u") as m:
        m.ingest(history_from_dict(first))
    (file,) = (tmp_path / "m.duckdb.index").rglob("lexical.npz")
    old = file.read_bytes()
    with Memory(str(path), user_id="u") as m:
        m.ingest(history_from_dict(doc))
        want = [
            (u.unit_id, u.score) for u in m.semantic_match("2024-11-07", "event", 3)
        ]
    file.write_bytes(old)  # the meta is current, the lexical file is not
    with Memory(str(path), user_id="u") as m:
        assert len(m.retrieval._lexical) == m.retrieval.event_count
        got = [(u.unit_id, u.score) for u in m.semantic_match("2024-11-07", "event", 3)]
        assert got == want
    assert len(LexicalIndex.read(file)) == len(doc["sessions"][0]["rounds"])
