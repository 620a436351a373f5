"""Time to forget: one round, one session, and 10% of a large memory.

A synthetic history (``tools/datasets/synthetic_history.py``, about 4.5 rounds a day) is
ingested once with the rule extractor and the retrieval memory on. Text vectors
come from a hashing encoder (fixed pseudo-random vectors clustered by a text's
first words, so that episodes and topics form), so that building a 100k-round
memory does not take an hour of MiniLM:
forgetting never encodes, and its cost depends on how many rows, views, events,
episodes and tables it touches, not on what the vectors mean.

Then, on that memory, one after another (each a ``Memory.forget`` call, timed
alone):

1. one round (the middle one);
2. one session (the middle one);
3. 10% of the remaining rounds, drawn at random (seed 0).

With ``--exact`` every vector index stays exact (no HNSW past 100k vectors).

    python tools/benchmarks/bench_forget.py --days 22000
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402


class HashEncoder:
    """Fixed pseudo-random unit vectors, clustered by a text's first two words.

    Texts that start alike (one record kind) land near one of their cluster's
    centre, so that episodes and topics form as they do with real embeddings
    (independent random vectors would make every event its own episode and
    topic). No model is involved.
    """

    name = "bench-hash-384"
    dim = 384

    def __init__(self, clusters: int = 40, noise: float = 0.35) -> None:
        rng = np.random.default_rng(0)
        self.centres = rng.standard_normal((clusters, self.dim)).astype(np.float32)
        self.centres /= np.linalg.norm(self.centres, axis=1, keepdims=True)
        self.noise = noise

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            head = " ".join(text.lower().split()[:2]).encode()
            centre = int.from_bytes(hashlib.sha1(head).digest()[:4], "little")
            seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:8], "little")
            noise = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = self.centres[centre % len(self.centres)] + self.noise * noise / 20
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=22_000, help="~4.5 rounds a day")
    parser.add_argument("--exact", action="store_true", help="never HNSW")
    parser.add_argument(
        "--keep",
        type=Path,
        help="a folder where the built memory is kept and reused by later runs "
        "(each run forgets from a copy of it)",
    )
    parser.add_argument(
        "--repeat", type=int, default=5, help="single rounds and sessions timed"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile each step")
    args = parser.parse_args()
    config = AdaMMConfig(approximate_search_above=None) if args.exact else None
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.duckdb"
        built = _build(args.days, config, args.keep, Path(tmp))
        for f in built.parent.glob(built.name + "*"):
            target = db.parent / f.name.replace(built.name, db.name, 1)
            if f.is_dir():
                shutil.copytree(f, target)
            else:
                shutil.copy(f, target)
        t = time.perf_counter()
        with _open(db, config) as m:
            opened = time.perf_counter() - t
            r = m.retrieval
            assert r is not None
            index = "HNSW" if r._text_index.approximate else "exact"
            print(
                f"memory: {len(m.rounds_to_forget(everything=True)):,} rounds, "
                f"{len(m.tables)} tables, {len(r.hierarchy.episodes):,} episodes, "
                f"{len(r._text_index):,} text vectors ({index}); opened in "
                f"{opened:.1f} s\n"
            )
            rounds = [
                rid for (rid,) in m.db.fetchall('SELECT round_id FROM adamm_rounds '
                                                'ORDER BY "order"')
            ]  # fmt: skip
            sessions = [
                s for (s,) in m.db.fetchall(
                    "SELECT DISTINCT session_id FROM adamm_rounds ORDER BY 1")
            ]  # fmt: skip
            print(
                "| forget | rounds | seconds | tables dropped / rebuilt / "
                "rows deleted in place | episodes changed / removed |\n"
                "|---|---:|---:|---|---|"
            )
            picks = random.Random(0)
            n = args.repeat
            # spread over the history: the middle of each n-th part
            middle = [(2 * i + 1) / (2 * n) for i in range(n)]
            steps: list[tuple[str, dict[str, Any] | None]] = [
                (f"one round ({i + 1}/{n})",
                 {"round_ids": [rounds[int(f * len(rounds))]]})
                for i, f in enumerate(middle)
            ] + [
                (f"one session ({i + 1}/{n})",
                 {"session_id": sessions[int(f * len(sessions))]})
                for i, f in enumerate(middle)
            ]  # fmt: skip
            times: dict[str, list[float]] = {}
            share = {"10% of the rest": 10, "12% more (past 20% deleted)": 12}
            for label, selector in steps + [(k, None) for k in share]:
                if selector is None:
                    left = m.rounds_to_forget(everything=True)
                    k = len(left) * share[label] // 100
                    selector = {"round_ids": picks.sample(left, k)}
                profiler = cProfile.Profile() if args.profile else None
                t = time.perf_counter()
                if profiler is not None:
                    profiler.enable()
                done = m.forget(**selector)
                secs = time.perf_counter() - t
                if profiler is not None:
                    profiler.disable()
                a, rr = done.analytic, done.retrieval
                times.setdefault(label.split(" (")[0], []).append(secs)
                tables = (
                    f"{len(a.dropped)} / {len(a.rebuilt)} / {len(a.deleted_in_place)}"
                )
                eps = (
                    f"{len(rr.episodes_changed)} / {len(rr.episodes_removed)}"
                    if rr
                    else "-"
                )
                print(
                    f"| {label} | {len(done.round_ids):,} | {secs:.3f} | {tables} | "
                    f"{eps} |",
                    flush=True,
                )
                if profiler is not None:
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
                if label.startswith("10%"):
                    print(f"| (search after it) | {_recall(r)} |", flush=True)
            print()
            for label, secs in times.items():
                print(
                    f"{label}: median {statistics.median(secs):.3f} s over "
                    f"{len(secs)} (min {min(secs):.3f}, max {max(secs):.3f})"
                )


def _recall(r: Any, queries: int = 200, k: int = 10) -> str:
    """Recall@k of the text index against exact search over its live rows."""
    index = r._text_index
    dead = len(index.dead_rows)
    live = index.reconstruct(list(range(len(index))))
    rng = np.random.default_rng(1)
    q = live[rng.choice(len(live), queries, replace=False)]
    q = q + 0.05 * rng.standard_normal(q.shape).astype(np.float32)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    scores = q @ live.T
    # the k-th best score: a returned row scoring as high is a hit (the texts
    # of one record kind repeat, so many rows tie)
    kth = -np.partition(-scores, k - 1, axis=1)[:, k - 1]
    found = index.search_many(q, k)
    hits = [
        min(k, sum(scores[i, row] >= kth[i] - 1e-5 for _, row in f)) / k
        for i, f in enumerate(found)
    ]
    kind = "HNSW" if index.approximate else "exact"
    return (
        f"{kind} index, {dead:,} of {dead + len(index):,} rows marked deleted: "
        f"recall@{k} against exact search over the live rows "
        f"{float(np.mean(hits)):.3f} ({queries} queries)"
    )


def _open(db: Path, config: AdaMMConfig | None) -> Memory:
    return Memory(
        db,
        user_id="synth",
        text_encoder=HashEncoder(),
        visual_encoder=None,
        config=config,
    )


def _build(days: int, config: AdaMMConfig | None, keep: Path | None, tmp: Path) -> Path:
    """The memory's database file, built unless ``keep`` already holds it."""
    folder = keep if keep is not None else tmp / "built"
    folder.mkdir(parents=True, exist_ok=True)
    kind = "exact" if config is not None else "default"
    db = folder / f"forget-{days}-{kind}.duckdb"
    if db.exists():
        print(f"reusing {db}")
        return db
    path, _ = generate(seed=days, days=days).write(tmp / "h")
    t = time.perf_counter()
    with _open(db, config) as m:
        report = m.ingest(path)
    print(f"built {report.rounds_indexed:,} rounds in {time.perf_counter() - t:.0f} s")
    return db


if __name__ == "__main__":
    main()
