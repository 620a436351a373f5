"""What the forest verifiers are shown: anonymous ids, snippets, JSON payloads.

Candidates go to the model under anonymous ids (``c1``, ``c2``, ... in pool
order); each carries a snippet of its text and of its question-relevant OCR.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph_adamm.config import ForestConfig
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate

SNIPPET_TEXT_CHARS = 420
"""At most this many characters of a candidate's canonical text go in a snippet."""
SNIPPET_OCR_CHARS = 120
"""At most this many characters of query-relevant OCR go in a snippet."""
OCR_SEPARATOR = " | OCR: "
"""Separates the canonical text from the OCR part of a snippet."""

_STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have how i in is it "
    "its me my of on or our so that the their them they this to was we were what "
    "when where which who whom why will with you your".split()
)
_WORD = re.compile(r"[a-z0-9]+")
_OCR_UNITS = re.compile(r"(?<=[.!?])\s+|\n+")


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
