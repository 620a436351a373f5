"""Candidate discovery: memories at turn/image granularity, relations, the pool."""

import pytest

from langgraph_adamm import AdaMMConfig, ForestConfig, Memory
from tests.conftest import history_from_dict

pytest.importorskip("sentence_transformers")
pytest.importorskip("faiss")

from langgraph_adamm.forest.discovery import MemoryCatalogue, discover  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402

TEXT = SentenceTransformerEncoder()


def garden_history():
    return history_from_dict(
        {
            "user_id": "u",
            "sessions": [
                {
                    "session_id": "S1",
                    "date": "2026-04-01",
                    "rounds": [
                        {
                            "user": "I planted tomatoes along the south fence today.",
                            "assistant": "Tomatoes love sun; water them twice a week.",
                        },
                        {
                            "user": "Here is a photo of the seedlings.",
                            "assistant": "They look healthy, nice dark leaves.",
                            "images": [
                                {
                                    "image_id": "IMG1",
                                    "caption": "Tomato seedlings in a raised bed",
                                    "ocr": "Roma - sown March 3",
                                }
                            ],
                        },
                        {"user": "Only a question: when should I prune basil?"},
                    ],
                },
                {
                    "session_id": "S2",
                    "date": "2026-04-20",
                    "rounds": [
                        {
                            "user": "My bike chain keeps slipping on the hills.",
                            "assistant": "Check the chain stretch and the cassette.",
                            "metadata": {"location": "garage"},
                        },
                        {
                            "user": "I replaced the chain this morning.",
                            "assistant": "Great, shift through all gears once.",
                            "metadata": {"location": "Garage"},
                        },
                    ],
                },
            ],
        }
    )


def open_memory(turn_views: bool, path=":memory:", **config) -> Memory:
    """A text-only memory of user ``u`` (MiniLM), with or without turn views."""
    return Memory(
        path,
        user_id="u",
        text_encoder=TEXT,
        visual_encoder=None,
        config=AdaMMConfig(turn_views=turn_views, **config),
    )


def test_memories_at_turn_and_image_granularity():
    with open_memory(True) as m:
        m.ingest(garden_history())
        cat = MemoryCatalogue(m.retrieval)
        ids = [x.memory_id for x in cat.memories]
        assert ids == [
            "S1:1#user",
            "S1:1#assistant",
            "S1:2#user",
            "S1:2#image:IMG1",
            "S1:2#assistant",
            "S1:3#dialogue",  # one turn: its only text view is the turn
            "S2:1#user",
            "S2:1#assistant",
            "S2:2#user",
            "S2:2#assistant",
        ]
        assert cat.has_turns
        # the image memory is reached through its caption and its OCR text
        assert len(cat.text_views[cat.index_of["S1:2#image:IMG1"]]) == 2


def test_without_turn_views_the_dialogue_is_one_memory():
    with open_memory(False) as m:
        m.ingest(garden_history())
        cat = MemoryCatalogue(m.retrieval)
        ids = [x.memory_id for x in cat.memories]
        assert ids[:3] == ["S1:1#dialogue", "S1:2#dialogue", "S1:2#image:IMG1"]
        assert not cat.has_turns


def test_turn_views_leave_event_search_unchanged(database, tmp_path):
    results = []
    for turn_views in (False, True):
        path = database(f"m{turn_views}")
        for _ in range(2):  # as ingested, and reopened from the file
            with open_memory(turn_views, path) as m:
                if not m.has_user("u"):
                    m.ingest(garden_history())
                units = m.semantic_match("pruning herbs", "event", 5)
                rounds = m.retrieval.retrieve_rounds("bicycle repair", 5)
                results.append(([(u.unit_id, u.score) for u in units], rounds))
    # the same events in the same order; scores equal up to float noise, since
    # turn views change how texts are padded into the encoder's batches
    for units, rounds in results[1:]:
        assert [u for u, _ in units] == [u for u, _ in results[0][0]]
        assert [s for _, s in units] == pytest.approx(
            [s for _, s in results[0][0]], abs=1e-5
        )
        assert rounds == results[0][1]


def test_explicit_relations():
    with open_memory(True) as m:
        m.ingest(garden_history())
        cat = MemoryCatalogue(m.retrieval)
        at = cat.index_of
        img = cat.explicit_neighbours(at["S1:2#image:IMG1"])
        assert set(img[at["S1:2#user"]]) == {"same_round", "consecutive_turn"}
        assert img[at["S1:2#assistant"]] == ("same_round", "consecutive_turn")
        # adjacent memories of one session, across rounds
        last = cat.explicit_neighbours(at["S1:3#dialogue"])
        assert last == {at["S1:2#assistant"]: ("consecutive_turn",)}
        # never across sessions
        first_s2 = cat.explicit_neighbours(at["S2:1#user"])
        assert at["S1:3#dialogue"] not in first_s2
        # the same place (case-folded) in one session links different rounds
        assert "same_place" in cat.explicit_neighbours(at["S2:1#user"])[at["S2:2#user"]]


