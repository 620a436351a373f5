"""The library's entry point: one user's long-term memory in one database.

:class:`Memory` composes and delegates. It opens the database and builds the
parts every user's view shares (:class:`~langgraph_adamm.components.SharedParts`:
model, extractor, encoders), then this user's parts: the analytic memory, the
retrieval memory (on first use), the write lock
(:class:`~langgraph_adamm.storage.writers.UserWriter`), ingestion
(:class:`~langgraph_adamm.ingestion.Ingestion`) and forgetting
(:class:`~langgraph_adamm.forgetting.Forgetting`). The query graph is built on
demand, once per set of options. :meth:`Memory.for_user` gives another user's
view over the same shared parts (built by :meth:`SharedParts.view`).

Its members are the user's API. The two other audiences each get a view of
their own (:mod:`langgraph_adamm.graphs.graph_memory`): the construction
graph drives the ingestion stages through :attr:`Memory.construction`, the
query graph reads its planning metadata through :attr:`Memory.queries`.

One module because it is the public face: every method is a documented call of
one or two lines into a part, sync and async side by side, and the docstrings
are the API reference the README points to; what the methods do lives in the
parts.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from langgraph_adamm.analytic import operators
from langgraph_adamm.analytic.coverage import unread_rounds
from langgraph_adamm.analytic.forget import AnalyticCorrection
from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.analytic.profile import column_labels, layout_count
from langgraph_adamm.analytic.tables import TableSchema
from langgraph_adamm.components import SharedParts
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError, StorageError, ToolInputError
from langgraph_adamm.history import DEFAULT_USER_ID, History
from langgraph_adamm.messages import messages_to_history
from langgraph_adamm.reports import ForgetReport, IngestReport, ProgressCallback
from langgraph_adamm.retrieval.encoders import TextEncoder, VisualEncoder
from langgraph_adamm.storage import rounds
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.writers import UserWriter, tell_waiting

if TYPE_CHECKING:
    from langgraph_adamm.analytic.extraction.base import Extractor
    from langgraph_adamm.chat import StructuredModel
    from langgraph_adamm.forgetting import Forgetting
    from langgraph_adamm.graphs.graph_memory import ConstructionView, QueryView
    from langgraph_adamm.ingestion import Extracted, Ingestion
    from langgraph_adamm.retrieval.memory import MemoryUnit, RetrievalMemory, Scope

__all__ = ["Extracted", "ForgetReport", "IngestReport", "Memory", "ProgressCallback"]


def __getattr__(name: str) -> Any:
    if name == "Extracted":  # ingestion's module is imported on first use
        from langgraph_adamm.ingestion import Extracted

        return Extracted
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


logger = logging.getLogger(__name__)

_R = TypeVar("_R")


def _query_input(
    question: str, question_time: str | datetime | None, user_id: str | None
) -> dict[str, Any]:
    when = (
        question_time.isoformat()
        if isinstance(question_time, datetime)
        else question_time
    )
    return {"question": question, "question_time": when, "user_id": user_id}


def _frozen(value: Any) -> Any:
    """``value`` with its dicts, lists and sets made hashable (a cache key)."""
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, set | frozenset):
        return frozenset(_frozen(v) for v in value)
    return value


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
        _check_user_id(user_id)
        config = config or AdaMMConfig()
        llm = None
        if model is not None:
            from langgraph_adamm.chat import structured

            llm = structured(model)
        db = MemoryDatabase(path, wait=wait, on_wait=tell_waiting)
        try:
            shared = SharedParts(
                db,
                config,
                llm,
                extractor,
                retrieval,
                text_encoder,
                visual_encoder,
                wait,
            )
            self._attach(shared, user_id)
            shared.view(user_id, lambda _: self)  # this user's view is this memory
            if retrieval is False or shared.encoders_given:
                # Nothing to load (off, or encoders given as objects): open now, so
                # that a mismatch with the stored encoders is reported at once.
                self.retrieval = shared.open_retrieval(user_id)
        except BaseException:
            db.close()  # a pooled connection goes back to its pool
            raise

    def _attach(self, shared: SharedParts, user_id: str) -> None:
        """Build this user's parts over the shared ones."""
        self._shared = shared
        self.db = shared.db
        """The open database (for inspection; every write goes through a method)."""
        self.config = shared.config
        self.user_id = user_id
        self._llm: StructuredModel | None = shared.llm
        """The chat model as the library's roles call it (None: offline)."""
        self.chat_model = shared.llm.model if shared.llm is not None else None
        """The LangChain chat model the memory calls (None: offline)."""
        self._writer = UserWriter(
            shared.db, user_id, wait=shared.wait, reload=self._reload
        )
        self.analytic = AnalyticMemory(
            shared.db, user_id, config=shared.config, describer=shared.describer
        )
        """The analytic memory: the induced tables and their operators."""
        self._retrieval: RetrievalMemory | None = None
        self._retrieval_open = False
        self._retrieval_lock = threading.Lock()
        self._parts_lock = threading.Lock()
        self._ingestion_parts: Ingestion | None = None
        self._forgetting_parts: Forgetting | None = None
        self._graphs: dict[Any, Any] = {}
        self._construction: ConstructionView | None = None
        self._queries: QueryView | None = None

    @property
    def _extractor(self) -> Extractor:
        return self._shared.extractor

    @property
    def _ingestion(self) -> Ingestion:
        """Ingestion's parts, built on first use (reading needs none of them)."""
        with self._parts_lock:
            if self._ingestion_parts is None:
                self._ingestion_parts = self._build_ingestion()
            return self._ingestion_parts

    def _build_ingestion(self) -> Ingestion:
        from langgraph_adamm.ingestion import Ingestion

        return Ingestion(
            self.db,
            self.user_id,
            self.config,
            self._shared.extractor,
            self.analytic,
            lambda: self.retrieval,
            self._writer,
        )

    @property
    def _forgetting(self) -> Forgetting:
        """Forgetting's parts, built on first use."""
        with self._parts_lock:
            if self._forgetting_parts is None:
                self._forgetting_parts = self._build_forgetting()
            return self._forgetting_parts

    def _build_forgetting(self) -> Forgetting:
        from langgraph_adamm.forgetting import Forgetting

        return Forgetting(
            self.db,
            self.user_id,
            self.analytic,
            lambda needed: self.retrieval if needed or self._retrieval_open else None,
            self._writer,
        )

    @property
    def retrieval(self) -> RetrievalMemory | None:
        """The retrieval memory, or None when it is off.

        Public beside :attr:`analytic`: the two memories of the method, for
        inspection, benchmarks and the evidence forest. Encoders named by
        string (the default MiniLM, SigLIP) load on first use, so that opening
        a Memory for analytic calls costs no model load.
        """
        if not self._retrieval_open:
            with self._retrieval_lock:
                if not self._retrieval_open:
                    try:
                        self._retrieval = self._shared.open_retrieval(self.user_id)
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

    # -- ingestion (see ingestion.py) ----------------------------------------
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

        Rounds already stored (same round ids) are not added twice; rounds left
        pending by an interrupted run are processed now; with ``retry_failed``,
        rounds whose extraction failed before are extracted again.
        """
        return self._ingestion.ingest(
            history,
            strict=strict,
            retry_failed=retry_failed,
            progress=progress,
            index_progress=index_progress,
        )

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
        return await self._ingestion.aingest(
            history,
            strict=strict,
            retry_failed=retry_failed,
            progress=progress,
            index_progress=index_progress,
            concurrency=concurrency,
        )

    # -- other writers (storage/writers.py) -----------------------------------
    def _writing(self) -> Any:
        """Hold this user's memory for writing (see :class:`UserWriter`)."""
        return self._writer.writing()

    def refresh(self) -> bool:
        """Read this user's memory again if another process has written it since.

        Only PostgreSQL memories are shared by processes; reads (the tools,
        :attr:`tables`) call this first, at the cost of one query. Returns
        whether anything was read again.
        """
        return self._writer.refresh()

    def _reload(self) -> None:
        """Read this user's state again (another process changed it)."""
        self.analytic.reload()
        self.analytic.generation += 1
        if self._retrieval_open and self._retrieval is not None:
            self._retrieval.reload()

    # -- forgetting (see forgetting.py) ---------------------------------------
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
        return self._forgetting.select(
            round_ids, session_id=session_id, before=before, everything=everything
        )

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
        with self.db.ingest_lock, self._writer.writing():
            ids = self.rounds_to_forget(
                round_ids, session_id=session_id, before=before, everything=everything
            )
            return self._forgetting.forget(ids, dry_run=dry_run)

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
        async with self._writer.alocked():

            def run() -> ForgetReport:
                ids = self.rounds_to_forget(
                    round_ids,
                    session_id=session_id,
                    before=before,
                    everything=everything,
                )
                return self._forgetting.forget(ids, dry_run=dry_run)

            return await asyncio.to_thread(run)

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
        with self.db.ingest_lock, self._writer.writing():
            return self.analytic.correct(
                round_id, attribute, value, record=record, by=by
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
        whose rows look like another table's record kind (interleaved rounds,
        and mostly the same columns or records that mean the same) carries
        ``possible_split``: the other tables, the columns they share and, for
        a split by meaning, how ``alike`` their records read, so that a user
        sees one kind that was split in two. ``layouts`` counts the sets of
        labels its records were written with (kinds by meaning join them into
        one table); a column written with other labels lists them in
        ``labels``.
        """
        self.refresh()
        out = []
        uncast = self.analytic.cast_problems()
        splits = self.analytic.possible_splits()
        for t in self.analytic.tables:
            labels = column_labels(self.analytic, t)
            out.append(
                {
                    "table": t.table_name,
                    "description": t.description,
                    "rows": self.analytic.row_count(t),
                    "version": t.version,
                    "layouts": layout_count(self.analytic, t),
                    "columns": [
                        {
                            "name": c.name,
                            "type": c.sql_type,
                            "unit": c.unit,
                            "samples": list(c.samples),
                            **(
                                {"labels": list(labels[c.attribute])}
                                if c.attribute in labels
                                else {}
                            ),
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
                    **(
                        {"unread_rounds": unread}
                        if (unread := unread_rounds(self.analytic, t, []))
                        else {}
                    ),
                }
            )
        return out

    # -- users ----------------------------------------------------------------
    def has_user(self, user_id: str) -> bool:
        """Whether any round of ``user_id`` is stored in this database."""
        return rounds.has_user(self.db, user_id)

    def for_user(self, user_id: str | None) -> Memory:
        """This memory seen as another user's namespace.

        The view shares the database, models and encoders; ``None`` or the own
        user id gives this memory itself. Closing a view closes the database.
        """
        if user_id is None or user_id == self.user_id:
            return self
        if not isinstance(user_id, str) or not user_id:
            raise AdaMMError("user_id must be a non-empty string")
        return self._shared.view(user_id, self._new_view)

    def _new_view(self, user_id: str) -> Memory:
        """``user_id``'s parts over the shared ones (:meth:`SharedParts.view` keeps it).

        Its retrieval memory is on when this memory's is, and opened now, as
        before: the shared encoders serve both.
        """
        view = Memory.__new__(Memory)
        view._attach(self._shared, user_id)
        on = self.retrieval is not None
        view.retrieval = self._shared.open_retrieval(user_id) if on else None
        return view

    # -- the graphs' views (graphs/graph_memory.py) ------------------------------
    @property
    def construction(self) -> ConstructionView:
        """This memory as the construction graph drives it: the ingestion stages.

        :meth:`ingest` runs the stages (store, extract, materialize, index) in
        one call; the construction graph runs them as nodes, through this view,
        so that the stages stay off the user's API. One view a memory, kept.
        """
        if self._construction is None:
            from langgraph_adamm.graphs.graph_memory import ConstructionView

            self._construction = ConstructionView(
                self, self._ingestion, self._shared.before_close
            )
        return self._construction

    @property
    def queries(self) -> QueryView:
        """This memory as the query graph reads it: the tools and planning metadata.

        The planning cards, the version that keys their caches, episode scores,
        "now" and which rounds are records are read by the graph's nodes, not
        by users; they live on this view. One view a memory, kept: the graph
        keys its caches by the view.
        """
        if self._queries is None:
            from langgraph_adamm.graphs.graph_memory import QueryView

            self._queries = QueryView(self, self._llm)
        return self._queries

    # -- answering ------------------------------------------------------------------
    def _query_graph(self, options: dict[str, Any]) -> Any:
        from langgraph_adamm.graphs.query import create_query_graph

        key = _frozen(options)
        try:
            hash(key)
        except TypeError:  # an option that cannot key a cache: built for this call
            return create_query_graph(self, **options).compile()
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

    def middleware(self, **options: Any) -> Any:
        """Agent middleware: the tools, every turn remembered, recall before the model.

        ``create_agent(model, tools=[...], middleware=[memory.middleware()])``.
        Options: ``recall`` (``"off"``, ``"on"``, ``"auto"``), ``recall_limit``,
        ``min_score``, ``store_budget`` (seconds a reply may wait while its turn
        is stored), ``tools``; see :class:`~langgraph_adamm.middleware.
        MemoryMiddleware`. Needs ``langchain`` (the ``[agents]`` extra).
        """
        try:
            from langgraph_adamm.middleware import MemoryMiddleware
        except ImportError as exc:
            raise AdaMMError(
                f"agent middleware needs langchain 1.x ({exc}); install "
                "'langgraph-adamm[agents]'"
            ) from None
        return MemoryMiddleware(self, **options)

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
        """Finish background writes, persist the indexes, and close the database.

        Turns an agent middleware is still storing are stored first.
        """
        for finish in list(self._shared.before_close):
            try:
                finish()
            except Exception as exc:  # noqa: BLE001 - closing must go on
                logger.warning("background work failed while closing: %s", exc)
        for memory in list(self._shared.views.values()):
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


def _check_user_id(user_id: Any) -> None:
    if not isinstance(user_id, str) or not user_id:
        raise AdaMMError("user_id must be a non-empty string")
    try:
        user_id.encode("utf-8")
    except UnicodeEncodeError:
        raise AdaMMError(
            f"user_id {user_id[:40]!r} is not valid Unicode (lone surrogates)"
        ) from None
