"""Ingestion on DuckDB and on PostgreSQL, side by side in one run.

The same synthetic history (tools/datasets/synthetic_history.py) is ingested with the
rule extractor into a fresh DuckDB file and into a fresh database on a local
throwaway PostgreSQL server (tools/support/postgres_server.py, fsync on), alternating
engine by engine, ``--repeat`` times each: once without retrieval memory and
once with it (the packaged all-MiniLM-L6-v2, torch backend, text only).
Reported: the median rounds per second of each, and PostgreSQL's as a ratio of
DuckDB's.

    python tools/benchmarks/bench_engines.py --rounds 2000 --embedded-rounds 400 \\
        --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402
from tools.support.postgres_server import PostgresServer  # noqa: E402

ROUNDS_PER_DAY = 4.55  # the generator's average


def ingest(where: str, hist: Path, retrieval: bool) -> tuple[int, float]:
    """(rounds, seconds) of one ingest, opening included."""
    start = time.perf_counter()
    with Memory(
        where, user_id="synth", retrieval=retrieval, visual_encoder=None
    ) as memory:
        report = memory.ingest(hist)
    return report.rounds_new, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--embedded-rounds", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, PostgresServer(durable=True) as server:
        folder = Path(tmp)
        if args.embedded_rounds:  # load the text model once, outside the timings
            warm = generate(seed=99, days=2).write(folder / "warm")[0]
            ingest(str(folder / "warm.duckdb"), warm, True)
        rows = []
        for label, size, retrieval in (
            ("no embeddings", args.rounds, False),
            ("with embeddings", args.embedded_rounds, True),
        ):
            if not size:
                continue
            days = max(1, round(size / ROUNDS_PER_DAY))
            hist = generate(seed=5, days=days).write(folder / f"h{size}")[0]
            rates: dict[str, list[float]] = {"duckdb": [], "postgres": []}
            rounds = 0
            for i in range(args.repeat):
                for engine in rates:
                    where = (
                        server.create_database(f"b_{retrieval:d}_{i}")
                        if engine == "postgres"
                        else str(folder / f"b_{retrieval:d}_{i}.duckdb")
                    )
                    rounds, seconds = ingest(where, hist, retrieval)
                    rates[engine].append(rounds / seconds)
                    print(
                        f"{label}, {engine}, run {i + 1}: {rounds} rounds, "
                        f"{rounds / seconds:.1f} rounds/s",
                        file=sys.stderr,
                        flush=True,
                    )
            duck = statistics.median(rates["duckdb"])
            pg = statistics.median(rates["postgres"])
            rows.append((label, rounds, duck, pg))
    print("\n| ingestion | rounds | DuckDB rounds/s | PostgreSQL rounds/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for label, rounds, duck, pg in rows:
        print(f"| {label} | {rounds} | {duck:.1f} | {pg:.1f} | {pg / duck:.2f}x |")


if __name__ == "__main__":
    main()
