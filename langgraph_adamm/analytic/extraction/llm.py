"""An extractor for any LangChain chat model, with validated structured output."""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import replace
from itertools import islice
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from pydantic import Field

from langgraph_adamm.analytic.extraction.base import (
    Extracted,
    Observation,
    Provenance,
    SourceKind,
    make_observation,
)
from langgraph_adamm.analytic.values import ParsedValue, convert_units, parse_value
from langgraph_adamm.chat import (
    CallRecord,
    StructuredModel,
    TemplatePrompt,
    structured,
)
from langgraph_adamm.errors import ExtractionError
from langgraph_adamm.history import Round
from langgraph_adamm.schemas import WireModel

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


class ExtractedPair(WireModel):
    """One observation as a model reports it."""

    attribute: str = Field(min_length=1, max_length=100)
    value: str | float | int | bool
    source: Literal["user", "assistant", "caption", "ocr", "metadata"]
    image_id: str | None = None
    evidence: str | None = Field(default=None, max_length=2000)


class ExtractionOutput(WireModel):
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


_WORD_RE = re.compile(r"\S+")
_NUMBER_START_RE = re.compile(r"(?<![\w.,])[-+−~≈$€£¥]?\s?\d|PT\d", re.IGNORECASE)


def _readings(value: ParsedValue) -> list[tuple[float, str | None]]:
    """The quantities a parsed value may stand for (number, unit)."""
    if value.number is None:
        return []
    out = [(value.number, value.unit)]
    if value.alt is not None:
        out.append((value.alt, value.unit))
    if value.kind == "clock" and value.text.count(":") == 1:
        out.append((value.number / 60, value.unit))  # m:ss
    if value.low is not None and value.high is not None:
        out += [(value.low, value.unit), (value.high, value.unit)]
    return out


def _same_quantity(a: tuple[float, str | None], b: tuple[float, str | None]) -> bool:
    (x, u), (y, v) = a, b
    if u is not None and v is not None and u != v:
        try:
            y = convert_units(y, v, u)
        except ValueError:
            return False
    return math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9)


def grounded_span(
    obs: Observation, text: str, evidence: str | None = None
) -> tuple[int, int] | None:
    """Where the source text states the observation's value, or None.

    Numbers are compared as quantities: every number in the text is read with
    up to three following words (the rule extractor's value parser), so "7h
    05m" grounds 425 min and "6,8 h" grounds 6.8 h.
    """
    if not text.strip():
        return None
    if evidence:
        at = text.find(evidence)
        if at >= 0 and (obs.value.number is None or _numbers_in(evidence, obs.value)):
            return at, at + len(evidence)
    if obs.value.number is not None:
        found = _numbers_in(text, obs.value)
        return found[0] if found else None
    needle = obs.value.text.strip()
    if obs.value.kind == "boolean" and evidence is None:
        return None  # a yes/no needs the words that say it
    at = text.casefold().find(needle.casefold()) if needle else -1
    return (at, at + len(needle)) if at >= 0 else None


def _numbers_in(text: str, value: ParsedValue) -> list[tuple[int, int]]:
    wanted = _readings(value)
    spans = []
    for m in _NUMBER_START_RE.finditer(text):
        words = list(islice(_WORD_RE.finditer(text, m.start()), 4))
        for n in range(len(words), 0, -1):
            end = words[n - 1].end()
            piece = text[m.start() : end].rstrip(".,;:)")
            parsed = parse_value(piece)
            if parsed.number is None:
                continue
            if any(_same_quantity(w, r) for w in wanted for r in _readings(parsed)):
                spans.append((m.start(), m.start() + len(piece)))
                break
    return spans


class LLMExtractor:
    """Extracts observations with a chat model; output is validated, then grounded.

    Each observation must name a source the round has (and an image it has) and
    be grounded in it (:func:`grounded_span`); ungrounded ones are dropped and
    counted against the round. Invalid output is
    retried, at most ``max_attempts`` calls in all, then :class:`ExtractionError`.

    Args:
        model: A LangChain chat model, or a ``provider:model`` string.
        max_attempts: Calls per round before giving up.
        prompt: The prompt template (``round_id``, ``time``, ``content``).
    """

    def __init__(
        self,
        model: BaseChatModel | StructuredModel | str,
        *,
        max_attempts: int = 3,
        prompt: str = EXTRACTION_PROMPT,
    ) -> None:
        self.llm = structured(model)
        self.model = self.llm.model
        self.max_attempts = max(1, max_attempts)
        self.prompt = prompt

    def _prompt(self, round_: Round) -> TemplatePrompt:
        time = round_.time.isoformat(sep=" ") if round_.time else "no time"
        return TemplatePrompt(
            self.prompt,
            {
                "round_id": round_.round_id,
                "time": time,
                "content": render_round(round_),
            },
            trim=("content",),
        )

    def _ground(self, round_: Round, output: ExtractionOutput) -> Extracted:
        """Keep the observations whose value is found in the source they cite.

        A value is grounded when its cited text (the turn, the caption or the
        OCR of the named image) states it: a number that reads, with the rule
        extractor's normalisation, as the same quantity (any unit of its
        dimension; "1.9 h" is not in a text that says "1.2 h"), or a text, date
        or yes/no value that occurs in it (or whose evidence does). Observations
        attributed to an empty or missing source, or not found in it, are
        dropped and counted in ``Extracted.dropped``.
        """
        image_ids = {img.image_id for img in round_.images}
        out = Extracted()
        for i, pair in enumerate(output.observations):
            if pair.source in ("caption", "ocr") and pair.image_id not in image_ids:
                raise ValueError(
                    f"observations[{i}]: image_id {pair.image_id!r} is not an image "
                    f"of round {round_.round_id}"
                )
            text = _source_text(round_, pair.source, pair.image_id) or ""
            image_id = pair.image_id if pair.source in ("caption", "ocr") else None
            obs = make_observation(
                pair.attribute,
                pair.value,
                Provenance(round_.round_id, pair.source, image_id, None),
            )
            if obs is None:
                continue
            span = grounded_span(obs, text, pair.evidence)
            if span is None:
                out.dropped += 1
                logger.info(
                    "round %s: dropped %s=%r, not found in its %s",
                    round_.round_id,
                    obs.attribute,
                    str(pair.value)[:40],
                    pair.source,
                )
                continue
            out.append(replace(obs, provenance=replace(obs.provenance, span=span)))
        return out

    def _request(self, round_: Round) -> tuple[str, type[ExtractionOutput], Any]:
        return "extraction", ExtractionOutput, self._prompt(round_)

    def _options(self, round_: Round) -> dict[str, Any]:
        return {
            "parse": lambda out: self._ground(round_, out),
            "attempts": self.max_attempts,
        }

    def _result(self, round_: Round, record: CallRecord) -> list[Observation]:
        if record.trimmed:
            logger.warning(
                "round %s: %s; values in the left-out text are not extracted",
                round_.round_id,
                record.trimmed,
            )
        if not record.ok:
            raise ExtractionError(f"round {round_.round_id}: {record.failure()}")
        return record.value

    def extract(self, round_: Round) -> list[Observation]:
        """Observations for one round; raises ExtractionError after the retries.

        Any failure of the call (bad output, a provider error) uses one attempt.
        """
        record = self.llm.call(*self._request(round_), **self._options(round_))
        return self._result(round_, record)

    async def aextract(self, round_: Round) -> list[Observation]:
        """Async form of :meth:`extract`."""
        record = await self.llm.acall(*self._request(round_), **self._options(round_))
        return self._result(round_, record)
