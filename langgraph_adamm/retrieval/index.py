"""Vector search with FAISS: an exact inner-product index, on a GPU when one is there.

The CPU index is the default and the tested path. When faiss reports a GPU (the
faiss-gpu package), the same index is copied to the GPUs and returns the same
results.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as exc:
        from langgraph_adamm.errors import AdaMMError

        raise AdaMMError(
            "retrieval memory needs faiss: pip install 'langgraph-adamm[retrieval]' "
            "(or faiss-gpu for the GPU index)"
        ) from exc
    return faiss


class VectorIndex:
    """Unit vectors with int64 owners; search returns (score, row) pairs.

    Args:
        dim: Vector dimension.
        use_gpu: None (default) uses the GPUs when faiss sees any; False never.
    """

    def __init__(self, dim: int, *, use_gpu: bool | None = None) -> None:
        faiss = _faiss()
        self.dim = dim
        self._cpu = faiss.IndexFlatIP(dim)
        self.on_gpu = False
        gpus = faiss.get_num_gpus() if hasattr(faiss, "get_num_gpus") else 0
        if use_gpu is not False and gpus > 0:
            self._index = faiss.index_cpu_to_all_gpus(self._cpu)
            self.on_gpu = True
        else:
            self._index = self._cpu

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def add(self, vectors: np.ndarray) -> None:
        """Append rows (row ids continue from the current size)."""
        if len(vectors):
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k scores and row ids for one query vector."""
        k = min(k, len(self))
        if k <= 0:
            return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64)
        scores, rows = self._index.search(
            np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k
        )
        keep = rows[0] >= 0
        return scores[0][keep], rows[0][keep]

    def search_many(self, queries: np.ndarray, k: int) -> list[list[tuple[float, int]]]:
        """Top-k (score, row) pairs for each of several query vectors, one call."""
        k = min(k, len(self))
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        scores, rows = self._index.search(
            np.ascontiguousarray(queries, dtype=np.float32), k
        )
        return [
            [(float(s), int(r)) for s, r in zip(srow, rrow, strict=True) if r >= 0]
            for srow, rrow in zip(scores, rows, strict=True)
        ]

    def reconstruct(self, rows: list[int]) -> np.ndarray:
        """The stored vectors of some rows."""
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._index.reconstruct(int(r)) for r in rows])
