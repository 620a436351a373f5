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

The prompt texts are :data:`NODE_VERIFIER_PROMPT` and :data:`ECV_PROMPT`.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, NamedTuple, TypeVar, get_args

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_adamm.chat import CallRecord, Messages, StructuredModel, structured
from langgraph_adamm.config import ForestConfig
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.schemas import WireModel

T = TypeVar("T")

SNIPPET_TEXT_CHARS = 420
"""At most this many characters of a candidate's canonical text go in a snippet."""
SNIPPET_OCR_CHARS = 120
"""At most this many characters of query-relevant OCR go in a snippet."""
OCR_SEPARATOR = " | OCR: "
"""Separates the canonical text from the OCR part of a snippet."""

SCORE_MAX = 5.0
"""Scores, direct and incremental support are on a 0-5 scale."""
EDGE_CEILING = 0.99
"""Reliability of a full-strength (incremental 5) edge and of every fixed edge."""

Role = Literal[
    "new_fact",
    "clarification",
    "corroboration",
    "redundant",
    "conflict",
    "irrelevant",
]
ROLES: tuple[str, ...] = get_args(Role)
"""The roles the ECV may give a candidate relative to its best anchor."""
POSITIVE_ROLES = frozenset({"new_fact", "clarification", "corroboration"})
"""Roles that make an edge (when incremental support is above 0)."""
FIXED_ROLE = "fixed"
"""Role of the edges of the offline fixed-edge variant."""

# Release coefficients of the node utility sigmoid(a*s + b*v + c).
UTILITY_A = 4.054056
UTILITY_B = 0.225380
UTILITY_C = -3.711336

NODE_VERIFIER_PROMPT = """\
You are the node verifier of an evidence-retrieval system over one user's \
long-term memory of conversations (text turns, and images with captions and OCR).

You receive a JSON object with the user's question, captions of any images \
attached to the question, an optional question type, and a list of candidate \
memories. Each candidate has an anonymous id, its modalities, date, location, \
retrieval score and a snippet: the memory's text, possibly followed by \
question-relevant text read from its image ("OCR: ...").

Score each candidate from 0 to 5 for how much it, on its own, supports \
answering the question:
5 = states the answer or the decisive fact;
4 = supplies most of what the answer needs;
3 = supplies a necessary part of the answer (one of several facts to combine);
2 = relevant context that helps but is far from sufficient;
1 = marginally related;
0 = unrelated, or no support.
Judge every candidate independently of the others; the retrieval score is only \
a hint. Do not answer the question.

Return only a JSON object, with no prose and no code fences, like:
{"scores": [{"id": "c1", "score": 4}, {"id": "c3", "score": 1}]}
Use only the given ids, each at most once; a score is a number from 0 to 5. You \
may leave candidates out: a candidate left out scores 0."""

ECV_PROMPT = """\
You are the evidence-chain verifier of an evidence-retrieval system over one \
user's long-term memory of conversations (text turns, and images with captions \
and OCR).

You receive a JSON object with the user's question, captions of any images \
attached to the question, an optional question type, the anchors (the best \
retrieved memories) and a list of candidate memories. Each candidate has an \
anonymous id, its modalities, date, location, retrieval score, a snippet, \
whether it is itself an anchor (is_atomic_anchor), and the anchors it is \
explicitly related to (eligible_anchor_relations; relation "same_round" = the \
same conversation round, "consecutive_turn" = adjacent turns of one session, \
"same_place" = a nearby round of the session at the same place).

For every candidate, judge what it adds to the evidence when read together with \
the one eligible anchor it helps most:
- best_anchor_id: that anchor's id, taken only from the candidate's \
eligible_anchor_relations; null when it helps none.
- role: one of
  "new_fact": adds a fact the anchor lacks and the answer needs;
  "clarification": resolves something in the anchor (a reference, a time, a \
place, what an image shows);
  "corroboration": independently confirms the anchor's relevant fact;
  "redundant": repeats the anchor and adds nothing;
  "conflict": contradicts the anchor;
  "irrelevant": adds nothing for this question.
- incremental_support: 0 to 5, how much the candidate adds on top of that anchor \
toward answering the question (0 for redundant, conflict and irrelevant).
- direct_support: 0 to 5, how much the candidate supports the answer on its own.
Do not answer the question.

Return only a JSON object, with no prose and no code fences, with exactly one \
row for every candidate (every id once, no other ids), like:
{"rows": [{"id": "c4", "direct_support": 1, "best_anchor_id": "c1", \
"incremental_support": 3, "role": "new_fact"}]}"""

_STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have how i in is it "
    "its me my of on or our so that the their them they this to was we were what "
    "when where which who whom why will with you your".split()
)
_WORD = re.compile(r"[a-z0-9]+")
_OCR_UNITS = re.compile(r"(?<=[.!?])\s+|\n+")


class VerifierOutputError(ValueError):
    """A verifier's output does not follow its format; the message is for the model."""


class ForestEdge(NamedTuple):
    """An evidence edge from an anchor to a candidate (indices into the pool)."""

    anchor: int
    candidate: int
    reliability: float
    role: str
    relation: str


@dataclass(frozen=True)
class EcvRow:
    """One candidate's normalised ECV verdict.

    Attributes:
        anchor: Pool index of the best eligible anchor, or None (edge cleared).
        role: One of :data:`ROLES`.
        incremental: Incremental support in [0, 5]; 0 unless the role is positive.
        relation: The explicit relation to the anchor, or None without an anchor.
    """

    anchor: int | None
    role: str
    incremental: float
    relation: str | None


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


# ---------------------------------------------------------------------------
# Prompts


def candidate_ids(pool: CandidatePool) -> list[str]:
    """Anonymous ids ``c1``, ``c2``, ... of the pool's candidates, in pool order."""
    return [f"c{k + 1}" for k in range(len(pool.candidates))]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…"


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS}


def relevant_ocr(ocr: str | None, question: str, limit: int = SNIPPET_OCR_CHARS) -> str:
    """At most ``limit`` characters of OCR, its most question-relevant parts first.

    OCR is split into lines and sentences, whitespace collapsed, duplicates
    dropped; units are ranked by how many (non-stopword) question words they
    share, ties in reading order, and joined with ``" / "`` until the budget is
    spent (the last unit cut to fit).
    """
    if not ocr or limit <= 0:
        return ""
    seen: set[str] = set()
    units: list[str] = []
    for raw in _OCR_UNITS.split(ocr):
        unit = _collapse(raw)
        if unit and unit.lower() not in seen:
            seen.add(unit.lower())
            units.append(unit)
    query = _words(question)
    ranked = sorted(
        enumerate(units), key=lambda item: (-len(_words(item[1]) & query), item[0])
    )
    out = ""
    for _, unit in ranked:
        joined = f"{out} / {unit}" if out else unit
        if len(joined) <= limit:
            out = joined
            continue
        room = limit - len(out) - (3 if out else 0)
        if room >= 12 or not out:  # a shorter cut unit would say nothing
            out = f"{out} / {_cut(unit, room)}" if out else _cut(unit, room)
        break
    return out


def snippet(
    candidate: ForestCandidate,
    question: str,
    text_chars: int = SNIPPET_TEXT_CHARS,
    ocr_chars: int = SNIPPET_OCR_CHARS,
) -> str:
    """A candidate's snippet: ≤420 characters of text, then ≤120 of relevant OCR.

    Whitespace is collapsed; a cut text ends in "…" (within the limit). The OCR
    part, when there is one, follows :data:`OCR_SEPARATOR`.
    """
    text = _cut(_collapse(candidate.text), text_chars)
    ocr = relevant_ocr(candidate.ocr, question, ocr_chars)
    return f"{text}{OCR_SEPARATOR}{ocr}" if ocr else text


def _snippet(pool: CandidatePool, i: int, config: ForestConfig) -> str:
    return snippet(
        pool.candidates[i], pool.question, config.snippet_chars, config.ocr_chars
    )


