"""Search over the retrieval memory: SemanticMatch, EventLocate (AdaMM App. B).

A service over a :class:`~langgraph_adamm.retrieval.state.RetrievalState`, kept
apart from indexing (``indexer.py``) and forgetting (``forgetter.py``);
``RetrievalMemory`` composes them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from datetime import datetime
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from langgraph_adamm.errors import ToolInputError
from langgraph_adamm.retrieval.hierarchy import (
    Episode,
    Event,
    NodeVectors,
    Topic,
    fuse,
    fused_similarity,
)
from langgraph_adamm.retrieval.lexical import LexicalIndex, lexical_text
from langgraph_adamm.retrieval.state import RetrievalState, StateLock

Scope = Literal["topic", "episode", "event"]


class MemoryUnit(BaseModel):
    """A retrieved event, episode or topic with its relevance and meta information."""

    unit_type: Literal["event", "episode", "topic"]
    unit_id: str
    score: float
    content: str
    round_ids: list[str] = Field(default_factory=list)
    session_id: str | None = None
    order: int | None = None
    time: str | None = None
    end_time: str | None = None
    neighbours: list[MemoryUnit] = Field(default_factory=list)
    """EventLocate: the events around this one in its session, in order."""
    dense_score: float | None = None
    """The embedding part of ``score`` (text and visual fused), when lexical
    search is on."""
    lexical_score: float | None = None
    """The word-matching part of ``score``: BM25 divided by its bound for the
    query (0: no query word in the unit), when lexical search is on."""


Parts = dict[int, tuple[float, float, float | None]]
"""Per event position (or node index): the fused score, its dense part and its
lexical part (None when lexical search is off)."""


def fuse_lexical(
    dense: dict[int, float], lexical: dict[int, float], weight: float
) -> Parts:
    """Fused scores: ``(1 - weight) * dense + weight * lexical``.

    ``lexical`` holds scores on BM25's 0-1 scale (:meth:`LexicalIndex.ceiling`);
    a unit without a lexical score has 0 there.
    """
    return {
        i: ((1 - weight) * d + weight * lexical.get(i, 0.0), d, lexical.get(i, 0.0))
        for i, d in dense.items()
    }


def _iso(t: datetime | None) -> str | None:
    return t.isoformat() if t else None


def _require_positive(value: object, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ToolInputError(f"{name} must be a positive integer.")


class RetrievalSearcher:
    """SemanticMatch, EventLocate and the scores under them, over one state.

    Reads the state under its lock; never changes it.
    """

    def __init__(self, state: RetrievalState) -> None:
        self.state = state

    def view_rows(self, owner: int) -> tuple[list[int], list[int]]:
        """An event's rows in the text and the visual index.

        Views are added event by event, so each owner list is sorted and an
        event's rows are one run in it.
        """
        t = self.state.text_owner
        v = self.state.visual_owner
        return (
            list(range(bisect_left(t, owner), bisect_right(t, owner))),
            list(range(bisect_left(v, owner), bisect_right(v, owner))),
        )

    # -- the views: FAISS in process, or SQL ----------------------------------
    def _has_visual(self) -> bool:
        """Whether any event has a visual view to search."""
        if self.state.sql is not None:
            return self.state.sql.counts["visual"] > 0
        return self.state.visual_index is not None and len(self.state.visual_index) > 0

    def view_count(self, modality: str) -> int:
        """How many views of a modality event search looks at (``text``/``visual``)."""
        if self.state.sql is not None:
            return self.state.sql.counts[modality]
        index = self.state.text_index if modality == "text" else self.state.visual_index
        return len(index) if index is not None else 0

    def _view_hits(self, modality: str, q: np.ndarray, k: int) -> dict[int, float]:
        """Events among the ``k`` best views of a modality, each with its best."""
        best: dict[int, float] = {}
        if self.state.sql is not None:
            events = self.state.hierarchy.events
            for round_id, s in self.state.sql.search(modality, q, k):
                try:
                    owner = events.position(round_id)
                except KeyError:  # committed by another process since the refresh
                    self.state.unknown_views += 1
                    continue
                best[owner] = max(best.get(owner, -1.0), s)
            return best
        if modality == "text":
            index, owners = self.state.text_index, self.state.text_owner
        else:
            assert self.state.visual_index is not None
            index, owners = self.state.visual_index, self.state.visual_owner
        scores, rows = index.search(q, k)
        for s, r in zip(scores, rows, strict=True):
            owner = owners[r]
            best[owner] = max(best.get(owner, -1.0), float(s))
        return best

    def _owner_best(
        self, modality: str, owners: list[int], q: np.ndarray
    ) -> dict[int, float]:
        """Each event's best view score in a modality (those with views)."""
        if not owners:
            return {}
        if self.state.sql is not None:
            ids = self.state.hierarchy.events.ids
            found = self.state.sql.best_of(modality, [ids[o] for o in owners], q)
            return {o: found[ids[o]] for o in owners if ids[o] in found}
        out: dict[int, float] = {}
        for owner in owners:
            tviews, vviews = self.view_rows(owner)
            if modality == "text" and tviews:
                out[owner] = float(
                    np.max(self.state.text_index.reconstruct(tviews) @ q)
                )
            elif (
                modality == "visual" and vviews and self.state.visual_index is not None
            ):
                rows = self.state.visual_index.reconstruct(vviews)
                out[owner] = float(np.max(rows @ q))
        return out

    @property
    def approximate_search(self) -> bool:
        """Whether event search goes through an HNSW graph (FAISS or pgvector)."""
        if self.state.sql is not None:
            return self.state.sql.approximate("text")
        return self.state.text_index.approximate

    # -- search -------------------------------------------------------------
    def _query_vectors(self, query: str) -> tuple[np.ndarray, np.ndarray | None]:
        if not isinstance(query, str) or not query.strip():
            raise ToolInputError("query_content must be a non-empty text.")
        q_text = self.state.text_encoder.encode([query])[0]
        q_visual = None
        if self.state.visual_encoder is not None and self._has_visual():
            q_visual = self.state.visual_encoder.encode_text([query])[0]
        return q_text, q_visual

    def event_scores(
        self,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        events: int,
        query: str | None = None,
    ) -> dict[int, float]:
        """Scores of at least ``events`` best-matching events (when there are).

        With ``query`` and ``config.lexical_search``, the fused dense and
        lexical scores (:meth:`event_parts`); otherwise the dense ones.
        """
        return {
            p: v[0]
            for p, v in self.event_parts(q_text, q_visual, events, query).items()
        }

    def event_parts(
        self,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        events: int,
        query: str | None = None,
    ) -> Parts:
        """At least ``events`` best events, each with its fused score and parts.

        Candidates are the best ``events`` by embedding and, with lexical search,
        the best ``events`` by BM25; each is scored both ways.
        """
        dense = self._dense_scores(q_text, q_visual, events)
        if query is None or not self.state.config.lexical_search:
            return {p: (d, d, None) for p, d in dense.items()}
        lexical = self._lexical_scores(self.state.lexical, query)
        best = sorted(lexical, key=lambda p: (-lexical[p], p))[:events]
        extra = [p for p in best if p not in dense]
        if extra:
            dense.update(self._dense_of(extra, q_text, q_visual))
            for p in extra:  # an event with no vector in any modality
                dense.setdefault(p, 0.0)
        return fuse_lexical(dense, lexical, self.state.config.lexical_weight)

    def episode_scores(self, query: str) -> dict[str, float]:
        """Every episode's fused score for a query, by unit id (``episode:N``).

        As SemanticMatch scores episodes: dense and lexical parts fused (the
        planning context ranks the episodes it shows a planner by it).
        """
        q_text, q_visual = self._query_vectors(query)
        with self.state.state_lock:
            level = self.state.hierarchy.node_vectors("episode")
            fused = self.node_parts(level, q_text, q_visual, query)[0]
            return {
                f"episode:{n.episode_id}": float(s)  # type: ignore[union-attr]
                for n, s in zip(level.nodes, fused, strict=True)
            }

    def round_lexical_scores(self, query: str) -> dict[str, float]:
        """Round id -> lexical score (0-1) of each event holding a query word.

        Empty when lexical search is off. For rankers over other units than
        events (the evidence forest's memories), to fuse as events do.
        """
        if not self.state.config.lexical_search:
            return {}
        with self.state.state_lock:
            ids = self.state.hierarchy.events.ids
            return {
                ids[p]: v
                for p, v in self._lexical_scores(self.state.lexical, query).items()
            }

    @staticmethod
    def _lexical_scores(index: LexicalIndex, query: str) -> dict[int, float]:
        """BM25 scores over the bound of the query (0-1), of units with a hit."""
        docs, scores = index.scores(query)
        if not docs.size:
            return {}
        scores = scores / index.ceiling(query)
        return dict(zip(docs.tolist(), scores.tolist(), strict=True))

    def _dense_of(
        self, owners: list[int], q_text: np.ndarray, q_visual: np.ndarray | None
    ) -> dict[int, float]:
        """Fused text and visual scores of the given events, from their views."""
        text_best = self._owner_best("text", owners, q_text)
        visual_best: dict[int, float] = {}
        if q_visual is not None and self._has_visual():
            visual_best = self._owner_best("visual", owners, q_visual)
        return self._fuse_modalities(owners, text_best, visual_best)

    def _fuse_modalities(
        self,
        owners: list[int],
        text_best: dict[int, float],
        visual_best: dict[int, float],
    ) -> dict[int, float]:
        """Each event's text and visual bests fused (those with either)."""
        return {
            o: fuse(
                text_best.get(o),
                visual_best.get(o),
                self.state.config.text_weight,
                self.state.config.visual_weight,
            )
            for o in owners
            if o in text_best or o in visual_best
        }

    def _dense_scores(
        self, q_text: np.ndarray, q_visual: np.ndarray | None, events: int
    ) -> dict[int, float]:
        """Fused embedding scores of at least ``events`` best-matching events.

        Each modality's score is the best of the event's views in it. The view
        search widens until enough distinct events are found, since one event may
        own many views.
        """
        views = max(self.view_count("text"), self.view_count("visual"))
        candidates = events
        while True:
            self.state.unknown_views = 0  # rows newer than this state: widen past them
            text_best = self._view_hits("text", q_text, candidates)
            visual_best: dict[int, float] = {}
            if q_visual is not None and self._has_visual():
                visual_best = self._view_hits("visual", q_visual, candidates)
            found = len(text_best.keys() | visual_best.keys())
            if found >= min(events, len(self.state.hierarchy.events)) or (
                candidates >= views + self.state.unknown_views
            ):
                break
            candidates *= 4
        owners = sorted(text_best.keys() | visual_best.keys())
        # an event found by one modality is scored in the other from its views
        text_best.update(
            self._owner_best("text", [o for o in owners if o not in text_best], q_text)
        )
        if q_visual is not None and self._has_visual():
            visual_best.update(
                self._owner_best(
                    "visual", [o for o in owners if o not in visual_best], q_visual
                )
            )
        return self._fuse_modalities(owners, text_best, visual_best)

    def session_rounds(self, session_id: str) -> list[str]:
        """The round ids of a session's events, in history order."""
        return [
            r
            for (r,) in self.state.db.fetchall(
                "SELECT round_id FROM adamm_events WHERE user_id = ? AND "
                'session_id = ? ORDER BY "order"',
                [self.state.user_id, session_id],
            )
        ]

    @staticmethod
    def _unit_of(
        ev: Event,
        score: float,
        dense: float | None = None,
        lexical: float | None = None,
    ) -> MemoryUnit:
        return MemoryUnit(
            unit_type="event",
            unit_id=ev.round_id,
            score=round(score, 6),
            content=ev.text,
            round_ids=[ev.round_id],
            session_id=ev.session_id,
            order=ev.order,
            time=_iso(ev.time),
            dense_score=None if lexical is None or dense is None else round(dense, 6),
            lexical_score=None if lexical is None else round(lexical, 6),
        )

    def node_parts(
        self,
        level: NodeVectors,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        query: str | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Every node of a level: fused score, dense part, lexical part.

        The lexical part is BM25 over the nodes' descriptions (an index built
        once per state of the level); None when lexical search is off.
        """
        dense = level.scores(
            q_text,
            q_visual,
            self.state.config.text_weight,
            self.state.config.visual_weight,
        )
        if query is None or not self.state.config.lexical_search or not level.nodes:
            return dense, dense, None
        if level.lexical is None:
            index = LexicalIndex(stop_words=self.state.lexical.stop_words)
            index.add([lexical_text(n.description) for n in level.nodes])
            level.lexical = index
        lexical = np.zeros(len(level.nodes))
        for i, v in self._lexical_scores(level.lexical, query).items():
            lexical[i] = v
        w = self.state.config.lexical_weight
        return (1 - w) * dense + w * lexical, dense, lexical

    def _node_scores(
        self,
        nodes: Sequence[Episode | Topic],
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
    ) -> list[float]:
        return [
            fused_similarity(
                q_text,
                q_visual,
                n.text_vec,
                n.visual_vec,
                self.state.config.text_weight,
                self.state.config.visual_weight,
            )
            for n in nodes
        ]

    def semantic_match(
        self,
        query_content: str,
        retrieval_scope: Scope = "event",
        result_budget: int = 10,
    ) -> list[MemoryUnit]:
        """SemanticMatch: the best units of one hierarchy level for a query."""
        if retrieval_scope not in ("event", "episode", "topic"):
            raise ToolInputError(
                "retrieval_scope must be one of topic, episode, event."
            )
        _require_positive(result_budget, "result_budget")
        q_text, q_visual = self._query_vectors(query_content)
        with self.state.state_lock:
            return self._semantic_match(
                q_text, q_visual, retrieval_scope, result_budget, query_content
            )

    def _semantic_match(
        self,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        retrieval_scope: Scope,
        result_budget: int,
        query: str | None = None,
    ) -> list[MemoryUnit]:
        if retrieval_scope == "event":
            parts = self.event_parts(
                q_text, q_visual, max(50, 5 * result_budget), query
            )
            best = sorted(parts.items(), key=lambda x: (-x[1][0], x[0]))
            best = best[:result_budget]
            found = self.state.hierarchy.events.many_at(pos for pos, _ in best)
            return [
                self._unit_of(ev, *p) for ev, (_, p) in zip(found, best, strict=True)
            ]
        h = self.state.hierarchy
        level = h.node_vectors(retrieval_scope)
        fused, dense, lexical = self.node_parts(level, q_text, q_visual, query)
        top = np.argsort(-fused, kind="stable")[:result_budget]
        ranked = [(float(fused[i]), level.nodes[i]) for i in top]
        part_of: dict[int, tuple[float | None, float | None]] = {
            id(level.nodes[i]): (
                round(float(dense[i]), 6),
                None if lexical is None else round(float(lexical[i]), 6),
            )
            for i in top
        }
        if lexical is None:
            part_of = {k: (None, None) for k in part_of}
        firsts = {
            ev.round_id: ev
            for ev in h.events.many(
                n.event_ids[0]
                for _, n in ranked
                if isinstance(n, Episode) and n.event_ids
            )
        }
        out = []
        for score, node in ranked:
            if isinstance(node, Episode):
                first = firsts[node.event_ids[0]] if node.event_ids else None
                out.append(
                    MemoryUnit(
                        unit_type="episode",
                        unit_id=f"episode:{node.episode_id}",
                        score=round(score, 6),
                        content=node.description,
                        round_ids=list(node.event_ids),
                        session_id=first.session_id if first else None,
                        order=first.order if first else None,
                        time=_iso(node.start),
                        end_time=_iso(node.end),
                        dense_score=part_of[id(node)][0],
                        lexical_score=part_of[id(node)][1],
                    )
                )
            else:
                rounds = [r for e in node.episode_ids for r in h.episodes[e].event_ids]
                out.append(
                    MemoryUnit(
                        unit_type="topic",
                        unit_id=f"topic:{node.topic_id}",
                        score=round(score, 6),
                        content=node.description,
                        round_ids=rounds,
                        dense_score=part_of[id(node)][0],
                        lexical_score=part_of[id(node)][1],
                    )
                )
        return out

    def event_locate(
        self, query_content: str, result_budget: int = 10, window: int | None = None
    ) -> list[MemoryUnit]:
        """EventLocate: the best events, each with its neighbours in its session."""
        w = self.state.config.event_window if window is None else window
        _require_positive(result_budget, "result_budget")
        q_text, q_visual = self._query_vectors(query_content)
        with self.state.state_lock:
            units = self._semantic_match(
                q_text, q_visual, "event", result_budget, query_content
            )
            for unit in units:
                self._add_neighbours(unit, w)
        return units

    def _add_neighbours(self, unit: MemoryUnit, w: int) -> None:
        """An event's neighbours: up to ``w`` rounds either side in its session."""
        session = self.session_rounds(unit.session_id or "")
        at = session.index(unit.unit_id)
        around = [r for r in session[max(0, at - w) : at + w + 1] if r != unit.unit_id]
        unit.neighbours = [
            self._unit_of(ev, 0.0) for ev in self.state.hierarchy.events.many(around)
        ]

    def retrieve_rounds(
        self, query: str, k: int = 10, *, hierarchical: bool = True
    ) -> list[str]:
        """Round ids for a query, for evaluation against gold evidence rounds.

        With ``hierarchical``, an event's score blends in its episode's score
        (weight ``config.episode_context_weight``), so that rounds of a matching
        episode rank together.
        """
        scored = self.scored_rounds(query, k, hierarchical=hierarchical)
        return [rid for rid, _ in scored]

    def scored_rounds(
        self, query: str, k: int = 10, *, hierarchical: bool = True
    ) -> list[tuple[str, float]]:
        """:meth:`retrieve_rounds` with each round's score, best first."""
        _require_positive(k, "k")
        q_text, q_visual = self._query_vectors(query)
        with self.state.state_lock:
            return self._retrieve_rounds(q_text, q_visual, k, hierarchical, query)

    def _retrieve_rounds(
        self,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        k: int,
        hierarchical: bool,
        query: str | None = None,
    ) -> list[tuple[str, float]]:
        scores = self.event_scores(q_text, q_visual, max(100, 10 * k), query)
        if hierarchical and self.state.config.episode_context_weight > 0:
            g = self.state.config.episode_context_weight
            h = self.state.hierarchy
            level = h.node_vectors("episode")
            fused = self.node_parts(level, q_text, q_visual, query)[0]
            at = {n.episode_id: i for i, n in enumerate(level.nodes)}  # type: ignore[union-attr]
            for pos in list(scores):
                ep_id = h.events.episode_at(pos)
                if ep_id is None or ep_id not in at:
                    continue
                scores[pos] = (1 - g) * scores[pos] + g * float(fused[at[ep_id]])
        best = sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:k]
        ids = self.state.hierarchy.events.ids
        return [(ids[pos], float(score)) for pos, score in best]


__all__ = [
    "MemoryUnit",
    "Parts",
    "RetrievalSearcher",
    "Scope",
    "StateLock",
    "fuse_lexical",
]
