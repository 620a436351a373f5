"""The evidence forest as a networkx graph, built offline (fixed-edge variant)."""

from __future__ import annotations

import networkx as nx
import pytest

from langgraph_adamm import AdaMMError, ForestConfig, forest_rerank
from langgraph_adamm.forest import (
    CandidatePool,
    ForestCandidate,
    ForestResult,
    forest_graph,
    pool_graph,
    selected_forest,
)
from langgraph_adamm.forest.graph import SNIPPET_WIDTH
from langgraph_adamm.forest.rerank import pool_from_candidates

QUESTION = "when to stake tomatoes?"
CONFIG = ForestConfig(offline=True, anchors=3, reader_budget=4)


def cands() -> list[ForestCandidate]:
    """R1's turns answer; R3's pair and R4's second turn relate to no anchor."""
    return [
        ForestCandidate("R1#user", "R1", "I planted Roma tomatoes along the south "
                        "fence this spring, next to the old compost heap.", 0.62,
                        session_id="S", position=0),
        ForestCandidate("R2#user", "R2", "Tomatoes again, nothing new.", 0.60,
                        session_id="S", position=5),
        ForestCandidate("R1#assistant", "R1", "Roma needs staking in June.", 0.35,
                        session_id="S", position=1),
        ForestCandidate("R3#user", "R3", "Still nothing new on tomatoes.", 0.58,
                        session_id="T", position=0),
        ForestCandidate("R3#assistant", "R3", "Noted.", 0.20,
                        session_id="T", position=1),
        ForestCandidate("R4#user", "R4", "The basil bolted.", 0.15,
                        session_id="S", position=6),
        ForestCandidate("R4#assistant", "R4", "Pinch the flowers.", 0.10,
                        session_id="S", position=7),
    ]  # fmt: skip


@pytest.fixture
def result() -> ForestResult:
    out = forest_rerank(QUESTION, cands(), config=CONFIG)
    assert out.mode == "fixed-edge" and len(out.edges) == 2  # a forest to look at
    return out


@pytest.fixture
def pool() -> CandidatePool:
    return pool_from_candidates(QUESTION, cands(), CONFIG)


def pairs(edges) -> set[frozenset[str]]:
    return {frozenset(e) for e in edges}


def test_graph_is_exactly_the_result_forest(result):
    graph = forest_graph(result)
    assert nx.is_forest(graph)
    assert list(graph.nodes) == [m.memory_id for m in result.selected]
    assert pairs(graph.edges) == pairs((e["source"], e["target"]) for e in result.edges)
    # one tree per chain root
    roots = [m.memory_id for m in result.selected if m.anchor is None]
    assert nx.number_connected_components(graph) == len(roots) == 2
    assert graph.graph == {"question": QUESTION, "mode": "fixed-edge"}


def test_nodes_carry_the_selection(result):
    graph = forest_graph(result)
    sources = {e["source"] for e in result.edges}
    for m in result.selected:
        node = graph.nodes[m.memory_id]
        assert node["selected"] is True
        assert node["rank"] == m.rank and node["role"] == m.role
        assert node["anchor"] == m.anchor
        assert (node["round_id"], node["text"], node["session_id"]) == (
            m.round_id, m.text, m.session_id,
        )  # fmt: skip
        assert (node["score"], node["utility"], node["verifier_score"]) == (
            m.score, m.utility, m.verifier_score,
        )  # fmt: skip
        assert node["is_anchor"] is (m.memory_id in sources)
        # a chained memory's anchor is its neighbour in the forest
        if m.anchor is not None:
            assert graph.has_edge(m.anchor, m.memory_id)
    assert graph.nodes["R1#assistant"]["role"] == "related"
    assert graph.nodes["R1#user"]["is_anchor"] is True
    assert graph.nodes["R1#assistant"]["is_anchor"] is False


def test_edges_carry_the_forest_edges(result):
    graph = forest_graph(result)
    for e in result.edges:
        edge = graph.edges[e["source"], e["target"]]
        assert edge == {
            "anchor": e["source"],
            "relation": e["relation"],
            "role": e["role"],
            "reliability": e["reliability"],
            "weight": e["reliability"],
            "in_forest": True,
        }
    assert graph.edges["R1#user", "R1#assistant"]["relation"] == "same_round"
    assert graph.edges["R4#user", "R2#user"]["anchor"] == "R2#user"


