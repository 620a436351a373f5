"""The evidence-forest rerank stage (GraphMemix): pool → verifiers → forest.

Two entry points:

- :class:`ForestReranker` works over a memory: it discovers the candidate pool
  (:mod:`~langgraph_adamm.forest.discovery`), runs the node verifier and the
  Evidence-Chain Verifier concurrently (one listwise call each), and solves the
  forest (:mod:`~langgraph_adamm.forest.solver`). It is also the query graph's
  ``rerank="forest"`` node.
- :func:`forest_rerank` reranks any list of retrieved memories (no pool
  expansion; explicit relations from their metadata).

Without a model the verifiers are off: v = 0 and every explicit relation between
an anchor and a candidate is an edge at reliability 0.99 (the paper's
"fixed-edge" variant). That variant lost to the hierarchy alone on the
Mem-Gallery dev split (``BENCHMARKS.md``), so offline the stage does not rerank
unless ``ForestConfig(offline=True)`` asks for it; it then returns the retrieval
order and says why.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from langgraph_adamm.config import ForestConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.forest.discovery import MemoryCatalogue, discover
from langgraph_adamm.forest.given_candidates import pool_from_candidates
from langgraph_adamm.forest.solver import solve_forest
from langgraph_adamm.forest.verifiers import (
    FIXED_ROLE,
    VerifierOutcome,
    arun_verifiers,
    fixed_edges,
    node_utility,
    run_verifiers,
)
from langgraph_adamm.retrieval.search import MemoryUnit

if TYPE_CHECKING:
    from langgraph_adamm.memory import Memory
    from langgraph_adamm.retrieval.memory import RetrievalMemory

Mode = Literal["verified", "fixed-edge", "off"]

OFFLINE_OFF_NOTE = (
    "evidence forest off: no model for the verifiers, and the offline fixed-edge "
    "variant lost to the hierarchy alone on the Mem-Gallery dev split "
    "(BENCHMARKS.md); results keep the retrieval order. Pass a chat model, or "
    "ForestConfig(offline=True) to rerank with fixed edges anyway."
)
FIXED_EDGE_NOTE = (
    "evidence forest, offline fixed-edge variant: no verifier model, so v = 0 and "
    "every explicit anchor relation is an edge at reliability 0.99"
)


@dataclass
class SelectedMemory:
    """One memory of the selected forest, in reader order."""

    memory_id: str
    round_id: str
    text: str
    rank: int
    """Position in reader order, from 1."""
    role: str
    """``direct`` (a chain's root or a lone memory), or the role of the edge
    that attaches it (``new_fact``, ``clarification``, ``corroboration``;
    ``related`` in the fixed-edge variant)."""
    anchor: str | None
    """The memory it attaches to in the forest, when it does."""
    utility: float
    score: float
    verifier_score: float
    date: str | None = None
    session_id: str | None = None


@dataclass
class ForestResult:
    """What the forest selected for one question."""

    question: str
    mode: Mode
    selected: list[SelectedMemory]
    edges: list[dict[str, Any]] = field(default_factory=list)
    """Forest edges: ``source`` (anchor), ``target``, ``relation``, ``role``,
    ``reliability``."""
    objective: float = 0.0
    notes: list[str] = field(default_factory=list)
    solver_ms: float = 0.0
    candidates: int = 0
    retrieval_rounds: list[str] = field(default_factory=list)
    """The round of each memory of the retrieval ranking, best first (repeats
    kept), for diagnostics such as evidence access."""
    pool_round_ids: list[str] = field(default_factory=list)
    """Rounds of every candidate in the pool."""

    def round_ids(self) -> list[str]:
        """The selected memories' rounds, in reader order, each once."""
        return list(dict.fromkeys(m.round_id for m in self.selected))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (graph state, command line output)."""
        return {
            "mode": self.mode,
            "selected": [asdict(m) for m in self.selected],
            "edges": self.edges,
            "objective": round(self.objective, 6),
            "notes": self.notes,
        }


def _pair(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i < j else (j, i)


def _solve(
    pool: CandidatePool,
    outcome: VerifierOutcome | None,
    config: ForestConfig,
) -> ForestResult:
    """Utilities and edges → the forest, as a :class:`ForestResult`."""
    cands = pool.candidates
    notes: list[str] = []
    if outcome is None:
        v = [0.0] * len(cands)
        edges = fixed_edges(pool, ceiling=config.reliability_ceiling)
        mode: Mode = "fixed-edge"
    else:
        v = list(outcome.node_scores)
        edges = list(outcome.edges)
        mode = "verified"
        notes = list(outcome.notes)
    utilities = [
        node_utility(
            c.score, v[i], config.utility_a, config.utility_b, config.utility_c
        )
        for i, c in enumerate(cands)
    ]
    by_pair: dict[tuple[int, int], tuple[int, int, float, str, str]] = {}
    for anchor, cand, rel, role, relation in edges:
        role = "related" if role == FIXED_ROLE else role
        key = _pair(anchor, cand)
        if key not in by_pair or rel > by_pair[key][2]:
            by_pair[key] = (anchor, cand, rel, role, relation)
    start = time.perf_counter()
    solution = solve_forest(
        utilities,
        [(a, c, r) for a, c, r, _, _ in by_pair.values()],
        k=config.reader_budget,
        kappa_prop=config.kappa_prop,
        kappa=config.kappa,
        lam=config.lam,
    )
    solver_ms = (time.perf_counter() - start) * 1000
    attach: dict[int, tuple[int, str]] = {}
    out_edges = []
    for i, j, _gain, rel in solution.edges:
        anchor, cand, _, role, relation = by_pair[_pair(i, j)]
        attach.setdefault(cand, (anchor, role))
        out_edges.append(
            {
                "source": cands[anchor].memory_id,
                "target": cands[cand].memory_id,
                "relation": relation,
                "role": role,
                "reliability": round(rel, 6),
            }
        )
    selected = []
    for rank, i in enumerate(solution.nodes, 1):
        c = cands[i]
        parent = attach.get(i)
        selected.append(
            SelectedMemory(
                memory_id=c.memory_id,
                round_id=c.round_id,
                text=c.text,
                rank=rank,
                role=parent[1] if parent else "direct",
                anchor=cands[parent[0]].memory_id if parent else None,
                utility=round(utilities[i], 6),
                score=round(c.score, 6),
                verifier_score=v[i],
                date=c.date,
                session_id=c.session_id,
            )
        )
    if mode == "fixed-edge":
        notes = notes + [FIXED_EDGE_NOTE]
    return ForestResult(
        question=pool.question,
        mode=mode,
        selected=selected,
        edges=out_edges,
        objective=solution.objective,
        notes=notes,
        solver_ms=solver_ms,
        candidates=len(cands),
        pool_round_ids=list(dict.fromkeys(c.round_id for c in cands)),
    )


def _empty(pool: CandidatePool, mode: Mode) -> ForestResult:
    return ForestResult(
        question=pool.question,
        mode=mode,
        selected=[],
        notes=["evidence forest: no candidate memories for this question"],
    )


def _without_verifiers(
    pool: CandidatePool, config: ForestConfig, model: Any
) -> ForestResult | None:
    """The result when no verifier call is needed, else None.

    No candidates: an empty result. No model: the fixed-edge forest when
    ``config.offline`` asks for it, else the retrieval order.
    """
    if not pool.candidates:
        return _empty(pool, "verified" if model is not None else "fixed-edge")
    if model is None:
        return (
            _solve(pool, None, config) if config.offline else _passthrough(pool, config)
        )
    return None


def _passthrough(pool: CandidatePool, config: ForestConfig) -> ForestResult:
    """The retrieval order, top-K, when the stage is off."""
    seeds = [c for c in pool.candidates if c.retrieved] or pool.candidates
    top = seeds[: config.reader_budget]  # retrieval order, as given
    return ForestResult(
        question=pool.question,
        mode="off",
        selected=[
            SelectedMemory(
                memory_id=c.memory_id,
                round_id=c.round_id,
                text=c.text,
                rank=n,
                role="direct",
                anchor=None,
                utility=0.0,
                score=round(c.score, 6),
                verifier_score=0.0,
                date=c.date,
                session_id=c.session_id,
            )
            for n, c in enumerate(top, 1)
        ],
        notes=[OFFLINE_OFF_NOTE],
        candidates=len(pool.candidates),
        pool_round_ids=list(dict.fromkeys(c.round_id for c in pool.candidates)),
    )


class ForestReranker:
    """The evidence forest over one user's retrieval memory.

    Args:
        memory: A :class:`~langgraph_adamm.Memory` (its retrieval memory is
            used) or a :class:`RetrievalMemory`.
        model: A LangChain chat model (or ``provider:model`` string) for the two
            verifiers; None: offline (see ``ForestConfig.offline``).
        config: The forest's parameters; default: the memory's
            ``config.forest``.
    """

    def __init__(
        self,
        memory: Memory | RetrievalMemory,
        model: Any = None,
        config: ForestConfig | None = None,
    ) -> None:
        from langgraph_adamm.chat import structured
        from langgraph_adamm.retrieval.memory import RetrievalMemory

        retrieval = memory if isinstance(memory, RetrievalMemory) else memory.retrieval
        if retrieval is None:
            raise AdaMMError(
                "the evidence forest needs retrieval memory; open the Memory with "
                "retrieval on (pip install 'langgraph-adamm[retrieval]')"
            )
        self.retrieval: RetrievalMemory = retrieval
        self.model = structured(model) if model is not None else None
        self.config = config or retrieval.config.forest
        self._catalogue: MemoryCatalogue | None = None
        self._lock = threading.Lock()

    @property
    def catalogue(self) -> MemoryCatalogue:
        """The memories; extended with the rounds indexed since the last use."""
        with self._lock:
            if (
                self._catalogue is None
                or self._catalogue.forgotten != self.retrieval.forgotten
            ):  # new, or rounds were forgotten since: built again
                self._catalogue = MemoryCatalogue(self.retrieval)
            elif self._catalogue.event_count != self.retrieval.event_count:
                self._catalogue.extend()
            return self._catalogue

    @property
    def active(self) -> bool:
        """Whether this reranker changes anything (a model, or offline asked for)."""
        return self.model is not None or self.config.offline

    def _config(self, budget: int | None) -> ForestConfig:
        if budget is None or budget >= self.config.reader_budget:
            return self.config
        if budget < 1:
            raise AdaMMError(f"budget must be at least 1, got {budget}")
        return replace(self.config, reader_budget=budget)

    def pool(
        self,
        question: str,
        *,
        within_rounds: Sequence[str] | None = None,
        question_image_captions: Sequence[str] = (),
    ) -> tuple[CandidatePool, list[str]]:
        """The candidate pool, and the round of each memory of the retrieval ranking."""
        cat = self.catalogue
        pool, ranking = discover(
            cat,
            question,
            self.config,
            within_rounds=within_rounds,
            question_image_captions=question_image_captions,
        )
        return pool, [cat.memories[i].round_id for i in ranking]

    def rerank(
        self,
        question: str,
        *,
        question_type: str | None = None,
        question_image_captions: Sequence[str] = (),
        within_rounds: Sequence[str] | None = None,
        budget: int | None = None,
    ) -> ForestResult:
        """The evidence forest for a question.

        Args:
            question: The question (with any image caption appended).
            question_type: Shown to the verifiers when known.
            question_image_captions: Captions of images in the question.
            within_rounds: Seed only from these rounds' memories (the query
                graph reranks what its tools returned).
            budget: Select at most this many memories (default
                ``config.reader_budget``).
        """
        config = self._config(budget)
        pool, ranking = self.pool(
            question,
            within_rounds=within_rounds,
            question_image_captions=question_image_captions,
        )
        result = _without_verifiers(pool, config, self.model)
        if result is None:
            outcome = run_verifiers(
                self.model,
                pool,
                question_type=question_type,
                attempts=config.attempts,
                config=config,
            )
            result = _solve(pool, outcome, config)
        result.retrieval_rounds = ranking
        return result

    async def arerank(
        self,
        question: str,
        *,
        question_type: str | None = None,
        question_image_captions: Sequence[str] = (),
        within_rounds: Sequence[str] | None = None,
        budget: int | None = None,
    ) -> ForestResult:
        """:meth:`rerank` with the two verifier calls awaited concurrently."""
        config = self._config(budget)
        pool, ranking = await asyncio.to_thread(
            self.pool,
            question,
            within_rounds=within_rounds,
            question_image_captions=question_image_captions,
        )
        result = _without_verifiers(pool, config, self.model)
        if result is None:
            outcome = await arun_verifiers(
                self.model,
                pool,
                question_type=question_type,
                attempts=config.attempts,
                config=config,
            )
            result = _solve(pool, outcome, config)
        result.retrieval_rounds = ranking
        return result

    # -- the query graph's rerank stage -------------------------------------
    def rerank_steps(
        self, question: str, steps: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """Replace event-level retrieval steps' units by the forest over their rounds.

        A step keeps its units when they are episodes or topics (summaries, not
        evidence memories) or when the forest selects nothing; the selection
        never exceeds the step's own number of units (its share of the budget).
        """
        out, notes = [], []
        for step in steps:
            units = (step.get("result") or {}).get("units")
            if (
                step.get("error")
                or not units
                or any(u.get("unit_type") != "event" for u in units)
            ):
                out.append(step)
                continue
            rounds = [
                r
                for u in units
                for r in [
                    *(u.get("round_ids") or []),
                    *(
                        r
                        for n in u.get("neighbours") or []
                        for r in n.get("round_ids") or []
                    ),
                ]
            ]
            result = self.rerank(question, within_rounds=rounds, budget=len(units))
            notes.extend(result.notes)
            out.append(
                forest_step(step, result)
                if result.mode != "off" and result.selected
                else step
            )
        return out, list(dict.fromkeys(notes))


def forest_step(step: dict[str, Any], result: ForestResult) -> dict[str, Any]:
    """A retrieval step whose units are the forest's selection, with the forest."""
    units = [
        MemoryUnit(
            unit_type="event",
            unit_id=m.memory_id,
            score=m.score,
            content=m.text,
            round_ids=[m.round_id],
            session_id=m.session_id,
            time=m.date,
        ).model_dump(mode="json")
        | {"role": m.role, "anchor": m.anchor, "utility": m.utility}
        for m in result.selected
    ]
    chains = len({m.rank for m in result.selected if m.anchor is None})
    return step | {
        "result": {"units": units, "forest": result.to_dict()},
        "evidence": result.round_ids(),
        "cost": len(units),
        "summary": f"evidence forest ({result.mode}): {len(units)} memories in "
        f"{chains} chain{'s' if chains != 1 else ''}, {len(result.edges)} edges",
    }


