"""Offline latency of Memory.ask, single-step and multi-step plans apart.

Each question of a questions file is asked ``--repeat`` times against one
ingested memory (warm: one Memory, the first pass discarded); a question's time
is the median of its passes. Questions are grouped by how many steps their
plan ran (1: one tool call; 2+: composed plans, the combine step included).

    python tools/benchmarks/bench_compose.py --db /tmp/h.duckdb --user heldout \\
        --questions tools/datasets/heldout/questions.jsonl --repeat 3 [--json]

Run it under another checkout (``PYTHONPATH=/path/to/old``) to time the same
questions on older code, ideally interleaved with this one's runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.history import read_questions  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--questions", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    questions = read_questions(args.questions)
    groups: dict[str, list[float]] = {"single": [], "multi": []}
    with Memory(args.db, user_id=args.user) as mem:
        for q in questions:  # warm-up pass: encoders, caches, graph
            mem.ask(q.question, question_time=q.question_time)
        for q in questions:
            times = []
            steps = 0
            for _ in range(args.repeat):
                start = time.perf_counter()
                out = mem.ask(q.question, question_time=q.question_time)
                times.append((time.perf_counter() - start) * 1000)
                steps = len(out.get("steps") or [])
            groups["single" if steps <= 1 else "multi"].append(statistics.median(times))
    report = {
        name: {
            "questions": len(ms),
            "median_ms": round(statistics.median(ms), 1) if ms else None,
            "p95_ms": round(percentile(ms, 0.95), 1) if ms else None,
        }
        for name, ms in groups.items()
    }
    if args.json:
        print(json.dumps(report))
    else:
        for name, r in report.items():
            print(
                f"{name:6s} {r['questions']:3d} questions  median {r['median_ms']} ms"
                f"  p95 {r['p95_ms']} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
