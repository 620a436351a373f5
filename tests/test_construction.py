"""Remembering: LangChain messages become rounds; the construction graph ingests."""

import asyncio

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_adamm import AdaMMConfig, AdaMMError, Memory
from langgraph_adamm.graphs import create_construction_graph
from langgraph_adamm.messages import messages_to_history
from tools.datasets.synthetic_history import generate

TURNS = [
    HumanMessage("Sleep: 7.5 h, Deep sleep: 1.2 h", id="m1"),
    AIMessage("Logged."),
    HumanMessage(
        [
            {"type": "text", "text": "Here's my dashboard"},
            {"type": "image_url", "image_url": {"url": "https://example.org/d.png"}},
        ],
        id="m2",
    ),
    AIMessage("", tool_calls=[{"name": "Compute", "args": {}, "id": "t1"}]),
    ToolMessage("{}", tool_call_id="t1"),
    AIMessage("Nice numbers."),
    HumanMessage("Sleep: 6.9 h, Deep sleep: 1.0 h"),
]


def test_messages_become_rounds():
    history = messages_to_history(TURNS, "u", session_id="t", time="2026-03-02T08:00")
    rounds = list(history.rounds())
    assert [r.round_id for r in rounds][:2] == ["m1", "m2"]
    assert rounds[0].user.startswith("Sleep: 7.5") and rounds[0].assistant == "Logged."
    assert rounds[1].assistant == "Nice numbers."  # tool-calling step skipped
    assert rounds[1].images[0].url == "https://example.org/d.png"
    assert rounds[2].assistant == "" and rounds[2].round_id.startswith("t:")
    again = messages_to_history(TURNS, "u", session_id="t", time="2026-03-02T08:00")
    assert [r.round_id for r in again.rounds()] == [r.round_id for r in rounds]


def test_add_messages_stores_once_and_rejects_bad_content():
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        first = mem.add_messages(TURNS, session_id="t", time="2026-03-02T08:00")
        second = mem.add_messages(TURNS, session_id="t", time="2026-03-02T08:00")
        assert first.rounds_new == 3 and second.rounds_new == 0
        with pytest.raises(AdaMMError, match="content"):
            mem.add_messages([{"role": "user", "content": 42}])
        with pytest.raises(AdaMMError, match="time"):
            mem.add_messages(TURNS, time="not a time")


def snapshot(mem: Memory) -> dict:
    out = {}
    for t in mem.describe_tables():
        rows = mem.filter({"table": t["table"], "result_budget": 1000}).rows
        out[t["table"]] = (t["columns"], rows)
    if mem.retrieval is not None:
        h = mem.retrieval.hierarchy
        out["hierarchy"] = (
            sorted(h.events),
            sorted(tuple(e.event_ids) for e in h.episodes.values()),
            len(h.topics),
        )
    return out


@pytest.mark.slow
def test_graph_and_library_build_identical_memories(tmp_path):
    data = generate(seed=3, days=14)
    hist, _ = data.write(tmp_path)
    config = AdaMMConfig(ingest_batch_size=25)
    with Memory(":memory:", user_id="synth", config=config) as lib:
        lib.ingest(hist)
        expected = snapshot(lib)
    with Memory(":memory:", user_id="synth", config=config) as mem:
        graph = create_construction_graph(mem).compile()
        out = graph.invoke({"history": str(hist)})
        assert out["report"]["rounds_new"] == out["report"]["rounds_read"] > 0
        assert snapshot(mem) == expected
        assert graph.invoke({"history": str(hist)})["report"]["rounds_new"] == 0


def test_agent_turns_through_the_graph_with_config(database, tmp_path):
    db = database("m")
    turns = []
    for day in range(1, 7):
        turns = [
            HumanMessage(f"Sleep: {6 + day / 10} h, Deep sleep: {1 + day / 10} h"),
            AIMessage("Logged."),
        ]
        with Memory(db, user_id="default", retrieval=False) as mem:
            graph = create_construction_graph(mem).compile()
            out = graph.invoke(
                {"messages": turns, "time": f"2026-03-0{day}T08:00"},
                config={"configurable": {"user_id": "alice", "thread_id": "chat-1"}},
            )
            assert out["report"]["rounds_new"] == 1
    with Memory(db, user_id="alice", retrieval=False) as alice:
        assert alice.tables and alice.has_user("alice")
        assert not alice.has_user("default")
        answer = alice.ask("what was my average deep sleep?")
        assert answer["value"] == pytest.approx(1.35)


def test_construction_errors_are_reported():
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        graph = create_construction_graph(mem).compile()
        out = graph.invoke({"history": "/no/such/file.json"})
        assert "cannot read" in out["error"] and out["report"] == {}


def test_ingest_takes_messages_too():
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        report = mem.ingest(
            [HumanMessage("Sleep: 7 h, Deep sleep: 1 h"), AIMessage("ok")]
        )
        assert report.rounds_new == 1
        with pytest.raises(AdaMMError, match="not int"):
            mem.ingest(42)  # type: ignore[arg-type]


def test_the_report_travels_in_the_graph_state():
    from langgraph.checkpoint.memory import InMemorySaver

    doc = {
        "user_id": "u",
        "sessions": [
            {
                "session_id": "S1",
                "date": "2026-03-01",
                "rounds": [{"user": "Sleep: 7 h, Deep sleep: 1 h"}],
            }
        ],
    }
    with Memory(":memory:", user_id="u", retrieval=False) as mem:
        graph = create_construction_graph(mem).compile(checkpointer=InMemorySaver())
        thread = {"configurable": {"thread_id": "t"}}
        out = graph.invoke({"history": doc}, thread)
        assert out["report"]["rounds_new"] == out["report"]["rounds_processed"] == 1
        assert graph.get_state(thread).values["report"] == out["report"]


def test_run_context_and_async_build_what_invoke_builds():
    from langgraph_adamm.graphs import AdaMMContext

    turns = [HumanMessage("Sleep: 7.5 h, Deep sleep: 1.2 h"), AIMessage("Logged.")]
    payload = {"messages": turns, "time": "2026-03-02T08:00", "session_id": "s"}
    graph = create_construction_graph().compile()
    with Memory(":memory:", user_id="default", retrieval=False) as mem:
        sync = graph.invoke(payload, context=AdaMMContext(memory=mem, user_id="bob"))
        expected = snapshot(mem.for_user("bob"))
    with Memory(":memory:", user_id="default", retrieval=False) as mem:
        out = asyncio.run(
            graph.ainvoke(payload, context=AdaMMContext(memory=mem, user_id="bob"))
        )
        assert mem.has_user("bob") and not mem.has_user("default")
        assert snapshot(mem.for_user("bob")) == expected
    assert out == sync and out["report"]["rounds_new"] == 1
