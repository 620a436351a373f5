"""Lexical fusion on both dev splits: the hierarchy's settings against the baselines.

One run per split (``locomo`` or ``mem-gallery``). Each conversation or scenario
is ingested once into a DuckDB file under ``--work`` (kept between runs: the
second run of a split reads them), and then, side by side on the same
memories and questions, Recall@10 per question type of:

- the baselines of :mod:`langgraph_adamm.evaluation.baselines` (``flat``,
  ``bm25``, ``hybrid``);
- ``retrieve_rounds`` (the hierarchy) under each ``--configs`` setting, each a
  comma-separated list of ``AdaMMConfig`` fields (``default``: the defaults),
  e.g. ``lexical_search=False`` or ``lexical_weight=0.7``. Settings that change
  what is embedded (``label_round_views``) need their own ``--work`` folder.

Questions: as ``adamm eval`` scores them (LoCoMo's adversarial questions and
Mem-Gallery's AR questions are left out, as are questions without evidence).

    python tools/benchmarks/bench_fusion.py locomo --work /tmp/fusion \\
        --configs lexical_search=False default lexical_weight=0.7
    python tools/benchmarks/bench_fusion.py mem-gallery --work /tmp/fusion \\
        --configs lexical_search=False default lexical_weight=0.7
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from langgraph_adamm.evaluation import locomo, mem_gallery  # noqa: E402
from langgraph_adamm.evaluation.baselines import (  # noqa: E402
    BM25Retriever,
    FlatRetriever,
    HybridRetriever,
)
from langgraph_adamm.evaluation.common import query_text, retrieval_metrics  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402

SHARED = ROOT.parent / "shared" / "benchmarks"


def items(split: str) -> list:
    if split == "locomo":
        loaded = locomo._load_all(SHARED / "locomo" / "dev" / "locomo-dev.json")
        return [(h.user_id, h, locomo.scored(qs)) for h, qs in loaded]
    return list(
        mem_gallery._conversations(
            sorted((SHARED / "mem-gallery" / "dev").glob("*.json"))
        )
    )


def config_of(spec: str) -> AdaMMConfig:
    if spec == "default":
        return AdaMMConfig()
    fields = {}
    for pair in spec.split(","):
        key, value = pair.split("=")
        fields[key] = value == "True" if value in ("True", "False") else float(value)
    return replace(AdaMMConfig(), **fields)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("split", choices=["locomo", "mem-gallery"])
    parser.add_argument("--work", required=True, help="folder for the memories")
    parser.add_argument("--configs", nargs="+", default=["default"])
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    encoder = SentenceTransformerEncoder()
    recall: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    started = time.perf_counter()
    for name, history, questions in items(args.split):
        path = work / f"{args.split}-{name}.duckdb"
        if not path.exists():
            with Memory(path, user_id=history.user_id, text_encoder=encoder,
                        visual_encoder=None) as m:  # fmt: skip
                m.ingest(history)
        flat = FlatRetriever(history, encoder)
        bm25 = BM25Retriever(history)
        methods = {"flat": flat, "bm25": bm25, "hybrid": HybridRetriever(flat, bm25)}
        for q in questions:
            for method, retrieve in methods.items():
                got = retrieve(query_text(q), args.k)
                recall[method][q.type or "?"].append(
                    retrieval_metrics(got, q.evidence, args.k)["recall"]
                )
        for spec in args.configs:
            with Memory(path, user_id=history.user_id, text_encoder=encoder,
                        visual_encoder=None, config=config_of(spec)) as m:  # fmt: skip
                assert m.retrieval is not None
                for q in questions:
                    got = m.retrieval.retrieve_rounds(query_text(q), args.k)
                    recall[f"adamm {spec}"][q.type or "?"].append(
                        retrieval_metrics(got, q.evidence, args.k)["recall"]
                    )
        print(f"{name}: {len(questions)} questions", file=sys.stderr)
    types = sorted({t for by in recall.values() for t in by})
    first = next(iter(recall.values()))
    print(f"Recall@{args.k}, {args.split} dev, {time.perf_counter() - started:.0f} s\n")
    print(
        "| method | all | " + " | ".join(f"{t} ({len(first[t])})" for t in types) + " |"
    )
    print("|---|---:|" + "---:|" * len(types))
    for method, by in recall.items():
        every = [x for t in types for x in by[t]]
        cells = " | ".join(f"{statistics.fmean(by[t]):.3f}" for t in types)
        print(f"| {method} | {statistics.fmean(every):.3f} | {cells} |")


if __name__ == "__main__":
    main()
