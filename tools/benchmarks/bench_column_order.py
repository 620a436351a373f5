"""Whole-table scans on PostgreSQL: text column first against text column last.

PostgreSQL stores rows; a scan reading a numeric column finds it at a fixed
offset only if no variable-width value (text) comes before it in the row.
Induced tables put their text columns last on PostgreSQL
(``analytic/materialize.py``); this measures what that buys. Two copies of one
1,000,000-row table in one database, the same values, the text ``source``
column first in one and last in the other; each query's median over
``--calls`` calls, three rounds alternating the copies, the median of the three.

    python tools/benchmarks/bench_column_order.py --rows 1000000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.support.postgres_server import PostgresServer  # noqa: E402

COLUMNS = (
    '"order" BIGINT, "time" TIMESTAMP, deep_sleep DOUBLE PRECISION, '
    "resting_hr BIGINT, sleep_score BIGINT, total_sleep DOUBLE PRECISION"
)
QUERIES = [
    "SELECT avg(total_sleep), count(*) FROM {t} WHERE total_sleep IS NOT NULL",
    "SELECT count(*) FROM {t} WHERE total_sleep < 5.5 AND sleep_score >= 90",
    "SELECT max(sleep_score), count(*) FROM {t} WHERE sleep_score IS NOT NULL",
    "SELECT count(*) FROM {t} WHERE CAST(resting_hr AS DOUBLE PRECISION) > 60 "
    "AND deep_sleep / NULLIF(total_sleep, 0) IS NOT NULL",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=15)
    args = parser.parse_args()
    import psycopg

    with PostgresServer(durable=True) as server:
        con = psycopg.connect(server.create_database("layout"), autocommit=True)
        con.execute(f'CREATE TABLE text_first ("source" VARCHAR, {COLUMNS})')
        con.execute(f'CREATE TABLE text_last ({COLUMNS}, "source" VARCHAR)')
        con.execute("SELECT setseed(0.1)")
        con.execute(
            "INSERT INTO text_first SELECT 'B:' || i, 100000 + i, "
            "TIMESTAMP '2020-01-01' + make_interval(mins => i * 37), "
            "round((0.5 + random() * 1.5)::numeric, 1), "
            "50 + (random() * 16)::BIGINT, 60 + (random() * 35)::BIGINT, "
            "round((5 + random() * 3.5)::numeric, 1) "
            "FROM generate_series(0, %s - 1) AS t(i)",
            [args.rows],
        )
        con.execute(
            'INSERT INTO text_last SELECT "order", "time", deep_sleep, resting_hr, '
            'sleep_score, total_sleep, "source" FROM text_first'
        )
        for table in ("text_first", "text_last"):
            con.execute(f"VACUUM ANALYZE {table}")
        con.execute("CHECKPOINT")
        print("| query | text first ms | text last ms | ratio |")
        print("|---|---:|---:|---:|")
        for query in QUERIES:
            medians: dict[str, list[float]] = {}
            for _ in range(3):
                for table in ("text_first", "text_last"):
                    sql = query.format(t=table)
                    for _ in range(2):
                        con.execute(sql).fetchall()
                    samples = []
                    for _ in range(args.calls):
                        start = time.perf_counter()
                        con.execute(sql).fetchall()
                        samples.append((time.perf_counter() - start) * 1000)
                    medians.setdefault(table, []).append(statistics.median(samples))
            first = statistics.median(medians["text_first"])
            last = statistics.median(medians["text_last"])
            shown = query.format(t="t")
            print(f"| `{shown}` | {first:.1f} | {last:.1f} | {last / first:.2f}x |")


if __name__ == "__main__":
    main()
