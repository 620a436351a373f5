"""The evidence forest as a networkx graph, to inspect, analyse or draw.

:func:`forest_graph` turns a :class:`~langgraph_adamm.forest.rerank.ForestResult`
into an undirected :class:`networkx.Graph` whose nodes are memory ids and whose
edges are the forest's edges; with the candidate pool it also holds the pool's
unselected candidates and candidate relations, marked ``in_forest=False``.
:func:`pool_graph` is the pool alone, and :func:`selected_forest` the forest
inside a graph made with its pool. These are views for people and for
networkx's algorithms; the solver keeps its own union-find because, in its
inner loop, that is faster than building a networkx graph for every swap.
"""

from __future__ import annotations

import textwrap
from typing import Any

import networkx as nx

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.forest.rerank import ForestResult

SNIPPET_WIDTH = 60
"""Characters of a memory's text kept in a node's ``snippet`` (for labels)."""

SEMANTIC = "semantic"
"""The relation of a pool edge that only mutual nearest neighbours gave."""


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    if len(flat) <= SNIPPET_WIDTH:
        return flat
    short = textwrap.shorten(flat, width=SNIPPET_WIDTH, placeholder="…")
    return short if short != "…" else flat[: SNIPPET_WIDTH - 1] + "…"


def _candidate_node(index: int, c: ForestCandidate, anchor: bool) -> dict[str, Any]:
    """A pool candidate's node attributes, before the forest says anything."""
    return {
        "memory_id": c.memory_id,
        "round_id": c.round_id,
        "text": c.text,
        "snippet": _snippet(c.text),
        "score": c.score,
        "session_id": c.session_id,
        "date": c.date,
        "index": index,
        "modalities": c.modalities,
        "retrieved": c.retrieved,
        "is_anchor": anchor,
        "selected": False,
        "rank": None,
        "role": None,
        "anchor": None,
        "utility": None,
        "verifier_score": None,
    }


def pool_graph(pool: CandidatePool) -> nx.Graph:
    """The candidate pool as a graph: every candidate, every candidate relation.

    Nodes are memory ids, with the candidate's fields (``round_id``, ``text``,
    ``snippet``, ``score``, ``session_id``, ``date``, ``modalities``,
    ``retrieved``), its pool ``index``, ``is_anchor`` (one of the anchors other
    candidates may attach to) and ``selected=False``. An edge joins two
    candidates with an explicit relation or a mutual-nearest-neighbour
    similarity: ``relations`` lists its explicit kinds (then ``"semantic"``),
    ``relation`` is the first of them, ``similarity`` the semantic similarity
    (None without one), and ``in_forest`` is False.

    Args:
        pool: The pool, e.g. from ``ForestReranker.pool`` or
            :func:`~langgraph_adamm.forest.rerank.pool_from_candidates`.
    """
    graph = nx.Graph(question=pool.question)
    anchors = set(pool.anchors)
    for i, c in enumerate(pool.candidates):
        graph.add_node(c.memory_id, **_candidate_node(i, c, i in anchors))
    for i, j in sorted(pool.explicit.keys() | pool.semantic.keys()):
        kinds = tuple(pool.explicit.get((i, j), ()))
        similarity = pool.semantic.get((i, j))
        relations = kinds + ((SEMANTIC,) if similarity is not None else ())
        graph.add_edge(
            pool.candidates[i].memory_id,
            pool.candidates[j].memory_id,
            relation=relations[0],
            relations=relations,
            similarity=similarity,
            in_forest=False,
            role=None,
            reliability=None,
            anchor=None,
        )
    return graph


def forest_graph(result: ForestResult, pool: CandidatePool | None = None) -> nx.Graph:
    """The selected evidence forest as a graph (with its pool, when given).

    Without ``pool`` the graph is exactly the forest (``networkx.is_forest``
    holds): one node per selected memory, one edge per forest edge. With it,
    the graph is :func:`pool_graph` with the forest laid over it: selected
    nodes and forest edges gain the attributes below, and every other
    candidate and relation stays with ``selected=False`` / ``in_forest=False``
    (:func:`selected_forest` is the forest again).

    A selected node has ``selected=True`` and the selection's fields:
    ``memory_id``, ``round_id``, ``text``, ``snippet``, ``rank`` (reader order,
    from 1), ``role`` (``direct`` or the attaching edge's role), ``anchor`` (the
    memory it attaches to, or None), ``utility``, ``score``,
    ``verifier_score``, ``date``, ``session_id`` and ``is_anchor``. With the
    pool, ``is_anchor`` says whether the memory is one of the pool's anchors;
    without it, only the anchors the forest uses are known, so it says whether
    the memory anchors a forest edge.

    A forest edge has ``in_forest=True``, ``anchor`` (the memory id the other
    end attaches to: the edge's direction, which an undirected graph does not
    keep), ``relation``, ``role``, ``reliability`` and ``weight`` (the
    reliability). With the pool it keeps the pool edge's ``relations`` and
    ``similarity``.

    Args:
        result: The forest, from :func:`~langgraph_adamm.forest.rerank.forest_rerank`
            or :class:`~langgraph_adamm.forest.rerank.ForestReranker`.
        pool: The candidate pool the result was solved on, to show what the
            forest left out.

    Raises:
        AdaMMError: when a memory of the result is not in ``pool`` (the pool of
            another question, or another discovery).
    """
    graph = pool_graph(pool) if pool is not None else nx.Graph(question=result.question)
    graph.graph["mode"] = result.mode
    sources = {e["source"] for e in result.edges}
    for m in result.selected:
        if pool is not None and m.memory_id not in graph:
            raise AdaMMError(
                f"memory {m.memory_id!r} of the forest is not in the pool; pass the "
                "pool the result was solved on (ForestReranker.pool for the same "
                "question), or no pool"
            )
        graph.add_node(
            m.memory_id,
            memory_id=m.memory_id,
            round_id=m.round_id,
            text=m.text,
            snippet=_snippet(m.text),
            rank=m.rank,
            role=m.role,
            anchor=m.anchor,
            utility=m.utility,
            score=m.score,
            verifier_score=m.verifier_score,
            date=m.date,
            session_id=m.session_id,
            selected=True,
        )
        if pool is None:
            graph.nodes[m.memory_id]["is_anchor"] = m.memory_id in sources
    for e in result.edges:
        source, target = e["source"], e["target"]
        if source not in graph or target not in graph:
            raise AdaMMError(
                f"forest edge {source!r} - {target!r} joins a memory the result "
                "did not select"
            )
        graph.add_edge(
            source,
            target,
            anchor=source,
            relation=e["relation"],
            role=e["role"],
            reliability=e["reliability"],
            weight=e["reliability"],
            in_forest=True,
        )
    return graph


def selected_forest(graph: nx.Graph) -> nx.Graph:
    """The forest inside a :func:`forest_graph`: selected nodes, ``in_forest`` edges.

    A read-only view on ``graph`` (``.copy()`` it to change it); for a graph
    made without a pool it is the whole graph.
    """
    return nx.subgraph_view(
        graph,
        filter_node=lambda n: bool(graph.nodes[n].get("selected")),
        filter_edge=lambda a, b: bool(graph.edges[a, b].get("in_forest")),
    )
