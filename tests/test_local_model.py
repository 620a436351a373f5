"""The real-model tier: every LLM role against a real local chat model.

SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server, reached
through ``ChatOpenAI(base_url=...)`` exactly as a user would. A 135M model
writes garbage; what is asserted is what must hold anyway: every run ends in
an answer or a recorded failure, no exception escapes a graph or a tool,
nothing stored is lost, and every bad output is named where it happened.

Runs with ``pytest --local-model`` (``make test-local-model``, which installs
the ``[local-model]`` extra); skipped otherwise. Asked for and not installed,
it fails instead of skipping.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import history

from langgraph_adamm import Memory
from langgraph_adamm.chat import (
    CallRecord,
    StructuredModel,
    add_call_listener,
    remove_call_listener,
)
from langgraph_adamm.graphs import create_construction_graph, create_query_graph
from tools.support.memory_state import stored_rows

pytestmark = pytest.mark.local_model

ROUNDS_A = [
    {"user": "Slept 7.5 h last night, deep sleep 1.2 h.", "time": "2026-03-01T08:00"},
    {"user": "Sleep: 6.8 h, deep sleep: 0.9 h", "time": "2026-03-02T08:00"},
    {"user": "Lunch at Green Bowl, paid $14.50", "time": "2026-03-02T13:00"},
    {"user": "Sleep 8.1 h. Deep sleep 1.5 h", "time": "2026-03-03T08:00"},
]
NIGHTS = [(1, 1.0, 7.0), (2, 1.6, 7.5), (3, 1.2, 6.5), (4, 1.8, 8.0), (5, 1.4, 7.0)]
ROUNDS_B = [
    {"user": "Coffee at Roastery 9: $4.20", "time": "2026-03-04T09:00"},
    {"user": "sleep 7.0 h, deep sleep 1.1 h", "time": "2026-03-04T08:00"},
]


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[Any]:
    if not request.config.getoption("--local-model"):
        pytest.skip("the real-model tier runs with --local-model")
    from tools.support.local_model import smollm2_server

    with smollm2_server(n_ctx=4096) as s:
        yield s


@pytest.fixture
def llm(server: Any) -> StructuredModel:
    return StructuredModel(
        server.chat(timeout_s=120, max_tokens=384), context_tokens=4096
    )


@pytest.fixture
def calls() -> Iterator[list[CallRecord]]:
    seen: list[CallRecord] = []
    add_call_listener(seen.append)
    yield seen
    remove_call_listener(seen.append)


@pytest.fixture
def mem(tmp_path: Any, llm: StructuredModel) -> Iterator[Memory]:
    m = Memory(str(tmp_path / "real.duckdb"), user_id="u", model=llm)
    yield m
    m.close()


def _rounds(m: Memory) -> list[tuple[Any, ...]]:
    return stored_rows(
        m.db,
        "adamm_rounds WHERE user_id = ?",
        [m.user_id],
        columns=["round_id", "session_id", "time", "user_text", "assistant_text"],
    )


def _named(record: CallRecord, where: Any) -> bool:
    """The record's last error (its start) appears in what the run returned."""
    text = json.dumps(where, default=str, ensure_ascii=False)
    return record.last_error[:50] in text or record.last_error[:50] in text.replace(
        '\\"', '"'
    )


def test_ingest_with_the_model_extractor_loses_nothing(
    mem: Memory, calls: list[CallRecord]
) -> None:
    report = mem.ingest(history(ROUNDS_A, session="S1"))
    assert report.rounds_new == 4
    first = _rounds(mem)
    assert len(first) == 4
    extraction = [c for c in calls if c.role == "extraction"]
    assert len(extraction) == 4 and all(c.method == "json_object" for c in extraction)
    failed = {rid for rid, _ in report.failures}
    for record in extraction:
        assert record.ok or record.attempts == mem.config.extraction_retries
    # every failed round is stored with its error, to be retried later
    for rid, status, error in mem.db.fetchall(
        "SELECT round_id, status, error FROM adamm_rounds WHERE user_id = ?",
        [mem.user_id],
    ):
        assert (rid in failed) == (status == "failed"), (rid, status, error)
        if rid in failed:
            assert error and "extraction" in error
    report_b = mem.ingest(history(ROUNDS_B, session="S2", date="2026-03-04"))
    assert report_b.rounds_new == 2
    after = _rounds(mem)
    assert set(first) <= set(after) and len(after) == 6
    # table metadata went through the layer too (a model failure falls back)
    if report.schemas_discovered or report_b.schemas_discovered:
        assert "table description" in {c.role for c in calls}


