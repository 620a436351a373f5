"""Episode and topic descriptions: extractive offline, model-written when one is given.

A model is asked once per closed episode and once per topic that gained an
episode, never once per event, so the cost grows with episodes, not rounds.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from langgraph_adamm.retrieval.hierarchy import extractive_summary

logger = logging.getLogger(__name__)

EPISODE_PROMPT = """Summarize this stretch of a conversation between a user and an
assistant in one or two sentences: what happened, what was shown, and any facts
the user may ask about later. Rounds, in order:
{items}"""

TOPIC_PROMPT = """These episode summaries belong to one recurring topic in a user's
history. Describe the topic in one sentence that names what it covers:
{items}"""


class HierarchyDescriber(Protocol):
    """Writes descriptions for closed episodes and their topics."""

    def describe_episode(self, event_texts: Sequence[str]) -> str:
        """A description of an episode from its events' texts, in order."""
        ...

    def describe_topic(self, episode_descriptions: Sequence[str]) -> str:
        """A description of a topic from its episodes' descriptions."""
        ...


class ExtractiveDescriber:
    """The offline describer: first sentences, in order."""

    def describe_episode(self, event_texts: Sequence[str]) -> str:
        """Extractive summary of the events."""
        return extractive_summary(event_texts)

    def describe_topic(self, episode_descriptions: Sequence[str]) -> str:
        """Extractive summary of the episodes."""
        return extractive_summary(episode_descriptions)


class LLMHierarchyDescriber:
    """Asks a chat model; falls back to the extractive summary when the call fails."""

    def __init__(
        self,
        model: Any,
        *,
        episode_prompt: str = EPISODE_PROMPT,
        topic_prompt: str = TOPIC_PROMPT,
        max_chars: int = 6000,
    ) -> None:
        from langgraph_adamm.chat import structured

        self.llm = structured(model)
        self.model = self.llm.model
        self.episode_prompt = episode_prompt
        self.topic_prompt = topic_prompt
        self.max_chars = max_chars
        self._fallback = ExtractiveDescriber()

    def _ask(self, role: str, prompt: str, items: Sequence[str]) -> str | None:
        from langgraph_adamm.chat import TemplatePrompt

        text = "\n".join(f"- {x}" for x in items)[: self.max_chars]
        record = self.llm.call(
            role, None, TemplatePrompt(prompt, {"items": text}, trim=("items",))
        )
        if not record.ok:
            logger.warning("%s; using the extractive summary", record.failure())
            return None
        return str(record.value)[:1000]

    def describe_episode(self, event_texts: Sequence[str]) -> str:
        """A model-written episode description."""
        return self._ask("episode description", self.episode_prompt, event_texts) or (
            self._fallback.describe_episode(event_texts)
        )

    def describe_topic(self, episode_descriptions: Sequence[str]) -> str:
        """A model-written topic description."""
        return self._ask(
            "topic description", self.topic_prompt, episode_descriptions
        ) or (self._fallback.describe_topic(episode_descriptions))
