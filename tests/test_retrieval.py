import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, AdaMMError, Memory, ToolInputError
from langgraph_adamm.retrieval.encoders import (
    OpenClipEncoder,
    SentenceTransformerEncoder,
)
from langgraph_adamm.retrieval.lexical import lexical_text
from tests.conftest import history_from_dict

pytest.importorskip("sentence_transformers")
pytest.importorskip("faiss")

TEXT = SentenceTransformerEncoder()  # the packaged all-MiniLM-L6-v2, offline


def two_sessions():
    return history_from_dict(
        {
            "user_id": "u",
            "sessions": [
                {
                    "session_id": "S1",
                    "date": "2026-03-01",
                    "rounds": [
                        {"user": "I adopted a grey kitten named Miso."},
                        {"user": "What is a good recipe for banana bread?"},
                        {"user": "My favourite football team lost again on Sunday."},
                    ],
                },
                {
                    "session_id": "S2",
                    "date": "2026-03-09",
                    "rounds": [
                        {"user": "We plan a hiking trip to the Dolomites in July."},
                        {"user": "Can you recommend a laptop for video editing?"},
                        {"user": "The kitten Miso knocked a plant off the shelf."},
                    ],
                },
            ],
        }
    )


def open_memory(path=":memory:", visual=None, **kw):
    return Memory(path, user_id="u", text_encoder=TEXT, visual_encoder=visual, **kw)


def test_semantic_match_scopes_and_meta():
    with open_memory() as m:
        rep = m.ingest(two_sessions())
        assert rep.rounds_indexed == 6
        (top, *_rest) = m.semantic_match("hiking in the mountains", "event", 3)
        assert top.unit_id == "S2:1" and top.session_id == "S2" and top.order == 4
        assert top.time == "2026-03-09T00:00:00" and 0 < top.score <= 1
        eps = m.semantic_match("kitten", "episode", 2)
        assert all(u.unit_type == "episode" and u.round_ids for u in eps)
        topics = m.semantic_match("kitten", "topic", 1)
        assert topics[0].unit_type == "topic"
        with pytest.raises(ToolInputError):
            m.semantic_match("x", "planet", 1)
        with pytest.raises(ToolInputError):
            m.semantic_match("", "event", 1)
        with pytest.raises(ToolInputError):
            m.semantic_match("x", "event", 0)


def test_event_locate_windows_stop_at_session_edges():
    with open_memory() as m:
        m.ingest(two_sessions())
        (first,) = m.event_locate("hiking trip to the Dolomites", 1)
        assert first.unit_id == "S2:1"
        assert [n.unit_id for n in first.neighbours] == ["S2:2"]  # not S1:3
        (last,) = m.event_locate("kitten knocked a plant off the shelf", 1)
        assert last.unit_id == "S2:3" and [n.unit_id for n in last.neighbours] == [
            "S2:2"
        ]
        (mid,) = m.event_locate("banana bread recipe", 1)
        assert [n.unit_id for n in mid.neighbours] == ["S1:1", "S1:3"]


def test_persistence_round_trip(database, tmp_path):
    path = database("m")
    with open_memory(path) as m:
        m.ingest(two_sessions())
        before = [u.model_dump() for u in m.semantic_match("pets", "event", 6)]
        eps = [u.model_dump() for u in m.semantic_match("pets", "episode", 10)]
        shape = (
            len(m.retrieval.hierarchy.episodes),
            len(m.retrieval.hierarchy.topics),
            m.retrieval.hierarchy.current,
        )
    with open_memory(path) as m:
        assert [u.model_dump() for u in m.semantic_match("pets", "event", 6)] == before
        assert [u.model_dump() for u in m.semantic_match("pets", "episode", 10)] == eps
        h = m.retrieval.hierarchy
        assert (len(h.episodes), len(h.topics), h.current) == shape
        rep = m.ingest(two_sessions())
        assert rep.rounds_indexed == 0 and m.retrieval.event_count == 6


