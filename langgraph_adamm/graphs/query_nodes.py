"""The query graph's nodes, closed over the graph's options.

:func:`~langgraph_adamm.graphs.query.create_query_graph` wires them; the prompts
and what the model's answers become are plain functions in
:mod:`langgraph_adamm.graphs.model_calls`, and the memory is reached only
through :class:`~langgraph_adamm.graphs.graph_memory.QueryMemory`.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from langgraph_adamm.chat import StructuredModel, TemplatePrompt
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.graphs.form_calls import fill_form
from langgraph_adamm.graphs.graph_memory import QueryMemory, query_memory
from langgraph_adamm.graphs.model_calls import (
    STEP_MODELS,
    instantiated,
    instantiation_prompt,
    model_reading,
    planned,
    planner_prompt,
    read_answer,
    reader_prompt,
    resolved,
    template_reading,
)
from langgraph_adamm.graphs.run_context import (
    NO_CONFIG,
    AdaMMContext,
    run_memory,
    run_user,
)
from langgraph_adamm.graphs.runnables import NodeWork, Work, model_work
from langgraph_adamm.graphs.state import QueryState, replaced
from langgraph_adamm.graphs.step_execution import execute_step
from langgraph_adamm.history import parse_time
from langgraph_adamm.planning.compose import Composer
from langgraph_adamm.planning.context import (
    CachedEmbed,
    ContextBuilder,
    PlanningContext,
)
from langgraph_adamm.planning.llm import PlanOutput, ReaderOutput
from langgraph_adamm.planning.rule_planner import RulePlanner
from langgraph_adamm.tools.names import ANALYTIC_TOOLS, COMBINE, EVENT_LOCATE

if TYPE_CHECKING:
    from langgraph_adamm.forest import ForestReranker
    from langgraph_adamm.retrieval.memory import RetrievalMemory

# the query graph's logger, as before the nodes had a module of their own
logger = logging.getLogger("langgraph_adamm.graphs.query")
MAX_QUESTION_CHARS = 4000
Rerank = Callable[[str, list[dict[str, Any]]], list[dict[str, Any]]]
"""An optional rerank stage: (question, executed steps) -> steps."""
FOREST = "forest"
"""``rerank="forest"``: the evidence forest (GraphMemix) over retrieval results."""


def _read_whole(rules: dict[str, Any]) -> bool:
    """Whether the rules' plan reads the whole question: analytic, nothing left."""
    plan = rules.get("plan") or []
    return bool(
        plan
        and not rules.get("failure")
        and not rules.get("unresolved")
        and any(p.get("tool") in ANALYTIC_TOOLS for p in plan)
    )


