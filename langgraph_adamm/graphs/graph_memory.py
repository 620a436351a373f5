"""The narrow face of a memory that the graph nodes read and write.

The nodes of the query and construction graphs call these methods and nothing
else of a :class:`~langgraph_adamm.Memory`: no SQL, no component internals.
:class:`Memory` satisfies both protocols; a test or another store can stand in
with any object that has these members.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from langgraph_adamm.tools.calls import ToolMemory

if TYPE_CHECKING:
    from langgraph_adamm.config import AdaMMConfig
    from langgraph_adamm.history import History, Round
    from langgraph_adamm.planning.context import EpisodeCard, TableCard
    from langgraph_adamm.retrieval.encoders import TextEncoder


class QueryMemory(ToolMemory, Protocol):
    """What the query graph reads: the six tools and the planning metadata."""

    config: AdaMMConfig
    user_id: str

    def has_user(self, user_id: str) -> bool:
        """Whether anything is stored under ``user_id``."""
        ...

    def for_user(self, user_id: str | None) -> QueryMemory:
        """This memory as ``user_id``'s namespace."""
        ...

    def last_round_time(self) -> datetime | None:
        """When the user's latest dated round happened ("now" by default)."""
        ...

    @property
    def text_encoder(self) -> TextEncoder | None:
        """The text encoder of retrieval memory (None when it is off)."""
        ...

    @property
    def version(self) -> tuple[int, ...]:
        """Changes whenever tables or the hierarchy change (keys caches)."""
        ...

    def planning_cards(self) -> tuple[list[TableCard], list[EpisodeCard]]:
        """Candidates of the planning context: table and episode cards."""
        ...

    def episode_scores(self, question: str) -> dict[str, float] | None:
        """Each episode's similarity to the question (None: retrieval off)."""
        ...

    def record_rounds(self, round_ids: Sequence[str]) -> set[str]:
        """Those of the rounds that are records rather than chat."""
        ...


class ConstructionMemory(Protocol):
    """What the construction graph calls: the stages of :meth:`Memory.ingest`."""

    user_id: str

    def for_user(self, user_id: str | None) -> ConstructionMemory:
        """This memory as ``user_id``'s namespace."""
        ...

    def store_history(
        self, history: History | str | Path, *, report: Any = None
    ) -> Any:
        """Stage 1: the raw rounds, stored as pending."""
        ...

    def pending_batches(self) -> list[list[tuple[int, Round]]]:
        """Stored rounds still to extract, in batches."""
        ...

    def extract_batch(self, batch: list[tuple[int, Round]]) -> list[Any]:
        """Stage 2: observations of each round of a batch."""
        ...

    async def aextract_batch(self, batch: list[tuple[int, Round]]) -> list[Any]:
        """Async stage 2: the batch's extraction calls run concurrently."""
        ...

    def apply_extracted(self, results: list[Any], report: Any) -> None:
        """Stage 3: mining, induction and materialization of one batch."""
        ...

    def index_pending(self, report: Any) -> None:
        """Stage 4: events, episodes and topics of the retrieval memory."""
        ...

    @property
    def tables(self) -> Sequence[object]:
        """The induced tables of this user (their count goes in the report)."""
        ...