def test_reopening_with_another_encoder_is_refused(database, tmp_path):
    path = database("m")
    with open_memory(path) as m:
        m.ingest(two_sessions())

    class Other:
        name, dim = "other-encoder", 384

        def encode(self, texts):
            return np.ones((len(texts), 384), np.float32) / np.sqrt(384)

    with pytest.raises(AdaMMError, match="same encoder"):
        Memory(path, user_id="u", text_encoder=Other(), visual_encoder=None)


@pytest.fixture(scope="module")
def tiny_clip():
    torch = pytest.importorskip("torch")
    open_clip = pytest.importorskip("open_clip")
    from open_clip.model import CLIP, CLIPTextCfg, CLIPVisionCfg

    torch.manual_seed(0)
    model = CLIP(
        embed_dim=32,
        vision_cfg=CLIPVisionCfg(
            layers=2, width=64, patch_size=8, image_size=32, head_width=32
        ),
        text_cfg=CLIPTextCfg(
            context_length=16, vocab_size=49408, width=64, heads=2, layers=2
        ),
    )
    return OpenClipEncoder(
        model,
        open_clip.image_transform(32, is_train=False),
        open_clip.tokenizer.SimpleTokenizer(context_length=16),
        name="tiny-random-clip",
        device="cpu",
    )


def image_history(tmp_path, files):
    return {
        "user_id": "u",
        "sessions": [
            {
                "session_id": "S1",
                "date": "2026-03-01",
                "rounds": [{"user": text, "images": imgs} for text, imgs in files],
            }
        ],
    }


def test_visual_path_with_a_random_init_open_clip(tmp_path, tiny_clip):
    from PIL import Image

    for name, color in (("red.png", (220, 20, 20)), ("blue.png", (20, 20, 220))):
        Image.new("RGB", (64, 48), color).save(tmp_path / name)
    doc = image_history(
        tmp_path,
        [
            (
                "A photo of my new red bicycle.",
                [{"path": "red.png", "caption": "a red bike"}],
            ),
            ("The lake was so blue today.", [{"path": "blue.png"}]),
            ("No picture this time, just a question about taxes.", []),
        ],
    )
    import json

    p = tmp_path / "h.json"
    p.write_text(json.dumps(doc))
    with open_memory(visual=tiny_clip) as m:
        rep = m.ingest(p)
        assert rep.rounds_indexed == 3 and not rep.image_problems
        r = m.retrieval
        events = r.hierarchy.events
        assert events["S1:1"].visual_vec is not None and events[
            "S1:1"
        ].visual_vec.shape == (32,)
        assert events["S1:3"].visual_vec is None
        assert np.isclose(np.linalg.norm(events["S1:2"].visual_vec), 1.0, atol=1e-5)
        views = dict(
            m.db.fetchall("SELECT view, count(*) FROM adamm_event_views GROUP BY view")
        )
        assert views["image:S1:1:IMG_1"] == 1 and views["caption:S1:1:IMG_1"] == 1
        units = m.semantic_match("bicycle", "event", 3)
        assert {u.unit_id for u in units} == {"S1:1", "S1:2", "S1:3"}
        # Scores of image-bearing events fuse text and image; others are text-only.
        q_text = TEXT.encode(["bicycle"])[0]
        q_vis = tiny_clip.encode_text(["bicycle"])[0]
        scores = r.event_scores(q_text, q_vis, 50)
        pos = r.hierarchy.events.position("S1:3")
        rows = np.stack(
            [
                np.frombuffer(bytes(v), dtype=np.float32)
                for (v,) in m.db.fetchall(
                    "SELECT vec FROM adamm_event_views WHERE round_id = 'S1:3' "
                    "AND modality = 'text'"
                )
            ]
        )
        text_only = float(np.max(rows @ q_text))
        assert scores[pos] == pytest.approx(text_only, abs=1e-5)


