"""The extractor interface and the observation it produces (AdaMM §3.3.1)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, replace
from typing import Literal, Protocol, runtime_checkable

from langgraph_adamm.analytic.values import (
    ParsedValue,
    normalize_attribute,
    parse_value,
)
from langgraph_adamm.history import Round

_DURATION_NAME_RE = re.compile(
    r"duration|time|elapsed|sleep|nap|meditat|workout|session|minutes|active"
)
_LENGTH_NAME_RE = re.compile(
    r"distance|length|elevation|height|depth|climb|altitude|swim|run|walk|ride"
)
SourceKind = Literal["user", "assistant", "caption", "ocr", "metadata"]

SOURCE_PRIORITY: dict[str, int] = {
    "ocr": 0,
    "caption": 1,
    "user": 2,
    "assistant": 3,
    "metadata": 4,
}
"""When one round states an attribute twice, the table takes the value from the
most direct source: text read off an image, then its caption, then what the user
said, then the assistant's paraphrase, then metadata."""


@dataclass(frozen=True)
class Provenance:
    """Where an observation was read: the round, the source, and the span or image."""

    round_id: str
    source: SourceKind
    image_id: str | None = None
    span: tuple[int, int] | None = None
    """Character offsets of the evidence within the source text."""
    record: int = 0
    """Which record of the round: 0 for the round's own; 1, 2, ... for each
    record a round lists (the rows of a table, the objects of a JSON array)."""


@dataclass(frozen=True)
class Observation:
    """One grounded (attribute, value, provenance) triple."""

    attribute: str
    raw_attribute: str
    value: ParsedValue
    provenance: Provenance

    @property
    def unit(self) -> str | None:
        """The value's canonical unit, if it has one."""
        return self.value.unit


def make_observation(
    raw_attribute: str,
    raw_value: object,
    provenance: Provenance,
    unit_hint: str | None = None,
) -> Observation | None:
    """Normalize one attribute-value pair; None when the name normalizes to nothing.

    A unit in the attribute name ("Deep sleep (h)") applies when the value itself
    carries none.
    """
    name, name_unit = normalize_attribute(raw_attribute)
    if not name:
        return None
    value = parse_value(raw_value)
    if (
        value.unit == "m"
        and _DURATION_NAME_RE.search(name)
        and not _LENGTH_NAME_RE.search(name)
    ):
        value = replace(value, unit="min")  # "duration=54m" is minutes
    unit = value.unit or name_unit or unit_hint
    if unit != value.unit and value.number is not None:
        value = replace(value, unit=unit)
    return Observation(name, raw_attribute.strip(), value, provenance)


class Extracted(list[Observation]):
    """An extractor's observations for one round, with what it had to drop.

    ``dropped`` counts observations that could not be grounded in the round
    (a model's value that its cited source does not contain); they are not
    stored, and the count is recorded against the round.
    """

    dropped: int = 0


@runtime_checkable
class Extractor(Protocol):
    """Turns a round into observations. Implementations must be safe to retry."""

    def extract(self, round_: Round) -> list[Observation]:
        """Every grounded observation in the round.

        Raises:
            ExtractionError: when no valid output could be obtained; the caller
                records the failure against the round and keeps the round.
        """
        ...

    async def aextract(self, round_: Round) -> list[Observation]:
        """Async form of :meth:`extract`."""
        ...


class SyncExtractor:
    """A synchronous extractor; its async form runs it in a thread.

    Subclasses implement :meth:`extract`; :meth:`aextract` calls it without
    blocking the event loop.
    """

    def extract(self, round_: Round) -> list[Observation]:  # pragma: no cover
        """Implemented by the extractor."""
        raise NotImplementedError

    async def aextract(self, round_: Round) -> list[Observation]:
        """Run :meth:`extract` without blocking the event loop."""
        return await asyncio.to_thread(self.extract, round_)
