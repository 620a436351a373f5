"""LoCoMo: conversion to the shared format and retrieval evaluation.

LoCoMo (Maharana et al., ACL 2024) holds very long two-person conversations,
dozens of dated sessions each, some turns sharing a photo (its BLIP caption is
given), and questions whose ``evidence`` lists the gold turns by ``dia_id``
("D3:12"). Each turn becomes one round whose id is its ``dia_id``, so evidence
matches retrieved round ids directly; the turn is written "<speaker>: <text>"
in the round's ``user`` field, since many questions ask about a speaker by name.

Retrieval is scored as for Mem-Gallery (:mod:`langgraph_adamm.evaluation.common`).
Adversarial questions (category 5: unanswerable, their evidence is no answer)
and questions left with no valid evidence id are not scored; evidence entries
holding several ids ("D8:6; D9:17") are split, and ids that are malformed or
name no turn are dropped and counted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dateutil import parser as date_parser

from langgraph_adamm.errors import HistoryFormatError
from langgraph_adamm.evaluation.common import (
    METHODS,
    Conversation,
    answerable,
    score_conversations,
    write_questions,
)
from langgraph_adamm.history import History, Question, history_from_dict
from langgraph_adamm.retrieval.encoders import TextEncoder

if TYPE_CHECKING:
    from langgraph_adamm.config import AdaMMConfig

CATEGORIES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
"""LoCoMo's question categories, as its README numbers them."""

EXCLUDED_TYPES = frozenset({"adversarial"})

_SESSION = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D\d+:\d+")
_DATE_TIME = re.compile(
    r"\s*\d{1,2}:\d{2}\s*[ap]\.?m\.?\s+on\s+\d{1,2}\s+[A-Za-z]+,?\s+\d{4}\s*",
    re.IGNORECASE,
)
_EVIDENCE_SPLIT = re.compile(r"[;,]")


def parse_date_time(text: Any) -> datetime | None:
    """A session time as LoCoMo writes it ("1:56 pm on 8 May, 2023"), or None."""
    if not isinstance(text, str) or not _DATE_TIME.fullmatch(text):
        return None
    try:
        return date_parser.parse(text)
    except (ValueError, OverflowError):
        return None


def normalise_evidence(
    entries: Any, known: set[str]
) -> tuple[tuple[str, ...], list[str], list[str]]:
    """Gold turn ids from an ``evidence`` list: (valid, malformed, unknown).

    Entries joined by ";" or "," are split; an id is valid when it has the
    form ``D<session>:<turn>`` and names a turn of the conversation. Valid ids
    keep their first order, once each.
    """
    valid: list[str] = []
    malformed: list[str] = []
    unknown: list[str] = []
    items = entries if isinstance(entries, list) else [entries]
    for entry in items:
        for part in _EVIDENCE_SPLIT.split(str(entry)):
            dia_id = part.strip()
            if not _DIA_ID.fullmatch(dia_id):
                malformed.append(dia_id)
            elif dia_id not in known:
                unknown.append(dia_id)
            elif dia_id not in valid:
                valid.append(dia_id)
    return tuple(valid), malformed, unknown


def _sessions(conversation: dict[str, Any]) -> list[tuple[int, list[Any]]]:
    found = []
    for key, turns in conversation.items():
        match = _SESSION.fullmatch(key)
        if match and isinstance(turns, list):
            found.append((int(match.group(1)), turns))
    return sorted(found, key=lambda s: s[0])


def conversation_to_document(item: dict[str, Any]) -> dict[str, Any]:
    """One LoCoMo conversation as a history document in the shared format.

    Sessions whose date-time does not parse get no date and their rounds no
    time (they sort by order alone); the raw text is kept in each round's
    metadata as ``session_date_time``.
    """
    conversation = item["conversation"]
    sessions = []
    for n, turns in _sessions(conversation):
        raw_time = conversation.get(f"session_{n}_date_time")
        when = parse_date_time(raw_time)
        session: dict[str, Any] = {"session_id": f"session_{n}"}
        if when is not None:
            session["date"] = when.date().isoformat()
        session["rounds"] = [_round(turn, when, raw_time) for turn in turns]
        sessions.append(session)
    return {"user_id": str(item["sample_id"]), "sessions": sessions}


