"""The construction graph, compiled for LangGraph Studio / ``langgraph dev``.

Input ``messages`` or ``history`` (a history file path or document), optionally
``user_id``, ``session_id``, ``time``; output ``report``. The memory comes from the
``ADAMM_*`` environment variables (see :mod:`langgraph_adamm.graphs.studio`) and
is the same object the query graph answers from; the server supplies the
checkpointer.
"""

from langgraph_adamm.graphs.construction import create_construction_graph
from langgraph_adamm.graphs.studio import memory_from_env, server_graph

memory = memory_from_env()
graph = server_graph(create_construction_graph(memory), name="construction")
