"""The graphs' run context: which memory a run reads and whose namespace it is.

``create_query_graph`` and ``create_construction_graph`` declare
``context_schema=AdaMMContext``; a caller passes the memory and the user as
``graph.invoke(input, context=AdaMMContext(memory=mem, user_id="alice"))``.
The older ways keep working: ``config["configurable"]["memory"]`` and
``config["configurable"]["user_id"]`` (as LangMem reads its user), and the
memory the graph factory captured. :func:`run_memory` and :func:`run_user`
are the one place that decides between them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig

if TYPE_CHECKING:
    from langgraph.runtime import Runtime


@dataclass
class AdaMMContext:
    """What a graph run needs besides its input.

    Attributes:
        memory: The :class:`~langgraph_adamm.Memory` to read or build; None:
            the factory's memory, then ``config["configurable"]["memory"]``.
            Typed ``Any`` so that the context's JSON schema (which a LangGraph
            server builds for every run) stays plain.
        user_id: The namespace; None or ``""``: the input's ``user_id``, then
            ``config["configurable"]["user_id"]``, then the memory's own.
    """

    memory: Any = None
    user_id: str | None = None


NO_CONFIG: RunnableConfig = RunnableConfig()
"""The default of a node's ``config`` parameter (LangGraph always passes the
run's); with it the nodes match LangGraph's typed node signatures."""


def _configurable(config: RunnableConfig | None) -> dict[str, Any]:
    return dict((config or {}).get("configurable") or {})


def _from_context(runtime: Runtime[AdaMMContext] | None, name: str) -> Any:
    """A field of the run context (an :class:`AdaMMContext`, or a dict).

    A LangGraph version that does not coerce a dict context to the schema passes
    the dict as it came.
    """
    context = getattr(runtime, "context", None)
    if isinstance(context, Mapping):
        return context.get(name)
    return getattr(context, name, None) if isinstance(context, AdaMMContext) else None


def run_memory(
    runtime: Runtime[AdaMMContext] | None,
    config: RunnableConfig | None,
    captured: Any,
) -> Any | None:
    """The run's memory, or None when no way gives one.

    The run context's memory comes first; then, as before the run context, the
    memory the graph factory captured, then ``configurable["memory"]``.
    """
    memory = _from_context(runtime, "memory")
    if memory is not None:
        return memory
    return captured or _configurable(config).get("memory")


def run_user(
    state: dict[str, Any] | Any,
    runtime: Runtime[AdaMMContext] | None,
    config: RunnableConfig | None,
) -> Any:
    """The run's user id: the input's, the run context's, configurable's, or None.

    ``""`` means unset: a LangGraph server without auth puts ``""`` into
    ``configurable``.
    """
    return (
        state.get("user_id")
        or _from_context(runtime, "user_id")
        or _configurable(config).get("user_id")
        or None
    )


def thread_id(config: RunnableConfig | None) -> Any:
    """The run's thread id (``configurable["thread_id"]``), or None."""
    return _configurable(config).get("thread_id")
