"""The construction graph: an agent's messages (or a history) become memory.

Nodes: ``store`` (raw rounds first, so nothing is lost) → ``extract``
(attribute-value observations per round) → ``materialize`` (mining, schema
induction and materialization; each batch commits in one transaction, which is
why these three stages share a node) → ``index`` (events → episodes → topics).
The nodes call the same stages as :meth:`Memory.ingest`, in the same batches,
so both paths build identical memories.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import History, history_from_dict
from langgraph_adamm.messages import messages_to_history

if TYPE_CHECKING:
    from langgraph_adamm.memory import Extracted, IngestReport, Memory


class ConstructionInput(TypedDict, total=False):
    """What to remember: an agent's messages, or a history file or document."""

    messages: Sequence[Any]
    history: str | dict[str, Any] | None
    session_id: str | None
    """Session of the messages' rounds; default the run's thread id, else per day."""
    time: str | None
    user_id: str | None


class ConstructionOutput(TypedDict, total=False):
    """What construction did (the fields of :class:`IngestReport`)."""

    report: dict[str, Any]
    error: str | None


class ConstructionState(ConstructionInput, ConstructionOutput, total=False):
    """Shared by the nodes; ``run`` keys this run's extraction results."""

    run: str


def _report_dict(report: IngestReport) -> dict[str, Any]:
    out = asdict(report)
    out["problems"] = [str(p) for p in report.problems]
    return out


class _ConstructionNodes:
    def __init__(self, memory: Memory | None) -> None:
        self.memory = memory
        self._reports: dict[str, IngestReport] = {}
        self._extracted: dict[str, list[list[Extracted]]] = {}

    def _mem(self, state: ConstructionState, config: RunnableConfig) -> Memory:
        conf = (config or {}).get("configurable") or {}
        base = self.memory or conf.get("memory")
        if base is None:
            raise AdaMMError(
                "the construction graph has no memory: pass "
                "create_construction_graph(memory) or configurable 'memory'"
            )
        # "" means unset: a LangGraph server without auth puts "" in configurable
        return base.for_user(state.get("user_id") or conf.get("user_id") or None)

    def _report(self, state: ConstructionState) -> IngestReport:
        from langgraph_adamm.memory import IngestReport

        return self._reports.setdefault(state["run"], IngestReport())

    def store(self, state: ConstructionState, config: RunnableConfig) -> dict[str, Any]:
        """Raw rounds, stored as pending before any extraction."""
        run = uuid.uuid4().hex
        try:
            mem = self._mem(state, config)
            source = state.get("history")
            history: History | str | Path
            if isinstance(source, dict):
                history = history_from_dict(source)
            elif isinstance(source, str):
                history = source
            else:
                conf = (config or {}).get("configurable") or {}
                history = messages_to_history(
                    state.get("messages") or [],
                    mem.user_id,
                    session_id=state.get("session_id") or conf.get("thread_id"),
                    time=state.get("time"),
                )
            from langgraph_adamm.memory import IngestReport

            report = IngestReport()
            self._reports[run] = report
            mem.store_history(history, report=report)
        except AdaMMError as exc:
            self._reports.pop(run, None)
            return {"run": run, "error": str(exc)}
        return {"run": run, "error": None}

    def extract(
        self, state: ConstructionState, config: RunnableConfig
    ) -> dict[str, Any]:
        """Observations of every pending round, batch by batch."""
        if state.get("error"):
            return {}
        mem = self._mem(state, config)
        self._extracted[state["run"]] = [
            mem.extract_batch(b) for b in mem.pending_batches()
        ]
        return {}

    def materialize(
        self, state: ConstructionState, config: RunnableConfig
    ) -> dict[str, Any]:
        """Mining, schema induction and materialization, one transaction a batch."""
        if state.get("error"):
            return {}
        mem = self._mem(state, config)
        report = self._report(state)
        batches = self._extracted.pop(state["run"], None)
        if batches is None:  # resumed elsewhere: extract again
            batches = [mem.extract_batch(b) for b in mem.pending_batches()]
        for results in batches:
            mem.apply_extracted(results, report)
        return {}

    def index(self, state: ConstructionState, config: RunnableConfig) -> dict[str, Any]:
        """Events, episodes and topics of the retrieval memory."""
        if state.get("error"):
            self._reports.pop(state.get("run", ""), None)
            return {"report": {}}
        mem = self._mem(state, config)
        report = self._report(state)
        self._reports.pop(state["run"], None)
        mem.index_pending(report)
        report.tables = len(mem.analytic.tables)
        return {"report": _report_dict(report)}


def create_construction_graph(memory: Memory | None = None) -> StateGraph:
    """The construction graph, uncompiled.

    Run it after an agent's turns with ``{"messages": state["messages"]}`` (or
    ``{"history": path}``); the user namespace comes from ``user_id`` in the
    input, then ``config["configurable"]["user_id"]``, then the memory's own.

    Args:
        memory: The :class:`Memory` to build; None: taken from
            ``config["configurable"]["memory"]`` at call time.
    """
    nodes = _ConstructionNodes(memory)
    graph = StateGraph(
        ConstructionState,
        input_schema=ConstructionInput,
        output_schema=ConstructionOutput,
    )
    graph.add_node("store", nodes.store)
    graph.add_node("extract", nodes.extract)
    graph.add_node("materialize", nodes.materialize)
    graph.add_node("index", nodes.index)
    graph.add_edge(START, "store")
    graph.add_edge("store", "extract")
    graph.add_edge("extract", "materialize")
    graph.add_edge("materialize", "index")
    graph.add_edge("index", END)
    return graph
