"""The forest verifiers' output formats, and their validation into plain values.

A validation error (:class:`VerifierOutputError`) is a message for the model,
shown on the retry; normalisation (unknown roles, ineligible anchors) never
retries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, get_args

from langchain_core.messages import BaseMessage

from langgraph_adamm.forest.candidates import CandidatePool
from langgraph_adamm.forest.verifier_payloads import (
    candidate_ids,
    ecv_sent,
)
from langgraph_adamm.schemas import WireModel

SCORE_MAX = 5.0
"""Scores, direct and incremental support are on a 0-5 scale."""

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


class VerifierOutputError(ValueError):
    """A verifier's output does not follow its format; the message is for the model."""


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