def test_broken_and_missing_images_keep_the_round(tmp_path, tiny_clip):
    (tmp_path / "broken.png").write_bytes(b"this is not a png")
    doc = image_history(
        tmp_path,
        [
            ("My grandmother's apple pie recipe card.", [{"path": "broken.png"}]),
            ("A scan of the concert ticket for Friday.", [{"path": "gone.png"}]),
            ("Weather is nice.", []),
        ],
    )
    import json

    p = tmp_path / "h.json"
    p.write_text(json.dumps(doc))
    with open_memory(visual=tiny_clip) as m:
        rep = m.ingest(p)
        assert any(
            "image file not found" in str(x) and "gone.png" in str(x)
            for x in rep.problems
        )
        assert [(r, i) for r, i, _ in rep.image_problems] == [("S1:1", "S1:1:IMG_1")]
        assert "unreadable image" in rep.image_problems[0][2]
        assert "broken.png" in rep.image_problems[0][2]
        assert m.analytic.round_status() == {"extracted": 3}
        assert m.semantic_match("apple pie recipe", "event", 1)[0].unit_id == "S1:1"
        assert m.semantic_match("concert ticket", "event", 1)[0].unit_id == "S1:2"
        problems = m.db.fetchall(
            "SELECT image_id, problem FROM adamm_images WHERE problem IS NOT NULL "
            "ORDER BY image_id"
        )
        assert [p[0] for p in problems] == ["S1:1:IMG_1", "S1:2:IMG_1"]


def test_retrieval_can_be_turned_off():
    with Memory(":memory:", user_id="u", retrieval=False, config=AdaMMConfig()) as m:
        m.ingest(two_sessions())
        with pytest.raises(AdaMMError, match="retrieval memory is off"):
            m.semantic_match("x")


def test_model_describes_closed_episodes_and_topics_only():
    from langchain_core.messages import AIMessage

    from langgraph_adamm.analytic.extraction import RuleExtractor
    from tests.conftest import scripted

    model = scripted([AIMessage(content=f"summary {i}") for i in range(20)])
    with Memory(
        ":memory:",
        user_id="u",
        model=model,
        extractor=RuleExtractor(),
        text_encoder=TEXT,
        visual_encoder=None,
    ) as m:
        m.ingest(two_sessions())
        h = m.retrieval.hierarchy
        closed = [e for e in h.episodes.values() if e.closed]
        assert closed and all(e.description.startswith("summary") for e in closed)
        assert all(t.description.startswith("summary") for t in h.topics.values())
        assert not h.episodes[h.current].description.startswith("summary")  # still open
        used = 20 - len(list(model.messages))
        # one call per closed episode and one per topic it grew: not one per event
        assert used == len(closed) + sum(len(t.episode_ids) for t in h.topics.values())
        # nodes are embedded from their descriptions (AdaMM App. A)
        for ep in closed:
            assert np.allclose(ep.text_vec, TEXT.encode([ep.description])[0], atol=1e-5)
        for t in h.topics.values():
            assert np.allclose(t.text_vec, TEXT.encode([t.description])[0], atol=1e-5)


def test_gap_rule_applies_to_out_of_order_sessions():
    doc = {
        "user_id": "u",
        "sessions": [
            {
                "session_id": s,
                "date": d,
                "rounds": [{"user": "Practising scales on the violin."}],
            }
            for s, d in (
                ("S1", "2026-03-10"),
                ("S2", "2026-01-01"),
                ("S3", "2026-03-20"),
            )
        ],
    }
    with open_memory() as m:
        m.ingest(history_from_dict(doc))
        assert [e.event_ids for e in m.retrieval.hierarchy.episodes.values()] == [
            ["S1:1"],
            ["S2:1"],
            ["S3:1"],
        ]


def test_budget_is_filled_even_when_events_have_many_views():
    rounds = [
        {
            "user": f"photo set {i}",
            "images": [{"caption": f"picture {i}-{c} of a garden"} for c in range(9)],
        }
        for i in range(8)
    ]
    rounds += [{"user": f"a note about garden chores number {i}"} for i in range(20)]
    doc = {"user_id": "u", "sessions": [{"session_id": "S1", "rounds": rounds}]}
    with open_memory() as m:
        m.ingest(history_from_dict(doc))
        for budget in (10, 12, 28, 40):
            units = m.semantic_match("garden", "event", budget)
            assert len(units) == min(budget, 28)
        assert len(m.retrieval.retrieve_rounds("garden", 25)) == 25
        with pytest.raises(ToolInputError):
            m.retrieval.retrieve_rounds("garden", -1)
        with pytest.raises(ToolInputError):
            m.semantic_match("garden", "event", True)


