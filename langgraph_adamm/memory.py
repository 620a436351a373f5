"""The library's entry point: one user's long-term memory in one database."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph_adamm.analytic import operators
from langgraph_adamm.analytic.describe import LLMDescriber, OfflineDescriber
from langgraph_adamm.analytic.extraction.base import Extractor, Observation
from langgraph_adamm.analytic.extraction.llm import LLMExtractor, resolve_chat_model
from langgraph_adamm.analytic.extraction.rules import RuleExtractor
from langgraph_adamm.analytic.store import AnalyticMemory, BatchOutcome
from langgraph_adamm.analytic.tables import TableSchema
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import (
    DEFAULT_USER_ID,
    History,
    HistoryProblem,
    Round,
    read_history,
)
from langgraph_adamm.retrieval.describe import LLMHierarchyDescriber
from langgraph_adamm.retrieval.encoders import (
    DEFAULT_TEXT_MODEL,
    SentenceTransformerEncoder,
    TextEncoder,
    VisualEncoder,
    load_visual_encoder,
    retrieval_available,
    vision_available,
    warn_once,
)
from langgraph_adamm.retrieval.store import MemoryUnit, RetrievalMemory, Scope
from langgraph_adamm.storage.database import MemoryDatabase

ProgressCallback = Callable[[int, int], None]
"""Called with (rounds processed so far, rounds to process)."""


@dataclass
class IngestReport:
    """What an ingestion did; ``str()`` gives the command line's summary."""

    rounds_read: int = 0
    rounds_new: int = 0
    rounds_already_stored: int = 0
    rounds_processed: int = 0
    observations: int = 0
    schemas_discovered: list[str] = field(default_factory=list)
    schemas_evolved: list[str] = field(default_factory=list)
    schemas_merged: list[str] = field(default_factory=list)
    rounds_indexed: int = 0
    image_problems: list[tuple[str, str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    problems: list[HistoryProblem] = field(default_factory=list)
    tables: int = 0

    def add(self, outcome: BatchOutcome) -> None:
        """Fold one batch's outcome into the report."""
        self.rounds_processed += outcome.processed
        self.observations += outcome.observations
        self.failures.extend(outcome.failures)
        for name in outcome.discovered:
            if name not in self.schemas_discovered:
                self.schemas_discovered.append(name)
        self.schemas_merged.extend(outcome.merged)
        for name in outcome.evolved:
            if name not in self.schemas_evolved and name not in self.schemas_discovered:
                self.schemas_evolved.append(name)

    def __str__(self) -> str:
        lines = [
            f"rounds: {self.rounds_read} read, {self.rounds_new} new, "
            f"{self.rounds_already_stored} already stored, "
            f"{self.rounds_processed} processed",
            f"observations: {self.observations}",
            f"schemas: {len(self.schemas_discovered)} discovered, "
            f"{len(self.schemas_evolved)} evolved, {len(self.schemas_merged)} merged, "
            f"{self.tables} tables in memory",
            f"retrieval: {self.rounds_indexed} rounds indexed, "
            f"{len(self.image_problems)} unreadable images",
            f"failures: {len(self.failures)}",
        ]
        for rid, iid, problem in self.image_problems[:10]:
            lines.append(f"  image {iid} of round {rid}: {problem[:200]}")
        for rid, err in self.failures[:10]:
            lines.append(f"  {rid}: {err[:200]}")
        if self.problems:
            lines.append(f"input problems: {len(self.problems)}")
            lines.extend(f"  {p}" for p in self.problems[:10])
        return "\n".join(lines)


class Memory:
    """Long-term multimodal memory for one user, kept in one DuckDB database.

    Args:
        path: Database file (created if missing) or ``":memory:"``.
        user_id: Namespace; memories of other users in the same file are invisible.
        model: A LangChain chat model or ``provider:model`` string for extraction
            and table metadata. None runs fully offline with rule extraction.
        extractor: Overrides the extractor chosen from ``model``.
        config: Parameters (thresholds, batch size, budgets).
        retrieval: Build the retrieval memory too. None (default): when its
            packages (``[retrieval]``) are installed; False: analytic only.
        text_encoder: A :class:`TextEncoder`, or a sentence-transformers model
            name; None is the packaged all-MiniLM-L6-v2, loaded offline.
        visual_encoder: A :class:`VisualEncoder`, an open_clip model name,
            ``"default"`` (SigLIP 2 if its weights are in the local cache; else
            text-only, said once) or None (text-only).
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        user_id: str = DEFAULT_USER_ID,
        model: Any = None,
        extractor: Extractor | None = None,
        config: AdaMMConfig | None = None,
        retrieval: bool | None = None,
        text_encoder: TextEncoder | str | None = None,
        visual_encoder: VisualEncoder | str | None = "default",
    ) -> None:
        if not isinstance(user_id, str) or not user_id:
            raise AdaMMError("user_id must be a non-empty string")
        self.config = config or AdaMMConfig()
        chat_model = resolve_chat_model(model) if model is not None else None
        self.extractor: Extractor = extractor or (
            LLMExtractor(chat_model, max_attempts=self.config.extraction_retries)
            if chat_model is not None
            else RuleExtractor()
        )
        describer = (
            LLMDescriber(chat_model) if chat_model is not None else OfflineDescriber()
        )
        self.db = MemoryDatabase(path)
        self.user_id = user_id
        self.analytic = AnalyticMemory(
            self.db, user_id, config=self.config, describer=describer
        )
        try:
            self.retrieval = self._open_retrieval(
                retrieval, text_encoder, visual_encoder, chat_model
            )
        except BaseException:
            self.db.close()
            raise

    def _open_retrieval(
        self,
        enabled: bool | None,
        text_encoder: TextEncoder | str | None,
        visual_encoder: VisualEncoder | str | None,
        chat_model: Any,
    ) -> RetrievalMemory | None:
        """Retrieval memory, on by default when its packages are installed."""
        if enabled is False:
            return None
        if enabled is None and not retrieval_available():
            warn_once(
                "retrieval-missing",
                "retrieval memory is off: install 'langgraph-adamm[retrieval]' "
                "(sentence-transformers, faiss) to turn it on",
            )
            return None
        text = (
            SentenceTransformerEncoder(text_encoder or DEFAULT_TEXT_MODEL)
            if text_encoder is None or isinstance(text_encoder, str)
            else text_encoder
        )
        visual: VisualEncoder | None
        if visual_encoder == "default":
            visual = load_visual_encoder() if vision_available() else None
            if not vision_available():
                warn_once(
                    "visual-missing",
                    "no visual encoder (install 'langgraph-adamm[vision]'); retrieval "
                    "runs text-only, with captions and OCR text standing for images",
                )
        elif isinstance(visual_encoder, str):
            visual = load_visual_encoder(visual_encoder)
        else:
            visual = visual_encoder
        return RetrievalMemory(
            self.db,
            self.user_id,
            text_encoder=text,
            visual_encoder=visual,
            config=self.config,
            describer=(
                LLMHierarchyDescriber(chat_model) if chat_model is not None else None
            ),
        )

    # -- ingestion --------------------------------------------------------
    def _prepare(
        self, history: History | str | Path, strict: bool, report: IngestReport
    ) -> None:
        if isinstance(history, (str, Path)):
            result = read_history(history, strict=strict)
            report.problems.extend(result.problems)
            history = result.history
        if history.user_id not in (self.user_id, DEFAULT_USER_ID):
            raise AdaMMError(
                f"the history belongs to user {history.user_id!r} but this memory is "
                f"{self.user_id!r}; open Memory(..., user_id={history.user_id!r})"
            )
        rounds = list(history.rounds())
        report.rounds_read = len(rounds)
        size = self.config.ingest_batch_size
        for i in range(0, len(rounds), size):
            new, old = self.analytic.store_rounds(rounds[i : i + size])
            report.rounds_new += new
            report.rounds_already_stored += old

    def _batches(self, retry_failed: bool) -> list[list[tuple[int, Round]]]:
        pending = self.analytic.pending_rounds(include_failed=retry_failed)
        size = self.config.ingest_batch_size
        return [pending[i : i + size] for i in range(0, len(pending), size)]

    def ingest(
        self,
        history: History | str | Path,
        *,
        strict: bool = False,
        retry_failed: bool = False,
        progress: ProgressCallback | None = None,
        index_progress: ProgressCallback | None = None,
    ) -> IngestReport:
        """Store, extract, mine and materialize a history (or a history file).

        Rounds already stored (same round ids) are not added twice; rounds left
        pending by an interrupted run are processed now; with ``retry_failed``,
        rounds whose extraction failed before are extracted again.
        """
        report = IngestReport()
        self._prepare(history, strict, report)
        batches = self._batches(retry_failed)
        total, done = sum(len(b) for b in batches), 0
        for batch in batches:
            results: list[tuple[int, Round, list[Observation] | Exception]] = []
            for order, rnd in batch:
                try:
                    results.append((order, rnd, self.extractor.extract(rnd)))
                except Exception as exc:  # noqa: BLE001 - recorded against the round
                    results.append((order, rnd, exc))
            report.add(self.analytic.apply_batch(results))
            done += len(batch)
            if progress:
                progress(done, total)
        self._index(report, index_progress)
        report.tables = len(self.analytic.tables)
        return report

    def _index(self, report: IngestReport, progress: ProgressCallback | None) -> None:
        if self.retrieval is None:
            return
        outcome = self.retrieval.index_pending(progress)
        report.rounds_indexed += outcome.indexed
        report.image_problems.extend(outcome.image_problems)

    async def aingest(
        self,
        history: History | str | Path,
        *,
        strict: bool = False,
        retry_failed: bool = False,
        progress: ProgressCallback | None = None,
        index_progress: ProgressCallback | None = None,
        concurrency: int = 8,
    ) -> IngestReport:
        """Async :meth:`ingest`: extraction calls run concurrently within a batch."""
        report = IngestReport()
        await asyncio.to_thread(self._prepare, history, strict, report)
        batches = await asyncio.to_thread(self._batches, retry_failed)
        total, done = sum(len(b) for b in batches), 0
        gate = asyncio.Semaphore(max(1, concurrency))

        async def run(
            order: int, rnd: Round
        ) -> tuple[int, Round, list[Observation] | Exception]:
            async with gate:
                try:
                    return order, rnd, await self.extractor.aextract(rnd)
                except Exception as exc:  # noqa: BLE001 - recorded against the round
                    return order, rnd, exc

        for batch in batches:
            results = await asyncio.gather(*(run(o, r) for o, r in batch))
            report.add(await asyncio.to_thread(self.analytic.apply_batch, results))
            done += len(batch)
            if progress:
                progress(done, total)
        await asyncio.to_thread(self._index, report, index_progress)
        report.tables = len(self.analytic.tables)
        return report

    # -- retrieval access -------------------------------------------------
    def _require_retrieval(self) -> RetrievalMemory:
        if self.retrieval is None:
            raise AdaMMError(
                "retrieval memory is off for this Memory; install "
                "'langgraph-adamm[retrieval]' and open it with retrieval=True"
            )
        return self.retrieval

    def semantic_match(
        self,
        query_content: str,
        retrieval_scope: Scope = "event",
        result_budget: int = 10,
    ) -> list[MemoryUnit]:
        """SemanticMatch: the best topics, episodes or events for a query."""
        return self._require_retrieval().semantic_match(
            query_content, retrieval_scope, result_budget
        )

    def event_locate(
        self, query_content: str, result_budget: int = 10
    ) -> list[MemoryUnit]:
        """EventLocate: the best events, each with its neighbours."""
        return self._require_retrieval().event_locate(query_content, result_budget)

    async def asemantic_match(
        self,
        query_content: str,
        retrieval_scope: Scope = "event",
        result_budget: int = 10,
    ) -> list[MemoryUnit]:
        """Async :meth:`semantic_match`."""
        return await asyncio.to_thread(
            self.semantic_match, query_content, retrieval_scope, result_budget
        )

    async def aevent_locate(
        self, query_content: str, result_budget: int = 10
    ) -> list[MemoryUnit]:
        """Async :meth:`event_locate`."""
        return await asyncio.to_thread(self.event_locate, query_content, result_budget)

    # -- analytic access ----------------------------------------------------
    @property
    def tables(self) -> list[TableSchema]:
        """The induced tables of this user."""
        return self.analytic.tables

    def lookup(
        self, args: operators.LookupArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Lookup: rows matching key values."""
        return operators.lookup(self.analytic, args)

    def filter(
        self, args: operators.FilterArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Filter: rows satisfying column filters."""
        return operators.filter_rows(self.analytic, args)

    def compute(
        self, args: operators.ComputeArgs | dict[str, Any]
    ) -> operators.ComputeResult:
        """Compute: an exact aggregate with its contributing rows."""
        return operators.compute(self.analytic, args)

    def rank(self, args: operators.RankArgs | dict[str, Any]) -> operators.RowsResult:
        """Rank: top or bottom rows by an expression."""
        return operators.rank(self.analytic, args)

    async def alookup(
        self, args: operators.LookupArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Async :meth:`lookup`."""
        return await asyncio.to_thread(self.lookup, args)

    async def afilter(
        self, args: operators.FilterArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Async :meth:`filter`."""
        return await asyncio.to_thread(self.filter, args)

    async def acompute(
        self, args: operators.ComputeArgs | dict[str, Any]
    ) -> operators.ComputeResult:
        """Async :meth:`compute`."""
        return await asyncio.to_thread(self.compute, args)

    async def arank(
        self, args: operators.RankArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Async :meth:`rank`."""
        return await asyncio.to_thread(self.rank, args)

    def describe_tables(self) -> list[dict[str, Any]]:
        """Tables with columns, types, units and row counts (for people and prompts)."""
        out = []
        for t in self.analytic.tables:
            out.append(
                {
                    "table": t.table_name,
                    "description": t.description,
                    "rows": self.analytic.row_count(t),
                    "version": t.version,
                    "columns": [
                        {
                            "name": c.name,
                            "type": c.sql_type,
                            "unit": c.unit,
                            "samples": list(c.samples),
                        }
                        for c in t.all_columns
                    ],
                }
            )
        return out

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
