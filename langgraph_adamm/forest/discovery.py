"""Candidate discovery over a retrieval memory (GraphMemix, "Candidates").

The retrieval memory stores several views per round (the whole round, its
dialogue, each caption and OCR text, each image, and with ``turn_views`` each
turn). Here they are regrouped into *memories* at GraphMemix's granularity:

- ``<round>#user`` and ``<round>#assistant``: one turn each (``turn_views``);
- ``<round>#dialogue``: the round's dialogue, when its turns are not split;
- ``<round>#image:<id>``: one image, through its caption, OCR and pixels.

A memory's retrieval score is the best of its views (multi-view max; text and
visual similarities fused late as for events). The top ``seeds`` memories are the
seeds; the pool is filled up to ``pool`` with the seeds' 1-hop neighbours in the
discovery graph, ordered by (−edge similarity, seed rank). Relations:
``same_round`` and ``consecutive_turn`` (adjacent memories of one session), each
at similarity 0.99, ``same_place`` (rounds of one session with the same
``location`` metadata), and mutual-kNN semantic edges (k = 8, cosine of the
memories' text vectors). Discovery reads only memory content and metadata.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_adamm.config import ForestConfig
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.retrieval.encoders import base_view
from langgraph_adamm.retrieval.hierarchy import fuse
from langgraph_adamm.retrieval.index import VectorIndex
from langgraph_adamm.retrieval.memory import TURN_VIEW_PREFIX
from langgraph_adamm.storage.rounds import load_rounds
from langgraph_adamm.storage.vectors import vector_of

if TYPE_CHECKING:
    from langgraph_adamm.retrieval.memory import RetrievalMemory

_TURN_ORDER = {"user": 0, "dialogue": 1, "image": 2, "assistant": 3}


def _memory_kind(view: str, only_text_view: bool, has_turns: bool) -> str | None:
    """The memory a stored view belongs to, or None for a whole-round view."""
    view = base_view(view)  # a piece of a long view belongs where the view does
    if view.startswith(TURN_VIEW_PREFIX):
        return view[len(TURN_VIEW_PREFIX) :]
    if view == "round":
        return "dialogue" if only_text_view else None
    if view == "dialogue":
        return None if has_turns else "dialogue"
    kind, _, image_id = view.partition(":")
    if kind in ("caption", "ocr", "image") and image_id:
        return f"image:{image_id}"
    return None


def _place(meta: Any) -> str | None:
    """A round's ``location`` metadata, case-folded, when it has one."""
    if not meta:
        return None
    try:
        loc = json.loads(meta).get("location")
    except (ValueError, AttributeError):
        return None
    return str(loc).strip().lower() or None if loc else None


def _position_in(seq: list[int], i: int) -> int:
    """Where memory ``i`` sits in its session's (ascending) sequence."""
    import bisect

    return bisect.bisect_left(seq, i)


def _kind_order(kind: str) -> tuple[Any, ...]:
    head, _, image_id = kind.partition(":")
    natural = tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in re.split(r"(\d+)", image_id)
        if part
    )
    return (_TURN_ORDER[head], natural)


@dataclass
class _Memory:
    memory_id: str
    round_id: str
    kind: str
    session_id: str
    position: int


