"""Agent middleware: an agent that remembers every turn and recalls before the model.

    agent = create_agent(model, tools=[...], middleware=[memory.middleware()])

:class:`MemoryMiddleware` (a LangChain ``AgentMiddleware``) gives the agent:

- the six memory tools (Lookup, Filter, Compute, Rank, SemanticMatch,
  EventLocate);
- memory of its turns: after each model turn that ends with a reply, every
  human/AI pair not stored yet becomes a round (its id is the human message's,
  so a pair is never stored twice, across turns, threads or processes) and goes
  through the construction stages of :meth:`Memory.ingest` in a background
  worker. The reply is held at most ``store_budget`` seconds; what is not done
  by then finishes in the background, :meth:`MemoryMiddleware.pending` counts
  it, and recall says that the latest turns are still being stored;
- recall before the model (``recall``): ``"off"``; ``"on"``: for a question the
  planner answers exactly, the computed answer with its evidence, else the top
  memories; ``"auto"`` (default): the computed answer when there is one, else
  the memories only when one is close to the question (``min_score``). Recall
  goes into that model call's system message and is not kept in the state.

The user is the run's: the run context's ``user_id`` (an attribute, or a key of
a dict context), else ``config["configurable"]["user_id"]``, else the memory's.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import History, Round, Session
from langgraph_adamm.messages import content_parts, messages_to_history
from langgraph_adamm.tools.names import ANALYTIC_TOOLS, COMBINE
from langgraph_adamm.tools.run_user import context_user_id

if TYPE_CHECKING:
    from langgraph_adamm.memory import Memory

logger = logging.getLogger(__name__)

RecallMode = Literal["off", "on", "auto"]
RECALL_MODES: tuple[RecallMode, ...] = ("off", "on", "auto")

RECALL_HEADER = "Long-term memory, recalled for the user's latest message:"
"""The first line of the recall block in the system message (override with
``recall_header``)."""
PENDING_NOTE = (
    "({n} of the latest turns are still being stored; they are not in this recall.)"
)
SUBMITTED_KEPT = 10_000
"""Round ids of handed-over turns kept per user (older ones are skipped by the
database: a stored round id is never stored again)."""
ERRORS_KEPT = 100
RECALLS_KEPT = 256
"""Recall is made once per human message (a tool loop calls the model again
with the same one); this many are kept."""
MAX_MEMORY_CHARS = 400
"""A recalled memory's text is cut to this many characters."""


@dataclass
class Recall:
    """What recall found for one question.

    Attributes:
        answer: The planner's exact answer (None when it had none).
        evidence: The round ids that answer rests on.
        memories: (round time, text, score) of the top memories, when there
            was no exact answer.
    """

    answer: str | None = None
    evidence: list[str] = field(default_factory=list)
    memories: list[tuple[str | None, str, float]] = field(default_factory=list)

    def text(self, header: str, pending: int) -> str | None:
        """The recall block for a system message (None: nothing to say)."""
        lines: list[str] = []
        if self.answer is not None:
            uncited = [r for r in self.evidence[:10] if r not in self.answer]
            cited = f" (evidence: rounds {', '.join(uncited)})" if uncited else ""
            lines.append(
                f"Computed exactly from the stored records: {self.answer}{cited}"
            )
        for when, text, _ in self.memories:
            lines.append(f"- {f'[{when}] ' if when else ''}{text}")
        if not lines:
            return None
        if pending:
            lines.append(PENDING_NOTE.format(n=pending))
        return "\n".join([header, *lines])


def exact_answer(result: dict[str, Any]) -> bool:
    """Whether an :meth:`Memory.ask` result is a figure computed from tables.

    An answer is exact when it has a value, nothing of the question went
    unused, and an analytic step (or arithmetic over such steps) produced it.
    """
    if result.get("value") is None or result.get("unresolved"):
        return False
    tools = {s.get("tool") for s in result.get("steps") or [] if not s.get("error")}
    return bool(tools & (ANALYTIC_TOOLS | {COMBINE}))


def _last_human(messages: list[Any]) -> HumanMessage | None:
    return next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)


def _with_recall(request: ModelRequest, block: str) -> ModelRequest:
    """The request with ``block`` added to its system message."""
    system = request.system_message
    if system is None:
        return request.override(system_message=SystemMessage(content=block))
    content: Any = system.content
    if isinstance(content, str):
        content = f"{content}\n\n{block}" if content else block
    else:
        content = [*content, {"type": "text", "text": block}]
    return request.override(system_message=SystemMessage(content=content))