def forest_rerank(
    question: str,
    candidates: Sequence[ForestCandidate | MemoryUnit | Mapping[str, Any]],
    *,
    model: Any = None,
    config: ForestConfig | None = None,
    question_type: str | None = None,
    question_image_captions: Sequence[str] = (),
) -> ForestResult:
    """Rerank any retrieved memories as an evidence forest.

    Args:
        question: The question.
        candidates: Retrieved memories in retrieval order (best first):
            :class:`ForestCandidate`, :class:`MemoryUnit` (SemanticMatch output)
            or mappings with ``memory_id``/``unit_id``/``id``, ``score`` and
            optionally ``text``, ``round_id``, ``session_id``, ``position``,
            ``date``, ``location``, ``ocr``. The first ``config.pool`` are used.
        model: Chat model for the verifiers; None: offline (see
            ``ForestConfig.offline``).
        config: Parameters (default: the release's).
        question_type: Passed to the verifiers when known.
        question_image_captions: Captions of images in the question.

    Raises:
        AdaMMError: for a malformed candidate, naming it.
    """
    from langgraph_adamm.chat import structured

    cfg = config or ForestConfig()
    pool = pool_from_candidates(question, candidates, cfg, question_image_captions)
    chat = structured(model) if model is not None else None
    result = _without_verifiers(pool, cfg, chat)
    if result is None:
        outcome = run_verifiers(
            chat, pool, question_type=question_type, attempts=cfg.attempts, config=cfg
        )
        result = _solve(pool, outcome, cfg)
    result.retrieval_rounds = [c.round_id for c in pool.candidates]
    return result
