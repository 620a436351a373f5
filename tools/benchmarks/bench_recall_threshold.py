"""Where the middleware's ``auto`` recall should cut: top memory score vs evidence.

Recall in ``auto`` mode (no exact answer) shows the memories whose SemanticMatch
event score is at least ``min_score``. For every question of a dev split, the
top event's score, and whether it is a gold evidence round; questions without
evidence (Mem-Gallery's answer-refusal questions, whose answer the memory does
not hold) count as ones where nothing should be shown. For each threshold:

- shown: the share of questions with evidence whose top memory is shown;
- right: of those shown, the share whose top memory is gold evidence;
- refusals shown: the share of no-evidence questions that still get memories.

Chosen on Mem-Gallery dev (``--split mem-gallery``); LoCoMo dev
(``--split locomo``, no refusal questions there) is the check on other data.

    python tools/benchmarks/bench_recall_threshold.py --split mem-gallery
    python tools/benchmarks/bench_recall_threshold.py --split locomo
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.evaluation.common import query_text  # noqa: E402
from langgraph_adamm.evaluation.locomo import _load_all  # noqa: E402
from langgraph_adamm.evaluation.mem_gallery import load_scenario  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402

SHARED = Path(__file__).resolve().parents[3] / "shared" / "benchmarks"
THRESHOLDS = (0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("mem-gallery", "locomo"), required=True)
    args = parser.parse_args()
    if args.split == "mem-gallery":
        files = sorted((SHARED / "mem-gallery" / "dev").glob("*.json"))
        conversations = [load_scenario(f) for f in files]
    else:
        conversations = _load_all(SHARED / "locomo" / "dev" / "locomo-dev.json")
    encoder = SentenceTransformerEncoder()
    gold: list[tuple[float, bool]] = []
    refusals: list[float] = []
    for history, questions in conversations:
        with Memory(
            ":memory:",
            user_id=history.user_id,
            text_encoder=encoder,
            visual_encoder=None,
        ) as memory:
            memory.ingest(history)
            for q in questions:
                top = memory.semantic_match(query_text(q), "event", 1)
                if not top:
                    continue
                if q.evidence:
                    gold.append(
                        (top[0].score, bool(set(top[0].round_ids) & set(q.evidence)))
                    )
                else:
                    refusals.append(top[0].score)
        print(f"{history.user_id}: {len(questions)} questions", flush=True)
    print(
        f"\n{args.split}: {len(gold)} questions with evidence (top memory gold in "
        f"{sum(g for _, g in gold)}), {len(refusals)} without"
    )
    print(f"{'min_score':>10}{'shown':>8}{'right':>8}{'refusals shown':>16}")
    for t in THRESHOLDS:
        shown = [g for s, g in gold if s >= t]
        right = sum(shown) / len(shown) if shown else 0.0
        refused = (
            f"{sum(s >= t for s in refusals) / len(refusals):.2f}" if refusals else "-"
        )
        print(f"{t:>10.2f}{len(shown) / len(gold):>8.2f}{right:>8.2f}{refused:>16}")


if __name__ == "__main__":
    main()
