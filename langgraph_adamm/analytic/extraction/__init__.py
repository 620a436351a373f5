"""Attribute extraction: observations with provenance from each round.

The extractors are imported on first use: reading a memory needs neither the
rules' patterns nor the model's chat-model imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langgraph_adamm.analytic.extraction.base import (
    Extractor,
    Observation,
    Provenance,
    make_observation,
)

if TYPE_CHECKING:
    from langgraph_adamm.analytic.extraction.llm import LLMExtractor
    from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor

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
    if name == "RuleExtractor":
        from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor

        return RuleExtractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
