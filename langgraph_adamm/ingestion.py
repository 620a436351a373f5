"""Ingestion in its four stages: store, extract, mine and materialize, index.

Each stage is its own call, so that the construction graph runs them as
nodes; :meth:`Ingestion.ingest` runs them all. Rounds are stored first, as
pending, so that nothing is lost when a later stage fails; a batch's mining
and materialization commit together.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langgraph_adamm.analytic.extraction.base import Extractor, Observation
from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import DEFAULT_USER_ID, History, Round, read_history
from langgraph_adamm.messages import messages_to_history
from langgraph_adamm.planning.vectors import column_phrases, encoder_key
from langgraph_adamm.reports import IngestReport, ProgressCallback, progress_counter
from langgraph_adamm.retrieval.lexicon import ensure_lexicon
from langgraph_adamm.retrieval.memory import RetrievalMemory
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.text_vectors import keep_vectors, stored_vectors
from langgraph_adamm.storage.writers import UserWriter

REALIGN_GROWTH = 0.2
"""Realign once the rounds extracted since the last time are this share of all."""

Extracted = tuple[int, Round, list[Observation] | Exception]
"""A round's extraction result: its order, the round, observations or the error."""


class Ingestion:
    """One user's ingestion.

    Args:
        db: The database (its ingest lock keeps one ingestion at a time).
        user_id: The user.
        config: Parameters (batch size).
        extractor: Reads observations from rounds.
        analytic: The user's analytic memory.
        retrieval: The user's retrieval memory (None when off), asked when needed.
        writer: The user's write lock.
    """

    def __init__(
        self,
        db: MemoryDatabase,
        user_id: str,
        config: AdaMMConfig,
        extractor: Extractor,
        analytic: AnalyticMemory,
        retrieval: Callable[[], RetrievalMemory | None],
        writer: UserWriter,
    ) -> None:
        self.db = db
        self.user_id = user_id
        self.config = config
        self.extractor = extractor
        self.analytic = analytic
        self._retrieval = retrieval
        self.writer = writer
        self._unaligned: int | None = None
        """Rounds extracted since this process last realigned (None: never)."""

    @property
    def retrieval(self) -> RetrievalMemory | None:
        """The user's retrieval memory (None when it is off)."""
        return self._retrieval()

    def store_history(
        self,
        history: History | str | Path | Sequence[Any],
        *,
        strict: bool = False,
        report: IngestReport | None = None,
    ) -> IngestReport:
        """Stage 1 of ingestion: store the raw rounds, as pending.

        They are stored before anything else, so that nothing is lost if a later
        stage fails.
        """
        report = report if report is not None else IngestReport()
        if isinstance(history, History):
            pass
        elif isinstance(history, (str, Path)):
            result = read_history(history, strict=strict)
            report.problems.extend(result.problems)
            history = result.history
        elif isinstance(history, (list, tuple)):  # LangChain messages
            history = messages_to_history(history, self.user_id)
        else:
            raise AdaMMError(
                "ingest takes a History, a history file path or a list of LangChain "
                f"messages, not {type(history).__name__}"
            )
        if history.user_id not in (self.user_id, DEFAULT_USER_ID):
            raise AdaMMError(
                f"the history belongs to user {history.user_id!r} but this memory is "
                f"{self.user_id!r}; open Memory(..., user_id={history.user_id!r})"
            )
        rounds = list(history.rounds())
        report.rounds_read += len(rounds)
        size = self.config.ingest_batch_size
        with self.writer.writing():
            for i in range(0, len(rounds), size):
                new, old = self.analytic.store_rounds(rounds[i : i + size])
                report.rounds_new += new
                report.rounds_already_stored += old
        return report

    def pending_batches(
        self, retry_failed: bool = False
    ) -> list[list[tuple[int, Round]]]:
        """Stored rounds still to extract, in batches of ``ingest_batch_size``."""
        pending = self.analytic.pending_rounds(include_failed=retry_failed)
        size = self.config.ingest_batch_size
        return [pending[i : i + size] for i in range(0, len(pending), size)]

    def extract_batch(
        self,
        batch: list[tuple[int, Round]],
        on_round: Callable[[], None] | None = None,
    ) -> list[Extracted]:
        """Stage 2: observations of each round (a failure is kept as the error).

        ``on_round`` is called after each round (progress from the first round).
        """
        results: list[Extracted] = []
        for order, rnd in batch:
            try:
                results.append((order, rnd, self.extractor.extract(rnd)))
            except Exception as exc:  # noqa: BLE001 - recorded against the round
                results.append((order, rnd, exc))
            if on_round is not None:
                on_round()
        return results

    async def aextract_batch(
        self,
        batch: list[tuple[int, Round]],
        concurrency: int = 8,
        on_round: Callable[[], None] | None = None,
    ) -> list[Extracted]:
        """Async :meth:`extract_batch`: extraction calls run concurrently."""
        gate = asyncio.Semaphore(max(1, concurrency))

        async def run(order: int, rnd: Round) -> Extracted:
            async with gate:
                try:
                    out: Extracted = (order, rnd, await self.extractor.aextract(rnd))
                except Exception as exc:  # noqa: BLE001 - recorded against the round
                    out = (order, rnd, exc)
                if on_round is not None:
                    on_round()
                return out

        return list(await asyncio.gather(*(run(o, r) for o, r in batch)))

    def apply_extracted(self, results: list[Extracted], report: IngestReport) -> None:
        """Stage 3: mining, induction and materialization, one transaction a batch."""
        with self.writer.writing():
            report.add(self.analytic.apply_batch(results))
            report.tables = len(self.analytic.tables)

    def realign_kinds(self, report: IngestReport) -> None:
        """Stage 3b: one name per attribute of a kind, rounds read again with it.

        Runs after a run's batches (see :mod:`langgraph_adamm.analytic.realign`):
        on a process's first run that extracted any round, and afterwards once
        the rounds extracted since the last realignment reach
        :data:`REALIGN_GROWTH` of the memory's, so that an agent storing one
        turn at a time pays for it now and then, not every turn.
        """
        if not report.rounds_processed or not self.config.realign_kinds:
            return
        from langgraph_adamm.analytic.realign import realign

        if self._unaligned is not None:
            self._unaligned += report.rounds_processed
            ((total,),) = self.db.fetchall(
                "SELECT count(*) FROM adamm_rounds WHERE user_id = ? AND "
                "status = 'extracted'",
                [self.user_id],
            )
            if self._unaligned < REALIGN_GROWTH * int(total):
                return
        with self.writer.writing():
            outcome = realign(self.analytic)
        self._unaligned = 0
        report.labels_joined.update(outcome.renamed)
        report.rounds_reread += outcome.rounds
        report.tables = len(self.analytic.tables)

    def index_pending(
        self, report: IngestReport, progress: ProgressCallback | None = None
    ) -> None:
        """Stage 4: events, episodes and topics of the retrieval memory."""
        if self.retrieval is None:
            return
        with self.writer.writing():
            outcome = self.retrieval.index_pending(progress)
            self.keep_planning_vectors()
        report.rounds_indexed += outcome.indexed
        report.image_problems.extend(outcome.image_problems)

    def keep_planning_vectors(self) -> None:
        """Store the vectors of the tables' column names for the rule planner.

        With them (and the word lexicon beside the model's ONNX export, made
        here once when missing) an analytic question is planned without
        loading the text model. Only this library's text encoder is named in
        a way a later process can trust; another encoder stores nothing.
        """
        retrieval = self.retrieval
        if retrieval is None:
            return
        encoder = retrieval.text_encoder
        name = encoder_key(encoder)
        if name is None:
            return
        ensure_lexicon(encoder)
        phrases = column_phrases(self.analytic.tables)
        have = stored_vectors(self.db, self.user_id, name)
        missing = [p for p in phrases if p not in have]
        vectors = dict(zip(missing, encoder.encode(missing), strict=True))
        with self.db.transaction():
            keep_vectors(self.db, self.user_id, name, phrases, vectors)

    def ingest(
        self,
        history: History | str | Path | Sequence[Any],
        *,
        strict: bool = False,
        retry_failed: bool = False,
        progress: ProgressCallback | None = None,
        index_progress: ProgressCallback | None = None,
    ) -> IngestReport:
        """Store, extract, mine and materialize a history (or a history file).

        A list of LangChain messages is taken as :meth:`add_messages` takes it.
        One ingestion runs at a time per database (threads and ``aingest`` tasks
        queue), so concurrent calls give what sequential ones give; reads are
        not held up beyond single statements.

        Rounds already stored (same round ids) are not added twice; rounds left
        pending by an interrupted run are processed now; with ``retry_failed``,
        rounds whose extraction failed before are extracted again.
        """
        with self.db.ingest_lock, self.writer.writing():
            report = self.store_history(history, strict=strict)
            batches = self.pending_batches(retry_failed)
            tick = progress_counter(progress, sum(len(b) for b in batches))
            for batch in batches:
                self.apply_extracted(self.extract_batch(batch, tick), report)
            self.realign_kinds(report)
            self.index_pending(report, index_progress)
            report.tables = len(self.analytic.tables)
            return report

    async def aingest(
        self,
        history: History | str | Path | Sequence[Any],
        *,
        strict: bool = False,
        retry_failed: bool = False,
        progress: ProgressCallback | None = None,
        index_progress: ProgressCallback | None = None,
        concurrency: int = 8,
    ) -> IngestReport:
        """Async :meth:`ingest`: extraction calls run concurrently within a batch.

        Like :meth:`ingest`, one ingestion runs at a time per database; others
        wait (without blocking the event loop).
        """
        async with self.writer.alocked():
            report = await asyncio.to_thread(self.store_history, history, strict=strict)
            batches = await asyncio.to_thread(self.pending_batches, retry_failed)
            tick = progress_counter(progress, sum(len(b) for b in batches))
            for batch in batches:
                results = await self.aextract_batch(batch, concurrency, tick)
                await asyncio.to_thread(self.apply_extracted, results, report)
            await asyncio.to_thread(self.realign_kinds, report)
            await asyncio.to_thread(self.index_pending, report, index_progress)
            report.tables = len(self.analytic.tables)
            return report
