"""The construction graph: an agent's messages (or a history) become memory.

Nodes: ``store`` (raw rounds first, so nothing is lost) → ``extract``
(attribute-value observations per round) → ``materialize`` (mining, schema
induction and materialization; each batch commits in one transaction, which is
why these three stages share a node) → ``index`` (events → episodes → topics).
The nodes call the same stages as :meth:`Memory.ingest`, in the same batches,
so both paths build identical memories.

The report being accumulated travels in the graph state (``report``, JSON-ready),
so a checkpointed run resumed on another worker keeps it. The extraction results
handed from ``extract`` to ``materialize`` (rounds, observations and errors,
which a checkpointer could not store as JSON) stay in this process, in a small
bounded map keyed by the run; a run that resumes elsewhere extracts again, as
``materialize`` did before.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.graphs.graph_memory import (
    ConstructionMemory,
    construction_memory,
)
from langgraph_adamm.graphs.run_context import (
    NO_CONFIG,
    AdaMMContext,
    run_memory,
    run_user,
    thread_id,
)
from langgraph_adamm.graphs.runnables import DualNode, NodeWork, Work
from langgraph_adamm.history import History, Round, history_from_dict
from langgraph_adamm.messages import messages_to_history

if TYPE_CHECKING:
    from langgraph_adamm.memory import Extracted, IngestReport, Memory

MAX_HANDOFFS = 16
"""Runs whose extraction results wait for ``materialize`` at one time; an older
one (a run that died in between) is dropped, and extracted again if it resumes."""


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
    """Shared by the nodes; ``report`` grows node by node, ``run`` names the run."""

    run: str


def _report_dict(report: IngestReport) -> dict[str, Any]:
    out = asdict(report)
    out["problems"] = [str(p) for p in report.problems]
    return out


def _report(state: ConstructionState) -> IngestReport:
    """The report so far, from the state (a copy: state values are not mutated)."""
    from langgraph_adamm.memory import IngestReport

    names = {f.name for f in fields(IngestReport) if f.init}
    saved = copy.deepcopy(state.get("report") or {})
    return IngestReport(**{k: v for k, v in saved.items() if k in names})


class _ConstructionNodes:
    def __init__(self, memory: ConstructionMemory | None) -> None:
        self.memory = memory
        self._extracted: OrderedDict[str, list[list[Extracted]]] = OrderedDict()
        self._lock = threading.Lock()

    def _mem(
        self,
        state: ConstructionState,
        runtime: Runtime[AdaMMContext] | None,
        config: RunnableConfig | None,
    ) -> ConstructionMemory:
        base = run_memory(runtime, config, self.memory)
        if base is None:
            raise AdaMMError(
                "the construction graph has no memory: pass "
                "create_construction_graph(memory) or configurable 'memory'"
            )
        return construction_memory(base).for_user(run_user(state, runtime, config))

    def _hand_over(self, run: str, batches: list[list[Extracted]]) -> None:
        with self._lock:
            self._extracted[run] = batches
            while len(self._extracted) > MAX_HANDOFFS:
                self._extracted.popitem(last=False)

    def _take(self, run: str) -> list[list[Extracted]] | None:
        with self._lock:
            return self._extracted.pop(run, None)

    def store(
        self,
        state: ConstructionState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> dict[str, Any]:
        """Raw rounds, stored as pending before any extraction."""
        from langgraph_adamm.memory import IngestReport

        run = uuid.uuid4().hex
        try:
            mem = self._mem(state, runtime, config)
            source = state.get("history")
            history: History | str | Path
            if isinstance(source, dict):
                history = history_from_dict(source)
            elif isinstance(source, str):
                history = source
            else:
                history = messages_to_history(
                    state.get("messages") or [],
                    mem.user_id,
                    session_id=state.get("session_id") or thread_id(config),
                    time=state.get("time"),
                )
            report = IngestReport()
            mem.store_history(history, report=report)
        except AdaMMError as exc:
            return {"run": run, "error": str(exc)}
        return {"run": run, "error": None, "report": _report_dict(report)}

    def extract(
        self,
        state: ConstructionState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> NodeWork:
        """Observations of every pending round, batch by batch.

        Under ``ainvoke`` a batch's extraction calls run concurrently.
        """
        if state.get("error"):
            return {}
        mem = self._mem(state, runtime, config)
        batches = yield Work(mem.pending_batches)
        results = []
        for batch in batches:
            results.append((yield self._extraction(mem, batch)))
        self._hand_over(state["run"], results)
        return {}

    @staticmethod
    def _extraction(mem: ConstructionMemory, batch: list[tuple[int, Round]]) -> Work:
        """One batch's extraction: blocking, or its calls run concurrently."""
        return Work(lambda: mem.extract_batch(batch), lambda: mem.aextract_batch(batch))

    def materialize(
        self,
        state: ConstructionState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> dict[str, Any]:
        """Mining, schema induction and materialization, one transaction a batch."""
        if state.get("error"):
            return {}
        mem = self._mem(state, runtime, config)
        report = _report(state)
        batches = self._take(state["run"])
        if batches is None:  # resumed elsewhere: extract again
            batches = [mem.extract_batch(b) for b in mem.pending_batches()]
        for results in batches:
            mem.apply_extracted(results, report)
        mem.realign_kinds(report)
        return {"report": _report_dict(report)}

    def index(
        self,
        state: ConstructionState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> dict[str, Any]:
        """Events, episodes and topics of the retrieval memory."""
        if state.get("error"):
            self._take(state.get("run", ""))
            return {"report": {}}
        mem = self._mem(state, runtime, config)
        report = _report(state)
        mem.index_pending(report)
        report.tables = len(mem.tables)
        return {"report": _report_dict(report)}


def create_construction_graph(
    memory: Memory | ConstructionMemory | None = None,
) -> StateGraph[ConstructionState, AdaMMContext, ConstructionInput, ConstructionOutput]:
    """The construction graph, uncompiled.

    Run it after an agent's turns with ``{"messages": state["messages"]}`` (or
    ``{"history": path}``); the user namespace comes from ``user_id`` in the
    input, then the run context's (:class:`AdaMMContext`), then
    ``config["configurable"]["user_id"]``, then the memory's own.

    Args:
        memory: The :class:`Memory` to build (or a stand-in with the members
            of :class:`ConstructionMemory`); None: taken from the run context
            or ``config["configurable"]["memory"]`` at call time.
    """
    nodes = _ConstructionNodes(
        construction_memory(memory) if memory is not None else None
    )
    graph = StateGraph(
        ConstructionState,
        context_schema=AdaMMContext,
        input_schema=ConstructionInput,
        output_schema=ConstructionOutput,
    )
    graph.add_node("store", nodes.store)
    graph.add_node("extract", DualNode(nodes.extract, "extract"))
    graph.add_node("materialize", nodes.materialize)
    graph.add_node("index", nodes.index)
    graph.add_edge(START, "store")
    graph.add_edge("store", "extract")
    graph.add_edge("extract", "materialize")
    graph.add_edge("materialize", "index")
    graph.add_edge("index", END)
    return graph