def test_pool_bounds_order_and_scores():
    cfg = ForestConfig(seeds=3, pool=6, anchors=2, retrieval_depth=4, knn=2)
    with open_memory(True) as m:
        m.ingest(garden_history())
        cat = MemoryCatalogue(m.retrieval)
        pool, ranking = discover(cat, "tomato seedlings photo", cfg)
        cands = pool.candidates
        assert len(cands) <= 6 and len(ranking) == 4
        seeds = cands[:3]
        assert [c.memory_id for c in seeds] == [
            cat.memories[i].memory_id for i in ranking[:3]
        ]
        assert [c.score for c in seeds] == sorted(
            (c.score for c in seeds), reverse=True
        )
        assert pool.anchors == [0, 1]
        q = m.retrieval._query_vectors("tomato seedlings photo")
        lexical = m.retrieval.round_lexical_scores("tomato seedlings photo")
        assert lexical  # scores fuse the round's words, as event scores do
        w = m.retrieval.config.lexical_weight

        def fused(i: int) -> float:
            words = lexical.get(cat.memories[i].round_id, 0.0)
            return (1 - w) * cat.score_of(i, *q) + w * words

        floor = min(fused(i) for i in ranking) - 0.01
        outside = [c for c in cands[3:] if not c.retrieved]
        assert outside  # depth 4 < pool 6: some neighbours were not retrieved
        for c in cands[3:]:
            if c.retrieved:
                expected = fused(cat.index_of[c.memory_id])
            else:
                expected = floor
            assert c.score == pytest.approx(expected)
        # neighbours come in order of (-edge similarity, seed rank), where an
        # edge's similarity is the larger of explicit (0.99) and semantic
        seed_ids = [cat.index_of[c.memory_id] for c in seeds]
        semantic = cat.mutual_knn(seed_ids, cfg.knn)
        keys = []
        for c in cands[3:]:
            j = cat.index_of[c.memory_id]
            best = None
            for rank, i in enumerate(seed_ids):
                sims = []
                if j in cat.explicit_neighbours(i):
                    sims.append(0.99)
                if j in semantic.get(i, {}):
                    sims.append(semantic[i][j])
                if sims:
                    key = (-max(sims), rank)
                    best = key if best is None or key < best else best
            assert best is not None
            keys.append(best)
        assert keys == sorted(keys)
        assert any(c.memory_id == "S1:2#image:IMG1" for c in seeds)
        image = next(c for c in cands if c.memory_id == "S1:2#image:IMG1")
        assert image.ocr == "Roma - sown March 3" and "image" in image.modalities
        assert image.date.startswith("2026-04-01")
        # every explicit pair in the pool is a real relation of the catalogue
        for (i, j), kinds in pool.explicit.items():
            gi, gj = (cat.index_of[cands[x].memory_id] for x in (i, j))
            assert cat.explicit_neighbours(gi)[gj] == kinds


def test_mutual_knn_is_symmetric():
    with open_memory(True) as m:
        m.ingest(garden_history())
        cat = MemoryCatalogue(m.retrieval)
        edges = cat.mutual_knn(range(len(cat)), 3)
        for i, nbrs in edges.items():
            assert len(nbrs) <= 3
            for j, sim in nbrs.items():
                assert edges[j][i] == pytest.approx(sim)


def test_restricted_retrieval_and_reopen(database, tmp_path):
    path = database("m")
    found = []
    for _ in range(2):  # as ingested, and reopened from the file
        with open_memory(True, path) as m:
            if not m.has_user("u"):
                m.ingest(garden_history())
            pool, _ = discover(
                MemoryCatalogue(m.retrieval),
                "chain",
                ForestConfig(),
                within_rounds=["S2:2"],
            )
            found.append([(c.memory_id, round(c.score, 5)) for c in pool.candidates])
    assert {c for c, _ in found[0][:2]} == {"S2:2#user", "S2:2#assistant"}
    assert found[0] == found[1]


def test_pieces_of_a_long_view_belong_to_the_views_memory():
    from langgraph_adamm.forest.discovery import _memory_kind

    assert _memory_kind("turn:user|2", False, True) == "user"
    assert _memory_kind("caption:IMG_1|3", False, False) == "image:IMG_1"
    assert _memory_kind("round|2", True, False) == "dialogue"
    assert _memory_kind("round|2", False, False) is None
    assert _memory_kind("dialogue|2", False, False) == "dialogue"
