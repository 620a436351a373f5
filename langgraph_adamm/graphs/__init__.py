"""LangGraph state graphs: the query graph and the construction graph."""

from langgraph_adamm.graphs.construction import create_construction_graph
from langgraph_adamm.graphs.query import create_query_graph
from langgraph_adamm.graphs.run_context import AdaMMContext

__all__ = ["AdaMMContext", "create_construction_graph", "create_query_graph"]
