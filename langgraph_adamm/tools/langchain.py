"""The six memory tools as LangChain ``StructuredTool``s, for any LangGraph agent.

    agent = create_agent(model, tools=create_memory_tools(memory))

Each tool's schema is the operator's own pydantic model. A problem the model
can fix - an unknown table or column ("did you mean ..."), a value of the wrong
type, bad arguments - comes back as a short tool message rather than an
exception, so a default ``ToolNode`` keeps the agent running. The user namespace
is the run context's ``user_id`` (an agent's context object or dict), else
``config["configurable"]["user_id"]``, else the memory's own.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool, ToolException
from pydantic import ConfigDict, Field, ValidationError

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.schemas import WireModel
from langgraph_adamm.tools.calls import ARG_MODELS, TOOL_DESCRIPTIONS, run_tool
from langgraph_adamm.tools.names import ANALYTIC_TOOL_NAMES
from langgraph_adamm.tools.names import TOOL_TITLES as TOOL_TITLES
from langgraph_adamm.tools.run_user import context_user_id

if TYPE_CHECKING:
    from langgraph_adamm.memory import Memory

MAX_OUTPUT_CHARS = 12_000


def _validation_message(exc: ValidationError | Any) -> str:
    try:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
            for e in exc.errors()[:5]
        )
    except Exception:  # noqa: BLE001 - any validation error still gets a message
        problems = str(exc).splitlines()[0]
    return f"Invalid arguments: {problems[:500]}. Fix them and call again."


class MemoryTool(StructuredTool):
    """A memory tool whose model-facing schema is its arguments model as is.

    LangChain rebuilds ``tool_call_schema`` as a new model to leave injected
    arguments out; these tools inject only the run's config, which is not in
    the arguments model, so the model itself is the schema. That keeps its
    strict wire form (:mod:`langgraph_adamm.schemas`), which the rebuilt model
    would lose.
    """

    @property
    def tool_call_schema(self) -> Any:
        """The arguments model (strict JSON schema, null meaning the default)."""
        return self.args_schema


def _make_tool(memory: Memory, name: str) -> StructuredTool:
    def run(config: RunnableConfig, **arguments: Any) -> str:
        user = context_user_id(None, config or {})
        if user is not None and user != memory.user_id and not memory.has_user(user):
            raise ToolException(f"No memory is stored for user {str(user)[:80]!r}.")
        try:
            outcome = run_tool(memory.for_user(user), name, arguments)
        except AdaMMError as exc:
            raise ToolException(str(exc)[:600]) from None
        payload = {"summary": outcome.summary, **outcome.result}
        text = json.dumps(payload, default=str, ensure_ascii=False)
        if len(text) > MAX_OUTPUT_CHARS:
            text = text[:MAX_OUTPUT_CHARS] + ' ..."(truncated)"'
        return text

    async def arun(config: RunnableConfig, **arguments: Any) -> str:
        return await asyncio.to_thread(run, config, **arguments)

    return MemoryTool.from_function(
        func=run,
        coroutine=arun,
        name=TOOL_TITLES[name],
        description=TOOL_DESCRIPTIONS[name],
        args_schema=ARG_MODELS[name],
        handle_tool_error=True,
        handle_validation_error=_validation_message,
    )


class ForgetArgs(WireModel):
    """Rounds to forget: by id (as search results name them) or a whole session."""

    model_config = ConfigDict(extra="forbid")

    round_ids: list[str] | None = Field(
        default=None,
        description="Round ids to forget, as memory results give them (round_ids, "
        "unit_id of an event).",
        max_length=500,
    )
    session_id: str | None = Field(
        default=None, description="Forget every round of this session instead."
    )


FORGET_DESCRIPTION = (
    "Forget rounds of the user's memory for good, when the user asks to forget "
    "something: first find the rounds (SemanticMatch, EventLocate, Lookup), then "
    "pass their round ids, or one session id. Everything derived from them "
    "(tables, aggregates, search) is updated. This cannot be undone."
)


def _make_forget_tool(memory: Memory) -> StructuredTool:
    def target(config: RunnableConfig, arguments: dict[str, Any]) -> tuple[Any, Any]:
        user = context_user_id(None, config or {})
        if user is not None and user != memory.user_id and not memory.has_user(user):
            raise ToolException(f"No memory is stored for user {str(user)[:80]!r}.")
        args = ForgetArgs(**arguments)
        if (args.round_ids is None) == (args.session_id is None):
            raise ToolException("Give exactly one of round_ids and session_id.")
        return memory.for_user(user), args

    def answer(report: Any) -> str:
        if not report.round_ids:
            return json.dumps(
                {"summary": "No stored round matched; nothing forgotten."}
            )
        return json.dumps(
            {"summary": str(report), "forgotten_round_ids": report.round_ids[:200]}
        )

    def run(config: RunnableConfig, **arguments: Any) -> str:
        mem, args = target(config, arguments)
        try:
            return answer(mem.forget(args.round_ids, session_id=args.session_id))
        except AdaMMError as exc:
            raise ToolException(str(exc)[:600]) from None

    async def arun(config: RunnableConfig, **arguments: Any) -> str:
        mem, args = target(config, arguments)
        try:
            report = await mem.aforget(args.round_ids, session_id=args.session_id)
        except AdaMMError as exc:
            raise ToolException(str(exc)[:600]) from None
        return answer(report)

    return MemoryTool.from_function(
        func=run,
        coroutine=arun,
        name="Forget",
        description=FORGET_DESCRIPTION,
        args_schema=ForgetArgs,
        handle_tool_error=True,
        handle_validation_error=_validation_message,
    )


def create_memory_tools(
    memory: Memory,
    *,
    include: tuple[str, ...] | None = None,
    allow_forget: bool = False,
) -> list[StructuredTool]:
    """Lookup, Filter, Compute, Rank, SemanticMatch and EventLocate over a memory.

    Args:
        memory: The memory the tools read (read-only, unless ``allow_forget``).
        include: Tool keys to keep (default: all six; the retrieval tools only
            when the memory has retrieval).
        allow_forget: Add a ``Forget`` tool, which deletes the rounds the model
            names (by round id or session) with everything derived from them.
            Off by default: switch it on only for agents that may delete.
    """
    names = include or tuple(TOOL_TITLES)
    if include is None and memory.retrieval is None:
        names = ANALYTIC_TOOL_NAMES
    unknown = [n for n in names if n not in TOOL_TITLES]
    if unknown:
        raise AdaMMError(f"unknown tools {unknown}; choose from {list(TOOL_TITLES)}")
    tools = [_make_tool(memory, n) for n in names]
    if allow_forget:
        tools.append(_make_forget_tool(memory))
    return tools
