"""Planning-context candidates read from a memory: table and episode cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.analytic.profile import attribute_labels, profile_table
from langgraph_adamm.analytic.tables import TableSchema
from langgraph_adamm.planning.context import (
    MAX_VALUES,
    ColumnCard,
    EpisodeCard,
    TableCard,
)
from langgraph_adamm.planning.text import root, words

if TYPE_CHECKING:
    from langgraph_adamm.retrieval.memory import RetrievalMemory


def table_cards(analytic: AnalyticMemory) -> list[TableCard]:
    """One card per induced table: metadata, row count and column profiles."""
    cards = []
    tables = analytic.tables
    labels = attribute_labels(
        analytic, [c.attribute for t in tables for c in t.columns]
    )
    examples = _examples(analytic, tables)
    for table in tables:
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
                    labels.get(col.attribute, ()),
                )
            )
        cards.append(
            TableCard(
                table.table_name,
                table.description,
                analytic.row_count(table),
                tuple(columns),
                examples.get(table.table_name, ()),
            )
        )
    return cards


EXAMPLES = 3
"""Rounds per table whose opening words show what its records are called."""


def _examples(
    analytic: AnalyticMemory, tables: list[TableSchema]
) -> dict[str, tuple[str, ...]]:
    """How the first records of each table were written: "Run summary. distance: ...".

    Two queries for all the tables: their first sources, then those rounds.
    """
    if not tables:
        return {}
    firsts = " UNION ALL ".join(
        f'(SELECT ? AS t, source, "order" FROM {analytic.qualified(table)} '
        f'ORDER BY "order" LIMIT {EXAMPLES})'
        for table in tables
    )
    sources: dict[str, list[str]] = {}
    for name, source, _ in analytic.db.fetchall(
        f'SELECT t, source, "order" FROM ({firsts}) q ORDER BY t, "order"',
        [t.table_name for t in tables],
    ):
        sources.setdefault(name, []).append(source)
    wanted = sorted({s for ids in sources.values() for s in ids})
    if not wanted:
        return {}
    texts: dict[str, list[str]] = {}
    position: dict[str, int] = {}  # the rounds' order
    for round_id, user_text, caption in analytic.db.fetchall(
        "SELECT r.round_id, r.user_text, i.caption FROM adamm_rounds r "
        "LEFT JOIN adamm_images i ON i.user_id = r.user_id AND i.round_id = "
        "r.round_id WHERE r.user_id = ? AND r.round_id IN (SELECT "
        'unnest(?::VARCHAR[])) ORDER BY r."order"',
        [analytic.user_id, wanted],
    ):
        position.setdefault(round_id, len(position))
        text = " ".join(f"{user_text or ''} {caption or ''}".split())
        if text:
            texts.setdefault(round_id, []).append(text[:EXAMPLE_CHARS])
    out = {}
    for name, ids in sources.items():
        ordered = sorted(
            (rid for rid in set(ids) if rid in position), key=position.__getitem__
        )
        out[name] = tuple(
            dict.fromkeys(text for rid in ordered for text in texts.get(rid, []))
        )
    return out


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


@dataclass(frozen=True)
class RecordWords:
    """The words of the rounds that gave one table its rows.

    ``counts`` maps a word's :func:`~.text.root` to the number of those rounds
    that hold it (user text, image captions and OCR); ``forms`` to the word
    as first written. What a question says that many of a table's rounds say
    too - the dog the walks are about, the verb the rides are told with - is
    about those records; a word few or none of them hold is a condition the
    table cannot apply.
    """

    rounds: int
    counts: dict[str, int]
    forms: dict[str, str]
    written: frozenset[str] = frozenset()
    """Every word as written (lower case)."""

    def share(self, word: str) -> float:
        """The share of the table's rounds that hold a word (by root)."""
        if not self.rounds:
            return 0.0
        return self.counts.get(root(word), 0) / self.rounds

    def common(self, share: float) -> list[str]:
        """The words at least ``share`` of the rounds hold, as written."""
        floor = share * self.rounds
        return [self.forms[r] for r, n in self.counts.items() if n >= floor]


RECORD_WORD_ROUNDS = 400
"""The latest rounds of a table read for its words (a bound on the cost)."""
MEMORY_WORD_ROUNDS = 2000
"""The latest rounds read for the words of a whole memory."""


def record_words(
    analytic: AnalyticMemory, table_name: str | None
) -> RecordWords | None:
    """The words of a table's source rounds (None: no such table).

    ``table_name`` None: the words of the user's latest rounds, all of them.
    """
    if table_name is None:
        return _round_words(
            analytic.db.fetchall(
                "SELECT r.round_id, r.user_text, i.caption, i.ocr FROM "
                '(SELECT * FROM adamm_rounds WHERE user_id = ? ORDER BY "order" DESC '
                "LIMIT ?) AS r LEFT JOIN adamm_images i ON i.user_id = r.user_id "
                "AND i.round_id = r.round_id",
                [analytic.user_id, MEMORY_WORD_ROUNDS],
            ),
        )
    table = analytic.table(table_name)
    if table is None:
        return None
    rows = analytic.db.fetchall(
        "SELECT r.round_id, r.user_text, i.caption, i.ocr FROM adamm_rounds r "
        "LEFT JOIN adamm_images i ON i.user_id = r.user_id AND i.round_id = r.round_id "
        "WHERE r.user_id = ? AND r.round_id IN (SELECT source FROM "
        f'(SELECT source, max("order") AS o FROM {analytic.qualified(table)} '
        "GROUP BY source ORDER BY o DESC LIMIT ?) AS latest)",
        [analytic.user_id, RECORD_WORD_ROUNDS],
    )
    return _round_words(rows)


def _round_words(rows: list[Any]) -> RecordWords:
    texts: dict[str, set[str]] = {}
    spelled: dict[str, set[str]] = {}
    forms: dict[str, str] = {}
    for round_id, user_text, caption, ocr in rows:  # a row per image of a round
        text = " ".join(t for t in (user_text, caption, ocr) if t)
        held = texts.setdefault(round_id, set())
        as_written = spelled.setdefault(round_id, set())
        for w in words(text):
            r = root(w)
            held.add(r)
            as_written.add(w)
            forms.setdefault(r, w)
    counts: dict[str, int] = {}
    for held in texts.values():
        for r in held:
            counts[r] = counts.get(r, 0) + 1
    written = frozenset(w for held in spelled.values() for w in held)
    return RecordWords(len(texts), counts, forms, written)
