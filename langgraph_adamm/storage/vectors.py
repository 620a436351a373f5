"""Vectors as the database binds and searches them, whatever the engine.

:class:`SqlVector` and :class:`SqlVectors` wrap vectors sent as parameters: an
engine that keeps a vector column (PostgreSQL with pgvector) binds them as its
``vector`` type. :class:`ViewSearch` is what a database's
:meth:`~langgraph_adamm.storage.database.MemoryDatabase.view_search` gives where
the engine searches event views itself (None elsewhere: FAISS searches).
:func:`vector_of` / :func:`blob_of` read and write the stored format,
little-endian float32 bytes, that every table with a vector column uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np


def vector_of(v: Any) -> np.ndarray | None:
    """A stored vector (little-endian float32 bytes) as an array."""
    if v is None:
        return None
    return np.frombuffer(bytes(v), dtype="<f4").astype(np.float32)


def vectors_of(blobs: list[Any]) -> list[np.ndarray | None]:
    """Many stored vectors at once (None stays None).

    The rows are read-only views of one buffer: node sums are replaced, never
    changed in place.
    """
    present = [i for i, b in enumerate(blobs) if b is not None]
    out: list[np.ndarray | None] = [None] * len(blobs)
    if not present:
        return out
    sizes = {len(blobs[i]) for i in present}
    if len(sizes) != 1:  # mixed dimensions: one by one
        return [vector_of(b) for b in blobs]
    flat = b"".join(bytes(blobs[i]) for i in present)
    matrix = np.frombuffer(flat, dtype="<f4").reshape(len(present), -1)
    for row, i in enumerate(present):
        out[i] = matrix[row]
    return out


def blob_of(v: np.ndarray | None) -> bytes | None:
    """A vector as stored: little-endian float32 bytes (one value, not 384)."""
    return None if v is None else np.asarray(v, dtype="<f4").tobytes()


class SqlVector:
    """A float32 vector bound as a pgvector ``vector`` parameter (binary)."""

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray) -> None:
        self.values = values


class SqlVectors(list[Any]):
    """A list of :class:`SqlVector` (or None) bound as ``vector[]``, in binary."""


class ViewSearch(Protocol):
    """One user's event views, searched where they are stored."""

    counts: dict[str, int]
    """Views per modality."""

    def reload(self) -> None:
        """Count the views again (after a forget)."""

    def ensure_index(self, modality: str, dim: int) -> bool:
        """Build the approximate index of a modality; whether it exists now."""

    def index_due(self, modality: str, adding: int) -> bool:
        """Whether adding this many views passes the approximate threshold."""

    def approximate(self, modality: str) -> bool:
        """Whether searches of a modality go through the approximate index."""

    def search(
        self, modality: str, query: np.ndarray, k: int
    ) -> list[tuple[str, float]]:
        """The best ``k`` views' round ids and scores for a query vector."""

    def best_of(
        self, modality: str, round_ids: Sequence[str], query: np.ndarray
    ) -> dict[str, float]:
        """Each listed round's best view score for a query vector."""
