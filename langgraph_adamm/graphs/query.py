"""The query graph (AdaMM §3.5): context → plan → (instantiate ⇄ execute) → read.

``create_query_graph`` returns an uncompiled ``StateGraph``. With a chat model the
planner, the progressive instantiation of each step and the reader are
structured-output calls; without one a rule planner and a template reader stand
in. Every failure ends in an answer that says what went wrong; nothing raises
out of the graph for a bad question, an empty memory or bad model output.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from pydantic import ValidationError

from langgraph_adamm.chat import StructuredModel, TemplatePrompt, structured
from langgraph_adamm.errors import AdaMMError, ToolInputError
from langgraph_adamm.graphs.state import QueryInput, QueryOutput, QueryState
from langgraph_adamm.history import parse_time
from langgraph_adamm.planning import prompts as default_prompts
from langgraph_adamm.planning.compose import Composer
from langgraph_adamm.planning.context import (
    CachedEmbed,
    ContextBuilder,
    PlanningContext,
)
from langgraph_adamm.planning.llm import PlanOutput, ReaderOutput
from langgraph_adamm.planning.reader import (
    compose_read,
    produced_nothing,
    select_value,
)
from langgraph_adamm.planning.rules import RulePlanner
from langgraph_adamm.planning.steps import (
    CombineArgs,
    ReferenceError_,
    anchor_unit,
    combine,
    resolve_arguments,
)
from langgraph_adamm.tools.calls import (
    ANALYTIC_TOOLS,
    ARG_MODELS,
    TOOL_DESCRIPTIONS,
    fit_to_budget,
    requested_units,
    run_tool,
    validate_arguments,
)

if TYPE_CHECKING:
    from langgraph_adamm.forest import ForestReranker
    from langgraph_adamm.memory import Memory

logger = logging.getLogger(__name__)
MAX_QUESTION_CHARS = 4000
Rerank = Callable[[str, list[dict[str, Any]]], list[dict[str, Any]]]
"""An optional rerank stage: (question, executed steps) -> steps."""
FOREST = "forest"
"""``rerank="forest"``: the evidence forest (GraphMemix) over retrieval results."""


def _configurable(config: RunnableConfig | None) -> dict[str, Any]:
    return dict((config or {}).get("configurable") or {})


def _results_text(steps: list[dict[str, Any]], limit: int = 6000) -> str:
    if not steps:
        return "(none yet)"
    parts = []
    for i, s in enumerate(steps, 1):
        body = (
            f"error: {s['error']}"
            if s.get("error")
            else json.dumps(s.get("result"), default=str, ensure_ascii=False)
        )
        parts.append(
            f"step {i}: {s['tool']}({json.dumps(s.get('arguments'), default=str)})\n"
            f"  summary: {s.get('summary', '')}\n"
            f"  result: {body[: limit // max(1, len(steps))]}"
        )
    return "\n".join(parts)


STEP_MODELS: dict[str, Any] = {**ARG_MODELS, "combine": CombineArgs}
STEP_DESCRIPTIONS: dict[str, str] = {
    **TOOL_DESCRIPTIONS,
    "combine": (
        "Combine: arithmetic over two earlier steps' values, computed in code - "
        "difference (left - right), ratio, percent_change (from left to right), "
        "greater / less (a yes/no comparison). Arguments: operation, left and "
        "right as step references '$1', '$2'. Costs nothing of the budget. Use "
        "it for 'more in April than in March', 'how much more', 'by what "
        "percent'; never do the arithmetic yourself."
    ),
}
"""What a plan step may be: the six memory tools and the combine step."""


def _resolved(call: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A call with its references to earlier steps replaced by their results."""
    if call.get("error") or call.get("tool") == "combine":
        return call
    try:
        arguments, references = resolve_arguments(call.get("arguments"), steps)
    except ReferenceError_ as exc:
        return call | {"error": f"a reference could not be resolved: {exc}"}
    if not references:
        return call
    return call | {"arguments": arguments, "references": references}