class QueryNodes:
    """The node functions, closed over the graph's options.

    ``steps`` and ``notes`` accumulate (the ``appended`` reducer of
    :mod:`langgraph_adamm.graphs.state`): a node returns what it adds. The
    nodes whose work is a model call (``plan``, ``instantiate``, ``read``) are
    written once, as generators of :class:`~.runnables.Work` that
    :class:`~.runnables.DualNode` runs under ``invoke`` and awaits under
    ``ainvoke``.
    """

    def __init__(
        self,
        memory: QueryMemory | None,
        model: Any,
        rerank: Rerank | str | None,
        *,
        analytic: bool,
        retrieval: bool,
        planning_context: bool,
        progressive: bool,
        prompts: dict[str, str],
        max_attempts: int,
        rules_first: bool = True,
        forms: bool = True,
    ) -> None:
        self.memory = memory
        self.model: StructuredModel | None = model
        self.rerank_stage = rerank
        self.analytic = analytic
        self.retrieval = retrieval
        self.planning_context = planning_context
        self.progressive = progressive
        self.prompts = prompts
        self.max_attempts = max_attempts
        self.rules_first = rules_first
        self.forms = forms
        self._embeds: dict[int, CachedEmbed] = {}
        self._forests: OrderedDict[int, tuple[Any, ForestReranker]] = OrderedDict()
        self._forests_lock = threading.Lock()
        self._contexts: OrderedDict[tuple[Any, ...], PlanningContext] = OrderedDict()

    # -- helpers -------------------------------------------------------------------
    def _base(
        self, runtime: Runtime[AdaMMContext] | None, config: RunnableConfig | None
    ) -> QueryMemory:
        base = run_memory(runtime, config, self.memory)
        if base is None:
            raise AdaMMError(
                "the query graph has no memory: pass create_query_graph(memory) or "
                "config={'configurable': {'memory': memory}}"
            )
        return query_memory(base)

    def _mem(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext] | None,
        config: RunnableConfig | None,
    ) -> QueryMemory:
        return self._base(runtime, config).for_user(run_user(state, runtime, config))

    def _embed(self, mem: QueryMemory) -> CachedEmbed | None:
        """The memory's text encoder, one cache per encoder for all nodes."""
        encoder = mem.text_encoder
        if encoder is None:  # retrieval memory is off
            return None
        if id(encoder) not in self._embeds:
            self._embeds[id(encoder)] = CachedEmbed(encoder.encode)
        return self._embeds[id(encoder)]

    def _context(
        self, mem: QueryMemory, question: str, rules: bool = False
    ) -> PlanningContext:
        """The question's planning context: the planner's, or the rules' own.

        The rules read every table (they map a question onto each table's
        columns and values themselves, and score the context only to break a
        tie); a model reads the top ``k_tables`` of the scored context, as its
        prompt has room for. Without a model the two are one.
        """
        rules = rules and self.model is not None
        key = (id(mem), question, mem.version, self.planning_context, rules)
        ctx = self._contexts.get(key)
        if ctx is None:
            every = rules or self.model is None
            ctx = self._deferred_context(mem, question) if every else None
            if ctx is None:
                ctx = self._scored_context(mem, question, every)
            self._contexts[key] = ctx
            while len(self._contexts) > 64:
                self._contexts.popitem(last=False)
        return ctx

    def _scored_context(
        self, mem: QueryMemory, question: str, every_table: bool = False
    ) -> PlanningContext:
        tables, episodes = mem.planning_cards()
        if not (self.retrieval and mem.retrieval is not None):
            episodes = []
        return ContextBuilder(mem.config, self._embed(mem)).build(
            question,
            tables if self.analytic else [],
            episodes,
            whole=not self.planning_context,
            episode_scores=mem.episode_scores(question)
            if episodes and self.planning_context
            else None,
            every_table=every_table,
        )

    def _deferred_context(
        self, mem: QueryMemory, question: str
    ) -> PlanningContext | None:
        """The rules' context, scored only if they need it (None: score now).

        Not without a text model: there is nothing to defer.
        """
        table_cards = getattr(mem, "table_cards", None)
        if (
            not (self.planning_context and self.analytic)
            or table_cards is None
            or self._planning_vectors(mem) is None
        ):
            return None
        return ContextBuilder(mem.config).deferred(
            question,
            table_cards(),
            lambda: self._scored_context(mem, question, every_table=True),
        )

    def _planning_vectors(self, mem: QueryMemory) -> CachedEmbed | None:
        """The rule planner's vectors: kept ones first, the model on a miss."""
        kept = getattr(mem, "planning_vectors", None)
        vectors = kept() if kept is not None else None
        if vectors is None:  # a stand-in memory, or retrieval off
            return self._embed(mem) if kept is None else None
        return self._embeds.setdefault(id(vectors), CachedEmbed(vectors))

    def _allowed_in(self, mem: QueryMemory) -> Callable[[str], bool]:
        return lambda tool: self._allowed(tool, mem)

    def _allowed(self, tool: str, mem: QueryMemory) -> bool:
        if tool == COMBINE:
            return True
        if tool in ANALYTIC_TOOLS:
            return self.analytic
        return self.retrieval and mem.retrieval is not None

    def _chat(self) -> StructuredModel:
        assert self.model is not None  # only called with a model
        return self.model

    # -- nodes ---------------------------------------------------------------------
    def context(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> dict[str, Any]:
        """Check the input, fix "now", and build the planning context."""
        question = state.get("question")
        out: dict[str, Any] = {
            "question": question if isinstance(question, str) else "",
            "plan": [],
            "steps": replaced([]),
            "notes": replaced([]),
            "drafts": [],
            "call": None,
            "repair": None,
            "repairs": 0,
            "failure": None,
            "answer_form": "value",
            "answer_column": None,
            "output_unit": None,
            "unresolved": [],
            "subjects": [],
            "planned_by": "rules" if self.model is None else "model",
            "rules_left": [],
        }
        if not isinstance(question, str) or not question.strip():
            return out | {"failure": "The question is empty; ask something."}
        if len(question) > MAX_QUESTION_CHARS:
            return out | {
                "failure": f"The question is {len(question)} characters long; the "
                f"limit is {MAX_QUESTION_CHARS}."
            }
        base = self._base(runtime, config)
        out["budget_left"] = base.config.shared_budget
        user = run_user(state, runtime, config)
        if user is not None and (not isinstance(user, str) or not user.strip()):
            return out | {"failure": "user_id must be a non-empty string."}
        if user is not None and user != base.user_id and not base.has_user(user):
            return out | {
                "failure": f"There is no memory for user {user!r} yet: nothing has "
                "been stored under that user id."
            }
        mem = base.for_user(user)
        raw_time = state.get("question_time")
        if raw_time:
            try:
                now = parse_time(raw_time)
            except ValueError as exc:
                return out | {"failure": f"question_time: {exc}"}
        else:
            now = mem.last_round_time() or datetime.now().replace(microsecond=0)
        out["now"] = now.isoformat()
        if not mem.has_user(mem.user_id):
            return out | {
                "failure": f"The memory of user {mem.user_id!r} is empty; add a "
                "history (Memory.ingest or add_messages) first."
            }
        ctx = self._context(mem, question)
        if not ctx.scored:  # scored later only if the rule planner needs it
            out["context"] = ctx.unscored_dict()
            out["context_text"] = ""
            return out
        out["context"] = ctx.to_dict()
        out["context_text"] = ctx.render()
        if ctx.scoring != "embedding+token" or not self.planning_context:
            out["notes"] = replaced([ctx.note])
        return out

    def plan(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> NodeWork:
        """The abstract plan: at most ``max_steps`` (goal, tool) steps."""
        mem = self._mem(state, runtime, config)
        # the rule planner computes embeddings: blocking work
        rules = yield Work(lambda: self._rule_plan(state, mem))
        if self.model is None:
            return rules
        if self.rules_first and _read_whole(rules):
            # the rules read every word: a model's plan could only be worse
            return rules | {
                "planned_by": "rules",
                "notes": ["the rules read the whole question; the model was not "
                          "asked to plan", *rules.get("notes", [])],
            }  # fmt: skip
        left = rules.get("unresolved") or []
        if left:
            said = [f"the rules could not use: {'; '.join(left)}; the model planned"]
        elif not _read_whole(rules):
            said = ["no table answered the rules' reading; the model planned"]
        else:
            said = []
        q, filled = state["question"], None
        if self.forms and self.analytic:
            filled = yield from fill_form(
                self._chat(), self.prompts, state, rules,
                shown=lambda: self._context(mem, q),
                every=lambda: self._context(mem, q, rules=True),
                composer=lambda: self._composer(mem),
                allowed=self._allowed_in(mem), attempts=self.max_attempts,
            )  # fmt: skip
        if filled is not None:
            return filled | {"notes": said + filled["notes"], "rules_left": left}
        record = yield model_work(
            self._chat(),
            "planner",
            PlanOutput,
            self._planner_prompt(state, mem),
            attempts=self.max_attempts,
        )
        out = planned(record, self._allowed_in(mem), mem.config.max_steps)
        return out | {"notes": said + out.get("notes", []), "rules_left": left}

    def _planner_prompt(self, state: QueryState, mem: QueryMemory) -> TemplatePrompt:
        return planner_prompt(
            self.prompts["planner"],
            state,
            self._allowed_in(mem),
            mem.config.max_steps,
        )

    def _composer(self, mem: QueryMemory) -> Composer:
        planner = RulePlanner(self._planning_vectors(mem))  # cached in _embeds
        return Composer(planner, getattr(mem, "record_words", None))

    def _rule_plan(self, state: QueryState, mem: QueryMemory) -> dict[str, Any]:
        composed, rp = self._composer(mem).compose(
            state["question"],
            parse_time(state["now"]),
            self._context(mem, state["question"], rules=True),
        )
        read = {"unresolved": composed.unresolved, "subjects": composed.subjects}
        if composed.composed and all(
            self._allowed(d["tool"], mem) for d in composed.drafts
        ):
            return read | {
                "plan": composed.plan,
                "drafts": composed.drafts,
                "answer_form": composed.answer_form,
                "answer_column": composed.answer_column,
                "output_unit": composed.output_unit,
                "notes": [f"question form: {composed.form}"] * bool(composed.form)
                + list(composed.notes),
            }
        if composed.composed:
            off = sorted({d["tool"] for d in composed.drafts} - {COMBINE})
            return read | {
                "failure": "This question needs "
                + (
                    "retrieval memory to find the event it names"
                    if EVENT_LOCATE in off and not self._allowed(EVENT_LOCATE, mem)
                    else "analytic memory"
                )
                + ", which is switched off.",
            }
        notes = list(rp.notes)
        if rp.analytic is not None:
            call = rp.analytic
            return read | {
                "plan": [{"goal": call.goal, "tool": call.tool}],
                "drafts": [{"tool": call.tool, "arguments": call.arguments}],
                "answer_form": call.answer,
                "answer_column": call.answer_column,
                "output_unit": call.output_unit,
                "notes": notes,
            }
        if not self._allowed(rp.retrieval_tool, mem):
            return {
                "failure": "No analytic table answers this question and retrieval "
                "memory is off.",
                "notes": notes,
            }
        return {
            "plan": [
                {
                    "goal": "recall memories about the question",
                    "tool": rp.retrieval_tool,
                }
            ],
            "notes": notes,
        }

    def instantiate(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> NodeWork:
        """Arguments for the next step, chosen after the steps before it ran.

        Up front (``progressive=False``) every call is chosen before any tool
        runs, one after another in plan order.
        """
        mem = self._mem(state, runtime, config)
        if self.model is None or state.get("planned_by") in ("rules", "form"):
            return self._offline_call(state)
        plan, steps = state["plan"], state.get("steps") or []
        drafts = list(state.get("drafts") or [])
        if not self.progressive and not drafts:
            for i in range(len(plan)):
                tool, work = self._instantiation(state, mem, i, [], None)
                drafts.append(instantiated(tool, (yield work)))
        if not self.progressive and state.get("repair") is None:
            call = drafts[len(steps)]
        else:
            tool, work = self._instantiation(
                state, mem, len(steps), steps, state.get("repair")
            )
            call = instantiated(tool, (yield work))
        return {"call": resolved(call, steps), "drafts": drafts}

    def _offline_call(self, state: QueryState) -> dict[str, Any]:
        """The next call without a model: the rule planner's draft, or a recall."""
        plan, steps = state["plan"], state.get("steps") or []
        index = len(steps)
        drafts = list(state.get("drafts") or [])
        if index < len(drafts):
            return {"call": resolved(drafts[index], steps)}
        return {
            "call": {
                "tool": plan[index]["tool"],
                "arguments": {
                    "query_content": state["question"],
                    "result_budget": max(1, state["budget_left"]),
                },
            }
        }

    def _instantiation(
        self,
        state: QueryState,
        mem: QueryMemory,
        index: int,
        steps: list[dict[str, Any]],
        repair: str | None,
    ) -> tuple[str, Work]:
        """The tool of plan step ``index`` and the model call that fills it."""
        tool, prompt = instantiation_prompt(
            self.prompts,
            state,
            index,
            steps,
            repair,
            budget=mem.config.shared_budget,
            progressive=self.progressive,
        )
        return tool, model_work(
            self._chat(),
            "instantiation",
            STEP_MODELS[tool],
            prompt,
            attempts=self.max_attempts,
        )

    def execute(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> dict[str, Any]:
        """Run the instantiated call within what is left of the shared budget."""
        mem = self._mem(state, runtime, config)
        return execute_step(
            mem,
            state,
            with_model=self.model is not None,
            retrieval=self.retrieval,
            embed=lambda: self._embed(mem),
        )

    def route(self, state: QueryState) -> str:
        """Loop instantiate ⇄ execute until the plan is done or the budget spent."""
        if state.get("failure"):
            return "read"
        if state.get("repair"):
            return "instantiate"
        if (
            len(state.get("steps") or []) < len(state.get("plan") or [])
            and state.get("budget_left", 0) > 0
        ):
            return "instantiate"
        return "rerank" if self.rerank_stage is not None else "read"

    def route_start(self, state: QueryState) -> str:
        """After planning: a failure goes straight to the reader."""
        return "read" if state.get("failure") else "instantiate"

    def route_context(self, state: QueryState) -> str:
        """After the context: a failure goes straight to the reader."""
        return "read" if state.get("failure") else "plan"

    def _forest(self, mem: QueryMemory) -> ForestReranker:
        """One forest reranker per memory object (its catalogue is reused)."""
        from langgraph_adamm.forest import ForestReranker

        with self._forests_lock:
            entry = self._forests.get(id(mem))
            if entry is None or entry[0] is not mem:
                # the forest reads the retrieval memory itself, beyond QueryMemory
                retrieval = cast("RetrievalMemory", mem.retrieval)
                entry = (mem, ForestReranker(retrieval, model=self.model))
                self._forests[id(mem)] = entry
                while len(self._forests) > 16:
                    self._forests.popitem(last=False)
            self._forests.move_to_end(id(mem))
            return entry[1]

    def rerank(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> dict[str, Any]:
        """The optional rerank stage over the executed steps."""
        assert self.rerank_stage is not None
        steps = list(state["steps"])
        try:
            if self.rerank_stage == FOREST:
                from langgraph_adamm.forest.rerank import OFFLINE_OFF_NOTE

                mem = self._mem(state, runtime, config)
                if mem.retrieval is None or not any(
                    (s.get("result") or {}).get("units") for s in steps
                ):
                    return {}
                forest = self._forest(mem)
                if not forest.active:
                    return {"notes": [OFFLINE_OFF_NOTE]}
                steps, more = forest.rerank_steps(state["question"], steps)
                return {"steps": replaced(steps), "notes": more}
            assert callable(self.rerank_stage)
            return {"steps": replaced(self.rerank_stage(state["question"], steps))}
        except Exception as exc:  # noqa: BLE001 - the steps stand as they are
            logger.exception("rerank failed")
            return {"notes": [f"rerank failed: {exc}"]}

    def read(
        self,
        state: QueryState,
        runtime: Runtime[AdaMMContext],
        config: RunnableConfig = NO_CONFIG,
    ) -> NodeWork:
        """The answer from the question, the plan and the tool outputs."""
        reading = template_reading(state)
        if self.model is None or state.get("failure"):
            return reading
        if state.get("planned_by") == "rules":
            return reading  # the rules' exact figure, said as the rules say it
        if state.get("planned_by") == "form" and any(
            p["tool"] in ANALYTIC_TOOLS for p in state.get("plan") or []
        ):  # the tools' figure, said as is; recalled memories the model reads
            return model_reading(reading, state)
        record = yield model_work(
            self.model,
            "reader",
            ReaderOutput,
            reader_prompt(self.prompts["reader"], state, reading),
            attempts=self.max_attempts,
        )
        return model_reading(read_answer(state, reading, record), state)