def test_image_only_rounds_get_no_made_up_text_vector(tmp_path, tiny_clip):
    from PIL import Image

    Image.new("RGB", (40, 40), (0, 200, 0)).save(tmp_path / "g.png")
    doc = {
        "user_id": "u",
        "sessions": [
            {
                "session_id": "S1",
                "rounds": [
                    {"images": [{"path": str(tmp_path / "g.png")}]},
                    {"user": "hello there"},
                ],
            }
        ],
    }
    with open_memory(visual=tiny_clip) as m:
        m.ingest(history_from_dict(doc, tmp_path))
        ev = m.retrieval.hierarchy.events["S1:1"]
        assert ev.text_vec is None and ev.visual_vec is not None
        assert m.db.fetchall(
            "SELECT count(*) FROM adamm_event_views WHERE round_id = 'S1:1' "
            "AND modality = 'text'"
        ) == [(0,)]


def test_a_decompression_bomb_is_one_images_problem(tmp_path, tiny_clip, monkeypatch):
    from PIL import Image

    Image.new("L", (100, 100)).save(tmp_path / "bomb.png")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)  # 10,000 px is now a "bomb"
    doc = {
        "user_id": "u",
        "sessions": [
            {
                "session_id": "S1",
                "rounds": [
                    {
                        "user": "a huge scan of the floor plan",
                        "images": [{"path": str(tmp_path / "bomb.png")}],
                    },
                    {"user": "and a note about the kitchen"},
                ],
            }
        ],
    }
    with open_memory(visual=tiny_clip) as m:
        rep = m.ingest(history_from_dict(doc, tmp_path))
        assert rep.rounds_indexed == 2 and len(rep.image_problems) == 1
        assert m.semantic_match("floor plan", "event", 1)[0].unit_id == "S1:1"


def test_text_only_session_keeps_the_visual_encoders_name(
    database, tmp_path, tiny_clip
):
    from PIL import Image

    Image.new("RGB", (40, 40), (200, 0, 0)).save(tmp_path / "r.png")
    path = database("m")
    first = {
        "user_id": "u",
        "sessions": [
            {
                "session_id": "S1",
                "rounds": [
                    {"user": "red", "images": [{"path": str(tmp_path / "r.png")}]}
                ],
            }
        ],
    }
    with open_memory(path, visual=tiny_clip) as m:
        m.ingest(history_from_dict(first, tmp_path))
    with open_memory(path) as m:  # text-only this time
        m.ingest(
            history_from_dict(
                {
                    "user_id": "u",
                    "sessions": [
                        {"session_id": "S2", "rounds": [{"user": "more text"}]}
                    ],
                }
            )
        )

    class OtherClip:
        name, dim = "another-clip", 32

        def encode_images(self, images):
            return np.ones((len(images), 32), np.float32) / np.sqrt(32)

        def encode_text(self, texts):
            return np.ones((len(texts), 32), np.float32) / np.sqrt(32)

    with pytest.raises(AdaMMError, match="tiny-random-clip"):
        open_memory(path, visual=OtherClip())


