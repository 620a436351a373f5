"""The evidence forest end to end: standalone reranker, memory reranker, query graph."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr

from langgraph_adamm import AdaMMError, ForestConfig, forest_rerank
from langgraph_adamm.forest import ForestCandidate, ForestReranker
from langgraph_adamm.forest.rerank import OFFLINE_OFF_NOTE
from langgraph_adamm.forest.verifiers import ECV_PROMPT, NODE_VERIFIER_PROMPT
from langgraph_adamm.graphs import create_query_graph
from langgraph_adamm.retrieval.search import MemoryUnit
from tests.test_forest_discovery import garden_history, open_memory

pytest.importorskip("faiss")


def cands() -> list[ForestCandidate]:
    """Round R1 holds the answer in two turns; R2 and R3 are near-duplicates."""
    return [
        ForestCandidate("R2#user", "R2", "Tomatoes again, nothing new.", 0.60,
                        session_id="S", position=5),
        ForestCandidate("R1#user", "R1", "I planted Roma tomatoes.", 0.55,
                        session_id="S", position=0),
        ForestCandidate("R3#user", "R3", "Tomatoes, still nothing new.", 0.58,
                        session_id="S", position=9),
        ForestCandidate("R1#assistant", "R1", "Roma needs staking in June.", 0.30,
                        session_id="S", position=1),
    ]  # fmt: skip


def test_offline_default_does_not_rerank_and_says_why():
    result = forest_rerank("when to stake tomatoes?", cands())
    assert result.mode == "off" and result.notes == [OFFLINE_OFF_NOTE]
    # the retrieval order, as given (not re-sorted by score)
    assert [m.memory_id for m in result.selected] == [
        "R2#user", "R1#user", "R3#user", "R1#assistant",
    ]  # fmt: skip
    assert result.edges == [] and result.retrieval_rounds == ["R2", "R1", "R3", "R1"]


def test_fixed_edge_variant_links_explicit_relations():
    result = forest_rerank(
        "when to stake tomatoes?", cands(), config=ForestConfig(offline=True)
    )
    assert result.mode == "fixed-edge"
    assert any("fixed-edge" in n for n in result.notes)
    # R1's two turns share a round (and are consecutive): one chain of two
    pairs = {(e["source"], e["target"]) for e in result.edges}
    assert ("R1#user", "R1#assistant") in pairs
    assert all(
        e["role"] == "related" and e["reliability"] == 0.99 for e in result.edges
    )
    chained = next(m for m in result.selected if m.memory_id == "R1#assistant")
    assert chained.anchor == "R1#user" and chained.role == "related"
    # u(0.60) ~ 0.19 and u(0.58) ~ 0.18 beat κ = 0.12 alone; R1's turns
    # (u ~ 0.15 and 0.05) are worth more as one chain than apart
    assert [m.memory_id for m in result.selected] == [
        "R2#user", "R3#user", "R1#user", "R1#assistant",
    ]  # fmt: skip
    assert result.round_ids() == ["R2", "R3", "R1"]


def test_candidates_from_memory_units_and_mappings():
    units = [
        MemoryUnit(unit_type="event", unit_id="S1:1", score=0.7, content="a",
                   round_ids=["S1:1"], session_id="S1", order=0),
        {"memory_id": "S1:2", "score": 0.5, "text": "b", "session_id": "S1",
         "position": 1},
    ]  # fmt: skip
    result = forest_rerank("q", units, config=ForestConfig(offline=True))
    assert [m.round_id for m in result.selected] == ["S1:1", "S1:2"]
    assert result.edges and result.edges[0]["relation"] == "consecutive_turn"


def test_empty_candidates_with_a_model_make_no_call():
    model = ScriptedVerifiers()
    result = forest_rerank("q", [], model=model)
    assert result.mode == "verified" and result.selected == [] and model.kinds == []
    assert "no candidate memories" in result.notes[0]


@pytest.mark.parametrize(
    "bad",
    [
        [{"score": 0.4}],
        [{"id": "x", "score": "high"}],
        [{"id": "x", "score": float("nan")}],
        [object()],
        [{"id": "x", "score": 0.1}, {"id": "x", "score": 0.2}],
        [{"id": "x"}],
        [{"id": "x", "score": 0.1, "position": "4"}],
        [ForestCandidate("m", "r", "t", float("inf"))],
    ],
)
def test_bad_candidates_name_what_is_wrong(bad):
    with pytest.raises(AdaMMError, match="candidate"):
        forest_rerank("q", bad, config=ForestConfig(offline=True))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"reader_budget": 25},
        {"reader_budget": 0},
        {"seeds": 60},
        {"reliability_ceiling": 1.5},
        {"kappa": -0.1},
        {"attempts": 0},
    ],
)
def test_forest_config_is_checked(kwargs):
    with pytest.raises(ValueError, match="ForestConfig"):
        ForestConfig(**kwargs)


class ScriptedVerifiers(BaseChatModel):
    """Plays every model role of the query graph, routed by prompt.

    The two verifier calls wait on a barrier: if they were not in flight at the
    same time the barrier breaks and the forest falls back (a test failure).
    Verifier answers are derived from the payload: a candidate mentioning
    ``stake`` scores 5 and is a new fact for its first eligible anchor.
    """

    answer_word: str = "stake"
    reader_prompts: list[str] = Field(default_factory=list)
    kinds: list[str] = Field(default_factory=list)
    _barrier: threading.Barrier = PrivateAttr(
        default_factory=lambda: threading.Barrier(2, timeout=10)
    )
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted-verifiers"

    def _reply(self, messages: list[BaseMessage]) -> dict[str, Any]:
        first = str(messages[0].content)
        # the layer may add the output schema after the prompt
        if first.startswith((NODE_VERIFIER_PROMPT, ECV_PROMPT)):
            kind = "node" if first.startswith(NODE_VERIFIER_PROMPT) else "ecv"
            with self._lock:
                self.kinds.append(kind)
            self._barrier.wait()
            payload = json.loads(str(messages[1].content))
            hit = {c["id"] for c in payload["candidates"]
                   if self.answer_word in c["snippet"].lower()}  # fmt: skip
            if kind == "node":
                return {"scores": [{"id": i, "score": 5} for i in sorted(hit)]}
            rows = []
            for c in payload["candidates"]:
                anchor = c["eligible_anchor_relations"][0]["anchor_id"]
                good = c["id"] in hit
                rows.append(
                    {
                        "id": c["id"],
                        "best_anchor_id": anchor,
                        "incremental_support": 4 if good else 0,
                        "role": "new_fact" if good else "irrelevant",
                    }
                )
            return {"rows": rows}
        with self._lock:
            self.kinds.append(first[:20])
        if first.startswith("You plan how"):
            return {"steps": [{"goal": "recall the garden", "tool": "semantic_match"}]}
        if first.startswith("Fill in the arguments"):
            return {"query_content": "tomatoes", "retrieval_scope": "event",
                    "result_budget": 3}  # fmt: skip
        assert first.startswith("Answer the user's"), first[:80]
        self.reader_prompts.append(first)
        return {"answer": "Water them deeply twice a week.", "evidence": ["S1:1"]}

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:  # fmt: skip
        message = AIMessage(content=json.dumps(self._reply(messages)))
        return ChatResult(generations=[ChatGeneration(message=message)])


@pytest.fixture
def garden() -> Any:
    with open_memory(True) as m:
        m.ingest(garden_history())
        yield m


def test_memory_reranker_with_verifiers(garden):
    model = ScriptedVerifiers(answer_word="water")
    result = ForestReranker(garden, model=model).rerank("How do I care for tomatoes?")
    assert result.mode == "verified"
    assert sorted(model.kinds) == ["ecv", "node"]
    assert not [n for n in result.notes if "failed" in n]
    top = result.selected[0]
    # the only memory the verifier supports comes first, with the highest utility
    assert top.memory_id == "S1:1#assistant" and top.verifier_score == 5
    assert top.utility == max(m.utility for m in result.selected)
    assert set(result.round_ids()) <= {r for r in result.pool_round_ids}


def test_query_graph_forest_node(garden):
    model = ScriptedVerifiers(answer_word="water")
    graph = create_query_graph(garden, model=model, rerank="forest").compile()
    out = graph.invoke({"question": "How often should I water the tomatoes?"})
    assert out["answer"] == "Water them deeply twice a week."
    # both verifiers ran, concurrently (the barrier would have broken otherwise)
    assert sorted(k for k in model.kinds if k in ("node", "ecv")) == ["ecv", "node"]
    assert not [n for n in out["notes"] if "fail" in n], out["notes"]
    step = out["steps"][0]
    forest = step["result"]["forest"]
    assert forest["mode"] == "verified"
    # the selection keeps within the step's share of the budget
    assert len(step["result"]["units"]) <= 3 and step["cost"] == len(
        step["result"]["units"]
    )
    assert step["summary"].startswith("evidence forest (verified)")
    assert step["result"]["units"][0]["unit_id"] == "S1:1#assistant"
    assert step["evidence"] == list(dict.fromkeys(
        u["round_ids"][0] for u in step["result"]["units"]))  # fmt: skip
    # the forest and its roles reach the reader
    (prompt,) = model.reader_prompts
    assert '"forest"' in prompt and '"role"' in prompt and "S1:1#assistant" in prompt


def test_query_graph_forest_offline_is_off_and_says_why(garden):
    plain = (
        create_query_graph(garden).compile().invoke({"question": "tomato seedlings"})
    )
    out = (
        create_query_graph(garden, rerank="forest")
        .compile()
        .invoke({"question": "tomato seedlings"})
    )
    assert OFFLINE_OFF_NOTE in out["notes"]
    assert out["steps"] == plain["steps"] and out["answer"] == plain["answer"]


def test_query_graph_rejects_unknown_rerank(garden):
    with pytest.raises(AdaMMError, match="unknown rerank"):
        create_query_graph(garden, rerank="forests")


def test_query_graph_forest_offline_forced():
    with open_memory(True, forest=ForestConfig(offline=True)) as m:
        m.ingest(garden_history())
        out = (
            create_query_graph(m, rerank="forest")
            .compile()
            .invoke({"question": "bike chain"})
        )
        step = out["steps"][0]
        assert step["result"]["forest"]["mode"] == "fixed-edge"
        assert all("#" in u["unit_id"] for u in step["result"]["units"])
        assert any("fixed-edge" in n for n in out["notes"])


class EpisodeThenVerify(ScriptedVerifiers):
    """Plans one episode-scope SemanticMatch."""

    def _reply(self, messages: list[BaseMessage]) -> dict[str, Any]:
        first = str(messages[0].content)
        if first.startswith("Fill in the arguments"):
            return {"query_content": "tomatoes", "retrieval_scope": "episode",
                    "result_budget": 2}  # fmt: skip
        return super()._reply(messages)


def test_query_graph_forest_keeps_episode_results(garden):
    model = EpisodeThenVerify(answer_word="water")
    out = (
        create_query_graph(garden, model=model, rerank="forest")
        .compile()
        .invoke({"question": "How often should I water the tomatoes?"})
    )
    step = out["steps"][0]
    assert all(u["unit_type"] == "episode" for u in step["result"]["units"])
    assert "forest" not in step["result"] and "node" not in model.kinds


def test_reranker_follows_a_growing_memory():
    with open_memory(True, forest=ForestConfig(offline=True)) as m:
        history = garden_history()
        first, second = history.sessions
        m.ingest(type(history)(history.user_id, (first,)))
        reranker = ForestReranker(m)
        assert {s.round_id for s in reranker.rerank("bike chain").selected} <= {
            "S1:1", "S1:2", "S1:3",
        }  # fmt: skip
        m.ingest(type(history)(history.user_id, (second,)))
        grown = reranker.catalogue
        fresh = ForestReranker(m).catalogue
        assert [x.memory_id for x in grown.memories] == [
            x.memory_id for x in fresh.memories
        ]
        assert grown.primary_rows == fresh.primary_rows
        assert reranker.rerank("bike chain").selected[0].round_id.startswith("S2")