def _thread_session(config: dict[str, Any] | None) -> str | None:
    thread = ((config or {}).get("configurable") or {}).get("thread_id")
    return f"thread-{thread}" if thread else None


class MemoryMiddleware(AgentMiddleware):
    """Memory for a LangChain agent: its tools, every turn kept, recall.

    Args:
        memory: The memory (any user's view; the run picks the user).
        recall: ``"off"``, ``"on"`` or ``"auto"`` (see the module's text).
        recall_limit: How many memories recall shows at most.
        min_score: In ``"auto"``, the score a memory needs to be shown. 0.4
            was chosen on Mem-Gallery dev (``tools/benchmarks/
            bench_recall_threshold.py``): there it shows memories for 57% of
            the questions, whose top memory is evidence 77% of the time, and
            for 26% of those whose answer the memory does not hold.
        store_budget: Seconds a reply may be held while its turn is stored;
            the rest goes on in the background (0: never wait).
        tools: Give the agent the six memory tools.
        recall_header: The recall block's first line.
    """

    def __init__(
        self,
        memory: Memory,
        *,
        recall: RecallMode = "auto",
        recall_limit: int = 5,
        min_score: float = 0.4,
        store_budget: float = 2.0,
        tools: bool = True,
        recall_header: str = RECALL_HEADER,
    ) -> None:
        if recall not in RECALL_MODES:
            raise AdaMMError(
                f"recall must be one of {', '.join(RECALL_MODES)}, got {recall!r}"
            )
        if store_budget < 0:
            raise AdaMMError("store_budget must be 0 or more seconds")
        if recall_limit < 1:
            raise AdaMMError("recall_limit must be at least 1")
        super().__init__()
        self.memory = memory
        self.recall = recall
        self.recall_limit = recall_limit
        self.min_score = min_score
        self.store_budget = store_budget
        self.recall_header = recall_header
        self.tools = memory.tools() if tools else []
        self.errors: list[str] = []
        """Why storing turns failed, newest last (the last ``ERRORS_KEPT``)."""
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="adamm-memory")
        self._lock = threading.Lock()
        self._submitted: dict[str, dict[str, None]] = {}
        """Round ids handed over, per user, oldest first (an ordered set)."""
        self._running: dict[str, int] = {}
        self._futures: list[Future[None]] = []
        self._recalled: dict[tuple[str, str], str | None] = {}
        memory.construction.before_close(self.close)

    # -- whose memory -----------------------------------------------------------
    def _user(self, runtime: Any) -> str:
        return context_user_id(runtime, None) or self.memory.user_id

    def _view(self, user: str) -> Memory:
        return self.memory.for_user(user)

    # -- storing turns ------------------------------------------------------------
    def pending(self, user_id: str | None = None) -> int:
        """Turns handed to the background worker and not stored yet."""
        with self._lock:
            if user_id is not None:
                return self._running.get(user_id, 0)
            return sum(self._running.values())

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every turn handed over so far is stored."""
        with self._lock:
            futures = list(self._futures)
        for future in futures:
            try:
                future.result(timeout)
            except FutureTimeout:
                raise
            except Exception:  # noqa: BLE001 - recorded in self.errors already
                pass

    async def aflush(self, timeout: float | None = None) -> None:
        """Async :meth:`flush`."""
        await asyncio.to_thread(self.flush, timeout)

    def close(self) -> None:
        """Finish the background work and stop the worker.

        The memory calls this before it closes its database.
        """
        self._worker.shutdown(wait=True)

    def _new_rounds(self, state: Any, user: str) -> History | None:
        """The finished human/AI pairs of the state not handed over yet."""
        messages = list(state.get("messages") or [])
        if not messages:
            return None
        last = messages[-1]
        if not isinstance(last, AIMessage) or last.tool_calls:
            return None  # the turn goes on (tool calls), nothing finished yet
        config: dict[str, Any] | None
        try:
            from langgraph.config import get_config

            config = dict(get_config())
        except RuntimeError:
            config = None
        try:
            history = messages_to_history(
                messages, user, session_id=_thread_session(config), time=datetime.now()
            )
        except AdaMMError as exc:  # content no round can hold: said, not raised
            self._failed(f"the turn's messages could not be stored: {exc}")
            return None
        with self._lock:
            seen = self._submitted.setdefault(user, {})
            fresh = [
                r
                for r in history.rounds()
                if r.user and r.assistant and r.round_id not in seen
            ]
            seen.update((r.round_id, None) for r in fresh)
            while len(seen) > SUBMITTED_KEPT:  # the database keeps ids anyway
                seen.pop(next(iter(seen)))
            if fresh:
                self._running[user] = self._running.get(user, 0) + len(fresh)
        if not fresh:
            return None
        return _one_session(history, fresh)

    def _store(self, user: str, history: History) -> None:
        count = sum(1 for _ in history.rounds())
        try:
            self._view(user).ingest(history)
        except Exception as exc:  # noqa: BLE001 - the agent goes on; said here
            self._failed(
                f"storing {count} turn(s) of {user!r} failed: {exc}; they are "
                "tried again after the next turn"
            )
            with self._lock:
                seen = self._submitted.get(user, {})
                for rnd in history.rounds():
                    seen.pop(rnd.round_id, None)
            raise
        finally:
            with self._lock:
                self._running[user] = self._running.get(user, 0) - count

    def _failed(self, message: str) -> None:
        logger.warning("%s", message)
        with self._lock:
            self.errors.append(message)
            del self.errors[:-ERRORS_KEPT]

    def _hand_over(self, state: Any, runtime: Any) -> Future[None] | None:
        user = self._user(runtime)
        history = self._new_rounds(state, user)
        if history is None:
            return None
        future = self._worker.submit(self._store, user, history)
        with self._lock:
            self._futures = [f for f in self._futures if not f.done()] + [future]
        return future

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Store the turns the model just finished (held at most the budget)."""
        future = self._hand_over(state, runtime)
        if future is not None:
            try:
                future.result(self.store_budget)
            except FutureTimeout:
                logger.info(
                    "%d turn(s) still being stored after %.1f s; going on",
                    self.pending(),
                    self.store_budget,
                )
            except Exception:  # noqa: BLE001 - logged and kept in self.errors
                pass
        return None

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Async :meth:`after_model`: the event loop is never blocked."""
        future = self._hand_over(state, runtime)
        if future is not None:
            try:
                await asyncio.wait_for(
                    asyncio.shield(asyncio.wrap_future(future)), self.store_budget
                )
            except asyncio.TimeoutError:
                logger.info("turns still being stored; going on")
            except Exception:  # noqa: BLE001 - logged and kept in self.errors
                pass
        return None

    # -- recall -------------------------------------------------------------------
    def recall_for(self, question: str, user_id: str | None = None) -> Recall:
        """What recall finds for ``question`` in ``user_id``'s memory."""
        view = self._view(user_id or self.memory.user_id)
        found = Recall()
        if view.tables:
            result = view.ask(question)
            if exact_answer(result):
                found.answer = str(result.get("answer"))
                found.evidence = list(result.get("evidence") or [])
                return found
        if view.retrieval is None:
            return found
        for unit in view.semantic_match(question, "event", self.recall_limit):
            if self.recall == "auto" and unit.score < self.min_score:
                continue
            text = " ".join(unit.content.split())[:MAX_MEMORY_CHARS]
            found.memories.append((unit.time, text, unit.score))
        return found

    def _recall_block(self, request: ModelRequest) -> str | None:
        human = _last_human(request.messages)
        if self.recall == "off" or human is None:
            return None
        try:
            question = content_parts(human.content, "the latest human message")[0]
        except AdaMMError:  # content no round can hold: nothing to recall by
            return None
        question = question.strip()
        if not question:
            return None
        user = self._user(request.runtime)
        key = (user, human.id or question)
        if key not in self._recalled:
            try:
                found = self.recall_for(question, user)
            except AdaMMError as exc:
                logger.warning("recall failed: %s", exc)
                found = Recall()
            while len(self._recalled) >= RECALLS_KEPT:
                self._recalled.pop(next(iter(self._recalled)))
            self._recalled[key] = found.text(self.recall_header, self.pending(user))
        return self._recalled[key]

    def wrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], ModelResponse],
    ) -> Any:
        """Call the model with recall in its system message."""
        block = self._recall_block(request)
        return handler(_with_recall(request, block) if block else request)

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> Any:
        """Async :meth:`wrap_model_call` (recall runs in a worker thread)."""
        block = await asyncio.to_thread(self._recall_block, request)
        return await handler(_with_recall(request, block) if block else request)


def _one_session(history: History, rounds: list[Round]) -> History:
    session = history.sessions[0]
    return History(
        user_id=history.user_id,
        sessions=(Session(session.session_id, session.date, tuple(rounds)),),
    )


__all__ = ["RECALL_MODES", "MemoryMiddleware", "Recall", "RecallMode", "exact_answer"]
