"""Attribute extraction: observations with provenance from each round."""

from langgraph_adamm.analytic.extraction.base import (
    Extractor,
    Observation,
    Provenance,
    make_observation,
)
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
