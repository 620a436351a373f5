"""Graph nodes that have a sync and an async function.

LangGraph runs a plain function node in a worker thread under ``ainvoke``, and
an ``async def`` node not at all under ``invoke``. A node whose work is a model
call gets both functions, the way LangGraph's own prebuilt agent builds its
model node: ``invoke`` calls the first, ``ainvoke`` awaits the second, and the
run's ``config``, ``runtime`` (:class:`~langgraph.runtime.Runtime`) and store
are injected into either by parameter name, as for a plain function node.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import Runnable

# The class LangGraph coerces every function node into (also what its prebuilt
# agent uses); it injects ``config`` and ``runtime`` into both functions.
from langgraph._internal._runnable import RunnableCallable


def sync_and_async_node(
    func: Callable[..., Any], afunc: Callable[..., Awaitable[Any]]
) -> Runnable[Any, Any]:
    """A node that runs ``func`` under ``invoke`` and awaits ``afunc`` under ainvoke.

    Both take the same arguments and return the same update.
    """
    return RunnableCallable(func, afunc, trace=False)
