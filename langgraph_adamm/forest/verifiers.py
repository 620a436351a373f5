"""GraphMemix's two listwise verifier calls: node scores and evidence-chain edges.

Per question the evidence forest asks a chat model two things, concurrently:

* the **node verifier** scores every candidate of the pool 0-5 for how much it
  independently supports answering the question (``v_i``);
* the **evidence-chain verifier** (ECV) looks at each candidate that shares an
  explicit relation with an anchor (:meth:`CandidatePool.eligible_anchors`) and
  says which anchor it helps most, in what role and by how much; positive rows
  become edges with reliability ``0.99 * incremental / 5``.

Candidates are shown to the model under anonymous ids (``c1``, ``c2``, ... in
pool order), never their memory or round ids. Each call is validated and retried
at most ``attempts`` times in all, the previous error shown to the model; a call
that never validates, or whose model raises, does not raise here: the node scores
fall back to 0 (retrieval scores only) and the edges to the offline fixed-edge
variant (:func:`fixed_edges`), with a note saying why.

The prompt texts are :data:`NODE_VERIFIER_PROMPT` and :data:`ECV_PROMPT`
(:mod:`.verifier_prompts`); what the model is shown is built in
:mod:`.verifier_payloads`, and its answers are validated in
:mod:`.verifier_parsing`. This module holds the scoring (node utility, edges)
and the calls; it re-exports the names of the other three.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Generic, NamedTuple, TypeVar

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_adamm.chat import CallRecord, Messages, StructuredModel, structured
from langgraph_adamm.config import ForestConfig
from langgraph_adamm.forest.candidates import CandidatePool
from langgraph_adamm.forest.verifier_parsing import (
    POSITIVE_ROLES,
    ROLES,
    SCORE_MAX,
    EcvOutput,
    EcvRow,
    EcvVerdict,
    NodeScore,
    NodeVerifierOutput,
    Role,
    VerifierOutputError,
    parse_ecv_output,
    parse_node_output,
)
from langgraph_adamm.forest.verifier_payloads import (
    OCR_SEPARATOR,
    SNIPPET_OCR_CHARS,
    SNIPPET_TEXT_CHARS,
    candidate_ids,
    ecv_payload,
    ecv_sent,
    node_payload,
    relevant_ocr,
    snippet,
)
from langgraph_adamm.forest.verifier_prompts import (
    ECV_PROMPT,
    NODE_VERIFIER_PROMPT,
)
from langgraph_adamm.schemas import WireModel

T = TypeVar("T")

EDGE_CEILING = 0.99
"""Reliability of a full-strength (incremental 5) edge and of every fixed edge."""
FIXED_ROLE = "fixed"
"""Role of the edges of the offline fixed-edge variant."""

# Release coefficients of the node utility sigmoid(a*s + b*v + c).
UTILITY_A = 4.054056
UTILITY_B = 0.225380
UTILITY_C = -3.711336


class ForestEdge(NamedTuple):
    """An evidence edge from an anchor to a candidate (indices into the pool)."""

    anchor: int
    candidate: int
    reliability: float
    role: str
    relation: str


@dataclass
class VerifierOutcome:
    """What the two verifier calls (or their fallbacks) gave for one pool.

    Attributes:
        node_scores: v_i in [0, 5] per candidate index (all 0 when the node
            verifier failed).
        edges: One edge per unordered candidate pair: ECV edges, or the fixed
            edges when the ECV failed.
        roles: ECV role per candidate index; None for a candidate that was not
            sent (no eligible anchor); ``"fixed"`` for the sent ones when the ECV
            failed.
        node_ok: The node verifier's output validated.
        edges_ok: The ECV's output validated, or no ECV call was needed.
        notes: Why a verifier fell back, in words; empty when both worked.
        ecv_rows: The normalised ECV row per sent candidate index.
        node_errors: Each failed node-verifier attempt's error, in order.
        ecv_errors: Each failed ECV attempt's error, in order.
    """

    node_scores: list[float]
    edges: list[ForestEdge]
    roles: list[str | None]
    node_ok: bool
    edges_ok: bool
    notes: list[str] = field(default_factory=list)
    ecv_rows: dict[int, EcvRow] = field(default_factory=dict)
    node_errors: list[str] = field(default_factory=list)
    ecv_errors: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Scoring helpers


def node_utility(
    s: float,
    v: float,
    a: float = UTILITY_A,
    b: float = UTILITY_B,
    c: float = UTILITY_C,
) -> float:
    """Node utility ``sigmoid(a*s + b*v + c)``: retrieval score s, raw v in [0, 5]."""
    z = a * s + b * v + c
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def edge_reliability(incremental: float, ceiling: float = EDGE_CEILING) -> float:
    """Reliability ``ceiling * incremental / 5`` of an ECV edge (clamped to 0-5)."""
    return ceiling * min(max(incremental, 0.0), SCORE_MAX) / SCORE_MAX


def _dedupe(edges: list[ForestEdge]) -> list[ForestEdge]:
    """One edge per unordered pair: the most reliable, ties to the first given."""
    best: dict[tuple[int, int], ForestEdge] = {}
    for edge in edges:
        key = (min(edge.anchor, edge.candidate), max(edge.anchor, edge.candidate))
        kept = best.get(key)
        if kept is None or edge.reliability > kept.reliability:
            best[key] = edge
    return list(best.values())


def fixed_edges(pool: CandidatePool, ceiling: float = EDGE_CEILING) -> list[ForestEdge]:
    """The offline fixed-edge variant: every eligible explicit relation at ``ceiling``.

    One edge per unordered pair. Between two anchors the earlier anchor (higher
    retrieval rank) is the edge's anchor; with several relations on one pair the
    first is kept.
    """
    edges: list[ForestEdge] = []
    for i in range(len(pool.candidates)):
        for a, kind in pool.eligible_anchors(i):
            edges.append(ForestEdge(a, i, ceiling, FIXED_ROLE, kind))
    rank = {a: k for k, a in enumerate(pool.anchors)}
    edges.sort(key=lambda e: (rank.get(e.anchor, len(rank)), e.candidate))
    out = _dedupe(edges)
    out.sort(key=lambda e: (e.candidate, e.anchor))
    return out


def ecv_edges(
    rows: dict[int, EcvRow], ceiling: float = EDGE_CEILING
) -> list[ForestEdge]:
    """Edges of the positive ECV rows, one per unordered pair."""
    edges = [
        ForestEdge(
            row.anchor,
            i,
            edge_reliability(row.incremental, ceiling),
            row.role,
            row.relation,
        )
        for i, row in sorted(rows.items())
        if row.anchor is not None
        and row.relation is not None
        and row.role in POSITIVE_ROLES
        and row.incremental > 0
    ]
    return _dedupe(edges)


# ---------------------------------------------------------------------------
# Calls


@dataclass
class _Call(Generic[T]):
    """One verifier call: its prompt, payload (and smaller ones), schema, parser."""

    name: str
    system: str
    payload: dict[str, Any]
    schema: type[WireModel]
    parse: Callable[[Any], T]
    smaller: Callable[[], Iterator[dict[str, Any]]] | None = None

    def _messages(self, payload: dict[str, Any]) -> list[BaseMessage]:
        return [
            SystemMessage(content=self.system),
            HumanMessage(content=json.dumps(payload, ensure_ascii=False)),
        ]

    def prompt(self) -> Messages:
        """The request, with smaller payloads to fall back on to fit a window."""
        smaller = self.smaller

        def variants() -> Iterator[list[BaseMessage]]:
            for payload in smaller() if smaller else ():
                yield self._messages(payload)

        return Messages(self._messages(self.payload), variants)

    def options(self, attempts: int) -> dict[str, Any]:
        """The layer's keyword arguments; this call's parser reads the raw output."""
        return {"parse": self.parse, "attempts": attempts, "validate": False}

    def send(self, model: StructuredModel, attempts: int) -> CallRecord:
        """The call, through the layer."""
        return model.call(
            self.name, self.schema, self.prompt(), **self.options(attempts)
        )

    async def asend(self, model: StructuredModel, attempts: int) -> CallRecord:
        """Async :meth:`send`."""
        return await model.acall(
            self.name, self.schema, self.prompt(), **self.options(attempts)
        )


def _smaller_configs(config: ForestConfig) -> Iterator[ForestConfig]:
    """The same limits with ever shorter snippets (to fit a context window)."""
    for share in (0.5, 0.25, 0.1):
        yield replace(
            config,
            snippet_chars=max(40, int(config.snippet_chars * share)),
            ocr_chars=max(20, int(config.ocr_chars * share)),
        )


def _calls(
    pool: CandidatePool, question_type: str | None, config: ForestConfig
) -> tuple[_Call[list[float]] | None, _Call[dict[int, EcvRow]] | None]:
    ids = candidate_ids(pool)
    node: _Call[list[float]] | None = None
    if ids:
        node = _Call(
            "node verifier",
            NODE_VERIFIER_PROMPT,
            node_payload(pool, question_type, config),
            NodeVerifierOutput,
            lambda raw: parse_node_output(raw, ids),
            lambda: (
                node_payload(pool, question_type, c) for c in _smaller_configs(config)
            ),
        )
    payload = ecv_payload(pool, question_type, config)
    ecv: _Call[dict[int, EcvRow]] | None = None
    if payload is not None:
        ecv = _Call(
            "evidence-chain verifier",
            ECV_PROMPT,
            payload,
            EcvOutput,
            lambda raw: parse_ecv_output(raw, pool),
            lambda: (
                p
                for c in _smaller_configs(config)
                if (p := ecv_payload(pool, question_type, c)) is not None
            ),
        )
    return node, ecv


def _failure(record: CallRecord, fallback: str) -> str:
    if record.raised is not None:
        return (
            f"{record.role} call failed after {record.attempts} attempts "
            f"({record.raised}); {fallback}"
        )
    return (
        f"{record.role} failed after {record.attempts} attempts "
        f"(last error: {record.last_error}); {fallback}"
    )


def _outcome(
    pool: CandidatePool,
    node: CallRecord | None,
    ecv: CallRecord | None,
    config: ForestConfig,
) -> VerifierOutcome:
    ceiling = config.reliability_ceiling
    n = len(pool.candidates)
    outcome = VerifierOutcome(
        node_scores=[0.0] * n,
        edges=[],
        roles=[None] * n,
        node_ok=True,
        edges_ok=True,
    )
    if node is not None:
        outcome.node_errors = list(node.errors)
        if node.value is not None:
            outcome.node_scores = node.value
        else:
            outcome.node_ok = False
            outcome.notes.append(
                _failure(
                    node, "using retrieval scores only (v = 0 for every candidate)"
                )
            )
    if ecv is not None:
        outcome.ecv_errors = list(ecv.errors)
        if ecv.value is not None:
            outcome.ecv_rows = ecv.value
            outcome.edges = ecv_edges(ecv.value, ceiling)
            for i, row in ecv.value.items():
                outcome.roles[i] = row.role
        else:
            outcome.edges_ok = False
            outcome.edges = fixed_edges(pool, ceiling)
            for i in ecv_sent(pool):
                outcome.roles[i] = FIXED_ROLE
            outcome.notes.append(
                _failure(
                    ecv,
                    f"using fixed edges (reliability {ceiling}) for every "
                    "explicit anchor relation",
                )
            )
    return outcome


def run_verifiers(
    model: Any,
    pool: CandidatePool,
    *,
    question_type: str | None = None,
    attempts: int | None = None,
    config: ForestConfig | None = None,
) -> VerifierOutcome:
    """Run the node verifier and the ECV concurrently (two threads); never raises.

    Args:
        model: A LangChain chat model or a :class:`StructuredModel`.
        pool: The question's candidate pool.
        question_type: The question's type, when known (shown to the model).
        attempts: Tries per call in all, the previous error shown on a retry
            (default: ``config.attempts``, 3).
        config: Snippet limits, reliability ceiling and attempts (default: the
            release's :class:`ForestConfig`).

    Returns:
        The node scores, edges and roles; a failed call falls back (v = 0; fixed
        edges) and says so in ``notes``.
    """
    config = config or ForestConfig()
    tries = config.attempts if attempts is None else attempts
    model = structured(model)
    node_call, ecv_call = _calls(pool, question_type, config)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="verifier") as pool_:
        node_future = pool_.submit(node_call.send, model, tries) if node_call else None
        ecv_future = pool_.submit(ecv_call.send, model, tries) if ecv_call else None
        node = node_future.result() if node_future else None
        ecv = ecv_future.result() if ecv_future else None
    return _outcome(pool, node, ecv, config)


async def arun_verifiers(
    model: Any,
    pool: CandidatePool,
    *,
    question_type: str | None = None,
    attempts: int | None = None,
    config: ForestConfig | None = None,
) -> VerifierOutcome:
    """Async :func:`run_verifiers`: both calls through ``ainvoke``, gathered."""
    config = config or ForestConfig()
    tries = config.attempts if attempts is None else attempts
    model = structured(model)
    node_call, ecv_call = _calls(pool, question_type, config)

    async def none() -> None:
        return None

    node, ecv = await asyncio.gather(
        node_call.asend(model, tries) if node_call else none(),
        ecv_call.asend(model, tries) if ecv_call else none(),
    )
    return _outcome(pool, node, ecv, config)


__all__ = [
    "ECV_PROMPT",
    "EDGE_CEILING",
    "EcvOutput",
    "EcvRow",
    "EcvVerdict",
    "FIXED_ROLE",
    "ForestEdge",
    "NODE_VERIFIER_PROMPT",
    "NodeScore",
    "NodeVerifierOutput",
    "OCR_SEPARATOR",
    "POSITIVE_ROLES",
    "ROLES",
    "Role",
    "SCORE_MAX",
    "SNIPPET_OCR_CHARS",
    "SNIPPET_TEXT_CHARS",
    "UTILITY_A",
    "UTILITY_B",
    "UTILITY_C",
    "VerifierOutcome",
    "VerifierOutputError",
    "arun_verifiers",
    "candidate_ids",
    "ecv_edges",
    "ecv_payload",
    "ecv_sent",
    "edge_reliability",
    "fixed_edges",
    "node_payload",
    "node_utility",
    "parse_ecv_output",
    "parse_node_output",
    "relevant_ocr",
    "run_verifiers",
    "snippet",
]
