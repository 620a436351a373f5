"""What the memory middleware adds to an agent's turn, side by side in one run.

One ``create_agent`` with a scripted model (no model time: what is measured is
the agent's own machinery) over the bundled sample memory (134 rounds, offline
rule extraction), run turn by turn as a user would, in four set-ups:

- ``bare``: the agent without the middleware (the floor);
- ``store``: the middleware with recall off: each turn's pair handed to the
  background worker, the reply held at most ``--budget`` seconds;
- ``recall``: recall ``auto`` as well (the planner's answer before the model);
- ``recall-async``: the same through ``ainvoke``.

Each turn is a record-like message (it is extracted and materialized) or an
analytic question (recall computes an answer); the median and the 90th
percentile of whole-turn wall time are reported, and the time the background
worker then needed to store the turns (``flush``).

    python tools/benchmarks/bench_middleware.py --turns 40 --budget 2
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.fake_chat_models import (  # noqa: E402
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage, HumanMessage  # noqa: E402

from langgraph_adamm import Memory  # noqa: E402

QUESTIONS = [
    "What was my average deep sleep?",
    "How much did I spend in total?",
    "What was my highest sleep score?",
]


class Scripted(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> Scripted:  # type: ignore[override]
        return self


def turn_text(i: int) -> str:
    if i % 2:
        return QUESTIONS[(i // 2) % len(QUESTIONS)]
    return (
        f"Sleep log: total sleep: {6 + (i % 7) * 0.3:.1f} h, deep sleep: "
        f"{1 + (i % 5) * 0.1:.1f} h, resting hr: {52 + i % 9} bpm, "
        f"sleep score: {70 + i % 20}"
    )


def run(setup: str, db: str, turns: int, budget: float) -> dict[str, float]:
    memory = Memory(db, user_id="demo", retrieval=False)
    model = Scripted(messages=iter([AIMessage(f"Noted ({i}).") for i in range(turns)]))
    middleware = None
    if setup != "bare":
        middleware = memory.middleware(
            recall="off" if setup == "store" else "auto", store_budget=budget
        )
    agent = create_agent(model, middleware=[middleware] if middleware else [])
    times: list[float] = []

    async def arun() -> None:
        for i in range(turns):
            start = time.perf_counter()
            await agent.ainvoke({"messages": [HumanMessage(turn_text(i))]})
            times.append(time.perf_counter() - start)

    if setup == "recall-async":
        asyncio.run(arun())
    else:
        for i in range(turns):
            start = time.perf_counter()
            agent.invoke({"messages": [HumanMessage(turn_text(i))]})
            times.append(time.perf_counter() - start)
    start = time.perf_counter()
    if middleware is not None:
        middleware.flush()
    flushed = time.perf_counter() - start
    memory.close()
    times.sort()
    return {
        "median_ms": 1000 * statistics.median(times),
        "p90_ms": 1000 * times[int(0.9 * (len(times) - 1))],
        "max_ms": 1000 * times[-1],
        "flush_ms": 1000 * flushed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--budget", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = str(Path(tmp) / "base.duckdb")
        sample = resources.files("langgraph_adamm") / "data" / "sample_history.json"
        with (
            resources.as_file(sample) as path,
            Memory(base, user_id="demo", retrieval=False) as memory,
        ):
            memory.ingest(path)
        print(f"{args.turns} turns a set-up, store budget {args.budget} s")
        print(f"{'set-up':<14}{'median':>10}{'p90':>10}{'max':>10}{'flush':>10}  (ms)")
        for setup in ("bare", "store", "recall", "recall-async"):
            db = str(Path(tmp) / f"{setup}.duckdb")
            shutil.copy(base, db)
            r = run(setup, db, args.turns, args.budget)
            print(
                f"{setup:<14}{r['median_ms']:>10.1f}{r['p90_ms']:>10.1f}"
                f"{r['max_ms']:>10.1f}{r['flush_ms']:>10.1f}"
            )


if __name__ == "__main__":
    main()
