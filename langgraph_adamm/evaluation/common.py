"""What every benchmark's retrieval evaluation shares: the loop, metrics and table.

A benchmark module reads its files into conversations (a history and the
questions to score on it); :func:`score_conversations` ingests each into its own
memory, runs every method on every question and averages Precision@K, Recall@K
and Hit@K overall and per question type. The definitions are Mem-Gallery's
(Bei et al., 2026): the top-K retrieved round ids, deduplicated; Precision@K =
hits / number returned, Recall@K = hits / number of gold rounds, Hit@K = 1 if
any hit.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph_adamm.evaluation.baselines import (
    BM25Retriever,
    FlatRetriever,
    HybridRetriever,
    LangGraphStoreRetriever,
    Retriever,
)
from langgraph_adamm.history import History, Question
from langgraph_adamm.retrieval.encoders import TextEncoder

if TYPE_CHECKING:
    from langgraph_adamm.config import AdaMMConfig
    from langgraph_adamm.memory import Memory

METHODS = ("adamm", "adamm_events", "flat", "langgraph_store", "bm25", "hybrid")
"""Every method an evaluation knows, and the default list, in table order."""

FOREST_METHODS = ("adamm_memories", "adamm+forest")
"""The methods ``rerank="forest"`` adds."""

Conversation = tuple[str, History, Sequence[Question]]
"""A name for progress lines, a history and the questions to score on it."""


def retrieval_metrics(
    retrieved: Sequence[str], clues: Iterable[str], k: int
) -> dict[str, float]:
    """Precision@K, Recall@K and Hit@K of one question, as Mem-Gallery defines them."""
    top: list[str] = []
    for x in list(retrieved)[:k]:
        if x not in top:
            top.append(x)
    gold = set(clues)
    hits = sum(1 for x in top if x in gold)
    return {
        "precision": hits / max(1, len(top)),
        "recall": hits / len(gold) if gold else 0.0,
        "hit": 1.0 if hits else 0.0,
    }


def query_text(q: Question) -> str:
    """The question, with the caption of its image when it has one."""
    caption = q.extra.get("question_image_caption")
    return f"{q.question} [image: {caption}]" if caption else q.question


def write_questions(path: Path, questions: Iterable[Question]) -> None:
    """Questions as JSON Lines in the shared format, their extras kept."""
    path.write_text(
        "".join(
            json.dumps(
                {
                    "question_id": q.question_id,
                    "question": q.question,
                    "answer": q.answer,
                    "type": q.type,
                    "evidence": list(q.evidence),
                    **q.extra,
                }
            )
            + "\n"
            for q in questions
        ),
        encoding="utf-8",
    )


def build_retrievers(
    memory: Memory, history: History, encoder: TextEncoder, methods: Sequence[str]
) -> dict[str, Retriever]:
    """One retriever per method over one ingested history (``hybrid`` reuses flat)."""
    _check_methods(methods)
    made: dict[str, Retriever] = {}

    def get(name: str) -> Retriever:
        if name not in made:
            made[name] = make(name)
        return made[name]

    def make(name: str) -> Retriever:
        assert memory.retrieval is not None
        if name == "adamm":
            return memory.retrieval.retrieve_rounds
        if name == "adamm_events":
            return partial(memory.retrieval.retrieve_rounds, hierarchical=False)
        if name == "flat":
            return FlatRetriever(history, encoder)
        if name == "langgraph_store":
            return LangGraphStoreRetriever(history, encoder)
        if name == "bm25":
            return BM25Retriever(history)
        return HybridRetriever(get("flat"), get("bm25"))

    return {name: get(name) for name in methods}


def answerable(
    questions: Iterable[Question], excluded: frozenset[str]
) -> list[Question]:
    """The questions retrieval is scored on: of no excluded type, with evidence."""
    return [q for q in questions if q.type not in excluded and q.evidence]


def _check_methods(methods: Sequence[str]) -> None:
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown method {unknown[0]!r} (known: {', '.join(METHODS)})")


def score_conversations(
    conversations: Iterable[Conversation],
    *,
    k: int,
    encoder: TextEncoder,
    methods: Sequence[str] = METHODS,
    log: Callable[[str], None] | None = None,
    rerank: str | None = None,
    model: Any = None,
    config: AdaMMConfig | None = None,
) -> dict[str, Any]:
    """Ingest each history into its own memory and score every method on it.

    Returns ``{"k": K, "questions": N, "methods": {NAME: {"overall": {...},
    "by_type": {TYPE: {...}}}}}`` (and ``"forest"`` with ``rerank="forest"``);
    see :func:`langgraph_adamm.evaluation.mem_gallery.evaluate`.
    """
    from langgraph_adamm.config import AdaMMConfig, ForestConfig
    from langgraph_adamm.memory import Memory

    if rerank not in (None, "forest"):
        raise ValueError(f"unknown rerank {rerank!r} (known: forest)")
    _check_methods(methods)
    all_methods = list(methods) + (list(FOREST_METHODS) if rerank else [])
    per: dict[str, dict[str, list[dict[str, float]]]] = {
        m: defaultdict(list) for m in all_methods
    }
    forest = _ForestStats() if rerank else None
    config = config or AdaMMConfig()
    if rerank:
        config = replace(config, turn_views=True, forest=ForestConfig(offline=True))
    total = 0
    for name, history, questions in conversations:
        with Memory(
            ":memory:",
            user_id=history.user_id,
            text_encoder=encoder,
            visual_encoder=None,
            config=config,
        ) as memory:
            memory.ingest(history)
            retrievers = build_retrievers(memory, history, encoder, methods)
            reranker = None
            if forest is not None:
                from langgraph_adamm.forest import ForestReranker

                reranker = ForestReranker(memory, model=model)
                forest.stats["memories"].append(len(reranker.catalogue))
            for q in questions:
                text = query_text(q)
                qtype = q.type or "?"
                for method, retrieve in retrievers.items():
                    m = retrieval_metrics(retrieve(text, k), q.evidence, k)
                    per[method][qtype].append(m)
                if reranker is not None and forest is not None:
                    for method, m in forest.score(reranker, q, text, k).items():
                        per[method][qtype].append(m)
            total += len(questions)
            if log:
                log(f"{name}: {history.round_count} rounds, {len(questions)} scored")
    out: dict[str, Any] = {"k": k, "questions": total, "methods": {}}
    for method, by_type in per.items():
        everything = [m for ms in by_type.values() for m in ms]
        out["methods"][method] = {
            "overall": _averages(everything),
            "by_type": {
                t: _averages(ms) | {"n": len(ms)} for t, ms in sorted(by_type.items())
            },
        }
    if forest is not None:
        out["forest"] = forest_summary(forest.stats, forest.access)
    return out


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def _averages(metrics: list[dict[str, float]]) -> dict[str, float]:
    return {
        key: _mean([m[key] for m in metrics]) for key in ("precision", "recall", "hit")
    }


class _ForestStats:
    """The forest's per-question diagnostics, gathered across conversations."""

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = defaultdict(list)
        self.access = {"direct": 0, "recoverable": 0, "no_access": 0}

    def score(
        self, reranker: Any, q: Question, text: str, k: int
    ) -> dict[str, dict[str, float]]:
        """Rerank one question; the metrics of the two forest methods."""
        caption = q.extra.get("question_image_caption")
        result = reranker.rerank(
            text,
            question_type=q.type,
            question_image_captions=[caption] if caption else [],
        )
        got = result.round_ids()
        stats = self.stats
        stats["solver_ms"].append(result.solver_ms)
        stats["selected"].append(len(result.selected))
        stats["rounds"].append(len(got))
        stats["edges"].append(len(result.edges))
        stats["candidates"].append(result.candidates)
        stats["mode:" + result.mode].append(1)
        direct = set(source_rounds(result, k))
        stats["source_rounds"].append(len(direct))
        pool = set(result.pool_round_ids)
        for gold in set(q.evidence):
            if gold in direct:
                self.access["direct"] += 1
            elif gold in pool:
                self.access["recoverable"] += 1
            else:
                self.access["no_access"] += 1
        return {
            "adamm_memories": retrieval_metrics(
                source_rounds(result, k), q.evidence, k
            ),
            "adamm+forest": retrieval_metrics(got, q.evidence, k),
        }