def test_with_the_pool_the_rest_is_marked_out_of_the_forest(result, pool):
    graph = forest_graph(result, pool)
    chosen = {m.memory_id for m in result.selected}
    assert set(graph.nodes) == {c.memory_id for c in pool.candidates}
    assert graph.number_of_nodes() == 7 > len(chosen)
    for i, c in enumerate(pool.candidates):
        node = graph.nodes[c.memory_id]
        assert node["index"] == i and node["is_anchor"] is (i in pool.anchors)
        assert node["selected"] is (c.memory_id in chosen)
        if c.memory_id not in chosen:
            assert node["rank"] is None and node["role"] is None
            assert node["score"] == c.score and node["text"] == c.text
    # every explicit relation is an edge; only the result's are in the forest
    assert pairs(graph.edges) == pairs(
        (pool.candidates[i].memory_id, pool.candidates[j].memory_id)
        for i, j in pool.explicit
    )
    forest = [(a, b) for a, b, f in graph.edges(data="in_forest") if f]
    assert pairs(forest) == pairs((e["source"], e["target"]) for e in result.edges)
    assert graph.number_of_edges() == 4 > len(forest)
    out = graph.edges["R3#user", "R3#assistant"]
    assert out["in_forest"] is False and out["role"] is None
    assert out["relations"] == ("same_round", "consecutive_turn")
    assert out["relation"] == "same_round" and "weight" not in out
    kept = graph.edges["R1#user", "R1#assistant"]
    assert kept["in_forest"] is True
    assert kept["relations"] == ("same_round", "consecutive_turn")


def test_selected_forest_is_the_forest_again(result, pool):
    whole = forest_graph(result, pool)
    assert whole.number_of_edges() > len(result.edges)
    forest = selected_forest(whole)
    alone = forest_graph(result)
    assert set(forest.nodes) == set(alone.nodes)
    assert pairs(forest.edges) == pairs(alone.edges)
    assert nx.is_forest(forest)


def test_isolated_selections_stay_in_the_forest(pool):
    # offline without asking for the fixed-edge variant: retrieval order, no edges
    result = forest_rerank(QUESTION, cands(), config=ForestConfig(reader_budget=4))
    assert result.mode == "off"
    graph = forest_graph(result, pool)
    forest = selected_forest(graph)
    assert list(forest.nodes) == [c.memory_id for c in pool.candidates[:4]]
    assert forest.number_of_edges() == 0 and graph.number_of_edges() == 4
    assert all(graph.nodes[n]["role"] == "direct" for n in forest)


def test_pool_graph_keeps_semantic_relations():
    pool = CandidatePool(
        question="q",
        candidates=[ForestCandidate(f"m{i}", f"r{i}", f"t{i}", 0.5) for i in range(4)],
        explicit={(0, 1): ("same_round",)},
        semantic={(0, 1): 0.8, (2, 3): 0.7},
        anchors=[0],
    )
    graph = pool_graph(pool)
    assert graph.graph == {"question": "q"}
    assert graph.edges["m0", "m1"]["relations"] == ("same_round", "semantic")
    assert graph.edges["m2", "m3"]["relation"] == "semantic"
    assert graph.edges["m2", "m3"]["similarity"] == 0.7
    assert graph.edges["m0", "m1"]["similarity"] == 0.8
    assert [n for n, a in graph.nodes(data="is_anchor") if a] == ["m0"]
    assert not any(graph.nodes(data="selected")[n] for n in graph)


def test_a_result_from_another_pool_is_refused(result):
    other = pool_from_candidates(QUESTION, cands()[1:], CONFIG)
    with pytest.raises(AdaMMError, match="not in the pool"):
        forest_graph(result, other)


def test_snippets_are_short(result):
    graph = forest_graph(result)
    long = graph.nodes["R1#user"]
    assert len(long["snippet"]) <= SNIPPET_WIDTH and long["snippet"].endswith("…")
    assert long["text"].startswith(long["snippet"][:-1].rstrip())
    assert graph.nodes["R2#user"]["snippet"] == "Tomatoes again, nothing new."
    word = CandidatePool("q", [ForestCandidate("w", "w", "x" * 200, 0.5)])
    assert pool_graph(word).nodes["w"]["snippet"] == "x" * (SNIPPET_WIDTH - 1) + "…"
