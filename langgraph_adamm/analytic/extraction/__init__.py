"""Attribute extraction: observations with provenance from each round.

The model extractor is imported on first use: its chat-model imports are not
needed to read a memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langgraph_adamm.analytic.extraction.base import (
    Extractor,
    Observation,
    Provenance,
    make_observation,
)
from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor

if TYPE_CHECKING:
    from langgraph_adamm.analytic.extraction.llm import LLMExtractor

__all__ = [
    "Extractor",
    "LLMExtractor",
    "Observation",
    "Provenance",
    "RuleExtractor",
    "make_observation",
]


def __getattr__(name: str) -> Any:
    if name == "LLMExtractor":
        from langgraph_adamm.analytic.extraction.llm import LLMExtractor

        return LLMExtractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
