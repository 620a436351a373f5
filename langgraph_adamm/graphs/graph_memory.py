"""The narrow face of a memory that the graph nodes read and write.

The nodes of the query and construction graphs call the members of
:class:`QueryMemory` and :class:`ConstructionMemory` and nothing else: no SQL,
no component internals. A test or another store can stand in with any object
that has these members.

A :class:`~langgraph_adamm.Memory` is built for its users, so the stages and
reads only the graphs call are not on it: :class:`ConstructionView` and
:class:`QueryView` give it the two faces (``memory.construction``,
``memory.queries``, one of each a memory). The graph factories and nodes take
either a Memory or a stand-in; :func:`construction_memory` and
:func:`query_memory` turn the first into its view and pass the second as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from langgraph_adamm.planning.cards import (
    RecordWords,
    episode_cards,
    record_words,
    table_cards,
)
from langgraph_adamm.planning.vectors import KeptVectors, encoder_key
from langgraph_adamm.retrieval.lexicon import lexicon_of
from langgraph_adamm.storage import rounds
from langgraph_adamm.storage.text_vectors import stored_vectors
from langgraph_adamm.tools.calls import ToolMemory

if TYPE_CHECKING:
    from langgraph_adamm.analytic import operators
    from langgraph_adamm.analytic.tables import TableSchema
    from langgraph_adamm.chat import StructuredModel
    from langgraph_adamm.config import AdaMMConfig
    from langgraph_adamm.history import History, Round
    from langgraph_adamm.ingestion import Extracted, Ingestion
    from langgraph_adamm.memory import Memory
    from langgraph_adamm.planning.context import EpisodeCard, TableCard
    from langgraph_adamm.reports import IngestReport, ProgressCallback
    from langgraph_adamm.retrieval.encoders import TextEncoder
    from langgraph_adamm.retrieval.memory import MemoryUnit, RetrievalMemory, Scope


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

    def realign_kinds(self, report: Any) -> None:
        """One name per attribute of a kind; rounds read again with it."""
        ...

    def index_pending(self, report: Any) -> None:
        """Stage 4: events, episodes and topics of the retrieval memory."""
        ...

    @property
    def tables(self) -> Sequence[object]:
        """The induced tables of this user (their count goes in the report)."""
        ...


def query_memory(memory: Memory | QueryMemory) -> QueryMemory:
    """What the query graph reads of ``memory``.

    A :class:`~langgraph_adamm.Memory` (what users pass, in the factory or the
    run's context) becomes its :attr:`~langgraph_adamm.Memory.queries` view;
    any other object is taken as a stand-in that has the protocol's members.
    """
    from langgraph_adamm.memory import Memory  # memory imports this module lazily

    return memory.queries if isinstance(memory, Memory) else memory


def construction_memory(
    memory: Memory | ConstructionMemory,
) -> ConstructionMemory:
    """What the construction graph drives of ``memory``.

    A :class:`~langgraph_adamm.Memory` becomes its
    :attr:`~langgraph_adamm.Memory.construction` view; any other object is
    taken as a stand-in that has the protocol's members.
    """
    from langgraph_adamm.memory import Memory  # memory imports this module lazily

    return memory.construction if isinstance(memory, Memory) else memory


class ConstructionView:
    """A :class:`~langgraph_adamm.Memory` as the construction graph drives it.

    The stages of :meth:`Memory.ingest <langgraph_adamm.Memory.ingest>`, one
    call each, so that a graph can checkpoint between them; users call
    ``ingest``, which runs the same stages in the same batches, so both paths
    build identical memories. Satisfies :class:`ConstructionMemory`.

    Args:
        memory: The user's memory.
        ingestion: Its ingestion, whose stages these are.
        closing: What the database runs before it closes (shared by every
            view of it).
    """

    def __init__(
        self,
        memory: Memory,
        ingestion: Ingestion,
        closing: list[Callable[[], None]] | None = None,
    ) -> None:
        self.memory = memory
        self.user_id = memory.user_id
        self._ingestion = ingestion
        self._closing = closing if closing is not None else []

    def before_close(self, finish: Callable[[], None]) -> None:
        """Run ``finish`` before the memory's database closes.

        A writer that stores in the background (the agent middleware) finishes
        its work there, so that closing the memory loses no turn.
        """
        self._closing.append(finish)

    def for_user(self, user_id: str | None) -> ConstructionView:
        """The view of ``user_id``'s memory (this one for None or the own id)."""
        return self.memory.for_user(user_id).construction

    def store_history(
        self,
        history: History | str | Path | Sequence[Any],
        *,
        strict: bool = False,
        report: IngestReport | None = None,
    ) -> IngestReport:
        """Stage 1: store the raw rounds, as pending, before any extraction."""
        return self._ingestion.store_history(history, strict=strict, report=report)

    def pending_batches(
        self, retry_failed: bool = False
    ) -> list[list[tuple[int, Round]]]:
        """Stored rounds still to extract, in batches of ``ingest_batch_size``."""
        return self._ingestion.pending_batches(retry_failed)

    def extract_batch(
        self,
        batch: list[tuple[int, Round]],
        on_round: Callable[[], None] | None = None,
    ) -> list[Extracted]:
        """Stage 2: observations of each round (a failure is kept as the error)."""
        return self._ingestion.extract_batch(batch, on_round)

    async def aextract_batch(
        self,
        batch: list[tuple[int, Round]],
        concurrency: int = 8,
        on_round: Callable[[], None] | None = None,
    ) -> list[Extracted]:
        """Async :meth:`extract_batch`: extraction calls run concurrently."""
        return await self._ingestion.aextract_batch(batch, concurrency, on_round)

    def apply_extracted(self, results: list[Extracted], report: IngestReport) -> None:
        """Stage 3: mining, induction and materialization, one transaction a batch."""
        self._ingestion.apply_extracted(results, report)

    def realign_kinds(self, report: IngestReport) -> None:
        """Stage 3b: one name per attribute of a kind; rounds read again with it."""
        self._ingestion.realign_kinds(report)

    def index_pending(
        self, report: IngestReport, progress: ProgressCallback | None = None
    ) -> None:
        """Stage 4: events, episodes and topics of the retrieval memory."""
        self._ingestion.index_pending(report, progress)

    @property
    def tables(self) -> list[TableSchema]:
        """The induced tables of this user (the report counts them)."""
        return self.memory.tables


class QueryView:
    """A :class:`~langgraph_adamm.Memory` as the query graph reads it.

    The six tools, ``has_user``, ``config`` and ``user_id`` are the Memory's
    own, which users call too; what only planning reads (the cards and the
    version that keys their caches, episode scores, "now", which rounds are
    records) is here, beside the cache of cards it keys. Satisfies
    :class:`QueryMemory`.

    Args:
        memory: The user's memory.
        llm: Its chat model as the roles call it: the graph's model unless the
            factory is given another (None: offline).
    """

    def __init__(self, memory: Memory, llm: StructuredModel | None) -> None:
        self.memory = memory
        self.llm = llm
        self.config: AdaMMConfig = memory.config
        self.user_id = memory.user_id
        self._cards: (
            tuple[tuple[int, ...], tuple[list[TableCard], list[EpisodeCard]]] | None
        ) = None
        self._table_cards: tuple[int, list[TableCard]] | None = None
        self._kept: tuple[int, KeptVectors] | None = None
        self._words: dict[tuple[int, str | None], RecordWords | None] = {}

    # -- the Memory's own ----------------------------------------------------------
    @property
    def retrieval(self) -> RetrievalMemory | None:
        """The retrieval memory, or None when it is off."""
        return self.memory.retrieval

    def has_user(self, user_id: str) -> bool:
        """Whether any round of ``user_id`` is stored in this database."""
        return self.memory.has_user(user_id)

    def for_user(self, user_id: str | None) -> QueryView:
        """The view of ``user_id``'s memory (this one for None or the own id)."""
        return self.memory.for_user(user_id).queries

    def lookup(self, args: Any) -> operators.RowsResult:
        """Lookup (see :meth:`Memory.lookup <langgraph_adamm.Memory.lookup>`)."""
        return self.memory.lookup(args)

    def filter(self, args: Any) -> operators.RowsResult:
        """Filter (see :meth:`Memory.filter <langgraph_adamm.Memory.filter>`)."""
        return self.memory.filter(args)

    def compute(self, args: Any) -> operators.ComputeResult:
        """Compute (see :meth:`Memory.compute <langgraph_adamm.Memory.compute>`)."""
        return self.memory.compute(args)

    def rank(self, args: Any) -> operators.RowsResult:
        """Rank (see :meth:`Memory.rank <langgraph_adamm.Memory.rank>`)."""
        return self.memory.rank(args)

    def semantic_match(
        self,
        query_content: str,
        retrieval_scope: Scope = "event",
        result_budget: int = 10,
    ) -> list[MemoryUnit]:
        """SemanticMatch (see :meth:`Memory.semantic_match`)."""
        return self.memory.semantic_match(query_content, retrieval_scope, result_budget)

    def event_locate(
        self, query_content: str, result_budget: int = 10
    ) -> list[MemoryUnit]:
        """EventLocate (see :meth:`Memory.event_locate`)."""
        return self.memory.event_locate(query_content, result_budget)

    # -- what only the graph reads -------------------------------------------------
    def last_round_time(self) -> datetime | None:
        """When this user's latest dated round happened (None: no dated round)."""
        return rounds.last_round_time(self.memory.db, self.user_id)

    @property
    def text_encoder(self) -> TextEncoder | None:
        """The retrieval memory's text encoder (None when retrieval is off)."""
        r = self.retrieval
        return r.text_encoder if r is not None else None

    @property
    def version(self) -> tuple[int, int, int, int]:
        """Changes whenever tables or the hierarchy change (keys derived caches).

        Before the retrieval memory is first opened its counts read -1: opening
        it changes the version, which only renews what it keys.
        """
        if not self.memory._retrieval_open:  # not opened for a version alone
            return (self.memory.analytic.generation, -1, -1, -1)
        r = self.retrieval
        h = r.hierarchy if r is not None else None
        return (
            self.memory.analytic.generation,
            len(h.events) if h else 0,
            len(h.episodes) if h else 0,
            r.forgotten if r is not None else 0,
        )

    def planning_cards(self) -> tuple[list[TableCard], list[EpisodeCard]]:
        """Planning-context candidates (tables, episodes), cached until a change."""
        self.memory.refresh()
        retrieval = self.retrieval  # opened before the version keys the cache
        key = self.version
        if self._cards is None or self._cards[0] != key:
            self._cards = (key, (self.table_cards(), episode_cards(retrieval)))
        return self._cards[1]

    def table_cards(self) -> list[TableCard]:
        """The tables' planning cards alone (no retrieval memory opened)."""
        self.memory.refresh()
        key = self.memory.analytic.generation
        if self._table_cards is None or self._table_cards[0] != key:
            self._table_cards = (key, table_cards(self.memory.analytic))
        return self._table_cards[1]

    def record_words(self, table: str | None) -> RecordWords | None:
        """The words of the rounds a table's rows came from, cached until a change.

        ``table`` None: the words of the user's latest rounds, all of them.
        """
        self.memory.refresh()
        key = (self.memory.analytic.generation, table)
        if key not in self._words:
            if len(self._words) > 64:
                self._words.clear()
            self._words[key] = record_words(self.memory.analytic, table)
        return self._words[key]

    def planning_vectors(self) -> KeptVectors | None:
        """The rule planner's encoder: kept vectors first, the model on a miss.

        The memory's stored column-name vectors and the word lexicon beside
        the model's ONNX export answer what they hold, so a question whose
        words they all hold loads no text model. None when retrieval is off.
        """
        encoder = self.memory._shared.text_encoder()
        if encoder is None:
            return None
        key = self.memory.analytic.generation
        if self._kept is None or self._kept[0] != key:
            name = encoder_key(encoder)
            stored = stored_vectors(self.memory.db, self.user_id, name) if name else {}
            lexicon = lexicon_of(encoder)
            self._kept = (
                key,
                KeptVectors(
                    stored,
                    lexicon.vector if lexicon is not None else None,
                    encoder.encode,
                ),
            )
        return self._kept[1]

    def episode_scores(self, question: str) -> dict[str, float] | None:
        """Each episode's similarity to ``question`` (None when retrieval is off)."""
        r = self.retrieval
        return r.episode_scores(question) if r is not None else None

    def record_rounds(self, round_ids: Sequence[str]) -> set[str]:
        """Those of the rounds that are records (a table row or a measured value).

        An event is told in chat: an anchoring EventLocate passes over records.
        """
        self.memory.refresh()
        return self.memory.analytic.record_rounds(list(round_ids))