class MemoryCatalogue:
    """Every memory of one user's retrieval memory, with its view vectors.

    Built from the stored views (no encoding). Events are appended, so
    :meth:`extend` reads just the rounds indexed since the last call; after
    rounds are forgotten the owner builds a new catalogue (``forgotten``).
    """

    def __init__(self, retrieval: RetrievalMemory) -> None:
        self.retrieval = retrieval
        self.event_count = 0
        self.forgotten = retrieval.forgotten  # the memory's forget count when built
        self._last_order: int | None = None
        self.memories: list[_Memory] = []
        self.place: list[str | None] = []
        self.index_of: dict[str, int] = {}
        dim = retrieval.text_encoder.dim
        self.text_index = VectorIndex(dim, use_gpu=False)
        self.text_owner: list[int] = []
        self.visual_index: VectorIndex | None = None
        self.visual_owner: list[int] = []
        self.text_views: dict[int, list[int]] = {}
        self.visual_views: dict[int, list[int]] = {}
        # one text vector per memory (its first text view) for the semantic relation
        self.has_primary: list[bool] = []
        self.primary_rows: list[int] = []
        self.primary_index = VectorIndex(dim, use_gpu=False)
        self._primary: dict[int, np.ndarray] = {}
        self.session_sequence: dict[str, list[int]] = {}
        self.session_rounds: dict[str, list[str]] = {}
        self.by_round: dict[str, list[int]] = {}
        self.extend()

    def extend(self) -> int:
        """Add the memories of rounds indexed since the last call; how many."""
        db, uid = self.retrieval.db, self.retrieval.user_id
        self.event_count = self.retrieval.event_count  # read first: never too high
        after = self._last_order
        rows = db.fetchall(
            'SELECT v.round_id, e.session_id, e."order", v.view, v.modality, v.vec, '
            "r.metadata FROM adamm_event_views v "
            "JOIN adamm_events e USING (user_id, round_id) "
            "JOIN adamm_rounds r USING (user_id, round_id) "
            'WHERE v.user_id = ? AND e."order" > ? ORDER BY e."order", v.view',
            [uid, -1 if after is None else after],
        )
        by_round: dict[str, list[tuple[str, str, Any]]] = {}
        info: dict[str, tuple[str, int, str | None]] = {}
        for rid, sid, order, view, modality, vec, meta in rows:
            by_round.setdefault(rid, []).append((view, modality, vec))
            if rid not in info:
                info[rid] = (sid, order, _place(meta))
        before = len(self.memories)
        text_vecs: list[np.ndarray] = []
        visual_vecs: list[np.ndarray] = []
        primary_new: list[int] = []
        for rid in sorted(by_round, key=lambda r: info[r][1]):
            sid, order, place = info[rid]
            views = by_round[rid]
            text_views = list(
                dict.fromkeys(base_view(v) for v, m, _ in views if m == "text")
            )
            has_turns = any(v.startswith(TURN_VIEW_PREFIX) for v in text_views)
            grouped: dict[str, list[tuple[str, Any]]] = {}
            for view, modality, vec in views:
                kind = _memory_kind(view, len(text_views) == 1, has_turns)
                if kind is not None:
                    grouped.setdefault(kind, []).append((modality, vec))
            # user turn, dialogue, images in their (natural) id order, assistant turn
            kinds = sorted(grouped, key=_kind_order)
            self.session_rounds.setdefault(sid, []).append(rid)
            for kind in kinds:
                idx = len(self.memories)
                memory = _Memory(f"{rid}#{kind}", rid, kind, sid, idx)
                self.memories.append(memory)
                self.place.append(place)
                self.index_of[memory.memory_id] = idx
                self.session_sequence.setdefault(sid, []).append(idx)
                self.by_round.setdefault(rid, []).append(idx)
                self.has_primary.append(False)
                for modality, vec in grouped[kind]:
                    v = vector_of(vec)
                    assert v is not None  # every stored view holds a vector
                    if modality == "text":
                        self.text_views.setdefault(idx, []).append(len(self.text_owner))
                        self.text_owner.append(idx)
                        text_vecs.append(v)
                        if not self.has_primary[idx]:
                            self.has_primary[idx] = True
                            self._primary[idx] = v
                            primary_new.append(idx)
                    else:
                        self.visual_views.setdefault(idx, []).append(
                            len(self.visual_owner)
                        )
                        self.visual_owner.append(idx)
                        visual_vecs.append(v)
            self._last_order = order
        if text_vecs:
            self.text_index.add(np.stack(text_vecs))
        if visual_vecs:
            if self.visual_index is None:
                self.visual_index = VectorIndex(len(visual_vecs[0]), use_gpu=False)
            self.visual_index.add(np.stack(visual_vecs))
        if primary_new:
            self.primary_rows.extend(primary_new)
            self.primary_index.add(np.stack([self._primary[i] for i in primary_new]))
        return len(self.memories) - before

    def __len__(self) -> int:
        return len(self.memories)

    @property
    def has_turns(self) -> bool:
        """Whether single turns are memories (the store was built with turn views)."""
        return any(m.kind in ("user", "assistant") for m in self.memories)

    # -- scores --------------------------------------------------------------
    def scores(
        self, q_text: np.ndarray, q_visual: np.ndarray | None, depth: int
    ) -> dict[int, float]:
        """Multi-view scores of at least ``depth`` best memories (when there are)."""
        n_views = max(len(self.text_index), len(self.visual_index or ()))
        want = min(depth, len(self.memories))
        candidates = max(depth, 1)
        while True:
            text_best: dict[int, float] = {}
            s, rows = self.text_index.search(q_text, candidates)
            for score, r in zip(s, rows, strict=True):
                o = self.text_owner[r]
                text_best[o] = max(text_best.get(o, -1.0), float(score))
            visual_best: dict[int, float] = {}
            if q_visual is not None and self.visual_index is not None:
                s, rows = self.visual_index.search(q_visual, candidates)
                for score, r in zip(s, rows, strict=True):
                    o = self.visual_owner[r]
                    visual_best[o] = max(visual_best.get(o, -1.0), float(score))
            if len(text_best.keys() | visual_best.keys()) >= want or (
                candidates >= n_views
            ):
                break
            candidates *= 4
        return {
            o: self.score_of(o, q_text, q_visual, text_best, visual_best)
            for o in text_best.keys() | visual_best.keys()
        }

    def score_of(
        self,
        i: int,
        q_text: np.ndarray,
        q_visual: np.ndarray | None,
        text_best: dict[int, float] | None = None,
        visual_best: dict[int, float] | None = None,
    ) -> float:
        """One memory's multi-view score (best view per modality, fused)."""
        cfg = self.retrieval.config
        t = (text_best or {}).get(i)
        if t is None and self.text_views.get(i):
            t = float(np.max(self.text_index.reconstruct(self.text_views[i]) @ q_text))
        v = (visual_best or {}).get(i)
        if (
            v is None
            and q_visual is not None
            and self.visual_index is not None
            and self.visual_views.get(i)
        ):
            v = float(
                np.max(self.visual_index.reconstruct(self.visual_views[i]) @ q_visual)
            )
        return fuse(t, v, cfg.text_weight, cfg.visual_weight)

    # -- relations -----------------------------------------------------------
    def explicit_neighbours(self, i: int) -> dict[int, tuple[str, ...]]:
        """Memories sharing an explicit relation with ``i``, with the relation kinds.

        ``same_round``: the same round. ``consecutive_turn``: adjacent memories of
        one session. ``same_place``: the memories of the nearest earlier and the
        nearest later round of the session with the same ``location`` metadata
        (at most two rounds, so that one place cannot flood the pool).
        """
        m = self.memories[i]
        out: dict[int, list[str]] = {}
        for j in self.by_round[m.round_id]:
            if j != i:
                out.setdefault(j, []).append("same_round")
        seq = self.session_sequence[m.session_id]
        at = _position_in(seq, i)
        for j in seq[max(0, at - 1) : at + 2]:
            if j != i:
                out.setdefault(j, []).append("consecutive_turn")
        place = self.place[i]
        if place:
            rounds = self.session_rounds[m.session_id]
            here = rounds.index(m.round_id)
            for step in (-1, 1):
                k = here + step
                while 0 <= k < len(rounds):
                    members = self.by_round[rounds[k]]
                    if self.place[members[0]] == place:
                        for j in members:
                            out.setdefault(j, []).append("same_place")
                        break
                    k += step
        return {j: tuple(kinds) for j, kinds in out.items()}

    def mutual_knn(self, nodes: Iterable[int], k: int) -> dict[int, dict[int, float]]:
        """Mutual k-nearest-neighbour edges of ``nodes``: {i: {j: cosine}}."""
        nodes = [i for i in dict.fromkeys(nodes) if self.has_primary[i]]
        if not nodes or len(self.primary_rows) < 2:
            return {}
        knn = self._knn(nodes, k)
        others = sorted({j for i in nodes for j in knn[i]} - knn.keys())
        knn.update(self._knn(others, k))
        out: dict[int, dict[int, float]] = {}
        for i in nodes:
            for j, sim in knn[i].items():
                if i in knn.get(j, {}):
                    out.setdefault(i, {})[j] = (sim + knn[j][i]) / 2
        return out

    def _knn(self, nodes: Sequence[int], k: int) -> dict[int, dict[int, float]]:
        if not nodes:
            return {}
        hits = self.primary_index.search_many(
            np.stack([self._primary[i] for i in nodes]), k + 1
        )
        out: dict[int, dict[int, float]] = {}
        for i, found in zip(nodes, hits, strict=True):
            near = [(self.primary_rows[r], s) for s, r in found]
            out[i] = dict([(j, s) for j, s in near if j != i][:k])
        return out

    # -- content -------------------------------------------------------------
    def candidates(
        self, indices: Sequence[int], scores: Sequence[float], retrieved: Sequence[bool]
    ) -> list[ForestCandidate]:
        """Candidates with their text, date, place and OCR, read from the rounds."""
        rounds = {
            r.round_id: r
            for _, r in load_rounds(
                self.retrieval.db,
                self.retrieval.user_id,
                "round_id IN (SELECT unnest(?::VARCHAR[]))",
                [sorted({self.memories[i].round_id for i in indices})],
            )
        }
        out = []
        for i, score, was in zip(indices, scores, retrieved, strict=True):
            m = self.memories[i]
            rnd = rounds.get(m.round_id)
            text, ocr = "", None
            modalities: tuple[str, ...] = ("text",)
            if rnd is not None:
                if m.kind == "user":
                    text = rnd.user
                elif m.kind == "assistant":
                    text = rnd.assistant
                elif m.kind == "dialogue":
                    text = "\n".join(
                        f"{who}: {t}"
                        for who, t in (("User", rnd.user), ("Assistant", rnd.assistant))
                        if t
                    )
                else:
                    image_id = m.kind.partition(":")[2]
                    img = next((x for x in rnd.images if x.image_id == image_id), None)
                    modalities = ("image",)
                    if img is not None:
                        text, ocr = img.caption or "", img.ocr or None
                        if img.caption or img.ocr:
                            modalities = ("image", "text")
            out.append(
                ForestCandidate(
                    memory_id=m.memory_id,
                    round_id=m.round_id,
                    text=text,
                    score=float(score),
                    modalities=modalities,
                    session_id=m.session_id,
                    position=m.position,
                    date=rnd.time.isoformat() if rnd and rnd.time else None,
                    location=self.place[i],
                    ocr=ocr,
                    retrieved=was,
                )
            )
        return out


