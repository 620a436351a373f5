"""The query graph, compiled for LangGraph Studio and ``langgraph dev``.

Input ``question`` (and optionally ``question_time``, ``user_id``); output
``question, answer, value, unit, evidence, plan, steps, notes``. The memory comes
from the ``ADAMM_*`` environment variables (see
:mod:`langgraph_adamm.graphs.studio`); the server supplies the checkpointer.
"""

from langgraph_adamm.graphs.query import create_query_graph
from langgraph_adamm.graphs.studio import memory_from_env, rerank_from_env, server_graph

memory = memory_from_env()
graph = server_graph(create_query_graph(memory, rerank=rerank_from_env()), name="query")