def source_rounds(result: Any, k: int) -> list[str]:
    """Rounds of the top-k memories of the forest's retrieval ranking."""
    return list(dict.fromkeys(result.retrieval_rounds[:k]))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def forest_summary(
    stats: dict[str, list[float]], access: dict[str, int]
) -> dict[str, Any]:
    """Solver time, selection sizes and evidence access of the forest runs."""
    gold = sum(access.values())
    return {
        "modes": {
            key.partition(":")[2]: len(v)
            for key, v in stats.items()
            if key.startswith("mode:")
        },
        "solver_ms": {
            "median": statistics.median(stats["solver_ms"])
            if stats["solver_ms"]
            else 0.0,
            "p95": _percentile(stats["solver_ms"], 0.95),
        },
        "memories": int(sum(stats["memories"])),
        "mean_selected_memories": _mean(stats["selected"]),
        "mean_selected_rounds": _mean(stats["rounds"]),
        "mean_source_rounds": _mean(stats["source_rounds"]),
        "mean_edges": _mean(stats["edges"]),
        "mean_candidates": _mean(stats["candidates"]),
        "evidence_access": {
            "gold_rounds": gold,
            **{key: (n / gold if gold else 0.0) for key, n in access.items()},
        },
    }


def format_table(result: dict[str, Any]) -> str:
    """A Markdown table: one row per method and question type."""
    k = result["k"]
    methods = result["methods"]
    types = sorted({t for m in methods.values() for t in m["by_type"]})
    lines = [
        f"| method | type | n | P@{k} | R@{k} | Hit@{k} |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, m in methods.items():
        for t in types:
            s = m["by_type"].get(t)
            if s:
                lines.append(
                    f"| {name} | {t} | {s['n']} | {s['precision']:.3f} | "
                    f"{s['recall']:.3f} | {s['hit']:.3f} |"
                )
        o = m["overall"]
        lines.append(
            f"| **{name}** | **overall** | {result['questions']} | "
            f"**{o['precision']:.3f}** | **{o['recall']:.3f}** | **{o['hit']:.3f}** |"
        )
    return "\n".join(lines)


def stderr_log(message: str) -> None:
    """Progress lines for the command line."""
    print(message, file=sys.stderr, flush=True)
