"""langgraph_adamm: long-term multimodal memory for LangGraph agents (AdaMM)."""

from langgraph_adamm.analytic.operators import (
    ComputeArgs,
    ComputeResult,
    FilterArgs,
    LookupArgs,
    RankArgs,
    RowsResult,
)
from langgraph_adamm.analytic.predicates import ColumnFilter
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import (
    AdaMMError,
    ExtractionError,
    HistoryFormatError,
    StorageError,
    ToolInputError,
)
from langgraph_adamm.history import History, Round, Session, read_history
from langgraph_adamm.memory import IngestReport, Memory

__version__ = "0.1.0"

__all__ = [
    "AdaMMConfig",
    "AdaMMError",
    "ColumnFilter",
    "ComputeArgs",
    "ComputeResult",
    "ExtractionError",
    "FilterArgs",
    "History",
    "HistoryFormatError",
    "IngestReport",
    "LookupArgs",
    "Memory",
    "RankArgs",
    "Round",
    "RowsResult",
    "Session",
    "StorageError",
    "ToolInputError",
    "read_history",
]
