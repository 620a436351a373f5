"""HNSW recall as rows are deleted (marked dead, never compacted).

Forgetting marks vector rows dead instead of rebuilding the HNSW graph until a
share of them (``VectorIndex.compact_fraction``, 20%) is dead. Dead rows stay in
the graph, so searches still walk through them; this measures whether that
costs recall. Clustered unit vectors (2,000 centres) are indexed, then a
growing random share is deleted; at each step a fixed set of noisy queries is
searched, and recall@10 is measured against exact search over the live rows
(a returned row scoring at least the exact 10th best counts, so ties do not).

    python tools/benchmarks/bench_deleted_rows.py --rows 200000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm.retrieval.index import VectorIndex  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n, d, k = args.rows, args.dim, args.k
    centres = rng.standard_normal((2000, d)).astype(np.float32)
    x = centres[rng.integers(0, 2000, n)]
    x += 0.03 * rng.standard_normal((n, d)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    q = x[rng.choice(n, args.queries, replace=False)]
    q += 0.02 * rng.standard_normal(q.shape).astype(np.float32)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    index = VectorIndex(d, use_gpu=False, approximate_above=0, compact_fraction=1.0)
    t = time.perf_counter()
    index.add(x)
    print(f"{n:,} vectors, HNSW built in {time.perf_counter() - t:.1f} s\n")
    alive = np.ones(n, dtype=bool)
    order = rng.permutation(n)
    print(f"| rows deleted | recall@{k} | search median ms |\n|---:|---:|---:|")
    done = 0
    for share in (0.0, 0.05, 0.10, 0.15, 0.20, 0.30, 0.45):
        victims = order[done : int(n * share)]
        done = int(n * share)
        if len(victims):
            index.remove(np.searchsorted(np.flatnonzero(alive), victims))
            alive[victims] = False
        live = np.flatnonzero(alive)
        scores = q @ x[live].T
        kth = -np.partition(-scores, k - 1, axis=1)[:, k - 1]
        times, hits = [], []
        for i in range(len(q)):
            t = time.perf_counter()
            _, rows = index.search(q[i], k)
            times.append(time.perf_counter() - t)
            hits.append(min(k, int(np.sum(scores[i, rows] >= kth[i] - 1e-5))) / k)
        print(
            f"| {share:.0%} ({len(index.dead_rows):,}) | {np.mean(hits):.3f} | "
            f"{1000 * np.median(times):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
