"""langgraph_adamm: long-term multimodal memory for LangGraph agents (AdaMM).

Names are imported on first use (PEP 562), so that ``import langgraph_adamm``
and the ``adamm`` command start fast; ``from langgraph_adamm import Memory``
works as usual.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from langgraph_adamm.config import AdaMMConfig, ForestConfig
from langgraph_adamm.errors import (
    AdaMMError,
    ExtractionError,
    HistoryFormatError,
    StorageError,
    ToolInputError,
)

if TYPE_CHECKING:
    from langgraph_adamm.analytic.operators import (
        ComputeArgs,
        ComputeResult,
        FilterArgs,
        LookupArgs,
        RankArgs,
        RowsResult,
    )
    from langgraph_adamm.analytic.predicates import ColumnFilter
    from langgraph_adamm.forest import ForestReranker, ForestResult, forest_rerank
    from langgraph_adamm.history import History, Round, Session, read_history
    from langgraph_adamm.memory import IngestReport, Memory
    from langgraph_adamm.middleware import MemoryMiddleware
    from langgraph_adamm.store import AdaMMStore

__version__ = "0.1.0"

_LAZY = {
    "ComputeArgs": "langgraph_adamm.analytic.operators",
    "ComputeResult": "langgraph_adamm.analytic.operators",
    "FilterArgs": "langgraph_adamm.analytic.operators",
    "LookupArgs": "langgraph_adamm.analytic.operators",
    "RankArgs": "langgraph_adamm.analytic.operators",
    "RowsResult": "langgraph_adamm.analytic.operators",
    "ColumnFilter": "langgraph_adamm.analytic.predicates",
    "ForestReranker": "langgraph_adamm.forest",
    "ForestResult": "langgraph_adamm.forest",
    "forest_rerank": "langgraph_adamm.forest",
    "History": "langgraph_adamm.history",
    "Round": "langgraph_adamm.history",
    "Session": "langgraph_adamm.history",
    "read_history": "langgraph_adamm.history",
    "IngestReport": "langgraph_adamm.memory",
    "Memory": "langgraph_adamm.memory",
    "AdaMMStore": "langgraph_adamm.store",
    "MemoryMiddleware": "langgraph_adamm.middleware",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'langgraph_adamm' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "AdaMMConfig",
    "AdaMMError",
    "AdaMMStore",
    "ColumnFilter",
    "ComputeArgs",
    "ComputeResult",
    "ExtractionError",
    "FilterArgs",
    "ForestConfig",
    "ForestReranker",
    "ForestResult",
    "History",
    "HistoryFormatError",
    "IngestReport",
    "LookupArgs",
    "Memory",
    "MemoryMiddleware",
    "RankArgs",
    "Round",
    "RowsResult",
    "Session",
    "StorageError",
    "ToolInputError",
    "forest_rerank",
    "read_history",
]
