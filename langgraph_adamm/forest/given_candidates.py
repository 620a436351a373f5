"""Candidates a caller hands the forest: checked, converted and pooled.

:func:`pool_from_candidates` turns retrieved memories of any accepted form
(:class:`ForestCandidate`, :class:`MemoryUnit`, mappings) into a candidate
pool whose explicit relations come from their metadata; a malformed candidate
is an error that names it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph_adamm.config import ForestConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.retrieval.search import MemoryUnit


def _checked(c: ForestCandidate, n: int) -> ForestCandidate:
    """A candidate whose score and position the solver can use, or an error."""
    if not isinstance(c.memory_id, str) or not c.memory_id:
        raise AdaMMError(f"candidate {n}: memory id must be a non-empty string")
    if isinstance(c.score, bool) or not isinstance(c.score, (int, float)):
        raise AdaMMError(
            f"candidate {n} ({c.memory_id!r}): score must be a number, got {c.score!r}"
        )
    if not math.isfinite(c.score):
        raise AdaMMError(
            f"candidate {n} ({c.memory_id!r}): score must be finite, got {c.score}"
        )
    if c.position is not None and (
        isinstance(c.position, bool) or not isinstance(c.position, int)
    ):
        raise AdaMMError(
            f"candidate {n} ({c.memory_id!r}): position must be an integer, got "
            f"{c.position!r}"
        )
    return c


def _as_candidate(item: Any, n: int) -> ForestCandidate:
    if isinstance(item, ForestCandidate):
        return _checked(item, n)
    if isinstance(item, MemoryUnit):
        return _checked(
            ForestCandidate(
                memory_id=item.unit_id,
                round_id=item.round_ids[0] if item.round_ids else item.unit_id,
                text=item.content,
                score=float(item.score),
                session_id=item.session_id,
                position=item.order,
                date=item.time,
            ),
            n,
        )
    if isinstance(item, Mapping):
        raw_id = item.get("memory_id") or item.get("unit_id") or item.get("id")
        if raw_id is None:
            raise AdaMMError(f"candidate {n}: needs an id (memory_id, unit_id or id)")
        mid = str(raw_id)
        if "score" not in item:
            raise AdaMMError(f"candidate {n} ({mid!r}): needs a score")
        rounds = item.get("round_ids") or [item.get("round_id") or mid]
        return _checked(
            ForestCandidate(
                memory_id=mid,
                round_id=str(rounds[0]),
                text=str(item.get("text") or item.get("content") or ""),
                score=item["score"],
                modalities=tuple(item.get("modalities") or ("text",)),
                session_id=item.get("session_id"),
                position=item.get("position", item.get("order")),
                date=item.get("date", item.get("time")),
                location=item.get("location"),
                ocr=item.get("ocr"),
            ),
            n,
        )
    raise AdaMMError(
        f"candidate {n}: expected a ForestCandidate, MemoryUnit or mapping, got "
        f"{type(item).__name__}"
    )


def pool_from_candidates(
    question: str,
    candidates: Sequence[Any],
    config: ForestConfig,
    question_image_captions: Sequence[str] = (),
) -> CandidatePool:
    """A pool over given memories: relations from metadata, anchors first in order.

    ``same_round``: the same round id; ``consecutive_turn``: the same session and
    positions one apart.
    """
    cands = [_as_candidate(c, n) for n, c in enumerate(candidates)][: config.pool]
    ids = [c.memory_id for c in cands]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise AdaMMError(f"candidate id {dup!r} appears more than once")
    explicit: dict[tuple[int, int], tuple[str, ...]] = {}
    for i, a in enumerate(cands):
        for j in range(i + 1, len(cands)):
            b = cands[j]
            kinds = []
            if a.round_id == b.round_id:
                kinds.append("same_round")
            if (
                a.session_id is not None
                and a.session_id == b.session_id
                and a.position is not None
                and b.position is not None
                and abs(a.position - b.position) == 1
            ):
                kinds.append("consecutive_turn")
            if kinds:
                explicit[(i, j)] = tuple(kinds)
    return CandidatePool(
        question=question,
        candidates=cands,
        explicit=explicit,
        anchors=list(range(min(config.anchors, len(cands)))),
        question_image_captions=list(question_image_captions),
    )
