"""AdaMMStore's search on real conversations, against the memory's own retrieval.

For each Mem-Gallery dev scenario (its rounds' text; image captions stand for
the images), three ways to the top-k rounds of every question with gold
evidence (``clue``), Recall@k and Hit@k against it:

- ``ingest``: the history ingested as it is (sessions, dates), ranked by the
  retrieval memory (``retrieve_rounds``, hierarchical);
- ``store over ingest``: ``AdaMMStore.search`` on that same memory (its plain
  rounds are items keyed by round id): the same ranking through the store;
- ``store puts``: every round put through the store into a fresh memory, as a
  store-based agent (or LangMem's manage tool) would write it: no sessions,
  all at one time, keys = the round ids; then ``search``.

    python tools/benchmarks/bench_store_search.py --k 10 --scenarios 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph.store.base import PutOp  # noqa: E402

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.evaluation.common import (  # noqa: E402
    query_text,
    retrieval_metrics,
)
from langgraph_adamm.evaluation.mem_gallery import load_scenario  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402
from langgraph_adamm.store import AdaMMStore  # noqa: E402

DEV = (
    Path(__file__).resolve().parents[3]
    / "shared"
    / "benchmarks"
    / "mem-gallery"
    / "dev"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, default=DEV)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--scenarios", type=int, default=3)
    args = parser.parse_args()
    encoder = SentenceTransformerEncoder()
    files = sorted(args.dev.glob("*.json"))[: args.scenarios]
    scores: dict[str, list[dict[str, float]]] = {
        "ingest": [],
        "store over ingest": [],
        "store puts": [],
    }
    same = 0
    asked = 0
    for file in files:
        history, questions = load_scenario(file)
        user = history.user_id
        ns = ("memories", user)
        questions = [q for q in questions if q.evidence]
        with Memory(
            ":memory:", user_id=user, text_encoder=encoder, visual_encoder=None
        ) as memory:
            memory.ingest(history)
            store = AdaMMStore(memory)
            for q in questions:
                text = query_text(q)
                direct = memory.retrieval.retrieve_rounds(text, args.k)  # type: ignore[union-attr]
                through = [i.key for i in store.search(ns, query=text, limit=args.k)]
                scores["ingest"].append(retrieval_metrics(direct, q.evidence, args.k))
                scores["store over ingest"].append(
                    retrieval_metrics(through, q.evidence, args.k)
                )
                same += direct == through
                asked += 1
        with Memory(
            ":memory:", user_id=user, text_encoder=encoder, visual_encoder=None
        ) as fresh:
            store = AdaMMStore(fresh)
            start = time.perf_counter()
            ops = []
            for rnd in history.rounds():
                parts = [rnd.user, rnd.assistant]
                parts += [i.caption or "" for i in rnd.images]
                content = "\n".join(p for p in parts if p)
                ops.append(PutOp(ns, rnd.round_id, {"content": content}))
            store.batch(ops)
            put_s = time.perf_counter() - start
            searched = []
            for q in questions:
                start = time.perf_counter()
                hits = store.search(ns, query=query_text(q), limit=args.k)
                searched.append(time.perf_counter() - start)
                scores["store puts"].append(
                    retrieval_metrics([h.key for h in hits], q.evidence, args.k)
                )
        print(
            f"{file.stem}: {len(ops)} rounds put in {put_s:.1f} s, "
            f"{len(questions)} questions, search median "
            f"{1000 * statistics.median(searched):.1f} ms",
            flush=True,
        )
    print(f"\n{len(files)} scenarios, {asked} questions with evidence, k = {args.k}")
    print(f"identical top-{args.k} lists, store over ingest vs ingest: {same}/{asked}")
    for name, rows in scores.items():
        recall = statistics.mean(r["recall"] for r in rows)
        hit = statistics.mean(r["hit"] for r in rows)
        print(f"{name:<20} Recall@{args.k} {recall:.3f}  Hit@{args.k} {hit:.3f}")


if __name__ == "__main__":
    main()
