"""Latency of Compute, Filter and Rank on a 1,000,000-row induced table.

The table is induced the normal way (a synthetic history through the offline
pipeline gives the sleep table, its metadata and column types); it is then
filled to ``--rows`` rows by one bulk INSERT of generated rows, since ingesting a
million rounds one by one is the ingestion benchmark's job, not this one's. The
operators then run through the public API exactly as a tool call would: name
resolution, value casting, SQL compilation and the query, result rows included.

    python tools/benchmarks/bench_operators.py --rows 1000000 --calls 60
    python tools/benchmarks/bench_operators.py --engine duckdb postgres   # side by side

PostgreSQL runs on a throwaway local server (``tools/support/postgres_server.py``, fsync
on, default settings otherwise). The bulk-filled table is vacuumed and analyzed,
as the library leaves a table a write has about doubled. On PostgreSQL the
median and the rank by an expression are timed a second time without the page
sample (``analytic/sampled.py``), in the same run, and so is a bare count of
the rows the median reads (plain SQL, no values returned): a floor for any
exact answer that has to read those rows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.analytic import sampled  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402


def build(where: str, workdir: Path, rows: int) -> tuple[Memory, str]:
    hist, _ = generate(seed=5, days=40).write(workdir / "h")
    memory = Memory(where, user_id="synth", retrieval=False)
    memory.ingest(hist)
    table = next(t for t in memory.tables if "total_sleep" in t.attributes)
    # Same columns and types as induced; values drawn like the generator's.
    head = (
        f"INSERT INTO {memory.analytic.qualified(table)} "
        '("source", "order", "time", total_sleep, deep_sleep, resting_hr, sleep_score) '
    )
    more = rows - memory.analytic.row_count(table)
    if memory.db.engine == "postgres":
        memory.db.execute(
            head + "SELECT 'B:' || i, 100000 + i, "
            "TIMESTAMP '2020-01-01' + make_interval(mins => i * 37), "
            "round((5 + random() * 3.5)::numeric, 1), "
            "round((0.5 + random() * 1.5)::numeric, 1), "
            "50 + (random() * 16)::BIGINT, 60 + (random() * 35)::BIGINT "
            "FROM generate_series(0, ? - 1) AS t(i)",
            [more],
        )
        # What the library does once a write has about doubled a materialized
        # table (MemoryDatabase._analyze_if_grown), and autovacuum later.
        memory.db.execute(f"VACUUM ANALYZE {memory.analytic.qualified(table)}")
        memory.db.execute("CHECKPOINT")  # as on DuckDB: no flush during timing
    else:
        memory.db.execute(
            head + "SELECT 'B:' || i, 100000 + i, "
            "TIMESTAMP '2020-01-01' + to_minutes(i * 37), "
            "round(5 + random() * 3.5, 1), round(0.5 + random() * 1.5, 1), "
            "50 + (random() * 16)::BIGINT, 60 + (random() * 35)::BIGINT "
            "FROM range(?) t(i)",
            [more],
        )
        memory.db.execute("CHECKPOINT")
    return memory, table.table_name


def timed(fn: Callable[[], Any], calls: int) -> tuple[float, float]:
    for _ in range(3):
        fn()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument(
        "--engine", nargs="+", choices=("duckdb", "postgres"), default=["duckdb"]
    )
    args = parser.parse_args()
    results: dict[str, list[tuple[str, float, float]]] = {}
    for engine in args.engine:
        with tempfile.TemporaryDirectory() as tmp:
            if engine == "postgres":
                from tools.support.postgres_server import PostgresServer

                with PostgresServer(durable=True) as server:
                    results[engine] = run(
                        server.create_database("bench"), Path(tmp), args
                    )
            else:
                results[engine] = run(str(Path(tmp) / "bench.duckdb"), Path(tmp), args)
    names = [name for name, _, _ in next(iter(results.values()))]
    heads = " | ".join(f"{e} median ms | {e} p95 ms" for e in results)
    print(f"\n| operation | {heads} |")
    print("|---|" + "---:|" * (2 * len(results)))
    for i, name in enumerate(names):
        cells = " | ".join(
            f"{results[e][i][1]:.1f} | {results[e][i][2]:.1f}" for e in results
        )
        print(f"| {name} | {cells} |")


def run(where: str, workdir: Path, args: Any) -> list[tuple[str, float, float]]:
    """Build the table at ``where`` and time every case; (name, median, p95)."""
    if True:
        memory, table = build(where, workdir, args.rows)
        n = memory.analytic.row_count(memory.analytic.table(table))  # type: ignore[arg-type]
        year = [
            {"column": "time", "op": "between", "value": ["2021-01-01", "2021-12-31"]}
        ]
        cases: list[tuple[str, Callable[[], Any]]] = [
            (
                "Compute avg(total_sleep), whole table",
                lambda: memory.compute(
                    {
                        "table": table,
                        "operator": "avg",
                        "target_column_expression": "total_sleep",
                    }
                ),
            ),
            (
                "Compute avg(total_sleep), one year",
                lambda: memory.compute(
                    {
                        "table": table,
                        "operator": "avg",
                        "target_column_expression": "total_sleep",
                        "optional_column_filters": year,
                    }
                ),
            ),
            (
                "Compute median(deep_sleep / total_sleep), resting_hr > 60",
                lambda: memory.compute(
                    {
                        "table": table,
                        "operator": "median",
                        "target_column_expression": "deep_sleep / total_sleep",
                        "optional_column_filters": [
                            {"column": "resting_hr", "op": ">", "value": 60}
                        ],
                    }
                ),
            ),
            (
                "Compute max(sleep_score) with its rows",
                lambda: memory.compute(
                    {
                        "table": table,
                        "operator": "max",
                        "target_column_expression": "sleep_score",
                    }
                ),
            ),
            (
                "Compute latest(resting_hr)",
                lambda: memory.compute(
                    {
                        "table": table,
                        "operator": "latest",
                        "target_column_expression": "resting_hr",
                    }
                ),
            ),
            (
                "Filter total_sleep < 5.5 and sleep_score >= 90, budget 10",
                lambda: memory.filter(
                    {
                        "table": table,
                        "column_filters": [
                            {"column": "total_sleep", "op": "<", "value": 5.5},
                            {"column": "sleep_score", "op": ">=", "value": 90},
                        ],
                    }
                ),
            ),
            (
                "Filter one day (time = date), budget 10",
                lambda: memory.filter(
                    {
                        "table": table,
                        "column_filters": [{"column": "time", "value": "2021-06-15"}],
                    }
                ),
            ),
            (
                "Rank top 10 by sleep_score, one year",
                lambda: memory.rank(
                    {
                        "table": table,
                        "target_column_expression": "sleep_score",
                        "optional_column_filters": year,
                    }
                ),
            ),
            (
                "Rank bottom 10 by total_sleep - deep_sleep",
                lambda: memory.rank(
                    {
                        "table": table,
                        "order": "asc",
                        "target_column_expression": "total_sleep - deep_sleep",
                    }
                ),
            ),
        ]
        print(
            f"{memory.db.engine}: table {table}: {n:,} rows; {args.calls} timed "
            "calls each after 3 warm-up calls",
            flush=True,
        )
        out = []
        for name, fn in cases:
            med, p95 = timed(fn, args.calls)
            out.append((name, med, p95))
        if memory.db.engine == "postgres":
            # the same sorts without the page sample, in the same run
            saved, sampled.SAMPLED_ABOVE = sampled.SAMPLED_ABOVE, 10**18
            try:
                for name, fn in cases:
                    if name.startswith(("Compute median", "Rank bottom")):
                        med, p95 = timed(fn, args.calls)
                        print(
                            f"postgres, plain query (no page sample): {name}: "
                            f"median {med:.1f} ms, p95 {p95:.1f} ms",
                            flush=True,
                        )
            finally:
                sampled.SAMPLED_ABOVE = saved
            # what reading the median's rows costs by itself: counted, no values
            source = memory.analytic.qualified(memory.analytic.table(table))  # type: ignore[arg-type]
            med, p95 = timed(
                lambda: memory.db.fetchall(
                    f"SELECT count(*) FROM {source} WHERE resting_hr > ?", [60]
                ),
                args.calls,
            )
            print(
                "postgres, SQL alone: count(*) of the rows with resting_hr > 60: "
                f"median {med:.1f} ms, p95 {p95:.1f} ms",
                flush=True,
            )
        memory.close()
        return out


if __name__ == "__main__":
    main()
