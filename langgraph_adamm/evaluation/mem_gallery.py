"""Mem-Gallery: conversion to the shared format and retrieval evaluation.

Mem-Gallery (Bei et al., 2026) scenario files hold multi-session dialogues with
images (captions here; the image files are not distributed with the dev split)
and human-annotated questions whose ``clue`` lists the gold evidence rounds.
Retrieval is scored with the benchmark's own definitions
(:mod:`langgraph_adamm.evaluation.common`), averaged over questions. Answer
refusal (AR) questions have no clues and are left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph_adamm.errors import HistoryFormatError
from langgraph_adamm.evaluation.baselines import (
    FlatRetriever,
    LangGraphStoreRetriever,
    Retriever,
)
from langgraph_adamm.evaluation.common import (
    METHODS,
    Conversation,
    answerable,
    forest_summary,
    format_table,
    query_text,
    retrieval_metrics,
    score_conversations,
    source_rounds,
    stderr_log,
    write_questions,
)
from langgraph_adamm.history import History, Question, history_from_dict
from langgraph_adamm.retrieval.encoders import TextEncoder

if TYPE_CHECKING:
    from langgraph_adamm.config import AdaMMConfig

__all__ = [
    "EXCLUDED_TYPES",
    "FlatRetriever",
    "LangGraphStoreRetriever",
    "Retriever",
    "convert",
    "evaluate",
    "forest_summary",
    "format_table",
    "load_scenario",
    "query_text",
    "retrieval_metrics",
    "scenario_to_document",
    "source_rounds",
    "stderr_log",
]

EXCLUDED_TYPES = frozenset({"AR"})


def scenario_to_document(raw: dict[str, Any], user_id: str) -> dict[str, Any]:
    """One Mem-Gallery scenario as a history document in the shared format."""
    sessions = []
    for s in raw.get("multi_session_dialogues") or []:
        rounds = []
        for r in s.get("dialogues") or []:
            ids = r.get("image_id") or []
            captions = r.get("image_caption") or []
            rounds.append(
                {
                    "round_id": r["round"],
                    "user": r.get("user") or "",
                    "assistant": r.get("assistant") or "",
                    "images": [
                        {"image_id": iid, "caption": cap}
                        for iid, cap in zip(ids, captions, strict=False)
                        if cap
                    ],
                }
            )
        sessions.append(
            {"session_id": s["session_id"], "date": s.get("date"), "rounds": rounds}
        )
    return {"user_id": user_id, "sessions": sessions}


def load_scenario(path: str | Path) -> tuple[History, list[Question]]:
    """A scenario file as a history and its questions.

    Raises:
        HistoryFormatError: naming the file when it is not a Mem-Gallery scenario.
    """
    file = Path(path)
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
        doc = scenario_to_document(raw, user_id=file.stem)
        qas = raw["human-annotated QAs"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise HistoryFormatError(
            f"{file}: not a Mem-Gallery scenario file: {exc}"
        ) from exc
    history = history_from_dict(doc, file.parent)
    questions = []
    for i, q in enumerate(qas):
        caption = q.get("image_caption")
        questions.append(
            Question(
                question_id=f"{file.stem}:{i + 1}",
                question=str(q["question"]),
                answer=str(q.get("answer", "")),
                type=q.get("point"),
                evidence=tuple(str(c) for c in q.get("clue") or ()),
                extra={"question_image_caption": caption} if caption else {},
            )
        )
    return history, questions


def convert(src: str | Path, out: str | Path) -> list[Path]:
    """Write each scenario as ``<name>.history.json`` and ``<name>.questions.jsonl``."""
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for file in sorted(Path(src).glob("*.json")):
        raw = json.loads(file.read_text(encoding="utf-8"))
        doc = scenario_to_document(raw, user_id=file.stem)
        hist = out_dir / f"{file.stem}.history.json"
        hist.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        _, questions = load_scenario(file)
        qs = out_dir / f"{file.stem}.questions.jsonl"
        write_questions(qs, questions)
        written += [hist, qs]
    return written


def _conversations(files: Sequence[Path]) -> Iterator[Conversation]:
    for file in files:
        history, questions = load_scenario(file)
        yield file.stem, history, answerable(questions, EXCLUDED_TYPES)


def evaluate(
    directory: str | Path,
    *,
    k: int = 10,
    encoder: TextEncoder,
    methods: Sequence[str] = METHODS,
    log: Callable[[str], None] | None = None,
    rerank: str | None = None,
    model: Any = None,
    config: AdaMMConfig | None = None,
) -> dict[str, Any]:
    """Ingest each scenario into its own memory and score every method.

    ``config`` sets up each memory (default: the defaults).

    Returns ``{"k": K, "questions": N, "methods": {NAME: {"overall": {...},
    "by_type": {TYPE: {...}}}}}`` with precision, recall and hit averaged over
    the questions that have clue rounds (AR excluded).

    The methods (:data:`~langgraph_adamm.evaluation.common.METHODS`): ``adamm``,
    the hierarchy; ``adamm_events``, its event scores without the episode blend;
    and the baselines of :mod:`langgraph_adamm.evaluation.baselines`: ``flat``
    (one vector per round), ``langgraph_store`` (LangGraph's InMemoryStore),
    ``bm25`` (lexical) and ``hybrid`` (reciprocal-rank fusion of bm25 and flat).

    With ``rerank="forest"`` the memories also index single turns (GraphMemix's
    granularity; event scores do not change) and two methods are added:
    ``adamm_memories``, the rounds of the top-K memories by multi-view score
    (the forest's source ranking, no forest), and ``adamm+forest``, the
    evidence forest's selected memories mapped to their rounds. With
    no ``model`` it is the offline fixed-edge variant. ``result["forest"]`` then
    holds its diagnostics: solver time per question, memories and edges
    selected, and the share of gold evidence rounds that are Direct (in the
    rounds of the top-K retrieved memories), Recoverable (not Direct but in the
    candidate pool) or No access (GraphMemix Table 4).
    """
    files = sorted(Path(directory).glob("*.json"))
    if not files:
        raise HistoryFormatError(f"{directory}: no Mem-Gallery scenario files (*.json)")
    return score_conversations(
        _conversations(files),
        k=k,
        encoder=encoder,
        methods=methods,
        log=log,
        rerank=rerank,
        model=model,
        config=config,
    )