def test_episode_and_topic_search_scores_every_node_as_fused_similarity(
    tmp_path, tiny_clip
):
    import json

    from PIL import Image

    from langgraph_adamm.retrieval.hierarchy import fused_similarity

    for name, color in (("red.png", (220, 20, 20)), ("blue.png", (20, 20, 220))):
        Image.new("RGB", (64, 48), color).save(tmp_path / name)
    doc = image_history(
        tmp_path,
        [
            ("A photo of my new red bicycle.", [{"path": "red.png"}]),
            ("The lake was so blue today.", [{"path": "blue.png"}]),
            ("No picture this time, just a question about taxes.", []),
        ],
    )
    doc["sessions"][0]["session_id"] = "S7"
    (tmp_path / "h.json").write_text(json.dumps(doc))
    with open_memory(visual=tiny_clip) as m:
        m.ingest(two_sessions())
        m.ingest(tmp_path / "h.json")
        r = m.retrieval
        h = r.hierarchy
        for scope, nodes in (("episode", h.episodes), ("topic", h.topics)):
            for query in ("bicycle", "garden tomatoes"):
                q_text, q_visual = r._query_vectors(query)
                expected = sorted(
                    (
                        -fused_similarity(
                            q_text, q_visual, n.text_vec, n.visual_vec, 0.6, 0.4
                        ),
                        i,
                    )
                    for i, n in enumerate(nodes.values())
                )
                units = m.semantic_match(query, scope, len(nodes))
                # the embedding part; the fused score adds the words matched
                assert sorted(
                    (u.dense_score for u in units), reverse=True
                ) == pytest.approx([-s for s, _ in expected], abs=1e-5)
        before = len(m.semantic_match("bicycle", "episode", 100))
        m.ingest(history_from_dict({"user_id": "u", "sessions": [{
            "session_id": "S9", "date": "2026-09-01",
            "rounds": [{"user": "Completely new subject: opera tickets."}],
        }]}))  # fmt: skip
        assert len(m.semantic_match("bicycle", "episode", 100)) == before + 1


def test_split_to_window_cuts_at_sentence_ends_within_the_window():
    from langgraph_adamm.retrieval.encoders import split_to_window

    tok = SentenceTransformerEncoder(backend="torch")._model.tokenizer

    def count(s):
        return len(tok(s, add_special_tokens=False)["input_ids"])

    sentences = [f"On day {i} I watered the {w} plants." for i, w in
                 enumerate(["tomato", "basil", "pepper", "mint"] * 12)]  # fmt: skip
    text = " ".join(sentences)
    pieces = split_to_window(text, count, 60)
    assert len(pieces) > 1 and " ".join(pieces) == text
    assert all(count(p) <= 60 for p in pieces)
    assert all(p.endswith(".") for p in pieces)  # never mid-sentence
    # one sentence longer than the window is cut between words
    long = " ".join(f"word{i}" for i in range(200))
    cut = split_to_window(long, count, 50)
    assert " ".join(cut) == long and all(count(p) <= 50 for p in cut)
    assert split_to_window("short text", count, 50) == ["short text"]


def test_long_views_are_stored_in_pieces_and_their_tail_is_found():
    filler = " ".join(
        f"Item {i}: I compared prices for the kitchen renovation and wrote notes."
        for i in range(60)
    )  # well past MiniLM's 256 tokens
    tail = "Finally, the plumber's name is Oskar Lindqvist and he starts Monday."
    rounds = [
        {"user": filler + " " + tail},
        {"user": "Where can I buy fresh sourdough bread nearby?"},
        {"user": "Which plumber did the neighbours recommend?"},
    ]
    doc = {
        "user_id": "u",
        "sessions": [{"session_id": "S1", "date": "2026-03-01", "rounds": rounds}],
    }
    scores = {}
    for chunked in (True, False):
        with open_memory(config=AdaMMConfig(chunk_views=chunked)) as m:
            m.ingest(history_from_dict(doc))
            views = [
                v
                for (v,) in m.db.fetchall(
                    "SELECT view FROM adamm_event_views WHERE round_id = 'S1:1' "
                    "ORDER BY view"
                )
            ]
            units = m.semantic_match(
                "plumber Oskar Lindqvist starts Monday", "event", 3
            )
            scores[chunked] = {u.unit_id: u.score for u in units}
            if chunked:
                assert views[0] == "round" and len(views) >= 3
                assert set(views[1:]) == {
                    f"round|{k}" for k in range(2, len(views) + 1)
                }
                assert units[0].unit_id == "S1:1"
                assert units[0].content.endswith(tail)  # the event keeps its whole text
                # the round's vector stands for every piece, not the first
                event = m.retrieval.hierarchy.events["S1:1"]
                pieces = TEXT.chunks(lexical_text(event.text))  # as embedded
                assert len(pieces) == len(views)
                weights = np.array([len(p) for p in pieces], dtype=np.float64)
                mean = (TEXT.encode(pieces) * weights[:, None]).sum(0) / weights.sum()
                assert np.allclose(
                    event.text_vec, mean / np.linalg.norm(mean), atol=1e-5
                )
            else:
                assert views == ["round"]
    assert scores[True]["S1:1"] > scores[False]["S1:1"] + 0.1


