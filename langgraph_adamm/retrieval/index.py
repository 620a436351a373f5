"""Vector search with FAISS: exact inner product, HNSW past a size, GPU when there.

The exact CPU index is the default and the tested path. Past
``approximate_above`` vectors (``AdaMMConfig.approximate_search_above``) a CPU
index switches to an HNSW graph over the same vectors. When faiss reports a GPU
(the faiss-gpu package), the exact index is copied to the GPUs and returns the
same results.
"""

from __future__ import annotations

import logging
from pathlib import Path
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

    Exact inner-product search (``IndexFlatIP``) up to ``approximate_above``
    vectors; past it, on CPU, the index becomes an HNSW graph over the same
    vectors (``IndexHNSWFlat``: row ids, scores and ``reconstruct`` unchanged in
    meaning), searched with ``ef_search`` candidates (at least k).

    Args:
        dim: Vector dimension.
        use_gpu: None (default) uses the GPUs when faiss sees any; False never.
            A GPU index stays exact.
        approximate_above: Vector count past which HNSW replaces exact search;
            None: always exact.
        hnsw_m: HNSW graph degree.
        ef_construction: HNSW build-time candidate list.
        ef_search: HNSW search-time candidate list.
    """

    def __init__(
        self,
        dim: int,
        *,
        use_gpu: bool | None = None,
        approximate_above: int | None = None,
        hnsw_m: int = 32,
        ef_construction: int = 80,
        ef_search: int = 512,
    ) -> None:
        faiss = _faiss()
        self.dim = dim
        self.approximate_above = approximate_above
        self.hnsw_m = hnsw_m
        self.ef_construction = ef_construction
        self.ef_search = ef_search
        cpu = faiss.IndexFlatIP(dim)
        self.on_gpu = False
        self.mapped = False  # the vectors are a read-only map of a file (read)
        gpus = faiss.get_num_gpus() if hasattr(faiss, "get_num_gpus") else 0
        if use_gpu is not False and gpus > 0:
            self._index = faiss.index_cpu_to_all_gpus(cpu)
            self.on_gpu = True
        else:
            self._index = cpu

    @property
    def approximate(self) -> bool:
        """Whether searches go through the HNSW graph."""
        return not isinstance(self._index, _faiss().IndexFlat) and not self.on_gpu

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def _hnsw(self) -> Any:
        faiss = _faiss()
        index = faiss.IndexHNSWFlat(self.dim, self.hnsw_m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = self.ef_construction
        index.hnsw.efSearch = self.ef_search
        return index

    def add(self, vectors: np.ndarray) -> None:
        """Append rows (row ids continue from the current size)."""
        if not len(vectors):
            return
        rows = np.ascontiguousarray(vectors, dtype=np.float32)
        limit = self.approximate_above
        if (
            limit is not None
            and not self.on_gpu
            and not self.approximate
            and len(self) + len(rows) > limit
        ):
            hnsw = self._hnsw()
            if len(self):
                hnsw.add(self._index.reconstruct_n(0, len(self)))
            logger.info(
                "vector index past %d vectors: switching to HNSW (M=%d)",
                limit,
                self.hnsw_m,
            )
            self._index = hnsw
            self.mapped = False
        self._own()
        self._index.add(rows)

    def _own(self) -> None:
        """A mapped file is read-only: take a copy before changing the index."""
        if self.mapped:
            faiss = _faiss()
            self._index = faiss.deserialize_index(faiss.serialize_index(self._index))
            self.mapped = False

    def remove(self, rows: np.ndarray) -> None:
        """Delete rows; the rows after each deleted one move up (order kept).

        An exact CPU index deletes in place. An HNSW graph cannot delete, so it
        is built again from the rows that stay (its cost: see BENCHMARKS.md);
        a GPU index is refilled from its remaining rows.
        """
        rows = np.unique(np.asarray(rows, dtype=np.int64))
        if not len(rows):
            return
        faiss = _faiss()
        if isinstance(self._index, faiss.IndexFlat):
            self._own()
            self._index.remove_ids(faiss.IDSelectorBatch(rows))
            return
        keep = np.setdiff1d(np.arange(len(self), dtype=np.int64), rows)
        vectors = self._index.reconstruct_n(0, len(self))[keep]
        if self.approximate:  # a new graph: a mapped one is left as it is
            self._index = self._hnsw()
            self.mapped = False
        else:  # a GPU index: emptied and refilled
            self._index.reset()
        if len(keep):
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k scores and row ids for one query vector."""
        k = min(k, len(self))
        if k <= 0:
            return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64)
        scores, rows = self._search(
            np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k
        )
        keep = rows[0] >= 0
        return scores[0][keep], rows[0][keep]

    def _search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        if self.approximate:  # per call: concurrent searches share the graph
            params = _faiss().SearchParametersHNSW()
            params.efSearch = max(self.ef_search, k)
            return self._index.search(queries, k, params=params)
        return self._index.search(queries, k)

    def search_many(self, queries: np.ndarray, k: int) -> list[list[tuple[float, int]]]:
        """Top-k (score, row) pairs for each of several query vectors, one call."""
        k = min(k, len(self))
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        scores, rows = self._search(np.ascontiguousarray(queries, dtype=np.float32), k)
        return [
            [(float(s), int(r)) for s, r in zip(srow, rrow, strict=True) if r >= 0]
            for srow, rrow in zip(scores, rows, strict=True)
        ]

    def reconstruct(self, rows: list[int]) -> np.ndarray:
        """The stored vectors of some rows."""
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._index.reconstruct(int(r)) for r in rows])

    # -- persistence ---------------------------------------------------------
    def write(self, path: Path) -> None:
        """Write the index (a GPU index is written as its CPU copy)."""
        faiss = _faiss()
        index = faiss.index_gpu_to_cpu(self._index) if self.on_gpu else self._index
        faiss.write_index(index, str(path))

    @classmethod
    def read(cls, path: Path, *, mmap: bool = True, **options: Any) -> VectorIndex:
        """An index written by :meth:`write`, with this process's options.

        With ``mmap`` the vectors are mapped from the file rather than read:
        opening costs no time in the index's size, and pages are read as
        searches touch them. The first :meth:`add` makes an owned copy.
        """
        faiss = _faiss()
        flag = getattr(faiss, "IO_FLAG_MMAP_IFC", 0) if mmap else 0
        stored = faiss.read_index(str(path), flag)
        out = cls(int(stored.d), **options)
        if isinstance(stored, faiss.IndexFlat) or out.on_gpu:
            limit = out.approximate_above
            if out.on_gpu or (limit is not None and stored.ntotal > limit):
                if stored.ntotal:  # to the GPU, or past the threshold: to HNSW
                    out.add(stored.reconstruct_n(0, stored.ntotal))
                return out
        else:  # an HNSW graph: kept as it is
            stored.hnsw.efSearch = out.ef_search
        out._index = stored
        out.mapped = bool(flag)
        return out
