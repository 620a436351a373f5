"""Mem-Gallery: conversion to the shared format and retrieval evaluation.

Mem-Gallery (Bei et al., 2026) scenario files hold multi-session dialogues with
images (captions here; the image files are not distributed with the dev split)
and human-annotated questions whose ``clue`` lists the gold evidence rounds.
Retrieval is scored with the benchmark's own definitions: the top-K retrieved
round ids, deduplicated; Precision@K = hits / number returned, Recall@K = hits /
number of clue rounds, Hit@K = 1 if any hit; averaged over questions. Answer
refusal (AR) questions have no clues and are left out.
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

from langgraph_adamm.errors import HistoryFormatError
from langgraph_adamm.history import History, Question, history_from_dict
from langgraph_adamm.retrieval.encoders import TextEncoder
from langgraph_adamm.retrieval.store import round_text

if TYPE_CHECKING:
    from langgraph_adamm.config import AdaMMConfig

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
        qs.write_text(
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
        written += [hist, qs]
    return written


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


Retriever = Callable[[str, int], list[str]]


class FlatRetriever:
    """The flat baseline (MM-RAG): one vector per round, top-K by cosine."""

    def __init__(self, history: History, encoder: TextEncoder) -> None:
        self.ids = [r.round_id for r in history.rounds()]
        self.encoder = encoder
        self.matrix = encoder.encode([round_text(r) for r in history.rounds()])

    def __call__(self, query: str, k: int) -> list[str]:
        """The top-k round ids."""
        scores = self.matrix @ self.encoder.encode([query])[0]
        order = sorted(range(len(self.ids)), key=lambda i: (-float(scores[i]), i))[:k]
        return [self.ids[i] for i in order]


class LangGraphStoreRetriever:
    """LangGraph's own InMemoryStore with an embedding index over the round texts."""

    def __init__(self, history: History, encoder: TextEncoder) -> None:
        from langgraph.store.memory import InMemoryStore

        def embed(texts: Sequence[str]) -> list[list[float]]:
            return encoder.encode(list(texts)).tolist()

        self.store = InMemoryStore(
            index={"dims": encoder.dim, "embed": embed, "fields": ["text"]}
        )
        from langgraph.store.base import PutOp

        self.store.batch(
            [
                PutOp(("rounds",), r.round_id, {"text": round_text(r)})
                for r in history.rounds()
            ]
        )

    def __call__(self, query: str, k: int) -> list[str]:
        """The top-k round ids."""
        return [
            item.key for item in self.store.search(("rounds",), query=query, limit=k)
        ]


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def evaluate(
    directory: str | Path,
    *,
    k: int = 10,
    encoder: TextEncoder,
    methods: Sequence[str] = ("adamm", "adamm_events", "flat", "langgraph_store"),
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
    from langgraph_adamm.config import AdaMMConfig, ForestConfig
    from langgraph_adamm.memory import Memory

    if rerank not in (None, "forest"):
        raise ValueError(f"unknown rerank {rerank!r} (known: forest)")
    files = sorted(Path(directory).glob("*.json"))
    if not files:
        raise HistoryFormatError(f"{directory}: no Mem-Gallery scenario files (*.json)")
    all_methods = list(methods) + (["adamm_memories", "adamm+forest"] if rerank else [])
    per: dict[str, dict[str, list[dict[str, float]]]] = {
        m: defaultdict(list) for m in all_methods
    }
    forest_stats: dict[str, list[float]] = defaultdict(list)
    access: dict[str, int] = {"direct": 0, "recoverable": 0, "no_access": 0}
    config = config or AdaMMConfig()
    if rerank:
        config = replace(config, turn_views=True, forest=ForestConfig(offline=True))
    total = 0
    for file in files:
        history, questions = load_scenario(file)
        with Memory(
            ":memory:",
            user_id=history.user_id,
            text_encoder=encoder,
            visual_encoder=None,
            config=config,
        ) as memory:
            memory.ingest(history)
            assert memory.retrieval is not None
            retrievers: dict[str, Retriever] = {}
            for name in methods:
                if name == "adamm":
                    retrievers[name] = memory.retrieval.retrieve_rounds
                elif name == "adamm_events":
                    retrievers[name] = partial(
                        memory.retrieval.retrieve_rounds, hierarchical=False
                    )
                elif name == "flat":
                    retrievers[name] = FlatRetriever(history, encoder)
                elif name == "langgraph_store":
                    retrievers[name] = LangGraphStoreRetriever(history, encoder)
                else:
                    raise ValueError(f"unknown method {name!r}")
            scored = [
                q for q in questions if q.type not in EXCLUDED_TYPES and q.evidence
            ]
            reranker = None
            if rerank:
                from langgraph_adamm.forest import ForestReranker

                reranker = ForestReranker(memory, model=model)
                forest_stats["memories"].append(len(reranker.catalogue))
            for q in scored:
                text = query_text(q)
                for name, retrieve in retrievers.items():
                    m = retrieval_metrics(retrieve(text, k), q.evidence, k)
                    per[name][q.type or "?"].append(m)
                if reranker is not None:
                    caption = q.extra.get("question_image_caption")
                    result = reranker.rerank(
                        text,
                        question_type=q.type,
                        question_image_captions=[caption] if caption else [],
                    )
                    got = result.round_ids()
                    per["adamm_memories"][q.type or "?"].append(
                        retrieval_metrics(source_rounds(result, k), q.evidence, k)
                    )
                    per["adamm+forest"][q.type or "?"].append(
                        retrieval_metrics(got, q.evidence, k)
                    )
                    forest_stats["solver_ms"].append(result.solver_ms)
                    forest_stats["selected"].append(len(result.selected))
                    forest_stats["rounds"].append(len(got))
                    forest_stats["edges"].append(len(result.edges))
                    forest_stats["candidates"].append(result.candidates)
                    forest_stats["mode:" + result.mode].append(1)
                    direct = set(source_rounds(result, k))
                    forest_stats["source_rounds"].append(len(direct))
                    pool = set(result.pool_round_ids)
                    for gold in set(q.evidence):
                        if gold in direct:
                            access["direct"] += 1
                        elif gold in pool:
                            access["recoverable"] += 1
                        else:
                            access["no_access"] += 1
            total += len(scored)
            if log:
                log(f"{file.stem}: {history.round_count} rounds, {len(scored)} scored")
    out: dict[str, Any] = {"k": k, "questions": total, "methods": {}}
    for name, by_type in per.items():
        everything = [m for ms in by_type.values() for m in ms]
        out["methods"][name] = {
            "overall": {
                key: _mean([m[key] for m in everything])
                for key in ("precision", "recall", "hit")
            },
            "by_type": {
                t: {
                    key: _mean([m[key] for m in ms])
                    for key in ("precision", "recall", "hit")
                }
                | {"n": len(ms)}
                for t, ms in sorted(by_type.items())
            },
        }
    if rerank:
        out["forest"] = forest_summary(forest_stats, access)
    return out


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