def _round(
    turn: dict[str, Any], when: datetime | None, raw_time: Any
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"speaker": turn["speaker"]}
    if turn.get("img_url"):
        metadata["img_url"] = turn["img_url"]
    if turn.get("query"):
        metadata["image_query"] = turn["query"]
    if when is None and raw_time is not None:
        metadata["session_date_time"] = raw_time
    rnd: dict[str, Any] = {"round_id": turn["dia_id"]}
    if when is not None:
        rnd["time"] = when.isoformat()
    rnd["user"] = f"{turn['speaker']}: {turn.get('text') or ''}"
    if turn.get("blip_caption"):
        rnd["images"] = [{"caption": turn["blip_caption"]}]
    rnd["metadata"] = metadata
    return rnd


def load_conversation(item: dict[str, Any]) -> tuple[History, list[Question]]:
    """A LoCoMo item as a history and its questions.

    Each question's ``extra`` keeps its ``category`` number and, where there
    were any, the ``evidence_malformed`` and ``evidence_unknown`` ids dropped
    from its evidence, and its ``adversarial_answer``.

    Raises:
        HistoryFormatError: naming the item when it is not LoCoMo-shaped.
    """
    name = item.get("sample_id", "?") if isinstance(item, dict) else "?"
    try:
        doc = conversation_to_document(item)
        history = history_from_dict(doc)
        qas = item["qa"]
        known = {r.round_id for r in history.rounds()}
        questions = [
            _question(f"{doc['user_id']}:{i + 1}", q, known) for i, q in enumerate(qas)
        ]
    except (KeyError, TypeError, AttributeError) as exc:
        raise HistoryFormatError(
            f"conversation {name}: not a LoCoMo item: missing or wrong {exc}"
        ) from exc
    except HistoryFormatError as exc:
        raise HistoryFormatError(f"conversation {name}: {exc}") from exc
    return history, questions


def _question(question_id: str, raw: dict[str, Any], known: set[str]) -> Question:
    category = raw.get("category")
    evidence, malformed, unknown = normalise_evidence(raw.get("evidence") or [], known)
    extra: dict[str, Any] = {"category": category}
    if malformed:
        extra["evidence_malformed"] = malformed
    if unknown:
        extra["evidence_unknown"] = unknown
    if raw.get("adversarial_answer") is not None:
        extra["adversarial_answer"] = str(raw["adversarial_answer"])
    answer = raw.get("answer")
    return Question(
        question_id=question_id,
        question=str(raw["question"]),
        answer=None if answer is None else str(answer),
        type=CATEGORIES.get(category) if isinstance(category, int) else None,
        evidence=evidence,
        extra=extra,
    )


def read_items(path: str | Path) -> list[dict[str, Any]]:
    """The conversations of a LoCoMo file (``locomo10.json`` or a part of it).

    Raises:
        HistoryFormatError: naming the file when it is missing, not JSON, or not
            a list of items with ``sample_id``, ``conversation`` and ``qa``.
    """
    file = Path(path)
    expected = (
        "expected a JSON list of LoCoMo conversations, each an object with "
        "'sample_id', 'conversation' and 'qa'"
    )
    if file.is_dir():
        raise HistoryFormatError(f"{path}: a folder; expected the LoCoMo data file")
    if not file.is_file():
        raise HistoryFormatError(f"{path}: no such file")
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise HistoryFormatError(f"{file}: unreadable: {exc}") from exc
    except ValueError as exc:
        raise HistoryFormatError(f"{file}: not JSON ({exc}); {expected}") from exc
    if not isinstance(raw, list) or not raw:
        raise HistoryFormatError(f"{file}: {expected}")
    for i, item in enumerate(raw):
        if not (
            isinstance(item, dict)
            and isinstance(item.get("conversation"), dict)
            and isinstance(item.get("qa"), list)
            and item.get("sample_id")
        ):
            raise HistoryFormatError(f"{file}: item [{i}]: {expected}")
    return raw