def _plan_text(plan: list[dict[str, Any]]) -> str:
    return "\n".join(f"{i}. {p['goal']} [{p['tool']}]" for i, p in enumerate(plan, 1))


class _QueryNodes:
    """The node functions, closed over the graph's options."""

    def __init__(
        self,
        memory: Memory | None,
        model: Any,
        rerank: Rerank | str | None,
        *,
        analytic: bool,
        retrieval: bool,
        planning_context: bool,
        progressive: bool,
        prompts: dict[str, str],
        max_attempts: int,
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
        self._embeds: dict[int, CachedEmbed] = {}
        self._forests: OrderedDict[int, tuple[Memory, ForestReranker]] = OrderedDict()
        self._forests_lock = threading.Lock()
        self._contexts: OrderedDict[tuple[Any, ...], PlanningContext] = OrderedDict()

    # -- helpers -------------------------------------------------------------------
    def _base(self, config: RunnableConfig | None) -> Memory:
        base = self.memory or _configurable(config).get("memory")
        if base is None:
            raise AdaMMError(
                "the query graph has no memory: pass create_query_graph(memory) or "
                "config={'configurable': {'memory': memory}}"
            )
        return base

    def _user(self, state: QueryState, config: RunnableConfig | None) -> str | None:
        # "" means unset: a LangGraph server without auth puts "" in configurable
        return state.get("user_id") or _configurable(config).get("user_id") or None

    def _mem(self, state: QueryState, config: RunnableConfig | None) -> Memory:
        return self._base(config).for_user(self._user(state, config))

    def _embed(self, mem: Memory) -> CachedEmbed | None:
        """The memory's text encoder, one cache per encoder for all nodes."""
        if mem.retrieval is None:
            return None
        encoder = mem.retrieval.text_encoder
        if id(encoder) not in self._embeds:
            self._embeds[id(encoder)] = CachedEmbed(encoder.encode)
        return self._embeds[id(encoder)]

    def _context(self, mem: Memory, question: str) -> PlanningContext:
        key = (id(mem), question, mem.version, self.planning_context)
        ctx = self._contexts.get(key)
        if ctx is None:
            tables, episodes = mem.planning_cards()
            if not (self.retrieval and mem.retrieval is not None):
                episodes = []
            ctx = ContextBuilder(mem.config, self._embed(mem)).build(
                question,
                tables if self.analytic else [],
                episodes,
                whole=not self.planning_context,
                episode_scores=mem.retrieval.episode_scores(question)
                if episodes and self.planning_context and mem.retrieval is not None
                else None,
            )
            self._contexts[key] = ctx
            while len(self._contexts) > 64:
                self._contexts.popitem(last=False)
        return ctx

    def _allowed(self, tool: str, mem: Memory) -> bool:
        if tool == "combine":
            return True
        if tool in ANALYTIC_TOOLS:
            return self.analytic
        return self.retrieval and mem.retrieval is not None

    # -- nodes ---------------------------------------------------------------------
    def context(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        """Check the input, fix "now", and build the planning context."""
        question = state.get("question")
        out: dict[str, Any] = {
            "question": question if isinstance(question, str) else "",
            "plan": [],
            "steps": [],
            "notes": [],
            "drafts": [],
            "call": None,
            "repair": None,
            "repairs": 0,
            "failure": None,
            "answer_form": "value",
            "answer_column": None,
            "output_unit": None,
            "unresolved": [],
        }
        if not isinstance(question, str) or not question.strip():
            return out | {"failure": "The question is empty; ask something."}
        if len(question) > MAX_QUESTION_CHARS:
            return out | {
                "failure": f"The question is {len(question)} characters long; the "
                f"limit is {MAX_QUESTION_CHARS}."
            }
        base = self._base(config)
        out["budget_left"] = base.config.shared_budget
        user = self._user(state, config)
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
            last = mem.db.fetchall(
                "SELECT max(time) FROM adamm_rounds WHERE user_id = ?", [mem.user_id]
            )[0][0]
            now = last or datetime.now().replace(microsecond=0)
        out["now"] = now.isoformat()
        if not mem.has_user(mem.user_id):
            return out | {
                "failure": f"The memory of user {mem.user_id!r} is empty; add a "
                "history (Memory.ingest or add_messages) first."
            }
        ctx = self._context(mem, question)
        out["context"] = ctx.to_dict()
        out["context_text"] = ctx.render()
        if ctx.scoring != "embedding+token" or not self.planning_context:
            out["notes"] = [ctx.note]
        return out

    def plan(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        """The abstract plan: at most ``max_steps`` (goal, tool) steps."""
        mem = self._mem(state, config)
        max_steps = mem.config.max_steps
        notes = list(state.get("notes") or [])
        if self.model is not None:
            prompt = TemplatePrompt(
                self.prompts["planner"],
                {
                    "question": state["question"],
                    "question_time": state["now"],
                    "context": state.get("context_text", ""),
                    "tools": "\n".join(
                        f"- {name}: {desc}"
                        for name, desc in STEP_DESCRIPTIONS.items()
                        if self._allowed(name, mem)
                    ),
                    "max_steps": max_steps,
                },
                trim=("context",),
            )
            record = self.model.call(
                "planner", PlanOutput, prompt, attempts=self.max_attempts
            )
            if record.trimmed:
                notes.append(f"planner: {record.trimmed}")
            if not record.ok:
                return {
                    "failure": f"The planner's output was not a valid plan after "
                    f"{record.attempts} attempts: {record.last_error}",
                    "notes": notes,
                }
            out: PlanOutput = record.value
            steps = [s.model_dump() for s in out.steps if self._allowed(s.tool, mem)]
            if len(steps) < len(out.steps):
                notes.append("plan steps using a switched-off memory were dropped")
            if len(steps) > max_steps:
                notes.append(f"plan cut from {len(steps)} to {max_steps} steps")
                steps = steps[:max_steps]
            if not steps:
                return {"failure": "The plan uses no available tool.", "notes": notes}
            return {"plan": steps, "notes": notes}
        return self._rule_plan(state, mem, notes)

    def _rule_plan(
        self, state: QueryState, mem: Memory, notes: list[str]
    ) -> dict[str, Any]:
        planner = RulePlanner(self._embed(mem))  # vectors cached in _embeds
        composed, rp = Composer(planner).compose(
            state["question"],
            parse_time(state["now"]),
            self._context(mem, state["question"]),
        )
        if composed.composed and all(
            self._allowed(d["tool"], mem) for d in composed.drafts
        ):
            return {
                "plan": composed.plan,
                "drafts": composed.drafts,
                "answer_form": composed.answer_form,
                "answer_column": composed.answer_column,
                "output_unit": composed.output_unit,
                "notes": notes + composed.notes,
                "unresolved": composed.unresolved,
            }
        if composed.composed:
            off = sorted({d["tool"] for d in composed.drafts} - {"combine"})
            return {
                "failure": "This question needs "
                + (
                    "retrieval memory to find the event it names"
                    if "event_locate" in off and not self._allowed("event_locate", mem)
                    else "analytic memory"
                )
                + ", which is switched off.",
                "notes": notes,
                "unresolved": composed.unresolved,
            }
        notes.extend(rp.notes)
        if rp.analytic is not None:
            call = rp.analytic
            return {
                "plan": [{"goal": call.goal, "tool": call.tool}],
                "drafts": [{"tool": call.tool, "arguments": call.arguments}],
                "answer_form": call.answer,
                "answer_column": call.answer_column,
                "output_unit": call.output_unit,
                "notes": notes,
                "unresolved": composed.unresolved,
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

    def instantiate(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        """Arguments for the next step, chosen after the steps before it ran."""
        mem = self._mem(state, config)
        plan, steps = state["plan"], state.get("steps") or []
        index = len(steps)
        step = plan[index]
        drafts = list(state.get("drafts") or [])
        if self.model is None:
            if index < len(drafts):
                return {"call": _resolved(drafts[index], steps)}
            return {
                "call": {
                    "tool": step["tool"],
                    "arguments": {
                        "query_content": state["question"],
                        "result_budget": max(1, state["budget_left"]),
                    },
                }
            }
        if not self.progressive:
            if not drafts:  # every call chosen up front, before any tool runs
                drafts = [
                    self._model_call(state, mem, i, [], None) for i in range(len(plan))
                ]
            if state.get("repair") is None:
                return {"call": _resolved(drafts[index], steps), "drafts": drafts}
        call = self._model_call(state, mem, index, steps, state.get("repair"))
        return {"call": _resolved(call, steps), "drafts": drafts}

    def _model_call(
        self,
        state: QueryState,
        mem: Memory,
        index: int,
        steps: list[dict[str, Any]],
        repair: str | None,
    ) -> dict[str, Any]:
        step = state["plan"][index]
        tool = step["tool"]
        budget = mem.config.shared_budget
        prompt = TemplatePrompt(
            self.prompts["instantiate"],
            {
                "question": state["question"],
                "question_time": state["now"],
                "plan": _plan_text(state["plan"]),
                "results": _results_text(steps)
                if self.progressive
                else "(none: all arguments are chosen before any tool runs)",
                "context": state.get("context_text", ""),
                "step": index + 1,
                "goal": step["goal"],
                "tool": tool,
                "tool_description": STEP_DESCRIPTIONS[tool],
                "budget": budget,
                "budget_left": state["budget_left"] if self.progressive else budget,
                "repair": self.prompts["repair"].format(error=repair) if repair else "",
            },
            trim=("context", "results"),
        )
        assert self.model is not None  # only called with a model
        record = self.model.call(
            "instantiation", STEP_MODELS[tool], prompt, attempts=self.max_attempts
        )
        if not record.ok:
            return {"tool": tool, "arguments": None, "error": record.last_error}
        args = record.value
        return {
            "tool": tool,
            "arguments": args.model_dump(mode="json", exclude_none=True),
        }

    def execute(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        """Run the instantiated call within what is left of the shared budget."""
        mem = self._mem(state, config)
        call = state.get("call") or {}
        tool = call.get("tool", "")
        steps = list(state.get("steps") or [])
        notes = list(state.get("notes") or [])
        left = state["budget_left"]
        repairs = state.get("repairs", 0)
        record: dict[str, Any] = {"tool": tool, "arguments": call.get("arguments")}
        if call.get("references"):
            record["references"] = call["references"]
        if call.get("about"):
            record["about"] = call["about"]
        if call.get("error"):
            record.update(error=f"no valid arguments: {call['error']}", cost=0)
            return self._after(
                state, steps + [record], notes, left, mem.config.max_steps
            )
        if tool == "combine":
            try:
                combine_args = CombineArgs.model_validate(call.get("arguments"))
            except ValidationError as exc:
                record.update(
                    error=f"invalid combine arguments: {exc.errors()[0]['msg']}"
                )
                return self._after(
                    state,
                    steps + [record | {"cost": 0}],
                    notes,
                    left,
                    mem.config.max_steps,
                )
            return self._after(
                state,
                steps + [combine(combine_args, steps)],
                notes,
                left,
                mem.config.max_steps,
            )
        try:
            args = validate_arguments(tool, call.get("arguments"))
            over = requested_units(tool, args) > left
            if over and (self.model is None or repairs >= 1):
                # offline, or already sent back once: cut the call to fit
                args = fit_to_budget(tool, args, left)
                notes.append(f"step {len(steps) + 1}: result_budget cut to {left}")
            outcome = run_tool(mem, tool, args, budget_left=left)
        except ToolInputError as exc:
            if self.model is not None and repairs < 1:
                notes.append(f"step {len(steps) + 1}: sent back for repair: {exc}")
                return {"repair": str(exc), "repairs": repairs + 1, "notes": notes}
            record.update(error=str(exc)[:500], cost=0)
            return self._after(
                state, steps + [record], notes, left, mem.config.max_steps
            )
        except AdaMMError as exc:
            record.update(error=str(exc)[:500], cost=0)
            return self._after(
                state, steps + [record], notes, left, mem.config.max_steps
            )
        except Exception as exc:  # noqa: BLE001 - reported in the answer, logged
            logger.exception("tool %s failed", tool)
            record.update(
                error=f"internal error in {tool}: {type(exc).__name__}: {exc}"[:500],
                cost=0,
            )
            return self._after(
                state, steps + [record], notes, left, mem.config.max_steps
            )
        done = outcome.to_dict()
        for key in ("references", "about", "frame"):
            if call.get(key):
                done[key] = call[key]
        if tool == "event_locate":
            found = [
                u.get("unit_id") for u in (done.get("result") or {}).get("units", [])
            ]
            anchor = anchor_unit(done, self._embed(mem), mem.record_rounds(found))
            done["anchor"] = (
                {k: anchor.get(k) for k in ("unit_id", "time", "score", "content")}
                if anchor
                else None
            )
        return self._after(
            state,
            steps + [done],
            notes,
            left - outcome.cost,
            mem.config.max_steps,
        )

    def _after(
        self,
        state: QueryState,
        steps: list[dict[str, Any]],
        notes: list[str],
        left: int,
        max_steps: int,
    ) -> dict[str, Any]:
        plan = list(state["plan"])
        last = steps[-1]
        empty = produced_nothing(last)
        if (
            self.model is None
            and len(plan) == 1
            and last["tool"] in ANALYTIC_TOOLS
            and empty
            and self.retrieval
            and len(plan) < max_steps
            and left > 0
        ):
            plan.append(
                {
                    "goal": "recall related memories (the table gave no answer)",
                    "tool": "semantic_match",
                }
            )
            notes.append("the analytic step found nothing; falling back to retrieval")
        return {
            "steps": steps,
            "plan": plan,
            "notes": notes,
            "budget_left": left,
            "repair": None,
            "repairs": 0,
            "call": None,
        }

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

    def _forest(self, mem: Memory) -> ForestReranker:
        """One forest reranker per memory object (its catalogue is reused)."""
        from langgraph_adamm.forest import ForestReranker

        with self._forests_lock:
            entry = self._forests.get(id(mem))
            if entry is None or entry[0] is not mem:
                entry = (mem, ForestReranker(mem, model=self.model))
                self._forests[id(mem)] = entry
                while len(self._forests) > 16:
                    self._forests.popitem(last=False)
            self._forests.move_to_end(id(mem))
            return entry[1]

    def rerank(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        """The optional rerank stage over the executed steps."""
        assert self.rerank_stage is not None
        notes = list(state.get("notes") or [])
        steps = list(state["steps"])
        try:
            if self.rerank_stage == FOREST:
                from langgraph_adamm.forest.rerank import OFFLINE_OFF_NOTE

                mem = self._mem(state, config)
                if mem.retrieval is None or not any(
                    (s.get("result") or {}).get("units") for s in steps
                ):
                    return {}
                forest = self._forest(mem)
                if not forest.active:
                    return {"notes": notes + [OFFLINE_OFF_NOTE]}
                steps, more = forest.rerank_steps(state["question"], steps)
                return {"steps": steps, "notes": notes + more}
            assert callable(self.rerank_stage)
            return {"steps": self.rerank_stage(state["question"], steps)}
        except Exception as exc:  # noqa: BLE001 - the steps stand as they are
            logger.exception("rerank failed")
            return {"notes": notes + [f"rerank failed: {exc}"]}

    def read(self, state: QueryState, config: RunnableConfig) -> dict[str, Any]:
        """The answer from the question, the plan and the tool outputs."""
        base: dict[str, Any] = {
            "question": state.get("question", ""),
            "plan": state.get("plan") or [],
            "steps": state.get("steps") or [],
            "notes": list(state.get("notes") or []),
        }
        if state.get("failure"):
            return base | {
                "answer": state["failure"],
                "value": None,
                "unit": None,
                "evidence": [],
                "unresolved": list(state.get("unresolved") or []),
            }
        steps = base["steps"]
        # a step the budget left unrun: what it was for is not in the answer
        unrun = [
            f"step {i} ({p['goal']}: the shared budget was spent before it ran)"
            for i, p in enumerate(base["plan"][len(steps) :], len(steps) + 1)
            if p["tool"] != "semantic_match"
        ]
        reading = compose_read(
            state["question"],
            steps,
            unresolved=list(state.get("unresolved") or []) + unrun,
            answer_form=state.get("answer_form", "value"),
            answer_column=state.get("answer_column"),
            output_unit=state.get("output_unit"),
        )
        unresolved = reading.unresolved
        out = base | {
            "answer": reading.answer,
            "value": reading.value,
            "unit": reading.unit,
            "evidence": reading.evidence,
            "unresolved": unresolved,
        }
        if self.model is None:
            return out
        prompt = TemplatePrompt(
            self.prompts["reader"],
            {
                "question": state["question"],
                "question_time": state.get("now", ""),
                "results": _plan_text(base["plan"]) + "\n" + _results_text(steps),
                "unresolved": "; ".join(unresolved) or "none",
            },
            trim=("results",),
        )
        record = self.model.call(
            "reader", ReaderOutput, prompt, attempts=self.max_attempts
        )
        if not record.ok:
            out["notes"] = base["notes"] + [
                f"the reader's output was invalid ({record.last_error}); the "
                "answer is the template reading of the tool results"
            ]
            return out
        answer: ReaderOutput = record.value
        known = set(reading.evidence)
        cited = [r for r in answer.evidence if r in known]
        if unresolved:
            value, unit = None, None
        elif steps and steps[-1].get("tool") == "combine" or reading.value is not None:
            value, unit = reading.value, reading.unit
        else:
            value, unit, _ = select_value(steps)
        return out | {
            "answer": answer.answer,
            "evidence": cited or reading.evidence,
            "value": value,
            "unit": unit,
        }


def create_query_graph(
    memory: Memory | None = None,
    *,
    model: Any = None,
    rerank: Rerank | str | None = None,
    analytic: bool = True,
    retrieval: bool = True,
    planning_context: bool = True,
    progressive: bool = True,
    prompts: dict[str, str] | None = None,
    max_attempts: int = 3,
) -> StateGraph:
    """The query graph, uncompiled: ``.compile(checkpointer=..., store=...)``.

    Args:
        memory: The :class:`Memory` to answer from; None: taken from
            ``config["configurable"]["memory"]`` at call time.
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
            ``reader`` (see ``langgraph_adamm.planning.prompts``).
        max_attempts: Model calls per structured output before giving up.
    """
    if isinstance(rerank, str) and rerank != FOREST:
        raise AdaMMError(f"unknown rerank {rerank!r}: use 'forest' or a callable")
    if model is None and memory is not None:
        model = memory.llm
    chat = structured(model) if model is not None else None
    texts = {
        "planner": default_prompts.PLANNER_PROMPT,
        "instantiate": default_prompts.INSTANTIATE_PROMPT,
        "repair": default_prompts.REPAIR_NOTE,
        "reader": default_prompts.READER_PROMPT,
    }
    texts.update(prompts or {})
    nodes = _QueryNodes(
        memory,
        chat,
        rerank,
        analytic=analytic,
        retrieval=retrieval,
        planning_context=planning_context,
        progressive=progressive,
        prompts=texts,
        max_attempts=max_attempts,
    )
    graph = StateGraph(QueryState, input_schema=QueryInput, output_schema=QueryOutput)
    graph.add_node("context", nodes.context)
    graph.add_node("plan", nodes.plan)
    graph.add_node("instantiate", nodes.instantiate)
    graph.add_node("execute", nodes.execute)
    graph.add_node("read", nodes.read)
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
