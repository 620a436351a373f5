"""Graph nodes written once, run by ``invoke`` and awaited by ``ainvoke``.

LangGraph runs a plain function node in a worker thread under ``ainvoke``, and
an ``async def`` node not at all under ``invoke``. A node whose work waits on a
model is written here once, as a generator: it yields each piece of waiting
work (:class:`Work`: a model call, a blocking database read) and receives its
result. :class:`DualNode` drives it: under ``invoke`` each piece runs in the
caller's thread, under ``ainvoke`` each is awaited (a model's async call) or
run in a worker thread (blocking work). The run's ``runtime``
(:func:`langgraph.runtime.get_runtime`) and ``config`` are passed to the node
function as LangGraph passes them to a function node.

Only public API is used: :class:`langchain_core.runnables.Runnable` and
:func:`langgraph.runtime.get_runtime`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.runtime import Runtime, get_runtime


@dataclass(frozen=True)
class Work:
    """One piece of a node's work that waits: run under invoke, awaited under ainvoke.

    ``run`` does it blocking; ``arun``, where given, awaits it (a model's async
    call). Without ``arun`` the async path runs ``run`` in a worker thread, so
    that the event loop never blocks on it.
    """

    run: Callable[[], Any]
    arun: Callable[[], Awaitable[Any]] | None = None


NodeWork = Generator[Work, Any, dict[str, Any]]
"""A node's body: yields :class:`Work`, receives each result, returns the update."""
NodeBody = Callable[[Any, Runtime[Any], RunnableConfig], NodeWork]


def model_work(
    client: Any, role: str, schema: Any, prompt: Any, *, attempts: int
) -> Work:
    """A model call as :class:`Work`: ``client.call`` or ``await client.acall``."""
    return Work(
        lambda: client.call(role, schema, prompt, attempts=attempts),
        lambda: client.acall(role, schema, prompt, attempts=attempts),
    )


def run_node(body: NodeWork) -> dict[str, Any]:
    """A node's update, every piece of work run in this thread."""
    try:
        work = next(body)
        while True:
            work = body.send(work.run())
    except StopIteration as done:
        return done.value


async def arun_node(body: NodeWork) -> dict[str, Any]:
    """A node's update, every piece of work awaited or run in a worker thread."""
    try:
        work = next(body)
        while True:
            result = (
                await work.arun()
                if work.arun is not None
                else await asyncio.to_thread(work.run)
            )
            work = body.send(result)
    except StopIteration as done:
        return done.value


class DualNode(Runnable[Any, Any]):
    """A graph node whose body (a :data:`NodeBody`) serves invoke and ainvoke."""

    def __init__(self, body: NodeBody, name: str | None = None) -> None:
        self.body = body
        self.name = name or getattr(body, "__name__", "node")

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Run the node in this thread."""
        return run_node(self.body(input, get_runtime(), config or {}))

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Run the node, awaiting its model calls."""
        return await arun_node(self.body(input, get_runtime(), config or {}))


__all__ = ["DualNode", "NodeWork", "Work", "arun_node", "model_work", "run_node"]
