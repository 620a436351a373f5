"""An agent with memory.middleware(): each turn remembered once; recall first."""

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import ScriptedChatModel, tool_message
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_adamm import AdaMMError, Memory
from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.middleware import MemoryMiddleware, Recall, exact_answer
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder

NIGHTS = [(1, 1.0, 7.0), (2, 1.6, 7.5), (3, 1.2, 6.5), (4, 1.8, 8.0), (5, 1.4, 7.0)]
AVERAGE_DEEP = sum(deep for _, deep, _ in NIGHTS) / len(NIGHTS)  # 1.4
QUESTION = "What was my average deep sleep?"


class RecordingModel(ScriptedChatModel):
    """A scripted model that keeps the messages of every call (in ``calls``)."""

    calls: list[list[Any]]

    def __init__(self, replies: list[AIMessage]) -> None:
        super().__init__(messages=iter(replies), calls=[])

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.calls.append(list(messages))
        return super()._generate(messages, stop, run_manager, **kwargs)

    def system_text(self, call: int = -1) -> str:
        return "\n".join(
            str(m.content) for m in self.calls[call] if isinstance(m, SystemMessage)
        )


def night(n: int, deep: float, total: float) -> HumanMessage:
    return HumanMessage(
        f"Sleep log 2026-03-0{n}: deep sleep: {deep} h, total sleep: {total} h"
    )


def replies(*extra: AIMessage) -> list[AIMessage]:
    return [AIMessage(f"Logged night {n}.") for n, _, _ in NIGHTS] + list(extra)


def stored_rounds(memory: Memory, user: str) -> list[tuple[str, str, str]]:
    return memory.db.fetchall(
        "SELECT round_id, user_text, assistant_text FROM adamm_rounds "
        'WHERE user_id = ? ORDER BY "order"',
        [user],
    )


@pytest.fixture
def memory():
    mem = Memory(":memory:", user_id="alice", retrieval=False)
    yield mem
    mem.close()


def five_turns(agent, config):
    for n, deep, total in NIGHTS:
        agent.invoke({"messages": [night(n, deep, total)]}, config)


async def afive_turns(agent, config):
    for n, deep, total in NIGHTS:
        await agent.ainvoke({"messages": [night(n, deep, total)]}, config)


def check_five_stored(memory, user="alice"):
    rows = stored_rounds(memory, user)
    assert [r[2] for r in rows] == [f"Logged night {n}." for n, _, _ in NIGHTS]
    assert [r[1] for r in rows] == [night(*n).content for n in NIGHTS]
    assert len({r[0] for r in rows}) == 5
    assert [t["table"] for t in memory.for_user(user).describe_tables()] == [
        "sleep_log"
    ]


def compute_call():
    return tool_message(
        {
            "table": "sleep_log",
            "operator": "avg",
            "target_column_expression": "deep_sleep",
        },
        name="Compute",
    )


def check_follow_up(model, result):
    # recall put the exact figure before the model, in its system message
    assert "Computed exactly from the stored records" in model.system_text(5)
    assert "1.4 h" in model.system_text(5)
    # and the memory's Compute tool gave the exact value to the agent
    tool = next(m for m in result["messages"] if isinstance(m, ToolMessage))
    payload = json.loads(tool.content)
    assert payload["value"] == pytest.approx(AVERAGE_DEEP)
    assert payload["unit"] == "h"
    assert result["messages"][-1].content == "About 1.4 hours."


