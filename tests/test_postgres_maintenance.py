"""PostgreSQL upkeep the library does itself (PostgreSQL runs only).

A materialized table that has about doubled is vacuumed and analyzed after
the commit that grew it, rather than whenever autovacuum comes by: scans of
all-visible pages skip the per-row visibility check (BENCHMARKS.md).
"""

from __future__ import annotations

from pathlib import Path

from langgraph_adamm import Memory
from tools.datasets.synthetic_history import generate


def test_a_grown_materialized_table_is_vacuumed_after_the_commit(
    postgres_url: str, tmp_path: Path
) -> None:
    hist, _ = generate(seed=11, days=600, user_id="ana").write(tmp_path / "h")
    with Memory(postgres_url, user_id="ana", retrieval=False) as m:
        m.ingest(hist)
        table = max(m.tables, key=m.analytic.row_count)
        rows = m.analytic.row_count(table)
        assert rows >= 500
        schema = m.analytic.qualified(table).split(".")[0].strip('"')
        pages, visible, tuples = m.db.fetchall(
            "SELECT relpages, relallvisible, reltuples FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = ? AND c.relname = ?",
            [schema, table.table_name],
        )[0]
        assert pages > 0 and visible > 0  # VACUUM marked pages all-visible
        assert tuples >= 0.5 * rows  # and ANALYZE counted the rows