def _node_fields(
    pool: CandidatePool, i: int, cid: str, config: ForestConfig
) -> dict[str, Any]:
    cand = pool.candidates[i]
    return {
        "id": cid,
        "modalities": list(cand.modalities),
        "date": cand.date,
        "location": cand.location,
        "retrieval_score": round(float(cand.score), 4),
        "snippet": _snippet(pool, i, config),
    }


def node_payload(
    pool: CandidatePool,
    question_type: str | None = None,
    config: ForestConfig | None = None,
) -> dict[str, Any]:
    """The node verifier's user message, as a JSON-ready dict."""
    config = config or ForestConfig()
    ids = candidate_ids(pool)
    return {
        "question": pool.question,
        "question_image_captions": list(pool.question_image_captions),
        "question_type": question_type,
        "candidates": [_node_fields(pool, i, cid, config) for i, cid in enumerate(ids)],
    }


def ecv_sent(pool: CandidatePool) -> list[int]:
    """Indices of the candidates the ECV sees: those with an eligible anchor."""
    return [i for i in range(len(pool.candidates)) if pool.eligible_anchors(i)]


def ecv_payload(
    pool: CandidatePool,
    question_type: str | None = None,
    config: ForestConfig | None = None,
) -> dict[str, Any] | None:
    """The ECV's user message as a JSON-ready dict; None when no candidate is sent."""
    config = config or ForestConfig()
    sent = ecv_sent(pool)
    if not sent:
        return None
    ids = candidate_ids(pool)
    anchors = [
        {
            "id": ids[a],
            "text": _snippet(pool, a, config),
            "date": pool.candidates[a].date,
            "location": pool.candidates[a].location,
        }
        for a in pool.anchors
    ]
    anchor_set = set(pool.anchors)
    candidates = []
    for i in sent:
        row = _node_fields(pool, i, ids[i], config)
        row["is_atomic_anchor"] = i in anchor_set
        row["eligible_anchor_relations"] = [
            {"anchor_id": ids[a], "relation": kind}
            for a, kind in pool.eligible_anchors(i)
        ]
        candidates.append(row)
    return {
        "question": pool.question,
        "question_image_captions": list(pool.question_image_captions),
        "question_type": question_type,
        "anchors": anchors,
        "candidates": candidates,
    }


# ---------------------------------------------------------------------------
# Parsers


def _output_text(raw: Any) -> str:
    if isinstance(raw, BaseMessage):
        raw = raw.content
    if isinstance(raw, list):  # content blocks
        raw = "".join(
            b if isinstance(b, str) else str(b.get("text", ""))
            for b in raw
            if isinstance(b, (str, dict))
        )
    if not isinstance(raw, str):
        raise VerifierOutputError(f"expected text, got {type(raw).__name__}")
    return raw


def _load_object(raw: Any, key: str) -> list[Any]:
    """The list under ``key`` of the JSON object the model returned."""
    data: Any = raw
    if not isinstance(raw, dict):
        text = _output_text(raw).strip()
        if text.startswith("```"):
            text = text.removeprefix("```").removeprefix("json").removeprefix("JSON")
            text = text.removesuffix("```").strip()
        if not text:
            raise VerifierOutputError("the output was empty; expected a JSON object")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise VerifierOutputError(f"the output is not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise VerifierOutputError(
            f'expected a JSON object with a "{key}" list, got {type(data).__name__}'
        )
    items = data.get(key)
    if not isinstance(items, list):
        raise VerifierOutputError(f'the JSON object needs a "{key}" list')
    return items


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise VerifierOutputError(f"{what} must be a number from 0 to 5, got {value!r}")
    number = float(value)
    if not (0.0 <= number <= SCORE_MAX):  # also rejects NaN
        raise VerifierOutputError(f"{what} must be from 0 to 5, got {value!r}")
    return number


def _row_id(item: Any, k: int, key: str) -> str:
    if not isinstance(item, dict):
        raise VerifierOutputError(f"{key}[{k}] must be an object, got {item!r}"[:300])
    cid = item.get("id")
    if not isinstance(cid, str):
        raise VerifierOutputError(f'{key}[{k}] needs a string "id"')
    return cid


