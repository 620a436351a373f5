"""Nodes written once for invoke and ainvoke, on public LangGraph API only."""

import asyncio
import pathlib
import threading
from dataclasses import dataclass
from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from langgraph_adamm.graphs.runnables import DualNode, Work


class State(TypedDict):
    log: list[str]


@dataclass
class Context:
    tag: str = "ctx"


def body(state, runtime, config):
    main = threading.get_ident()
    blocking = yield Work(lambda: threading.get_ident() != main)
    awaited = yield Work(lambda: "ran", _awaited)
    return {
        "log": [
            runtime.context.tag,
            f"thread:{blocking}",
            awaited,
            str(config.get("configurable", {}).get("k")),
        ]
    }


async def _awaited():
    await asyncio.sleep(0)
    return "awaited"


def graph():
    g = StateGraph(State, context_schema=Context)
    g.add_node("n", DualNode(body, "n"))
    g.add_edge(START, "n")
    g.add_edge("n", END)
    return g.compile()


def test_invoke_runs_every_piece_in_the_callers_thread():
    out = graph().invoke(
        {"log": []}, {"configurable": {"k": "v"}}, context=Context("sync")
    )
    assert out["log"] == ["sync", "thread:False", "ran", "v"]


def test_ainvoke_awaits_calls_and_moves_blocking_work_off_the_loop():
    out = asyncio.run(
        graph().ainvoke(
            {"log": []}, {"configurable": {"k": "w"}}, context=Context("async")
        )
    )
    assert out["log"] == ["async", "thread:True", "awaited", "w"]


def test_the_package_uses_no_private_langgraph_module():
    root = pathlib.Path(__file__).resolve().parents[1] / "langgraph_adamm"
    private = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "langgraph._internal" in p.read_text(encoding="utf-8")
    ]
    assert private == []
