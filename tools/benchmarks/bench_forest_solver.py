"""Solve time of the GraphMemix evidence-forest solver on realistic instances.

Times ``solve_forest`` (both stages: 1-swap proposal with K = 10 and the exact
refinement over the proposal's 1023 subsets) per question, on two instance
kinds of M = 48 candidates each, generated from ``--seed``:

* ``ecv``: the first 10 candidates are anchors; each other candidate has, with
  probability 1/2, one edge to a random anchor with reliability 0.99 * inc / 5,
  inc uniform in 1..5.
* ``fixed-edge``: candidates are memories (user turn, assistant turn, sometimes
  an image) sampled from a multi-session history; explicit relations join the
  memories of one round (``same_round``) and memories that are adjacent among
  one session's candidates (``consecutive_turn`` chains), all with reliability
  0.99 (about 45-55 distinct pairs; a pair can carry both relations).

Utilities are u = sigmoid(4.054056 * s - 3.711336) with retrieval scores s
uniform in (0.2, 0.7); candidates come in retrieval order (the first 24, the
seeds, by descending score, the rest as expansion neighbours in random order). Instance
generation is not timed. Prints the median and p95 solve time in milliseconds
for each kind, with the mean number of edges and accepted swaps.

    python tools/benchmarks/bench_forest_solver.py --trials 300 --seed 0
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm.forest.solver import solve_forest  # noqa: E402

Instance = tuple[list[float], list[tuple[int, int, float]]]

SEEDS = 24
"""Candidates that come from retrieval (sorted by score); the rest are neighbours."""


def utility(score: float) -> float:
    """The calibrated utility of a retrieval score."""
    return 1.0 / (1.0 + math.exp(-(4.054056 * score - 3.711336)))


def _retrieval_order(rng: random.Random, scores: list[float]) -> list[int]:
    """Indices of ``scores`` in candidate order: seeds by score, then neighbours."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    seeds, rest = order[:SEEDS], order[SEEDS:]
    rng.shuffle(rest)
    return seeds + rest


def ecv_instance(rng: random.Random, m: int = 48, anchors: int = 10) -> Instance:
    """Anchors first; about half of the others hang on one anchor."""
    scores = [rng.uniform(0.2, 0.7) for _ in range(m)]
    utilities = [utility(scores[i]) for i in _retrieval_order(rng, scores)]
    edges: list[tuple[int, int, float]] = []
    for i in range(anchors, m):
        if rng.random() < 0.5:
            inc = rng.randint(1, 5)
            edges.append((rng.randrange(anchors), i, 0.99 * inc / 5))
    return utilities, edges


def fixed_edge_instance(rng: random.Random, m: int = 48) -> Instance:
    """Memories sampled from a history; same-round and consecutive-turn edges."""
    history: list[tuple[int, int, int]] = []  # (session, round, position)
    size = m + rng.randint(4, 16)  # retrieval and expansion skip a few memories
    session = 0
    while len(history) < size:
        position = 0
        for round_no in range(rng.randint(5, 10)):
            for _ in range(2 + (rng.random() < 0.25)):  # user, assistant, image?
                history.append((session, round_no, position))
                position += 1
        session += 1
    memories = sorted(rng.sample(history, m))
    scores = [rng.uniform(0.2, 0.7) for _ in memories]
    order = _retrieval_order(rng, scores)
    index = {old: new for new, old in enumerate(order)}
    edges: list[tuple[int, int, float]] = []
    for a in range(len(memories)):
        for b in range(a + 1, len(memories)):
            if memories[a][0] != memories[b][0]:
                break  # memories are sorted: the session is over
            if memories[a][1] == memories[b][1]:
                edges.append((index[a], index[b], 0.99))  # same_round
            if b == a + 1:
                edges.append((index[a], index[b], 0.99))  # consecutive_turn
    return [utility(scores[i]) for i in order], edges


KINDS = {"ecv": ecv_instance, "fixed-edge": fixed_edge_instance}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=300, help="instances per kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()

    for name, make in KINDS.items():
        rng = random.Random(f"{name}:{args.seed}")
        instances = [make(rng) for _ in range(args.trials)]
        solve_forest(*instances[0], k=args.k)  # warm-up
        times: list[float] = []
        swaps: list[int] = []
        for utilities, edges in instances:
            t0 = time.perf_counter()
            solution = solve_forest(utilities, edges, k=args.k)
            times.append((time.perf_counter() - t0) * 1000)
            swaps.append(solution.swaps)
        pairs = statistics.mean(
            len({(min(i, j), max(i, j)) for i, j, _ in e}) for _, e in instances
        )
        print(
            f"{name:>10}: median {statistics.median(times):.2f} ms, "
            f"p95 {percentile(times, 95):.2f} ms  "
            f"({args.trials} instances, M={len(instances[0][0])}, K={args.k}, "
            f"mean {pairs:.1f} edges, mean {statistics.mean(swaps):.2f} swaps)"
        )


if __name__ == "__main__":
    main()