def parse_node_output(raw: Any, ids: list[str]) -> list[float]:
    """The node verifier's scores per candidate index (left-out candidates 0).

    Args:
        raw: The model's output: text, a message, content blocks or a dict.
        ids: The anonymous ids in pool order.

    Raises:
        VerifierOutputError: on malformed JSON, unknown or repeated ids, or a
            score that is not a number in [0, 5].
    """
    index = {cid: i for i, cid in enumerate(ids)}
    scores = [0.0] * len(ids)
    seen: set[str] = set()
    for k, item in enumerate(_load_object(raw, "scores")):
        cid = _row_id(item, k, "scores")
        if cid not in index:
            raise VerifierOutputError(f"unknown candidate id {cid!r}")
        if cid in seen:
            raise VerifierOutputError(f"candidate id {cid!r} appears more than once")
        seen.add(cid)
        scores[index[cid]] = _number(item.get("score"), f"the score of {cid!r}")
    return scores


def parse_ecv_output(raw: Any, pool: CandidatePool) -> dict[int, EcvRow]:
    """The ECV's normalised row per sent candidate index.

    Validation (errors raise, to be retried): the rows cover every sent
    candidate exactly once and no other id; incremental_support (required) and
    direct_support (when given) are numbers in [0, 5].

    Normalisation (never retried): direct support is dropped (edge-only mode);
    an unknown role becomes ``"irrelevant"``; a null or ineligible
    best_anchor_id clears the edge (irrelevant, 0); redundant, conflict and
    irrelevant get incremental 0; a positive role with incremental 0 becomes
    irrelevant.

    Raises:
        VerifierOutputError: when the output fails validation.
    """
    ids = candidate_ids(pool)
    sent = ecv_sent(pool)
    index = {ids[i]: i for i in sent}
    known = set(ids)
    rows: dict[int, EcvRow] = {}
    for k, item in enumerate(_load_object(raw, "rows")):
        cid = _row_id(item, k, "rows")
        if cid not in index:
            where = "was not sent for this check" if cid in known else "is unknown"
            raise VerifierOutputError(f"candidate id {cid!r} {where}")
        i = index[cid]
        if i in rows:
            raise VerifierOutputError(f"candidate id {cid!r} appears more than once")
        incremental = _number(
            item.get("incremental_support"), f"incremental_support of {cid!r}"
        )
        if item.get("direct_support") is not None:
            _number(item["direct_support"], f"direct_support of {cid!r}")
        rows[i] = _normalise_row(pool, i, item, incremental, ids)
    missing = [ids[i] for i in sent if i not in rows]
    if missing:
        raise VerifierOutputError(
            "every candidate needs exactly one row; missing: " + ", ".join(missing)
        )
    return rows


def _normalise_row(
    pool: CandidatePool,
    i: int,
    item: dict[str, Any],
    incremental: float,
    ids: list[str],
) -> EcvRow:
    role = item.get("role")
    if role not in ROLES:
        role = "irrelevant"
    relations = {ids[a]: (a, kind) for a, kind in reversed(pool.eligible_anchors(i))}
    best = item.get("best_anchor_id")
    chosen = relations.get(best) if isinstance(best, str) else None
    if chosen is None:
        return EcvRow(None, "irrelevant", 0.0, None)
    if role not in POSITIVE_ROLES:
        incremental = 0.0
    elif incremental <= 0.0:
        role = "irrelevant"
    return EcvRow(chosen[0], str(role), incremental, chosen[1])


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


class NodeScore(WireModel):
    """The node verifier's score of one candidate."""

    id: str
    score: float


class NodeVerifierOutput(WireModel):
    """The node verifier's output: a score per candidate id."""

    scores: list[NodeScore]


class EcvVerdict(WireModel):
    """The evidence-chain verifier's row for one candidate."""

    id: str
    best_anchor_id: str | None
    role: Role
    incremental_support: float
    direct_support: float | None = None


class EcvOutput(WireModel):
    """The evidence-chain verifier's output: one row per candidate sent."""

    rows: list[EcvVerdict]


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
