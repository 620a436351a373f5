"""An analytic question planned from kept vectors: no text model, the same plan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from langgraph_adamm.history import history_from_dict  # noqa: E402
from langgraph_adamm.planning.context import (  # noqa: E402
    ContextBuilder,
    PlanningContext,
    TableCard,
)
from langgraph_adamm.planning.rule_planner import _Mapping, _settled  # noqa: E402
from langgraph_adamm.planning.vectors import KeptVectors, column_phrases  # noqa: E402
from langgraph_adamm.storage.text_vectors import stored_vectors  # noqa: E402

LOADED = (
    "onnxruntime",
    "torch",
    "sentence_transformers",
    "faiss",
    # what writes a memory or searches it: reading one needs none of it
    "langgraph_adamm.analytic.extraction.rule_extractor",
    "langgraph_adamm.analytic.extraction.llm",
    "langgraph_adamm.ingestion",
    "langgraph_adamm.forgetting",
    "langgraph_adamm.retrieval.memory",
)


def sleep_and_coffee():
    rounds = []
    for day in range(1, 11):
        rounds.append(
            {
                "user": f"Sleep log: total sleep {6 + day / 10:.1f} h, deep sleep "
                f"{1 + day / 20:.2f} h, resting HR {50 + day} bpm",
                "assistant": "Noted.",
                "time": f"2026-03-{day:02d}T08:00:00",
            }
        )
        rounds.append(
            {
                "user": "Coffee at Cafe Luna: flat white, price "
                f"{3 + day / 10:.2f} EUR",
                "assistant": "Enjoy.",
                "time": f"2026-03-{day:02d}T10:00:00",
            }
        )
    return history_from_dict(
        {"user_id": "u", "sessions": [{"session_id": "S1", "rounds": rounds}]}
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    folder = tmp_path_factory.mktemp("onnx-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ADAMM_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def memory_file(cache, tmp_path_factory):
    db = tmp_path_factory.mktemp("kept") / "m.duckdb"
    config = AdaMMConfig(text_backend="onnx")
    with Memory(db, user_id="u", visual_encoder=None, config=config) as m:
        m.ingest(sleep_and_coffee())
    return db


def test_writing_a_memory_keeps_its_column_names_vectors_and_the_lexicon(
    memory_file, cache
):
    with Memory(memory_file, user_id="u", visual_encoder=None) as m:
        phrases = column_phrases(m.analytic.tables)
        assert "total sleep" in phrases
        encoder = m.queries.memory._shared.text_encoder()
        stored = stored_vectors(m.db, "u", "all-MiniLM-L6-v2|fp32")
        assert set(stored) == set(phrases)
        fresh = encoder.encode(["total sleep"])[0]
        assert float(stored["total sleep"] @ fresh) > 0.9999
    assert list(cache.rglob("lexicon.npy")) and list(cache.rglob("lexicon.txt"))


@pytest.mark.parametrize("k_tables", [5, 1])
def test_a_cold_analytic_question_loads_no_text_model_and_answers_the_same(
    memory_file, cache, k_tables
):
    """Also where the memory holds more tables than the context's ``k_tables``:
    the rules read every table, so their pick needs no scores."""
    question = "What was my average total sleep?"
    code = textwrap.dedent(f"""
        import json, sys
        from langgraph_adamm import AdaMMConfig, Memory
        config = AdaMMConfig(k_tables={k_tables})
        with Memory(sys.argv[1], user_id="u", visual_encoder=None,
                    config=config) as m:
            out = m.ask({question!r})
        print(json.dumps({{"value": out["value"],
                          "loaded": [x for x in {LOADED!r} if x in sys.modules]}}))
    """)
    env = {**os.environ, "ADAMM_CACHE_DIR": str(cache)}
    run = subprocess.run(
        [sys.executable, "-c", code, str(memory_file)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    cold = json.loads(run.stdout.strip().splitlines()[-1])
    assert cold["loaded"] == []
    assert cold["value"] == pytest.approx(np.mean([6 + d / 10 for d in range(1, 11)]))
    # the same answer with the model loaded and the context scored first
    config = AdaMMConfig(k_tables=k_tables)
    with Memory(memory_file, user_id="u", visual_encoder=None, config=config) as m:
        assert len(m.analytic.tables) == 2
        m.semantic_match("sleep")  # opens retrieval, loads the model
        assert m.ask(question)["value"] == pytest.approx(cold["value"])


def test_a_compute_from_a_fresh_interpreter_imports_no_model(memory_file, cache):
    code = textwrap.dedent(f"""
        import json, sys
        from langgraph_adamm import Memory
        with Memory(sys.argv[1], user_id="u") as m:
            table = next(t.table_name for t in m.tables if "sleep" in t.table_name)
            out = m.compute({{"table": table, "operator": "count"}})
        heavy = {(*LOADED, "transformers", "open_clip")!r}
        print(json.dumps({{"value": out.value,
                          "loaded": [x for x in heavy if x in sys.modules]}}))
    """)
    env = {**os.environ, "ADAMM_CACHE_DIR": str(cache)}
    run = subprocess.run(
        [sys.executable, "-c", code, str(memory_file)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {
        "value": 10,
        "loaded": [],
    }


def test_kept_vectors_ask_the_model_only_for_what_they_lack():
    calls = []

    def encode(texts):
        calls.append(list(texts))
        return np.ones((len(texts), 2), dtype=np.float32)

    lexicon = {"sleep": np.array([1.0, 0.0], dtype=np.float32)}
    kept = KeptVectors(
        {"total sleep": np.array([0.0, 1.0], dtype=np.float32)}, lexicon.get, encode
    )
    out = kept(["sleep", "total sleep", "naps", "sleep"])
    assert out.shape == (4, 2)
    assert calls == [["naps"]] and kept.misses == 1
    assert out[0].tolist() == [1.0, 0.0] and out[1].tolist() == [0.0, 1.0]


def _card(name):
    return TableCard(name, "", 1, ())


def test_a_deferred_context_scores_only_when_asked():
    cards = [_card("a"), _card("b")]
    scored = []

    def resolve():
        scored.append(1)
        ranked = ((cards[1], 0.9), (cards[0], 0.1))
        return PlanningContext(ranked, (), "embedding+token")

    ctx = ContextBuilder(AdaMMConfig()).deferred("a question", cards, resolve)
    assert ctx is not None and not ctx.scored
    assert ctx.table("b") is cards[1] and ctx.table_cards == tuple(cards)
    assert ctx.unscored_dict()["scoring"] == "when needed"
    assert not scored
    assert [t.name for t, _ in ctx.tables] == ["b", "a"] and scored == [1]
    assert ctx.scored and ctx.scoring == "embedding+token"


def test_the_rules_context_keeps_every_table_a_models_the_top_k():
    cards = [_card("a"), _card("b")]
    builder = ContextBuilder(AdaMMConfig(k_tables=1))
    assert len(builder.build("q", cards, []).tables) == 1
    kept = builder.build("q", cards, [], every_table=True).tables
    assert sorted(t.name for t, _ in kept) == ["a", "b"]


def test_a_pick_is_settled_only_when_no_score_could_change_it():
    def mapping(score):
        return _Mapping(_card("x"), "avg", score, [], None, None, [])

    bounds = {"a": (-0.7, 0.7), "b": (-0.7, 0.7)}
    far = {"a": mapping(3.0), "b": mapping(1.0)}
    assert _settled(far, bounds) is far["a"]
    near = {"a": mapping(1.2), "b": mapping(1.0)}
    assert _settled(near, bounds) is None  # 0.2 apart; scores can swing 0.28
    assert _settled({"a": mapping(0.1)}, bounds) is not None
    assert _settled({"c": mapping(1.0)}, bounds) is None  # no bounds: score it
