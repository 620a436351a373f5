"""The query graph (AdaMM §3.5): context → plan → (instantiate ⇄ execute) → read.

``create_query_graph`` returns an uncompiled ``StateGraph``. With a chat model the
planner, the progressive instantiation of each step and the reader are
structured-output calls; without one a rule planner and a template reader stand
in. Every failure ends in an answer that says what went wrong; nothing raises
out of the graph for a bad question, an empty memory or bad model output.

This module wires the graph; the nodes are in
:mod:`langgraph_adamm.graphs.query_nodes`, their model calls in
:mod:`langgraph_adamm.graphs.model_calls`, the execute step in
:mod:`langgraph_adamm.graphs.step_execution`, the run context in
:mod:`langgraph_adamm.graphs.run_context`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langgraph.graph import END, START, StateGraph

from langgraph_adamm.chat import structured
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.graphs.graph_memory import QueryMemory, QueryView, query_memory
from langgraph_adamm.graphs.model_calls import STEP_DESCRIPTIONS, STEP_MODELS
from langgraph_adamm.graphs.query_nodes import (
    FOREST,
    MAX_QUESTION_CHARS,
    QueryNodes,
    Rerank,
)
from langgraph_adamm.graphs.run_context import AdaMMContext
from langgraph_adamm.graphs.runnables import DualNode
from langgraph_adamm.graphs.state import QueryInput, QueryOutput, QueryState
from langgraph_adamm.planning import prompts as default_prompts

if TYPE_CHECKING:
    from langgraph_adamm.memory import Memory

__all__ = [
    "FOREST",
    "MAX_QUESTION_CHARS",
    "STEP_DESCRIPTIONS",
    "STEP_MODELS",
    "AdaMMContext",
    "Rerank",
    "create_query_graph",
]


def create_query_graph(
    memory: Memory | QueryMemory | None = None,
    *,
    model: Any = None,
    rerank: Rerank | str | None = None,
    analytic: bool = True,
    retrieval: bool = True,
    planning_context: bool = True,
    progressive: bool = True,
    prompts: dict[str, str] | None = None,
    max_attempts: int = 3,
    rules_first: bool = True,
    forms: bool = True,
) -> StateGraph[QueryState, AdaMMContext, QueryInput, QueryOutput]:
    """The query graph, uncompiled: ``.compile(checkpointer=..., store=...)``.

    The memory and the user namespace of a run come from its context
    (``graph.invoke(input, context=AdaMMContext(memory=..., user_id=...))``),
    else from this factory's ``memory`` and ``config["configurable"]``
    (``memory``, ``user_id``); the input's ``user_id`` wins over both.

    Args:
        memory: The :class:`Memory` to answer from (or a stand-in with the
            members of :class:`QueryMemory`); None: taken from the run
            context or ``config["configurable"]["memory"]`` at call time.
        model: A LangChain chat model or ``provider:model`` string for the
            planner, instantiation and reader; None: offline rule planner and
            template reader. Defaults to the memory's own model.
        rerank: An optional stage over the executed steps before reading:
            ``"forest"`` for the evidence forest (GraphMemix; its verifiers
            use ``model``; with no model it is off unless the memory's
            ``config.forest.offline`` is set, and a note says so), or any
            callable ``(question, steps) -> steps``.
        analytic: Use analytic memory (False: the "w/o analytic" ablation).
        retrieval: Use retrieval memory (False: "w/o retrieval").
        planning_context: Score and cut the metadata (False: the planner sees
            the whole memory metadata, "w/o planning context").
        progressive: Choose each step's arguments after the steps before it
            ran (False: all arguments up front, "w/o progressive execution").
        prompts: Overrides of ``planner``, ``instantiate``, ``repair``,
            ``reader``, ``form``, ``form_repair`` (see
            ``langgraph_adamm.planning.prompts``).
        max_attempts: Model calls per structured output before giving up.
        rules_first: With a model, a question the rules read whole (an
            analytic plan, every word accounted for) is planned and read by the
            rules and the model is not asked; the model plans what the rules
            could not read, and the answer says what they could not use. False:
            the model plans every question.
        forms: With a model and analytic memory, the model fills a question
            form (:mod:`langgraph_adamm.planning.form_fill`: the form, its
            slots and the span of the question each came from) and the form
            builds the plan in code; a slot naming what the tables do not
            hold is shown to the model once to repair. False: the model writes
            a free plan and each step's arguments.
    """
    if isinstance(rerank, str) and rerank != FOREST:
        raise AdaMMError(f"unknown rerank {rerank!r}: use 'forest' or a callable")
    view = query_memory(memory) if memory is not None else None
    if model is None and isinstance(view, QueryView):
        model = view.llm
    chat = structured(model) if model is not None else None
    texts = {
        "planner": default_prompts.PLANNER_PROMPT,
        "instantiate": default_prompts.INSTANTIATE_PROMPT,
        "repair": default_prompts.REPAIR_NOTE,
        "reader": default_prompts.READER_PROMPT,
        "form": default_prompts.FORM_PROMPT,
        "form_repair": default_prompts.FORM_REPAIR_NOTE,
    }
    texts.update(prompts or {})
    nodes = QueryNodes(
        view,
        chat,
        rerank,
        analytic=analytic,
        retrieval=retrieval,
        planning_context=planning_context,
        progressive=progressive,
        prompts=texts,
        max_attempts=max_attempts,
        rules_first=rules_first,
        forms=forms,
    )
    graph = StateGraph(
        QueryState,
        context_schema=AdaMMContext,
        input_schema=QueryInput,
        output_schema=QueryOutput,
    )
    graph.add_node("context", nodes.context)
    graph.add_node("plan", DualNode(nodes.plan, "plan"))
    graph.add_node("instantiate", DualNode(nodes.instantiate, "instantiate"))
    graph.add_node("execute", nodes.execute)
    graph.add_node("read", DualNode(nodes.read, "read"))
    graph.add_edge(START, "context")
    graph.add_conditional_edges("context", nodes.route_context, ["plan", "read"])
    graph.add_conditional_edges("plan", nodes.route_start, ["instantiate", "read"])
    graph.add_edge("instantiate", "execute")
    targets = ["instantiate", "read"]
    if rerank is not None:
        graph.add_node("rerank", nodes.rerank)
        graph.add_edge("rerank", "read")
        targets.append("rerank")
    graph.add_conditional_edges("execute", nodes.route, targets)
    graph.add_edge("read", END)
    return graph
