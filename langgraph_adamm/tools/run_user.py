"""Whose memory a tool or middleware call reads: the user the running graph names.

Code that runs inside any graph - an agent's tools and middleware, not only
this library's graphs (those use :mod:`langgraph_adamm.graphs.run_context`) -
reads the user here. Kept apart so that the tools need not import the graphs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig


def context_user_id(runtime: Any, config: RunnableConfig | None) -> str | None:
    """The user a run names, for code that runs inside any graph (agents' too).

    The run context's ``user_id`` - an attribute of any context object, or a
    key of a dict context - else ``config["configurable"]["user_id"]``. Without
    a runtime or a config given, the running graph's are read (None outside
    one).
    """
    if runtime is None:
        from langgraph.runtime import get_runtime

        try:
            runtime = get_runtime()
        except RuntimeError:
            runtime = None
    context = getattr(runtime, "context", None)
    user = (
        context.get("user_id")
        if isinstance(context, Mapping)
        else getattr(context, "user_id", None)
    )
    if user:
        return str(user)
    if config is None:
        from langgraph.config import get_config

        try:
            config = get_config()
        except RuntimeError:
            return None
    return (config.get("configurable") or {}).get("user_id") or None