def test_agent_remembers_five_turns_once_and_computes_a_follow_up(memory):
    model = RecordingModel(replies(compute_call(), AIMessage("About 1.4 hours.")))
    middleware = memory.middleware()
    agent = create_agent(model, middleware=[middleware], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    five_turns(agent, config)
    middleware.flush()
    check_five_stored(memory)
    result = agent.invoke({"messages": [HumanMessage(QUESTION)]}, config)
    check_follow_up(model, result)
    middleware.flush()
    # the follow-up is a turn too; nothing before it was stored again
    rows = stored_rounds(memory, "alice")
    assert len(rows) == 6 and rows[-1][1] == QUESTION
    # the same thread seen by a new middleware (another process) adds nothing
    again = MemoryMiddleware(memory, recall="off")
    state = agent.get_state(config).values
    again.after_model(state, None)
    again.flush()
    assert len(stored_rounds(memory, "alice")) == 6


def test_agent_remembers_and_computes_async(memory):
    model = RecordingModel(replies(compute_call(), AIMessage("About 1.4 hours.")))
    middleware = memory.middleware()
    agent = create_agent(model, middleware=[middleware], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}

    async def run():
        await afive_turns(agent, config)
        await middleware.aflush()
        check_five_stored(memory)
        return await agent.ainvoke({"messages": [HumanMessage(QUESTION)]}, config)

    check_follow_up(model, asyncio.run(run()))


@dataclass
class Context:
    user_id: str


def test_the_user_comes_from_the_run_context_or_configurable(memory):
    model = RecordingModel(replies(compute_call(), AIMessage("About 1.4 hours.")))
    middleware = memory.middleware()
    agent = create_agent(
        model,
        middleware=[middleware],
        context_schema=Context,
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t1"}}
    for n, deep, total in NIGHTS:
        agent.invoke(
            {"messages": [night(n, deep, total)]}, config, context=Context("bob")
        )
    middleware.flush()
    check_five_stored(memory, "bob")
    assert stored_rounds(memory, "alice") == []
    # the tools read bob's memory too (from the run context, not configurable)
    result = agent.invoke(
        {"messages": [HumanMessage(QUESTION)]}, config, context=Context("bob")
    )
    check_follow_up(model, result)
    # configurable's user_id where the context names none
    carols = MemoryMiddleware(memory)
    plain = create_agent(RecordingModel([AIMessage("ok")]), middleware=[carols])
    assert not memory.has_user("carol")
    plain.invoke(
        {"messages": [HumanMessage("hello")]},
        {"configurable": {"user_id": "carol"}},
    )
    carols.flush()
    assert [r[1:] for r in stored_rounds(memory, "carol")] == [("hello", "ok")]


def test_recall_off_adds_nothing(memory):
    model = RecordingModel(replies(AIMessage("ok")))
    agent = create_agent(
        model,
        middleware=[memory.middleware(recall="off")],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t1"}}
    five_turns(agent, config)
    agent.invoke({"messages": [HumanMessage(QUESTION)]}, config)
    assert all(model.system_text(i) == "" for i in range(6))


def test_recall_keeps_the_agents_own_system_prompt(memory):
    memory.ingest(history_from_dict(_records_history()))
    model = RecordingModel([AIMessage("ok"), AIMessage("hello")])
    agent = create_agent(
        model, system_prompt="You are terse.", middleware=[memory.middleware()]
    )
    agent.invoke({"messages": [HumanMessage(QUESTION)]})
    text = model.system_text()
    assert text.startswith("You are terse.\n\nLong-term memory, recalled")
    assert "1.4 h" in text
    # recall lives in the model call, not in the agent's state
    state_messages = agent.invoke({"messages": [HumanMessage("hi")]})["messages"]
    assert not any(isinstance(m, SystemMessage) for m in state_messages)


def _records_history():
    return {
        "user_id": "alice",
        "sessions": [
            {
                "session_id": f"S{n}",
                "date": f"2026-03-0{n}",
                "rounds": [{"user": night(n, deep, total).content}],
            }
            for n, deep, total in NIGHTS
        ],
    }


class BlockingExtractor(RuleExtractor):
    """Extraction that waits until the test lets it go (a slow model, say)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()
        self.started = threading.Event()

    def extract(self, round_):
        self.started.set()
        assert self.go.wait(30), "the test never released extraction"
        return super().extract(round_)


def test_a_reply_is_not_held_while_its_turn_is_extracted():
    extractor = BlockingExtractor()
    memory = Memory(":memory:", user_id="alice", retrieval=False, extractor=extractor)
    try:
        extractor.go.set()
        memory.ingest(history_from_dict(_records_history()))
        extractor.go.clear()
        extractor.started.clear()
        model = RecordingModel([AIMessage("Logged."), AIMessage("About 1.4 h.")])
        middleware = memory.middleware(store_budget=0.05)
        agent = create_agent(
            model, middleware=[middleware], checkpointer=InMemorySaver()
        )
        config = {"configurable": {"thread_id": "t1"}}
        # the reply comes back while extraction of its turn is still blocked
        result = agent.invoke({"messages": [night(6, 1.0, 7.0)]}, config)
        assert result["messages"][-1].content == "Logged."
        assert extractor.started.wait(10)
        assert middleware.pending("alice") == 1
        # the next turn is answered too, and its recall says what is pending
        result = agent.invoke({"messages": [HumanMessage(QUESTION)]}, config)
        assert result["messages"][-1].content == "About 1.4 h."
        assert "1.4 h" in model.system_text()
        assert "(1 of the latest turns are still being stored" in model.system_text()
        assert middleware.pending("alice") == 2
        extractor.go.set()
        middleware.flush()
        assert middleware.pending() == 0 and middleware.errors == []
        assert len(stored_rounds(memory, "alice")) == 7
    finally:
        extractor.go.set()
        memory.close()


def test_closing_the_memory_first_stores_the_turns_still_pending(tmp_path):
    extractor = BlockingExtractor()
    path = str(tmp_path / "m.duckdb")
    memory = Memory(path, user_id="alice", retrieval=False, extractor=extractor)
    model = RecordingModel([AIMessage("Logged.")])
    middleware = memory.middleware(store_budget=0)
    agent = create_agent(model, middleware=[middleware])
    agent.invoke({"messages": [night(1, 1.0, 7.0)]})
    assert extractor.started.wait(10) and middleware.pending() == 1
    threading.Timer(0.3, extractor.go.set).start()
    memory.close()  # waits for the turn being extracted
    assert middleware.pending() == 0 and middleware.errors == []
    with Memory(path, user_id="alice", retrieval=False) as again:
        rows = again.db.fetchall(
            "SELECT user_text, assistant_text, status FROM adamm_rounds"
        )
    assert rows == [(night(1, 1.0, 7.0).content, "Logged.", "extracted")]


def test_content_no_round_can_hold_is_said_not_raised(memory):
    huge = "x" * 8_000_001
    model = RecordingModel([AIMessage("I can't see images that large.")])
    middleware = memory.middleware()
    agent = create_agent(model, middleware=[middleware])
    message = HumanMessage(
        content=[
            {"type": "text", "text": "look"},
            {"type": "image", "base64": huge, "mime_type": "image/png"},
        ]
    )
    result = agent.invoke({"messages": [message]})
    assert result["messages"][-1].content == "I can't see images that large."
    assert len(middleware.errors) == 1
    assert "could not be stored" in middleware.errors[0]
    assert "8000000 limit" in middleware.errors[0]
    assert stored_rounds(memory, "alice") == []


def test_pending_turns_are_said_in_recall():
    block = Recall(answer=None, memories=[("2026-03-01", "Sleep log night 1", 0.9)])
    text = block.text("Header:", pending=2)
    assert text.splitlines() == [
        "Header:",
        "- [2026-03-01] Sleep log night 1",
        "(2 of the latest turns are still being stored; they are not in this recall.)",
    ]
    assert Recall().text("Header:", pending=3) is None


def test_exact_answer_needs_a_value_an_analytic_step_and_nothing_unused():
    steps = [{"tool": "compute", "result": {}}]
    assert exact_answer({"value": 1.4, "steps": steps})
    assert not exact_answer({"value": None, "steps": steps})
    assert not exact_answer({"value": 1.4, "steps": steps, "unresolved": ["'May'"]})
    assert not exact_answer({"value": "x", "steps": [{"tool": "semantic_match"}]})
    assert not exact_answer(
        {"value": 1.4, "steps": [{"tool": "compute", "error": "e"}]}
    )


def test_bad_options_are_refused(memory):
    with pytest.raises(AdaMMError, match="recall must be one of off, on, auto"):
        memory.middleware(recall="always")
    with pytest.raises(AdaMMError, match="store_budget"):
        memory.middleware(store_budget=-1)
    with pytest.raises(AdaMMError, match="recall_limit"):
        memory.middleware(recall_limit=0)


# -- recall of memories (retrieval memory on) -----------------------------------


@pytest.fixture(scope="module")
def encoder():
    pytest.importorskip("sentence_transformers")
    return SentenceTransformerEncoder()


@pytest.fixture
def chat_memory(encoder):
    mem = Memory(":memory:", user_id="alice", text_encoder=encoder, visual_encoder=None)
    mem.ingest(
        history_from_dict(
            {
                "user_id": "alice",
                "sessions": [
                    {
                        "session_id": "S1",
                        "date": "2026-02-01",
                        "rounds": [
                            {"user": "My sister Mira moved to Lisbon last spring."},
                            {"user": "I planted tomatoes and basil on the balcony."},
                            {"user": "The dentist appointment is on Friday at nine."},
                        ],
                    }
                ],
            }
        )
    )
    yield mem
    mem.close()


def test_recall_on_gives_the_top_memories_when_nothing_is_computed(chat_memory):
    model = RecordingModel([AIMessage("She lives in Lisbon.")])
    agent = create_agent(
        model, middleware=[chat_memory.middleware(recall="on", recall_limit=2)]
    )
    agent.invoke({"messages": [HumanMessage("Where does my sister Mira live now?")]})
    lines = model.system_text().splitlines()
    assert lines[0] == "Long-term memory, recalled for the user's latest message:"
    assert len(lines) == 3
    assert "Mira moved to Lisbon" in lines[1]


def test_recall_auto_shows_only_close_memories(chat_memory):
    model = RecordingModel([AIMessage("ok"), AIMessage("ok")])
    middleware = chat_memory.middleware(recall="auto", min_score=0.99)
    agent = create_agent(model, middleware=[middleware])
    agent.invoke({"messages": [HumanMessage("Where does my sister Mira live now?")]})
    assert model.system_text() == ""
    found = middleware.recall_for("Where does my sister Mira live now?")
    assert found.answer is None and found.memories == []
    lower = MemoryMiddleware(chat_memory, recall="auto", min_score=0.2)
    found = lower.recall_for("Which city did Mira move to?")
    assert any("Lisbon" in text for _, text, _ in found.memories)
    assert all(score >= 0.2 for _, _, score in found.memories)
