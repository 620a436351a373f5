"""Memory by audience: the user's API on ``Memory``, the graphs' behind views.

``Memory`` keeps what users call; the ingestion stages the construction graph
runs and the metadata the query graph reads live on ``memory.construction`` and
``memory.queries``, which satisfy the graphs' protocols. These tests pin the
user API, so that a graph's need does not creep back onto ``Memory``.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.graphs import create_construction_graph, create_query_graph
from langgraph_adamm.graphs.graph_memory import (
    ConstructionMemory,
    ConstructionView,
    QueryMemory,
    QueryView,
)
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.reports import IngestReport

USER_API = {
    # ingesting and forgetting
    "ingest",
    "aingest",
    "add_messages",
    "aadd_messages",
    "forget",
    "aforget",
    "rounds_to_forget",
    "correct",
    # asking; tools and middleware for agents; the six tools as calls
    "ask",
    "aask",
    "tools",
    "middleware",
    "lookup",
    "alookup",
    "filter",
    "afilter",
    "compute",
    "acompute",
    "rank",
    "arank",
    "semantic_match",
    "asemantic_match",
    "event_locate",
    "aevent_locate",
    # what is stored, and whose
    "tables",
    "describe_tables",
    "has_user",
    "for_user",
    "refresh",
    "close",
    # the two memories, for inspection (tests, benchmarks, the forest, the CLI)
    "retrieval",
    # the graphs' views
    "construction",
    "queries",
}
"""Public class members of ``Memory``: what a user calls."""
USER_ATTRIBUTES = {"user_id", "config", "chat_model", "analytic", "db"}
"""Public instance attributes: what the memory was opened with, and its parts
that tests, benchmarks and the store read (``db`` for inspection only)."""


def _members(protocol: type) -> set[str]:
    """The members a protocol asks for (its methods, properties and attributes)."""
    names: set[str] = set()
    for cls in protocol.__mro__:
        if cls in (object, Protocol, Generic):
            continue
        names |= set(vars(cls)) | set(getattr(cls, "__annotations__", {}))
    return {n for n in names if not n.startswith("_")}


def _session(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "user_id": "u",
        "sessions": [{"session_id": "S1", "date": "2026-03-02", "rounds": rounds}],
    }


SLEEP = [
    {
        "round_id": f"S1:{i}",
        "user": f"Sleep log - Total sleep: {6 + i % 3} h, Deep sleep: {40 + i} min",
    }
    for i in range(1, 9)
]


def test_memory_members_are_the_user_api() -> None:
    public = {n for n in dir(Memory) if not n.startswith("_")}
    assert public == USER_API, (
        "Memory's public members changed: a graph-only member belongs on "
        "ConstructionView or QueryView (graphs/graph_memory.py); a new user "
        "method belongs in USER_API"
    )
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        attributes = {n for n in vars(mem) if not n.startswith("_")}
        assert attributes == USER_ATTRIBUTES


def test_views_have_every_member_of_their_protocol() -> None:
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        assert isinstance(mem.construction, ConstructionView)
        assert isinstance(mem.queries, QueryView)
        assert _members(ConstructionMemory) <= set(dir(mem.construction))
        assert _members(QueryMemory) <= set(dir(mem.queries))
    assert {"lookup", "semantic_match", "retrieval"} <= _members(QueryMemory)


def test_views_are_kept_and_follow_the_user() -> None:
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        assert mem.construction is mem.construction
        assert mem.queries is mem.queries
        assert mem.queries.for_user(None) is mem.queries
        bob = mem.queries.for_user("bob")
        assert bob is mem.for_user("bob").queries and bob.user_id == "bob"
        built = mem.construction.for_user("bob")
        assert built is mem.for_user("bob").construction
        assert built.user_id == "bob" and built.memory is mem.for_user("bob")
        assert mem.for_user("bob") is mem.for_user("bob")  # one view a user
        assert mem.for_user("bob").retrieval is None  # off, as for this memory


def test_stages_through_the_view_build_what_ingest_builds() -> None:
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        mem.ingest(history_from_dict(_session(SLEEP)))
        expected = mem.describe_tables()
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        stages: ConstructionMemory = mem.construction
        report = IngestReport()
        stages.store_history(history_from_dict(_session(SLEEP)), report=report)
        for batch in stages.pending_batches():
            stages.apply_extracted(stages.extract_batch(batch), report)
        stages.index_pending(report)
        assert report.rounds_new == len(SLEEP) and len(stages.tables) == 1
        assert mem.describe_tables() == expected


def test_query_view_reads_and_answers() -> None:
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        mem.ingest(history_from_dict(_session(SLEEP)))
        reads: QueryMemory = mem.queries
        before = reads.version
        tables, episodes = reads.planning_cards()
        assert len(tables) == 1 and episodes == []
        assert reads.planning_cards()[0] is tables  # cached until a change
        assert reads.text_encoder is None and reads.episode_scores("sleep") is None
        assert reads.record_rounds(["S1:1", "nope"]) == {"S1:1"}
        last = reads.last_round_time()
        assert last is not None and last.date().isoformat() == "2026-03-02"
        more = {"round_id": "S1:9", "user": "Sleep log - Total sleep: 9 h"}
        mem.ingest(history_from_dict(_session([more])))
        assert reads.version != before
        args = {"table": tables[0].name, "operator": "avg"}
        answer = reads.compute(args | {"target_column_expression": "total_sleep"})
        assert answer.row_count == 9 and answer.value == pytest.approx(66 / 9)


def test_graphs_take_a_memory_or_a_view() -> None:
    question = {"question": "What was my average total sleep?"}
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        create_construction_graph(mem.construction).compile().invoke(
            {"history": _session(SLEEP)}
        )
        assert len(mem.tables) == 1
        by_memory = create_query_graph(mem).compile().invoke(question)
        by_view = create_query_graph(mem.queries).compile().invoke(question)
        assert by_memory["answer"] == by_view["answer"]
        assert by_memory["value"] == by_view["value"] is not None
        by_config = (
            create_query_graph()
            .compile()
            .invoke(question, config={"configurable": {"memory": mem}})
        )
        assert by_config["answer"] == by_memory["answer"]
