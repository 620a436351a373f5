"""LangGraph state graphs: the query graph and the construction graph.

Imported lazily: asking a question builds the query graph alone, and the
construction graph's modules (the extractors, the writer) stay unimported.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langgraph_adamm.graphs.construction import create_construction_graph
    from langgraph_adamm.graphs.query import create_query_graph
    from langgraph_adamm.graphs.run_context import AdaMMContext

_WHERE = {
    "AdaMMContext": "langgraph_adamm.graphs.run_context",
    "create_construction_graph": "langgraph_adamm.graphs.construction",
    "create_query_graph": "langgraph_adamm.graphs.query",
}

__all__ = ["AdaMMContext", "create_construction_graph", "create_query_graph"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