def discover(
    catalogue: MemoryCatalogue,
    question: str,
    config: ForestConfig,
    *,
    within_rounds: Iterable[str] | None = None,
    question_image_captions: Sequence[str] = (),
) -> tuple[CandidatePool, list[int]]:
    """The bounded candidate pool of a question, and the retrieval order.

    Args:
        catalogue: The user's memories.
        question: The query text (with any image caption already appended).
        config: Seeds, pool size, kNN k, anchors, retrieval depth.
        within_rounds: When given, retrieval is restricted to these rounds'
            memories (the query graph reranks what its tools returned); the
            neighbours may come from anywhere.
        question_image_captions: Shown to the verifiers.

    Returns:
        The pool, and the catalogue indices of the retrieval ranking (best first,
        ``retrieval_depth`` long at most) - the "source top-K" of the benchmark's
        evidence-access analysis.
    """
    retrieval = catalogue.retrieval
    q_text, q_visual = retrieval._query_vectors(question)
    if within_rounds is not None:
        allowed = [
            i
            for r in dict.fromkeys(within_rounds)
            for i in catalogue.by_round.get(r, [])
        ]
        scores = {i: catalogue.score_of(i, q_text, q_visual) for i in allowed}
    else:
        scores = catalogue.scores(q_text, q_visual, config.retrieval_depth)
    lexical = retrieval.round_lexical_scores(question)
    if lexical:  # fused as events are: a memory has its round's lexical score
        if within_rounds is None:
            top_rounds = sorted(lexical, key=lambda r: (-lexical[r], r))
            for rid in top_rounds[: config.retrieval_depth]:
                for i in catalogue.by_round.get(rid, []):
                    if i not in scores:
                        scores[i] = catalogue.score_of(i, q_text, q_visual)
        w = retrieval.config.lexical_weight
        scores = {
            i: (1 - w) * s + w * lexical.get(catalogue.memories[i].round_id, 0.0)
            for i, s in scores.items()
        }
    ranking = sorted(scores, key=lambda i: (-scores[i], i))[: config.retrieval_depth]
    seeds = ranking[: config.seeds]
    floor = (min(scores[i] for i in ranking) - 0.01) if ranking else 0.0
    seed_rank = {i: r for r, i in enumerate(seeds)}
    semantic = catalogue.mutual_knn(seeds, config.knn)
    best: dict[int, tuple[float, int]] = {}
    for i in seeds:
        edges: dict[int, float] = {
            j: config.explicit_similarity for j in catalogue.explicit_neighbours(i)
        }
        for j, sim in semantic.get(i, {}).items():
            edges[j] = max(edges.get(j, -1.0), sim)
        for j, sim in edges.items():
            if j in seed_rank:
                continue
            key = (-sim, seed_rank[i])
            if j not in best or key < best[j]:
                best[j] = key
    room = max(0, config.pool - len(seeds))
    neighbours = sorted(best, key=lambda j: (best[j], j))[:room]
    members = seeds + neighbours
    retrieved = set(ranking)
    cand = catalogue.candidates(
        members,
        [scores[i] if i in retrieved else floor for i in members],
        [i in retrieved for i in members],
    )
    local = {g: n for n, g in enumerate(members)}
    explicit: dict[tuple[int, int], tuple[str, ...]] = {}
    for g in members:
        for h, kinds in catalogue.explicit_neighbours(g).items():
            if h in local and local[g] < local[h]:
                explicit[(local[g], local[h])] = kinds
    sem_local: dict[tuple[int, int], float] = {}
    for g, nbrs in semantic.items():
        for h, sim in nbrs.items():
            if h in local:
                a, b = sorted((local[g], local[h]))
                sem_local[(a, b)] = sim
    pool = CandidatePool(
        question=question,
        candidates=cand,
        explicit=explicit,
        semantic=sem_local,
        anchors=list(range(min(config.anchors, len(seeds)))),
        question_image_captions=list(question_image_captions),
    )
    return pool, ranking