def test_without_whole_round_views_an_image_round_is_composed_from_its_views():
    """By default (encode_image_round_views=False) a round with images is encoded as its
    dialogue, caption and OCR views only; its whole-round view and text vector
    are their mean weighted by text length, searched like an encoded one; a
    round without images keeps its encoded whole-round view."""
    rounds = [
        {
            "user": "Here is the receipt from the hardware store.",
            "assistant": "Got it, I will file it.",
            "images": [
                {"image_id": "R1", "caption": "A paper receipt", "ocr": "Nails $4.10"}
            ],
        },
        {"user": "Where can I buy fresh sourdough bread nearby?"},
        {"images": [{"image_id": "B1", "caption": "A red bicycle by a fence"}]},
    ]
    doc = {
        "user_id": "u",
        "sessions": [{"session_id": "S1", "date": "2026-03-01", "rounds": rounds}],
    }
    with open_memory() as m:
        m.ingest(history_from_dict(doc))
        views = {
            (r, v)
            for r, v in m.db.fetchall(
                "SELECT round_id, view FROM adamm_event_views WHERE modality = 'text'"
            )
        }
        assert views == {
            ("S1:1", "round"),
            ("S1:1", "dialogue"),
            ("S1:1", "caption:R1"),
            ("S1:1", "ocr:R1"),
            ("S1:2", "round"),
            ("S1:3", "caption:B1"),  # one view: it is the round's vector, no copy
        }
        bike = m.retrieval.hierarchy.events["S1:3"]
        assert np.allclose(
            bike.text_vec, TEXT.encode(["A red bicycle by a fence"])[0], atol=1e-5
        )
        texts = [
            "Here is the receipt from the hardware store.\nGot it, I will file it.",
            "A paper receipt",
            "Nails $4.10",
        ]
        weights = np.array([len(t) for t in texts], dtype=np.float64)[:, None]
        mean = (TEXT.encode(texts) * weights).sum(axis=0) / weights.sum()
        expected = mean / np.linalg.norm(mean)
        event = m.retrieval.hierarchy.events["S1:1"]
        assert np.allclose(event.text_vec, expected, atol=1e-5)
        encoded = TEXT.encode([event.text])[0]  # what was not encoded
        assert float(event.text_vec @ encoded) < 0.999
        ((stored,),) = m.db.fetchall(
            "SELECT vec FROM adamm_event_views WHERE round_id = 'S1:1' "
            "AND view = 'round'"
        )
        assert np.allclose(np.frombuffer(stored, dtype=np.float32), expected, atol=1e-5)
        # searched: the best view of the round is its composed one here
        hits = m.retrieval.event_scores(expected, None, 2)
        assert hits[0] == pytest.approx(1.0, abs=1e-5)
        assert m.semantic_match("receipt for nails", "event", 1)[0].unit_id == "S1:1"
    with open_memory(config=AdaMMConfig(encode_image_round_views=True)) as m:
        m.ingest(history_from_dict(doc))
        ((stored,),) = m.db.fetchall(
            "SELECT vec FROM adamm_event_views WHERE round_id = 'S1:1' AND "
            "view = 'round'"
        )
        event = m.retrieval.hierarchy.events["S1:1"]
        encoded = TEXT.encode([lexical_text(event.text)])[0]  # without the labels
        assert np.allclose(np.frombuffer(stored, dtype=np.float32), encoded, atol=1e-5)
        assert np.allclose(event.text_vec, encoded, atol=1e-5)
