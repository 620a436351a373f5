"""Planning-context candidates read from a memory: table and episode cards."""

from __future__ import annotations

from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.analytic.profile import profile_table
from langgraph_adamm.analytic.tables import TableSchema
from langgraph_adamm.planning.context import (
    MAX_VALUES,
    ColumnCard,
    EpisodeCard,
    TableCard,
)
from langgraph_adamm.retrieval.memory import RetrievalMemory


def table_cards(analytic: AnalyticMemory) -> list[TableCard]:
    """One card per induced table: metadata, row count and column profiles."""
    cards = []
    for table in analytic.tables:
        profiles = profile_table(analytic, table, MAX_VALUES)
        columns = []
        for col in table.columns:
            prof = profiles.get(col.name)
            columns.append(
                ColumnCard(
                    col.name,
                    col.sql_type,
                    col.unit,
                    col.description,
                    col.samples,
                    prof.values if prof else (),
                    prof.low if prof else None,
                    prof.high if prof else None,
                )
            )
        cards.append(
            TableCard(
                table.table_name,
                table.description,
                analytic.row_count(table),
                tuple(columns),
                _examples(analytic, table),
            )
        )
    return cards


EXAMPLES = 3
"""Rounds per table whose opening words show what its records are called."""


def _examples(analytic: AnalyticMemory, table: TableSchema) -> tuple[str, ...]:
    """How the first records of a table were written: "Run summary. distance: ..."."""
    sources = [
        r[0]
        for r in analytic.db.fetchall(
            f'SELECT source FROM {analytic.qualified(table)} ORDER BY "order" LIMIT ?',
            [EXAMPLES],
        )
    ]
    if not sources:
        return ()
    marks = ", ".join("?" for _ in sources)
    rows = analytic.db.fetchall(
        "SELECT r.user_text, i.caption FROM adamm_rounds r LEFT JOIN adamm_images i "
        "ON i.user_id = r.user_id AND i.round_id = r.round_id "
        f'WHERE r.user_id = ? AND r.round_id IN ({marks}) ORDER BY r."order"',
        [analytic.user_id, *sources],
    )
    texts = []
    for user_text, caption in rows:
        text = " ".join(f"{user_text or ''} {caption or ''}".split())
        if text:
            texts.append(text[:EXAMPLE_CHARS])
    return tuple(dict.fromkeys(texts))


EXAMPLE_CHARS = 120


def episode_cards(retrieval: RetrievalMemory | None) -> list[EpisodeCard]:
    """One card per episode, with its stored text vector."""
    if retrieval is None:
        return []
    out = []
    with retrieval.state_lock:  # not while a forget changes the episodes
        episodes = list(retrieval.hierarchy.episodes.values())
    for ep in episodes:
        out.append(
            EpisodeCard(
                f"episode:{ep.episode_id}",
                ep.description,
                ep.start.isoformat() if ep.start else None,
                ep.end.isoformat() if ep.end else None,
                ep.text_vec,
            )
        )
    return out
