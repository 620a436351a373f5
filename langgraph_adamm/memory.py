"""The library's entry point: one user's long-term memory in one database."""

from __future__ import annotations

import asyncio
import copy
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import (
    AbstractContextManager,
    asynccontextmanager,
    contextmanager,
    nullcontext,
)
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from langgraph_adamm.analytic import operators
from langgraph_adamm.analytic.describe import LLMDescriber, OfflineDescriber
from langgraph_adamm.analytic.extraction.base import Extractor, Observation
from langgraph_adamm.analytic.extraction.llm import LLMExtractor
from langgraph_adamm.analytic.extraction.rules import RuleExtractor
from langgraph_adamm.analytic.forget import AnalyticCorrection, AnalyticForget
from langgraph_adamm.analytic.store import AnalyticMemory, BatchOutcome
from langgraph_adamm.analytic.tables import TableSchema
from langgraph_adamm.chat import StructuredModel, structured
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError, StorageError, ToolInputError
from langgraph_adamm.history import (
    DEFAULT_USER_ID,
    History,
    HistoryProblem,
    Round,
    read_history,
)
from langgraph_adamm.messages import messages_to_history
from langgraph_adamm.planning.catalog import episode_cards, table_cards
from langgraph_adamm.planning.context import EpisodeCard, TableCard
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
from langgraph_adamm.retrieval.store import (
    MemoryUnit,
    RetrievalForget,
    RetrievalMemory,
    Scope,
)
from langgraph_adamm.storage.database import MemoryDatabase

ProgressCallback = Callable[[int, int], None]
"""Called with (rounds processed so far, rounds to process)."""
Extracted = tuple[int, Round, list[Observation] | Exception]
"""A round's extraction result: its order, the round, observations or the error."""


logger = logging.getLogger(__name__)


def _query_input(
    question: str, question_time: str | datetime | None, user_id: str | None
) -> dict[str, Any]:
    when = (
        question_time.isoformat()
        if isinstance(question_time, datetime)
        else question_time
    )
    return {"question": question, "question_time": when, "user_id": user_id}


@dataclass
class IngestReport:
    """What an ingestion did; ``str()`` gives the command line's summary."""

    rounds_read: int = 0
    rounds_new: int = 0
    rounds_already_stored: int = 0
    rounds_processed: int = 0
    observations: int = 0
    observations_ungrounded: int = 0
    """Model observations dropped because their source does not state them."""
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
        self.observations_ungrounded += outcome.ungrounded
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
            f"observations: {self.observations}"
            + (
                f" ({self.observations_ungrounded} ungrounded, dropped)"
                if self.observations_ungrounded
                else ""
            ),
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


@dataclass
class ForgetReport:
    """What :meth:`Memory.forget` removed (or, in a dry run, would remove)."""

    round_ids: list[str]
    dry_run: bool = False
    analytic: AnalyticForget | None = None
    """The analytic side: observations, counts, tables dropped or rebuilt."""
    retrieval: RetrievalForget | None = None

    def __str__(self) -> str:
        verb = "would forget" if self.dry_run else "forgot"
        lines = [f"{verb} {len(self.round_ids)} round(s)"]
        a = self.analytic
        if a is not None:
            lines.append(
                f"analytic: {a.observations} observation(s), {a.patterns_changed} "
                f"pattern count(s) changed, rows deleted from: "
                f"{', '.join(a.deleted_in_place) or 'none'}, tables rebuilt: "
                f"{', '.join(a.rebuilt) or 'none'}"
            )
            lines += [f"table {name} dropped: {why}" for name, why in a.dropped]
            lines += [
                f"table {name} back to {', '.join(after)}: {why}"
                for name, _, after, why in a.shrunk
            ]
        if self.retrieval is not None:
            r = self.retrieval
            lines.append(
                f"retrieval: {r.events} event(s), {r.views} view(s); episodes "
                f"changed {len(r.episodes_changed)}, removed "
                f"{len(r.episodes_removed)}; topics changed {len(r.topics_changed)}, "
                f"removed {len(r.topics_removed)}"
            )
        return "\n".join(lines)


