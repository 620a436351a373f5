"""The planning context (AdaMM §3.5.2): the metadata a planner sees for a question.

Every analytic table and every retrieval episode is a candidate, described by
text metadata (a table: name, description, columns with types, units and sample
values; an episode: its description). Candidates are scored against the question
by ``w_e · cos(E(q), E(μ)) + w_t · TokSim(q, μ)`` and the top ``k_tables`` and
``k_episodes`` are kept. Without an embedding model the score is the token
similarity alone, and the context says so. The query graph passes the
episodes' retrieval scores instead (embedding and BM25 fused, as SemanticMatch
ranks episodes), so a planner sees the episodes retrieval would return.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.planning.text import (
    content_stems,
    name_acronyms,
    token_similarity,
    words,
)

Embed = Callable[[list[str]], np.ndarray]
"""Texts -> unit-normalized row vectors."""

MAX_VALUES = 40
"""Distinct values of a text column shown to planners (most frequent first)."""


@dataclass(frozen=True)
class ColumnCard:
    """What a planner may know of one column."""

    name: str
    sql_type: str
    unit: str | None = None
    description: str = ""
    samples: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    """Distinct values of a text or boolean column, most frequent first."""
    low: float | None = None
    high: float | None = None
    """Range of a numeric column."""
    labels: tuple[str, ...] = ()
    """Other labels its values were written with ("time control" for ``tc``)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Its name and the other labels it was written with."""
        return (self.name, *self.labels)

    @property
    def numeric(self) -> bool:
        """Whether arithmetic and aggregates apply."""
        return self.sql_type in ("DOUBLE", "BIGINT")

    def line(self) -> str:
        """One line of metadata text."""
        unit = f", {self.unit}" if self.unit else ""
        shown = self.values[:8] if self.values else self.samples
        examples = f" e.g. {', '.join(shown)}" if shown else ""
        span = (
            f" range {self.low:g}..{self.high:g}"
            if self.low is not None and self.high is not None
            else ""
        )
        short = sorted(name_acronyms(words(self.name))) + list(self.labels)
        aka = f" [{', '.join(short)}]" if short else ""
        return f"{self.name}{aka} ({self.sql_type.lower()}{unit}){span}{examples}"


@dataclass(frozen=True)
class TableCard:
    """What a planner may know of one analytic table."""

    name: str
    description: str
    rows: int
    columns: tuple[ColumnCard, ...]
    examples: tuple[str, ...] = ()
    """The opening words of a few of the table's rounds, as the user wrote them."""

    def column(self, name: str) -> ColumnCard | None:
        """A column by exact name."""
        return next((c for c in self.columns if c.name == name), None)

    def text(self) -> str:
        """The table's metadata as one text (μ_T)."""
        cols = "; ".join(c.line() for c in self.columns)
        return (
            f"table {self.name} ({self.rows} rows): {self.description} Columns: {cols}"
        )


@dataclass(frozen=True)
class EpisodeCard:
    """What a planner may know of one retrieval episode."""

    unit_id: str
    description: str
    start: str | None = None
    end: str | None = None
    vector: np.ndarray | None = field(default=None, compare=False, repr=False)

    def text(self) -> str:
        """The episode's metadata as one text (μ_P)."""
        span = f" [{self.start} .. {self.end}]" if self.start else ""
        return f"{self.unit_id}{span}: {self.description}"


