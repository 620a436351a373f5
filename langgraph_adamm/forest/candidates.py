"""Candidate memories and the bounded candidate graph the evidence forest works on.

A *memory* here is finer than a round (GraphMemix's granularity): a user turn, an
assistant turn, or one image with its caption and OCR. Each keeps the round it
came from, so a selection maps back to round ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RELATION_KINDS = ("same_round", "consecutive_turn", "same_place")
"""Explicit (schema) relations the discovery graph derives from metadata
(``same_place`` only where rounds carry a ``location``)."""


@dataclass
class ForestCandidate:
    """One candidate memory.

    Attributes:
        memory_id: Stable id, e.g. ``"D1:2#user"`` or ``"D1:2#image:IMG_3"``.
        round_id: The round the memory belongs to.
        text: Canonical text (the turn, or the image's caption).
        score: Retrieval score s (multi-view: the best of the memory's views).
        modalities: ``"text"`` and/or ``"image"``.
        session_id: Session of the round, for ``consecutive_turn``.
        position: Sequence position in the history; two memories of one session
            whose positions are adjacent among that session's memories are
            consecutive turns.
        date: ISO date(-time) of the round, when known.
        location: Where, when the data says.
        ocr: Text read from the image, when any.
        retrieved: False for a neighbour that discovery added and retrieval did
            not return.
    """

    memory_id: str
    round_id: str
    text: str
    score: float
    modalities: tuple[str, ...] = ("text",)
    session_id: str | None = None
    position: int | None = None
    date: str | None = None
    location: str | None = None
    ocr: str | None = None
    retrieved: bool = True


@dataclass
class CandidatePool:
    """The bounded candidate set of one question, in discovery order.

    Attributes:
        question: The question text.
        candidates: Retrieval seeds first (in retrieval order), then 1-hop
            neighbours in expansion order.
        explicit: Explicit relations between candidate indices ``(i, j)``, i < j.
        semantic: Semantic (mutual kNN) similarities between candidate indices,
            i < j; they only widened the pool.
        anchors: Indices of the anchor candidates (the first ones in retrieval
            order).
        question_image_captions: Captions of images attached to the question.
    """

    question: str
    candidates: list[ForestCandidate]
    explicit: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    semantic: dict[tuple[int, int], float] = field(default_factory=dict)
    anchors: list[int] = field(default_factory=list)
    question_image_captions: list[str] = field(default_factory=list)

    def eligible_anchors(self, i: int) -> list[tuple[int, str]]:
        """(anchor index, relation kind) pairs candidate ``i`` may attach to."""
        out: list[tuple[int, str]] = []
        for a in self.anchors:
            if a == i:
                continue
            for kind in self.explicit.get((min(a, i), max(a, i)), ()):
                out.append((a, kind))
        return out