def test_ask_single_and_multi_step_end_in_an_answer_or_a_named_failure(
    mem: Memory, calls: list[CallRecord]
) -> None:
    mem.ingest(history(ROUNDS_A + ROUNDS_B))
    graph = create_query_graph(mem).compile()
    for question in (
        "What was my average sleep?",
        "Did I sleep more on March 1 than on March 2?",
    ):
        calls.clear()
        out = graph.invoke({"question": question, "question_time": "2026-03-05T09:00"})
        assert isinstance(out.get("answer"), str) and out["answer"].strip(), out
        roles = {c.role for c in calls}
        assert "planner" in roles
        for record in calls:
            if not record.ok and record.role in ("planner", "instantiation", "reader"):
                assert _named(record, out), (record, out)


def test_forest_rerank_with_both_verifiers(
    mem: Memory, calls: list[CallRecord]
) -> None:
    from langgraph_adamm.forest import ForestReranker

    mem.ingest(history(ROUNDS_A + ROUNDS_B))
    calls.clear()
    llm = mem.queries.llm  # the memory's model as the roles call it
    result = ForestReranker(mem, model=llm).rerank("Where did I have lunch?")
    verifiers = [c for c in calls if c.role.endswith("verifier")]
    assert {c.role for c in verifiers} <= {"node verifier", "evidence-chain verifier"}
    assert verifiers, "the verifiers were not called"
    for record in verifiers:
        if not record.ok:
            assert any(record.last_error[:50] in n for n in result.notes), (
                record,
                result.notes,
            )
    assert result.selected or result.notes


def test_agent_with_memory_tools_then_construction(mem: Memory, server: Any) -> None:
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage

    mem.ingest(history(ROUNDS_A))
    before = _rounds(mem)
    agent = create_agent(server.chat(timeout_s=120, max_tokens=256), tools=mem.tools())
    messages: list[Any] = []
    for text in (
        "How much did I spend on lunch?",
        "What was my deep sleep on March 2?",
        "Thanks! I also slept 7.2 h last night.",
    ):
        messages.append(HumanMessage(text))
        result = agent.invoke({"messages": messages}, {"recursion_limit": 12})
        messages = list(result["messages"])
        assert messages[-1].type in ("ai", "tool")
    for m in messages:
        if m.type == "tool":  # a tool error is a message, never an exception
            assert isinstance(m.content, str)
    built = create_construction_graph(mem).compile().invoke({"messages": messages})
    assert built is not None
    after = _rounds(mem)
    assert set(before) <= set(after) and len(after) > len(before)


def test_agent_with_memory_middleware(tmp_path: Any, server: Any) -> None:
    """A real model in an agent whose memory is middleware: turns kept, recall."""
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage

    m = Memory(str(tmp_path / "agent.duckdb"), user_id="u", retrieval=False)
    try:
        m.ingest(
            history(
                [
                    {
                        "user": f"Sleep log 2026-03-0{n}: deep sleep: {deep} h, "
                        f"total sleep: {total} h",
                        "time": f"2026-03-0{n}T08:00",
                    }
                    for n, deep, total in NIGHTS
                ]
            )
        )
        middleware = m.middleware(recall="on", store_budget=5.0)
        agent = create_agent(
            server.chat(timeout_s=120, max_tokens=128), middleware=[middleware]
        )
        before = _rounds(m)
        messages: list[Any] = []
        for text in ("What was my average deep sleep?", "Thanks, that helps."):
            messages.append(HumanMessage(text))
            result = agent.invoke({"messages": messages}, {"recursion_limit": 12})
            messages = list(result["messages"])
            assert messages[-1].type in ("ai", "tool")
        middleware.flush()
        assert middleware.errors == [] and middleware.pending() == 0
        # recall found the exact figure, whatever the small model made of it
        found = middleware.recall_for("What was my average deep sleep?")
        assert found.answer is not None and "1.4 h" in found.answer
        after = _rounds(m)
        assert set(before) <= set(after)
        # each question the model answered in text became one round, once
        added = [r[3] for r in after if r not in set(before)]
        assert len(added) == len(set(added)) and set(added) <= {
            "What was my average deep sleep?",
            "Thanks, that helps.",
        }
    finally:
        m.close()


def test_a_timed_out_call_is_recorded_and_the_server_recovers(server: Any) -> None:
    from langgraph_adamm.planning.llm import ReaderOutput

    hasty = StructuredModel(
        server.chat(timeout_s=0.05, max_tokens=200), transport_attempts=1
    )
    record = hasty.call("reader", ReaderOutput, "Write a long answer about sleep.")
    assert not record.ok and record.raised and "Timeout" in record.raised
    patient = StructuredModel(server.chat(timeout_s=120, max_tokens=64))
    again = patient.call("reader", None, "Say hello.")
    assert again.ok, again