def _load_all(path: str | Path) -> list[tuple[History, list[Question]]]:
    file = Path(path)
    loaded = []
    for item in read_items(file):
        try:
            loaded.append(load_conversation(item))
        except HistoryFormatError as exc:
            raise HistoryFormatError(f"{file}: {exc}") from exc
    return loaded


def convert(src: str | Path, out: str | Path) -> list[Path]:
    """Write each conversation as ``<sample_id>.history.json`` and ``.questions.jsonl``.

    The histories are written as :func:`conversation_to_document` makes them,
    after they have been read back once, so a written file always loads.
    """
    loaded = _load_all(src)
    items = read_items(src)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for item, (history, questions) in zip(items, loaded, strict=True):
        hist = out_dir / f"{history.user_id}.history.json"
        doc = conversation_to_document(item)
        hist.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        qs = out_dir / f"{history.user_id}.questions.jsonl"
        write_questions(qs, questions)
        written += [hist, qs]
    return written


def problems(
    conversations: Sequence[tuple[History, Sequence[Question]]],
) -> dict[str, Any]:
    """What the evaluation leaves out or drops, counted.

    ``evidence_problems`` lists each dropped id as ``"<question_id>: <id>"``;
    ``excluded`` counts the questions not scored; ``undated_sessions`` the
    sessions whose date-time did not parse.
    """
    malformed: list[str] = []
    unknown: list[str] = []
    excluded = {"adversarial": 0, "no_valid_evidence": 0}
    undated = 0
    for history, questions in conversations:
        undated += sum(1 for s in history.sessions if s.date is None)
        for q in questions:
            for x in q.extra.get("evidence_malformed", []):
                malformed.append(f"{q.question_id}: {x!r}")
            for x in q.extra.get("evidence_unknown", []):
                unknown.append(f"{q.question_id}: {x!r}")
            if q.type in EXCLUDED_TYPES:
                excluded["adversarial"] += 1
            elif not q.evidence:
                excluded["no_valid_evidence"] += 1
    return {
        "evidence_problems": {
            "malformed": len(malformed),
            "unknown": len(unknown),
            "ids": malformed + unknown,
        },
        "excluded": excluded,
        "undated_sessions": undated,
    }


def scored(questions: Sequence[Question]) -> list[Question]:
    """The questions retrieval is scored on: answerable, with valid evidence."""
    return answerable(questions, EXCLUDED_TYPES)


def evaluate(
    path: str | Path,
    *,
    k: int = 10,
    encoder: TextEncoder,
    methods: Sequence[str] = METHODS,
    log: Callable[[str], None] | None = None,
    rerank: str | None = None,
    model: Any = None,
    config: AdaMMConfig | None = None,
) -> dict[str, Any]:
    """Ingest each conversation into its own memory and score every method.

    The result has the shape of
    :func:`langgraph_adamm.evaluation.mem_gallery.evaluate` (question types are
    the category names; adversarial questions are not scored), and adds what
    :func:`problems` counts: ``evidence_problems``, ``excluded`` and
    ``undated_sessions``.
    """
    loaded = _load_all(path)
    conversations: list[Conversation] = [
        (history.user_id, history, scored(questions)) for history, questions in loaded
    ]
    result = score_conversations(
        conversations,
        k=k,
        encoder=encoder,
        methods=methods,
        log=log,
        rerank=rerank,
        model=model,
        config=config,
    )
    return result | problems(loaded)


def format_notes(result: dict[str, Any]) -> str:
    """The table's footnote: what was left out and why."""
    ev = result.get("evidence_problems", {})
    ex = result.get("excluded", {})
    lines = [
        f"Not scored: {ex.get('adversarial', 0)} adversarial questions, "
        f"{ex.get('no_valid_evidence', 0)} with no valid evidence id.",
        f"Evidence ids dropped: {ev.get('malformed', 0)} malformed, "
        f"{ev.get('unknown', 0)} naming no turn"
        + (f" ({'; '.join(ev['ids'])})" if ev.get("ids") else "")
        + ".",
    ]
    if result.get("undated_sessions"):
        lines.append(
            f"Sessions without a parsable date-time: {result['undated_sessions']}."
        )
    return "\n".join(lines)
