"""An extractor for any LangChain chat model, with validated structured output."""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from langgraph_adamm.analytic.extraction.base import (
    Observation,
    Provenance,
    SourceKind,
    make_observation,
)
from langgraph_adamm.chat import parse_output, resolve_chat_model, structured_runnable
from langgraph_adamm.errors import ExtractionError
from langgraph_adamm.history import Round

logger = logging.getLogger(__name__)

EXTRACTION_PROMPT = """Extract every attribute-value observation that this
interaction round states explicitly: measurements, counts, amounts, dates,
outcomes, settings, readings shown in images. Use short attribute names that
would recur across rounds ("deep_sleep", not "deep sleep last night"). Copy each
value faithfully with its unit. Say where each came from: source is one of user,
assistant, caption, ocr, metadata; give image_id for caption/ocr, and evidence,
the exact text the value was read from. Do not infer values that are not stated.
Return an empty list when there are none.

Round {round_id} ({time})
{content}"""


class ExtractedPair(BaseModel):
    """One observation as a model reports it."""

    attribute: str = Field(min_length=1, max_length=100)
    value: str | float | int | bool
    source: Literal["user", "assistant", "caption", "ocr", "metadata"]
    image_id: str | None = None
    evidence: str | None = Field(default=None, max_length=2000)


class ExtractionOutput(BaseModel):
    """The structured output requested from the model."""

    observations: list[ExtractedPair] = Field(default_factory=list)


def render_round(round_: Round) -> str:
    """The round's texts, labelled by source, as the model sees them."""
    parts = []
    if round_.user:
        parts.append(f"[user] {round_.user}")
    if round_.assistant:
        parts.append(f"[assistant] {round_.assistant}")
    for img in round_.images:
        if img.caption:
            parts.append(f"[caption {img.image_id}] {img.caption}")
        if img.ocr:
            parts.append(f"[ocr {img.image_id}] {img.ocr}")
    if round_.metadata:
        parts.append(f"[metadata] {json.dumps(round_.metadata, default=str)}")
    return "\n".join(parts)


def _source_text(round_: Round, source: SourceKind, image_id: str | None) -> str | None:
    if source == "user":
        return round_.user
    if source == "assistant":
        return round_.assistant
    if source == "metadata":
        return json.dumps(round_.metadata, default=str)
    for img in round_.images:
        if img.image_id == image_id:
            return img.caption if source == "caption" else img.ocr
    return None


class LLMExtractor:
    """Extracts observations with a chat model; output is validated, then grounded.

    Each observation must name a source the round has (and an image it has); a
    span is located from the evidence or value in that source. Invalid output is
    retried, at most ``max_attempts`` calls in all, then :class:`ExtractionError`.

    Args:
        model: A LangChain chat model, or a ``provider:model`` string.
        max_attempts: Calls per round before giving up.
        prompt: The prompt template (``round_id``, ``time``, ``content``).
    """

    def __init__(
        self,
        model: BaseChatModel | str,
        *,
        max_attempts: int = 3,
        prompt: str = EXTRACTION_PROMPT,
    ) -> None:
        self.model = resolve_chat_model(model)
        self.max_attempts = max(1, max_attempts)
        self.prompt = prompt
        self._runnable: Any = structured_runnable(self.model, ExtractionOutput)

    def _messages(self, round_: Round) -> str:
        time = round_.time.isoformat(sep=" ") if round_.time else "no time"
        return self.prompt.format(
            round_id=round_.round_id, time=time, content=render_round(round_)
        )

    def _ground(self, round_: Round, output: ExtractionOutput) -> list[Observation]:
        image_ids = {img.image_id for img in round_.images}
        out: list[Observation] = []
        for i, pair in enumerate(output.observations):
            if pair.source in ("caption", "ocr") and pair.image_id not in image_ids:
                raise ValueError(
                    f"observations[{i}]: image_id {pair.image_id!r} is not an image "
                    f"of round {round_.round_id}"
                )
            text = _source_text(round_, pair.source, pair.image_id) or ""
            needle = pair.evidence or str(pair.value)
            start = text.find(needle) if needle else -1
            span = (start, start + len(needle)) if start >= 0 else None
            image_id = pair.image_id if pair.source in ("caption", "ocr") else None
            obs = make_observation(
                pair.attribute,
                pair.value,
                Provenance(round_.round_id, pair.source, image_id, span),
            )
            if obs is not None:
                out.append(obs)
        return out

    def _failure(
        self, round_: Round, attempt: int, exc: Exception, errors: list[str]
    ) -> None:
        errors.append(f"attempt {attempt}: {type(exc).__name__}: {exc}"[:300])
        logger.info("extraction of %s failed: %s", round_.round_id, errors[-1])

    def _give_up(self, round_: Round, errors: list[str]) -> ExtractionError:
        return ExtractionError(
            f"round {round_.round_id}: no valid extraction after "
            f"{self.max_attempts} attempts; " + " | ".join(errors)
        )

    def extract(self, round_: Round) -> list[Observation]:
        """Observations for one round; raises ExtractionError after the retries.

        Any failure of the call (bad output, a provider error) uses one attempt.
        """
        errors: list[str] = []
        for attempt in range(1, self.max_attempts + 1):
            try:
                raw = self._runnable.invoke(self._messages(round_))
                return self._ground(round_, parse_output(raw, ExtractionOutput))
            except Exception as exc:  # noqa: BLE001 - recorded against the round
                self._failure(round_, attempt, exc, errors)
        raise self._give_up(round_, errors)

    async def aextract(self, round_: Round) -> list[Observation]:
        """Async form of :meth:`extract`."""
        errors: list[str] = []
        for attempt in range(1, self.max_attempts + 1):
            try:
                raw = await self._runnable.ainvoke(self._messages(round_))
                return self._ground(round_, parse_output(raw, ExtractionOutput))
            except Exception as exc:  # noqa: BLE001 - recorded against the round
                self._failure(round_, attempt, exc, errors)
        raise self._give_up(round_, errors)