def _counter(
    progress: ProgressCallback | None, total: int
) -> Callable[[], None] | None:
    """A per-round callback that reports (done, total) to ``progress``."""
    if progress is None:
        return None
    done = [0]
    if total:
        progress(0, total)  # the total is known before the first round

    def tick() -> None:
        done[0] += 1
        progress(done[0], total)

    return tick


_R = TypeVar("_R")


async def _settled(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker thread, waited for even by a cancelled caller.

    So that what the thread took can be given back.
    """
    task = asyncio.ensure_future(asyncio.to_thread(fn, *args))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait([task])
        raise


class _Held:
    """The user's write lock, already taken by ``Memory._awriting``.

    Entering reads the user again if another process wrote it and bumps its
    version; leaving bumps it and gives the lock back.
    """

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.entered = False

    def __enter__(self) -> None:
        self.claim = self.memory._claimed()
        try:
            self.claim.__enter__()
        except BaseException:
            self.memory.db.release_user_lock(self.memory.user_id)
            raise
        self.entered = True

    def __exit__(self, *exc: Any) -> None:
        try:
            self.claim.__exit__(*exc)
        finally:
            self.memory.db.release_user_lock(self.memory.user_id)


def _tell_waiting(message: str) -> None:
    logging.getLogger(__name__).warning(message)


class Memory:
    """Long-term multimodal memory for one user, kept in one DuckDB database.

    Args:
        path: Database file (created if missing), ``":memory:"``, a PostgreSQL
            connection string (``postgresql://...``), or a psycopg
            ``ConnectionPool`` (``psycopg_pool``; one connection is borrowed
            for the Memory's life and given back, as it came, on close).
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
        wait: Seconds to wait while another process writes to the database
            file (DuckDB lets one process write); 0 fails at once with the
            holder's PID. On PostgreSQL many processes share the database and
            only writers of the same user wait for each other: ``wait`` bounds
            that wait, and 0 waits as long as the other writer takes.
    """

    def __init__(
        self,
        path: str | Path | Any = ":memory:",
        *,
        user_id: str = DEFAULT_USER_ID,
        model: Any = None,
        extractor: Extractor | None = None,
        config: AdaMMConfig | None = None,
        retrieval: bool | None = None,
        text_encoder: TextEncoder | str | None = None,
        visual_encoder: VisualEncoder | str | None = "default",
        wait: float = 0.0,
    ) -> None:
        if not isinstance(user_id, str) or not user_id:
            raise AdaMMError("user_id must be a non-empty string")
        try:
            user_id.encode("utf-8")
        except UnicodeEncodeError:
            raise AdaMMError(
                f"user_id {user_id[:40]!r} is not valid Unicode (lone surrogates)"
            ) from None
        self.config = config or AdaMMConfig()
        llm = structured(model) if model is not None else None
        self.extractor: Extractor = extractor or (
            LLMExtractor(llm, max_attempts=self.config.extraction_retries)
            if llm is not None
            else RuleExtractor()
        )
        describer = LLMDescriber(llm) if llm is not None else OfflineDescriber()
        self.db = MemoryDatabase(path, wait=wait, on_wait=_tell_waiting)
        try:
            version = (
                self.db.user_version(user_id) if self.db.engine == "postgres" else None
            )
            analytic = AnalyticMemory(
                self.db, user_id, config=self.config, describer=describer
            )
        except BaseException:
            self.db.close()  # a pooled connection goes back to its pool
            raise
        self.user_id = user_id
        self._wait = wait
        self._version: int | None = version
        """The user's version the state in memory was read at (PostgreSQL)."""
        self._sync_lock = threading.Lock()
        self._held = threading.local()
        """``depth`` is 1 while this thread holds the user's write lock."""
        self.llm: StructuredModel | None = llm
        """The chat model as the library's roles call it (None: offline)."""
        self.chat_model = llm.model if llm is not None else None
        self._views: dict[str, Memory] = {}
        self._views_lock = threading.Lock()
        self._root: Memory = self
        """The Memory that opened the database; its views are all users' views."""
        self._cards: tuple[tuple[int, int, int, int], Any] | None = None
        self._graphs: dict[tuple[Any, ...], Any] = {}
        self.analytic = analytic
        self._retrieval: RetrievalMemory | None = None
        self._retrieval_open = False
        self._retrieval_lock = threading.Lock()
        self._retrieval_spec = (retrieval, text_encoder, visual_encoder, llm)
        named = text_encoder is None or isinstance(text_encoder, str)
        if retrieval is False or not named:
            # Nothing to load (off, or encoders given as objects): open now, so
            # that a mismatch with the stored encoders is reported at once.
            try:
                self.retrieval = self._open_retrieval(*self._retrieval_spec)
            except BaseException:
                self.db.close()
                raise

    @property
    def retrieval(self) -> RetrievalMemory | None:
        """The retrieval memory, or None when it is off.

        Encoders named by string (the default MiniLM, SigLIP) load on first
        use, so that opening a Memory for analytic calls costs no model load.
        """
        if not self._retrieval_open:
            with self._retrieval_lock:
                if not self._retrieval_open:
                    try:
                        self._retrieval = self._open_retrieval(*self._retrieval_spec)
                    except AdaMMError:
                        raise
                    except Exception as exc:  # a model folder, torch, faiss...
                        raise AdaMMError(
                            f"cannot open retrieval memory: {type(exc).__name__}: "
                            f"{str(exc)[:300]}; open the Memory with retrieval=False "
                            "for analytic calls only"
                        ) from exc
                    self._retrieval_open = True
        return self._retrieval

    @retrieval.setter
    def retrieval(self, value: RetrievalMemory | None) -> None:
        self._retrieval = value
        self._retrieval_open = True

    def _open_retrieval(
        self,
        enabled: bool | None,
        text_encoder: TextEncoder | str | None,
        visual_encoder: VisualEncoder | str | None,
        llm: StructuredModel | None,
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
            SentenceTransformerEncoder(
                text_encoder or DEFAULT_TEXT_MODEL, backend=self.config.text_backend
            )
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
            describer=(LLMHierarchyDescriber(llm) if llm is not None else None),
        )

    # -- ingestion --------------------------------------------------------
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
        with self._writing():
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
        with self._writing():
            report.add(self.analytic.apply_batch(results))
            report.tables = len(self.analytic.tables)

    def index_pending(
        self, report: IngestReport, progress: ProgressCallback | None = None
    ) -> None:
        """Stage 4: events, episodes and topics of the retrieval memory."""
        if self.retrieval is None:
            return
        with self._writing():
            outcome = self.retrieval.index_pending(progress)
        report.rounds_indexed += outcome.indexed
        report.image_problems.extend(outcome.image_problems)

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
        with self.db.ingest_lock, self._writing():
            report = self.store_history(history, strict=strict)
            batches = self.pending_batches(retry_failed)
            tick = _counter(progress, sum(len(b) for b in batches))
            for batch in batches:
                self.apply_extracted(self.extract_batch(batch, tick), report)
            self.index_pending(report, index_progress)
            report.tables = len(self.analytic.tables)
            return report

    async def _acquire_ingest_lock(self) -> None:
        """Take the ingest lock, waiting without holding a worker thread.

        Queued tasks then neither exhaust the executor nor leak the lock when
        cancelled.
        """
        delay = 0.005
        while not self.db.ingest_lock.acquire(blocking=False):
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)

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
        async with self._alocked():
            report = await asyncio.to_thread(self.store_history, history, strict=strict)
            batches = await asyncio.to_thread(self.pending_batches, retry_failed)
            tick = _counter(progress, sum(len(b) for b in batches))
            for batch in batches:
                results = await self.aextract_batch(batch, concurrency, tick)
                await asyncio.to_thread(self.apply_extracted, results, report)
            await asyncio.to_thread(self.index_pending, report, index_progress)
            report.tables = len(self.analytic.tables)
            return report

    @asynccontextmanager
    async def _alocked(self) -> AsyncIterator[None]:
        """The ingest lock and the user's write lock, taken by a coroutine.

        Neither wait holds a worker thread, and a cancelled call leaves neither
        lock held nor a thread that takes one later.
        """
        await self._acquire_ingest_lock()
        try:
            held = await self._awriting()
            try:
                await _settled(held.__enter__)
                yield
            finally:
                if getattr(held, "entered", False):
                    await _settled(held.__exit__, None, None, None)
        finally:
            self.db.ingest_lock.release()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold this user's memory for writing (across processes on PostgreSQL).

        Another process may have written the user since this Memory read its
        state: it is read again first. The version is bumped on taking and on
        releasing, so that readers elsewhere see the change (:meth:`refresh`).
        """
        if self.db.engine != "postgres" or self._depth():
            yield  # DuckDB, or already held by this thread (a stage of ingest)
            return
        with self.db.user_lock(
            self.user_id, wait=self._wait or None, on_wait=_tell_waiting
        ):
            self._held.depth = 1
            try:
                with self._claimed():
                    yield
            finally:
                self._held.depth = 0

    def _depth(self) -> bool:
        """Whether this thread holds the user's write lock already."""
        return bool(getattr(self._held, "depth", 0))

    @contextmanager
    def _claimed(self) -> Iterator[None]:
        """Inside the user's write lock: the state made current, versions bumped.

        The user is read again if another process wrote it; the version is
        bumped on taking and on leaving, so that readers elsewhere see it.
        """
        self._sync()
        self._version = self.db.bump_user_version(self.user_id)
        try:
            yield
        finally:
            try:
                self._version = self.db.bump_user_version(self.user_id)
            except StorageError:
                self._version = None  # read again before the next use

    async def _awriting(self) -> AbstractContextManager[Any]:
        """:meth:`_writing` for coroutines: waits for the user lock on the loop.

        A cancelled wait leaves no thread behind that could take the lock later.
        """
        if self.db.engine != "postgres" or self._depth():
            return nullcontext()
        deadline = None if not self._wait else time.monotonic() + self._wait
        told = False
        while True:
            attempt = asyncio.ensure_future(
                asyncio.to_thread(self.db.try_user_lock, self.user_id)
            )
            try:
                got = await asyncio.shield(attempt)
            except asyncio.CancelledError:
                if await attempt:  # taken just as the wait was cancelled
                    self.db.release_user_lock(self.user_id)
                raise
            if got:
                break
            if deadline is not None and time.monotonic() >= deadline:
                raise self.db.user_lock_timeout(self.user_id)
            if not told:
                _tell_waiting(
                    self.db.user_lock_message(self.user_id, self._wait or None)
                )
                told = True
            await asyncio.sleep(0.05)
        return _Held(self)

    def refresh(self) -> bool:
        """Read this user's memory again if another process has written it since.

        Only PostgreSQL memories are shared by processes; reads (the tools,
        :attr:`tables`) call this first, at the cost of one query. Returns
        whether anything was read again.
        """
        if self.db.engine != "postgres" or self.db.closed:
            return False  # a closed Memory keeps what it had read
        return self._sync()

    def _sync(self) -> bool:
        with self._sync_lock:
            version = self.db.user_version(self.user_id)
            if version in (self._version, self.db.own_version(self.user_id)):
                self._version = version  # unchanged, or changed by this Memory
                return False
            self.analytic.reload()
            self.analytic.generation += 1
            if self._retrieval_open and self._retrieval is not None:
                self._retrieval.reload()
            self._version = version
            return True

    # -- forgetting -------------------------------------------------------
    def rounds_to_forget(
        self,
        round_ids: Sequence[str] | None = None,
        *,
        session_id: str | None = None,
        before: datetime | None = None,
        everything: bool = False,
    ) -> list[str]:
        """The stored round ids one of the selectors names (for this user).

        Exactly one selector: ``round_ids``, ``session_id``, ``before`` (rounds
        dated earlier; undated rounds are not selected) or ``everything``.
        Unknown round ids are left out.
        """
        chosen = [
            name
            for name, value in (
                ("round_ids", round_ids is not None),
                ("session_id", session_id is not None),
                ("before", before is not None),
                ("everything", everything),
            )
            if value
        ]
        if len(chosen) != 1:
            raise AdaMMError(
                "forget takes exactly one of round_ids, session_id, before and "
                f"everything=True (got {', '.join(chosen) or 'none'})"
            )
        sql = "SELECT round_id FROM adamm_rounds WHERE user_id = ?"
        params: list[Any] = [self.user_id]
        if round_ids is not None:
            if isinstance(round_ids, str):
                raise AdaMMError(
                    "round_ids must be a list of round ids, not one string"
                )
            sql += " AND round_id IN (SELECT unnest(?::VARCHAR[]))"
            params.append([str(r) for r in round_ids])
        elif session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        elif before is not None:
            if not isinstance(before, datetime):
                raise AdaMMError("before must be a datetime")
            sql += " AND time < ?"
            params.append(before)
        return [r for (r,) in self.db.fetchall(sql + ' ORDER BY "order"', params)]

    def forget(
        self,
        round_ids: Sequence[str] | None = None,
        *,
        session_id: str | None = None,
        before: datetime | None = None,
        everything: bool = False,
        dry_run: bool = False,
    ) -> ForgetReport:
        """Forget rounds as if they had never been ingested, and say what changed.

        Exactly one selector (see :meth:`rounds_to_forget`). The rounds, their
        images' records, observations, views, events and vectors go; pattern
        counts, schemas, tables, episodes, topics and the vector indexes are
        brought to match what remains, in one transaction (all or nothing).
        With ``dry_run`` nothing changes and the report lists the rounds that
        would go.
        """
        with self.db.ingest_lock, self._writing():
            return self._forget_locked(
                round_ids,
                session_id=session_id,
                before=before,
                everything=everything,
                dry_run=dry_run,
            )

    def _forget_locked(
        self,
        round_ids: Sequence[str] | None,
        *,
        session_id: str | None,
        before: datetime | None,
        everything: bool,
        dry_run: bool,
    ) -> ForgetReport:
        ids = self.rounds_to_forget(
            round_ids, session_id=session_id, before=before, everything=everything
        )
        report = ForgetReport(round_ids=ids, dry_run=dry_run)
        if dry_run or not ids:
            return report
        has_events = self.db.fetchall(
            "SELECT count(*) FROM adamm_events WHERE user_id = ? AND round_id IN "
            "(SELECT unnest(?::VARCHAR[]))",
            [self.user_id, ids],
        )[0][0]
        # the retrieval memory (and its model) is opened only when it holds
        # some of the rounds, or is open already
        retrieval = self.retrieval if has_events or self._retrieval_open else None
        if has_events and retrieval is None:
            raise AdaMMError(
                "these rounds are in the retrieval memory, which this Memory "
                "was opened without; open it with retrieval on to forget them"
            )
        # locks in the order indexing takes them: index, the retrieval state
        # (no search sees half of it), then the database
        state: AbstractContextManager[Any] = (
            retrieval.state_lock if retrieval is not None else nullcontext()
        )
        with self.db.index_lock, state:
            try:
                with self.db.transaction():
                    report.analytic = self.analytic.forget_rounds(ids)
                    if retrieval is not None:
                        report.retrieval = retrieval.forget_rounds(ids)
                    for table in ("adamm_images", "adamm_rounds"):
                        self.db.execute(
                            f"DELETE FROM {table} WHERE user_id = ? AND round_id IN "
                            "(SELECT unnest(?::VARCHAR[]))",
                            [self.user_id, ids],
                        )
                    # in the transaction: the rows it deleted are not sampled,
                    # and a rollback puts the statistics back too; a rebuilt
                    # table is new, without statistics yet
                    shrunk = set(report.analytic.deleted_in_place)
                    self.db.refresh_statistics(
                        [
                            self.analytic.qualified(t)
                            for t in self.analytic.tables
                            if t.table_name in shrunk
                        ]
                    )
            except BaseException:
                self.analytic.reload()
                if retrieval is not None:
                    retrieval.reload()
                raise
            if retrieval is not None and report.retrieval and report.retrieval.events:
                retrieval.forget_saved(report.retrieval.events)
        return report

    def correct(
        self,
        round_id: str,
        attribute: str,
        value: Any,
        *,
        record: int | None = None,
        by: str | None = None,
    ) -> AnalyticCorrection:
        """Replace one stored value that extraction got wrong.

        ``value`` is read as extraction reads values ("7.5 h", "$12.40", a
        number, a date). The observation keeps when and by whom it was corrected
        and its original text; the tables holding it are rebuilt. ``record``
        picks the record when the round holds several with that attribute.
        """
        with self.db.ingest_lock, self._writing():
            return self.analytic.correct(
                round_id, attribute, value, record=record, by=by
            )

    async def aforget(
        self,
        round_ids: Sequence[str] | None = None,
        *,
        session_id: str | None = None,
        before: datetime | None = None,
        everything: bool = False,
        dry_run: bool = False,
    ) -> ForgetReport:
        """Async :meth:`forget`: waits for the ingest lock without a worker thread."""
        async with self._alocked():
            return await asyncio.to_thread(
                self._forget_locked,
                round_ids,
                session_id=session_id,
                before=before,
                everything=everything,
                dry_run=dry_run,
            )

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
        self.refresh()
        return self._require_retrieval().semantic_match(
            query_content, retrieval_scope, result_budget
        )

    def event_locate(
        self, query_content: str, result_budget: int = 10
    ) -> list[MemoryUnit]:
        """EventLocate: the best events, each with its neighbours."""
        self.refresh()
        return self._require_retrieval().event_locate(query_content, result_budget)

    def record_rounds(self, round_ids: Sequence[str]) -> set[str]:
        """Those of the rounds that are records (a table row or a measured value).

        An event is told in chat: an anchoring EventLocate passes over records.
        """
        self.refresh()
        return self.analytic.record_rounds(list(round_ids))

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
        self.refresh()
        return self.analytic.tables

    def lookup(
        self, args: operators.LookupArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Lookup: rows matching key values."""
        return self._read(operators.lookup, args)

    def filter(
        self, args: operators.FilterArgs | dict[str, Any]
    ) -> operators.RowsResult:
        """Filter: rows satisfying column filters."""
        return self._read(operators.filter_rows, args)

    def compute(
        self, args: operators.ComputeArgs | dict[str, Any]
    ) -> operators.ComputeResult:
        """Compute: an exact aggregate with its contributing rows."""
        return self._read(operators.compute, args)

    def rank(self, args: operators.RankArgs | dict[str, Any]) -> operators.RowsResult:
        """Rank: top or bottom rows by an expression."""
        return self._read(operators.rank, args)

    def _read(self, operator: Callable[[AnalyticMemory, Any], _R], args: Any) -> _R:
        """Run an operator on fresh state.

        Another process may commit a change to a table between the refresh and
        the query (a rebuilt or dropped table): if the query fails and the user
        did change, it runs once more on the state read again.
        """
        self.refresh()
        try:
            return operator(self.analytic, args)
        except (StorageError, ToolInputError):
            if not self.refresh():
                raise
        return operator(self.analytic, args)

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
        """Tables with columns, types, units and row counts (for people and prompts).

        A column with values that did not fit its type or unit carries
        ``uncast``: their count, the round ids and the reasons; those cells are
        NULL in the table and the raw values stay in the observations. A table
        whose rows look like another table's record kind (mostly the same
        columns, interleaved rounds) carries ``possible_split``: the other
        tables and the columns they share, so that a user sees one kind that
        was split in two.
        """
        self.refresh()
        out = []
        uncast = self.analytic.cast_problems()
        splits = self.analytic.possible_splits()
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
                            **(
                                {"uncast": uncast[(t.schema_id, c.name)]}
                                if (t.schema_id, c.name) in uncast
                                else {}
                            ),
                        }
                        for c in t.all_columns
                    ],
                    **(
                        {"possible_split": splits[t.table_name]}
                        if t.table_name in splits
                        else {}
                    ),
                }
            )
        return out

    # -- users ----------------------------------------------------------------
    def has_user(self, user_id: str) -> bool:
        """Whether any round of ``user_id`` is stored in this database."""
        return bool(
            self.db.fetchall(
                "SELECT 1 FROM adamm_rounds WHERE user_id = ? LIMIT 1", [user_id]
            )
        )

    def for_user(self, user_id: str | None) -> Memory:
        """This memory seen as another user's namespace.

        The view shares the database, models and encoders; ``None`` or the own
        user id gives this memory itself. Closing a view closes the database.
        """
        if user_id is None or user_id == self.user_id:
            return self
        if not isinstance(user_id, str) or not user_id:
            raise AdaMMError("user_id must be a non-empty string")
        if self._root is not self:
            return self._root.for_user(user_id)
        with self._views_lock:
            view = self._views.get(user_id)
            if view is None:
                view = copy.copy(self)  # keeps _root: views share one registry
                view.user_id = user_id
                view._version = (
                    self.db.user_version(user_id)
                    if self.db.engine == "postgres"
                    else None
                )
                view._sync_lock = threading.Lock()
                view._held = threading.local()
                view._views = {}
                view._cards = None
                view._graphs = {}
                view.analytic = AnalyticMemory(
                    self.db,
                    user_id,
                    config=self.config,
                    describer=self.analytic.describer,
                )
                if self.retrieval is not None:
                    view.retrieval = RetrievalMemory(
                        self.db,
                        user_id,
                        text_encoder=self.retrieval.text_encoder,
                        visual_encoder=self.retrieval.visual_encoder,
                        config=self.config,
                        describer=self.retrieval.describer,
                    )
                self._views[user_id] = view
            return view

    # -- planning and answering ---------------------------------------------------
    @property
    def version(self) -> tuple[int, int, int, int]:
        """Changes whenever tables or the hierarchy change (keys derived caches)."""
        r = self.retrieval
        h = r.hierarchy if r is not None else None
        return (
            self.analytic.generation,
            len(h.events) if h else 0,
            len(h.episodes) if h else 0,
            r.forgotten if r is not None else 0,
        )

    def planning_cards(self) -> tuple[list[TableCard], list[EpisodeCard]]:
        """Planning-context candidates (tables, episodes), cached until a change."""
        self.refresh()
        key = self.version
        if self._cards is None or self._cards[0] != key:
            self._cards = (
                key,
                (table_cards(self.analytic), episode_cards(self.retrieval)),
            )
        cards: tuple[list[TableCard], list[EpisodeCard]] = self._cards[1]
        return cards

    def _query_graph(self, options: dict[str, Any]) -> Any:
        from langgraph_adamm.graphs.query import create_query_graph

        key = tuple(sorted(options.items()))
        if key not in self._graphs:
            self._graphs[key] = create_query_graph(self, **options).compile()
        return self._graphs[key]

    def ask(
        self,
        question: str,
        *,
        question_time: str | datetime | None = None,
        user_id: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Answer a question through the query graph; offline without a model.

        The graph plans, instantiates and executes tool calls, then reads.

        Args:
            question: The question.
            question_time: "Now" for relative dates; default the time of the last
                stored round.
            user_id: Another namespace of this database (default: this memory's).
            **options: :func:`create_query_graph` switches (``analytic``,
                ``retrieval``, ``planning_context``, ``progressive``).

        Returns:
            ``question``, ``answer``, ``value``, ``unit``, ``evidence``, ``plan``,
            ``steps`` and ``notes``.
        """
        graph = self._query_graph(options)
        return dict(graph.invoke(_query_input(question, question_time, user_id)))

    async def aask(
        self,
        question: str,
        *,
        question_time: str | datetime | None = None,
        user_id: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Async :meth:`ask`."""
        graph = self._query_graph(options)
        return dict(await graph.ainvoke(_query_input(question, question_time, user_id)))

    def tools(self) -> list[Any]:
        """The six memory tools as LangChain ``StructuredTool``s."""
        from langgraph_adamm.tools.langchain import create_memory_tools

        return create_memory_tools(self)

    def add_messages(
        self,
        messages: Sequence[Any],
        *,
        session_id: str | None = None,
        time: str | datetime | None = None,
    ) -> IngestReport:
        """Remember LangChain messages, then ingest them.

        Each human message with the AI reply after it becomes a round (image
        content blocks become images).

        Args:
            messages: ``HumanMessage``/``AIMessage`` objects (or dicts with role
                and content); tool and system messages are skipped.
            session_id: The session the rounds belong to (default: one per day).
            time: When the exchange happened (default: now).
        """
        return self.ingest(
            messages_to_history(
                messages, self.user_id, session_id=session_id, time=time
            )
        )

    async def aadd_messages(
        self,
        messages: Sequence[Any],
        *,
        session_id: str | None = None,
        time: str | datetime | None = None,
    ) -> IngestReport:
        """Async :meth:`add_messages`."""
        return await self.aingest(
            messages_to_history(
                messages, self.user_id, session_id=session_id, time=time
            )
        )

    def close(self) -> None:
        """Persist the retrieval indexes (when they changed) and close the database."""
        root = self._root
        for memory in [root, *root._views.values()]:
            if memory._retrieval_open and memory._retrieval is not None:
                try:
                    memory._retrieval.flush_index()
                except Exception as exc:  # noqa: BLE001 - closing must go on
                    logger.warning("could not persist the vector index: %s", exc)
        self.db.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
