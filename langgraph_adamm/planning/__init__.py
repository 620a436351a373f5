"""Query planning (AdaMM §3.5): planning context, planners, budget and readers.

Pure functions on plain data; the LangGraph nodes in ``langgraph_adamm.graphs``
wrap them.
"""