class PlanningContext:
    """The top tables and episodes for one question, with their scores.

    A context made by :meth:`deferred` holds every table already and scores
    on first need: reading :attr:`tables` (scores and their order),
    :attr:`episodes`, :attr:`scoring`, :meth:`render` or :meth:`to_dict`
    runs the scoring, which embeds the question and opens the retrieval
    memory. :attr:`table_cards` and :meth:`table` do not.

    Args:
        tables: The kept tables with their scores, best first.
        episodes: The kept episodes with their scores, best first.
        scoring: How candidates were scored: "embedding+token", "token" or
            "none" (whole).
    """

    def __init__(
        self,
        tables: tuple[tuple[TableCard, float], ...],
        episodes: tuple[tuple[EpisodeCard, float], ...],
        scoring: str,
    ) -> None:
        self._tables = tables
        self._episodes = episodes
        self._scoring = scoring
        self._cards = tuple(t for t, _ in tables)
        self._resolve: Callable[[], PlanningContext] | None = None
        self._bounds: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def deferred(
        cls,
        cards: Sequence[TableCard],
        resolve: Callable[[], PlanningContext],
        bounds: Mapping[str, tuple[float, float]],
    ) -> PlanningContext:
        """A context of exactly ``cards``, scored by ``resolve`` on first need.

        ``resolve`` must keep every one of ``cards`` (all tables fit the
        context), so that what is known before scoring stays true after.
        ``bounds`` gives each card's score range before scoring (see
        :meth:`ContextBuilder.bounds`).
        """
        ctx = cls((), (), "")
        ctx._cards = tuple(cards)
        ctx._resolve = resolve
        ctx._bounds = dict(bounds)
        return ctx

    def score_bounds(self) -> dict[str, tuple[float, float]]:
        """Each table's score, or the range it will fall in once scored."""
        if self._resolve is None:
            return {t.name: (s, s) for t, s in self._tables}
        return dict(self._bounds)

    @property
    def scored(self) -> bool:
        """Whether the scores are known (reading them costs nothing more)."""
        return self._resolve is None

    def _score(self) -> None:
        if self._resolve is None:
            return
        with self._lock:
            if self._resolve is None:
                return
            done = self._resolve()
            self._tables, self._episodes = done.tables, done.episodes
            self._scoring = done.scoring
            self._resolve = None

    @property
    def tables(self) -> tuple[tuple[TableCard, float], ...]:
        """The kept tables with their scores, best first."""
        self._score()
        return self._tables

    @property
    def episodes(self) -> tuple[tuple[EpisodeCard, float], ...]:
        """The kept episodes with their scores, best first."""
        self._score()
        return self._episodes

    @property
    def scoring(self) -> str:
        """How candidates were scored: "embedding+token", "token" or "none"."""
        self._score()
        return self._scoring

    @property
    def table_cards(self) -> tuple[TableCard, ...]:
        """The kept tables, unscored (in no order that means anything)."""
        return self._cards

    def table(self, name: str) -> TableCard | None:
        """A table of the context by exact name."""
        return next((t for t in self._cards if t.name == name), None)

    @property
    def note(self) -> str:
        """A sentence for plans and answers saying how the context was built."""
        if self.scoring == "token":
            return (
                "planning context scored by token similarity only (no embedding "
                "model: install 'langgraph-adamm[retrieval]')"
            )
        if self.scoring == "none":
            return "planning context: the whole memory metadata, unscored"
        return "planning context scored by 0.7 embedding cosine + 0.3 token similarity"

    def render(self) -> str:
        """The context as prompt text."""
        lines = ["Analytic tables:"]
        lines += [f"- {t.text()}" for t, _ in self.tables] or ["- (none)"]
        lines.append("Retrieval episodes:")
        lines += [f"- {e.text()}" for e, _ in self.episodes] or ["- (none)"]
        return "\n".join(lines)

    def unscored_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` before scoring: the tables kept, with no scores."""
        return {
            "scoring": "when needed",
            "tables": [{"table": t.name, "score": None} for t in self._cards],
            "episodes": [],
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (names and scores) for graph state and output."""
        return {
            "scoring": self.scoring,
            "tables": [{"table": t.name, "score": round(s, 4)} for t, s in self.tables],
            "episodes": [
                {"episode": e.unit_id, "score": round(s, 4)} for e, s in self.episodes
            ],
        }


def _scores(
    question: str,
    q_vec: np.ndarray | None,
    texts: Sequence[str],
    vectors: np.ndarray | None,
    config: AdaMMConfig,
) -> list[float]:
    q_tokens = content_stems(question)
    tok = [token_similarity(q_tokens, content_stems(t)) for t in texts]
    if q_vec is None or vectors is None or len(texts) == 0:
        return tok
    cos = vectors @ q_vec
    return [
        config.metadata_embedding_weight * float(c) + config.metadata_token_weight * t
        for c, t in zip(cos, tok, strict=True)
    ]


class CachedEmbed:
    """A text encoder whose vectors are kept by text.

    Metadata, column names and question words are encoded once; the cache is
    bounded and cleared when full.
    """

    def __init__(self, embed: Embed, limit: int = 4096) -> None:
        self.embed = embed
        self.limit = limit
        self._cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of ``texts``, one row each."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            if len(self._cache) + len(missing) > self.limit:
                self._cache.clear()
            for text, vec in zip(missing, self.embed(missing), strict=True):
                self._cache[text] = np.asarray(vec, dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


def cached(embed: Embed | None) -> CachedEmbed | None:
    """``embed`` behind a :class:`CachedEmbed` (kept as is when it is one)."""
    if embed is None or isinstance(embed, CachedEmbed):
        return embed
    return CachedEmbed(embed)


class ContextBuilder:
    """Scores candidates for questions; caches metadata embeddings by text.

    Args:
        config: ``k_tables``, ``k_episodes`` and the score weights.
        embed: The text encoder (None: token similarity only).
    """

    def __init__(self, config: AdaMMConfig, embed: Embed | None = None) -> None:
        self.config = config
        self.embed = cached(embed)

    def _vectors(self, texts: Sequence[str]) -> np.ndarray | None:
        if self.embed is None or not texts:
            return None
        return self.embed(list(texts))

    def bounds(
        self, question: str, tables: Sequence[TableCard]
    ) -> dict[str, tuple[float, float]]:
        """Each table's score range before the question is embedded.

        A score is ``w_e · cos + w_t · tok`` (or ``tok`` alone without a
        model); the token part costs nothing, and a cosine of unit vectors
        lies in [-1, 1] (a hair's margin is added for rounding).
        """
        c = self.config
        w_e, w_t = abs(c.metadata_embedding_weight), c.metadata_token_weight
        tok = _scores(question, None, [t.text() for t in tables], None, c)
        spread = w_e + 1e-6
        return {
            t.name: (min(w_t * x - spread, x), max(w_t * x + spread, x))
            for t, x in zip(tables, tok, strict=True)
        }

    def deferred(
        self,
        question: str,
        tables: Sequence[TableCard],
        resolve: Callable[[], PlanningContext],
    ) -> PlanningContext:
        """A context of every table, scored by ``resolve`` only when needed.

        For the rule planner, which maps a question onto every table itself:
        scoring changes only the order it breaks ties by, so it is left until
        two tables match the question closely enough for their scores to
        matter, and an analytic question neither embeds the question nor
        opens the retrieval memory. ``resolve`` keeps every table
        (:meth:`build` with ``every_table``).
        """
        return PlanningContext.deferred(tables, resolve, self.bounds(question, tables))

    def build(
        self,
        question: str,
        tables: Sequence[TableCard],
        episodes: Sequence[EpisodeCard],
        *,
        whole: bool = False,
        episode_scores: Mapping[str, float] | None = None,
        every_table: bool = False,
    ) -> PlanningContext:
        """The planning context of a question.

        Args:
            question: The question.
            tables: Every analytic table's card.
            episodes: Every episode's card (with its stored text vector).
            whole: Keep every candidate unscored (the "w/o planning context"
                ablation).
            episode_scores: The episodes' scores by unit id, as retrieval
                scores them (embedding and words fused); without them, the
                episodes are scored like the tables.
            every_table: Keep every table, best first, not the top
                ``k_tables`` (the rule planner's context).
        """
        if whole:
            return PlanningContext(
                tuple((t, 0.0) for t in tables),
                tuple((e, 0.0) for e in episodes),
                "none",
            )
        q_vec = self.embed([question])[0] if self.embed is not None else None
        table_texts = [t.text() for t in tables]
        t_scores = _scores(
            question, q_vec, table_texts, self._vectors(table_texts), self.config
        )
        if episode_scores is not None:
            e_scores = [episode_scores.get(e.unit_id, 0.0) for e in episodes]
        else:
            ep_vectors = None
            if (
                q_vec is not None
                and episodes
                and all(e.vector is not None for e in episodes)
            ):
                ep_vectors = np.stack([np.asarray(e.vector) for e in episodes])
            e_scores = _scores(
                question,
                q_vec,
                [e.description for e in episodes],
                ep_vectors,
                self.config,
            )
        top_t = sorted(zip(tables, t_scores, strict=True), key=lambda x: -x[1])
        top_e = sorted(zip(episodes, e_scores, strict=True), key=lambda x: -x[1])
        return PlanningContext(
            tuple(top_t if every_table else top_t[: self.config.k_tables]),
            tuple(top_e[: self.config.k_episodes]),
            "embedding+token" if q_vec is not None else "token",
        )
