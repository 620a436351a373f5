"""Vector search with FAISS: exact inner product, HNSW past a size, GPU when there.

The exact CPU index is the default and the tested path. Past
``approximate_above`` vectors (``AdaMMConfig.approximate_search_above``) a CPU
index switches to an HNSW graph over the same vectors. When faiss reports a GPU
(the faiss-gpu package), the exact index is copied to the GPUs and returns the
same results.

Deleting rows (forgetting) marks them dead instead of moving every row after
them: a dead row's vector is overwritten with zeros, searches skip it (a
faiss selector), and row ids skip it, so to callers the rows after it move up
as if it were gone. An HNSW graph cannot delete at all, and an exact index
deletes by moving all later rows, so both costs grow with the index; marking
costs what it deletes. Once more than ``compact_fraction`` of the rows are
dead the index is compacted (rebuilt from the live rows) in one go.
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


def _live_vectors(index: Any, dead: np.ndarray) -> np.ndarray:
    """A faiss index's stored vectors without its dead rows."""
    vectors = index.reconstruct_n(0, int(index.ntotal))
    if len(dead):
        vectors = np.delete(vectors, dead, axis=0)
    return np.ascontiguousarray(vectors, dtype=np.float32)


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
        compact_fraction: Share of dead (deleted) rows past which a deletion
            compacts the index instead of marking rows dead.
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
        compact_fraction: float = 0.2,
    ) -> None:
        faiss = _faiss()
        self.dim = dim
        self.approximate_above = approximate_above
        self.hnsw_m = hnsw_m
        self.ef_construction = ef_construction
        self.ef_search = ef_search
        self.compact_fraction = compact_fraction
        cpu = faiss.IndexFlatIP(dim)
        self.on_gpu = False
        self.mapped = False  # the vectors are a read-only map of a file (read)
        self._dead = np.zeros(0, dtype=np.int64)  # sorted stored ids of dead rows
        self._erased = True  # whether the dead rows' vectors are zeros yet
        self._selector: tuple[Any, ...] | None = None  # kept alive while in use
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
        """Live rows (dead ones are not counted)."""
        return int(self._index.ntotal) - len(self._dead)

    @property
    def dead_rows(self) -> np.ndarray:
        """Stored ids of the rows marked dead, ascending (persisted with the index)."""
        return self._dead

    def _stored(self, rows: np.ndarray) -> np.ndarray:
        """Stored ids of live row ids (row ids skip dead rows)."""
        if not len(self._dead):
            return rows
        shifted = self._dead - np.arange(len(self._dead), dtype=np.int64)
        return rows + np.searchsorted(shifted, rows, side="right")

    def _live(self, stored: np.ndarray) -> np.ndarray:
        """Row ids of live stored ids."""
        if not len(self._dead):
            return stored
        return stored - np.searchsorted(self._dead, stored)

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
                hnsw.add(_live_vectors(self._index, self._dead))
            self._dead = np.zeros(0, dtype=np.int64)
            self._selector = None
            logger.info(
                "vector index past %d vectors: switching to HNSW (M=%d)",
                limit,
                self.hnsw_m,
            )
            self._index = hnsw
            self.mapped = False
        self._own()
        self._index.add(rows)
        self._selector = None  # sized to the stored rows

    def _own(self) -> None:
        """A mapped file is read-only: take a copy before changing the index."""
        if self.mapped:
            faiss = _faiss()
            self._index = faiss.deserialize_index(faiss.serialize_index(self._index))
            self.mapped = False
        self._erase()

    def _erase(self) -> None:
        """Overwrite the dead rows' vectors with zeros (an owned CPU index only)."""
        if self._erased or self.mapped or self.on_gpu:
            return
        faiss = _faiss()
        flat = self._index
        if not isinstance(flat, faiss.IndexFlat):
            flat = faiss.downcast_index(self._index.storage)
        total = int(flat.ntotal)
        stored = faiss.rev_swig_ptr(flat.get_xb(), total * self.dim)
        stored.reshape(total, self.dim)[self._dead] = 0.0
        self._erased = True

    def remove(self, rows: np.ndarray) -> None:
        """Delete rows; the rows after each deleted one move up (order kept).

        The rows are marked dead: their vectors are overwritten with zeros (at
        once, or, while the index is a read-only map of its file, when it is
        next written or changed) and no search returns them. Past
        ``compact_fraction`` dead rows the index is compacted: an exact one
        deletes them in place, an HNSW graph is built again from the live rows.
        A GPU index is refilled from its live rows at once.

        Raises:
            IndexError: for a row id outside the index.
        """
        rows = np.unique(np.asarray(rows, dtype=np.int64))
        if not len(rows):
            return
        if rows[0] < 0 or rows[-1] >= len(self):
            raise IndexError(f"row {rows[-1]} is outside an index of {len(self)} rows")
        dead = np.union1d(self._dead, self._stored(rows))
        self._selector = None
        if self.on_gpu or len(dead) > self.compact_fraction * self._index.ntotal:
            self._compact(dead)
            return
        self._dead, self._erased = dead, False
        self._erase()

    def _compact(self, dead: np.ndarray) -> None:
        """Delete the dead rows for good."""
        faiss = _faiss()
        self._dead = np.zeros(0, dtype=np.int64)
        self._erased = True
        if isinstance(self._index, faiss.IndexFlat):
            self._own()
            self._index.remove_ids(faiss.IDSelectorBatch(dead))
            return
        vectors = _live_vectors(self._index, dead)
        if self.approximate:  # a new graph: a mapped one is left as it is
            self._index = self._hnsw()
            self.mapped = False
        else:  # a GPU index: emptied and refilled
            self._index.reset()
        if len(vectors):
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    def _skip_dead(self) -> Any:
        """A faiss selector of the live rows (None when none is dead)."""
        if not len(self._dead):
            return None
        if self._selector is None:
            faiss = _faiss()
            total = int(self._index.ntotal)
            bits = np.zeros((total + 7) // 8, dtype=np.uint8)
            np.bitwise_or.at(
                bits, self._dead >> 3, (1 << (self._dead & 7)).astype(np.uint8)
            )
            dead = faiss.IDSelectorBitmap(total, faiss.swig_ptr(bits))
            self._selector = (bits, dead, faiss.IDSelectorNot(dead))
        return self._selector[2]

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k scores and row ids for one query vector."""
        k = min(k, len(self))
        if k <= 0:
            return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64)
        scores, rows = self._search(
            np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k
        )
        keep = rows[0] >= 0
        return scores[0][keep], self._live(rows[0][keep])

    def _search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Scores and stored ids (-1 past the last hit) of the top-k live rows."""
        faiss = _faiss()
        skip = self._skip_dead()
        if self.approximate:  # per call: concurrent searches share the graph
            params = faiss.SearchParametersHNSW()
            params.efSearch = max(self.ef_search, k)
        elif skip is not None:
            params = faiss.SearchParameters()
        else:
            return self._index.search(queries, k)
        if skip is not None:
            params.sel = skip
        return self._index.search(queries, k, params=params)

    def search_many(self, queries: np.ndarray, k: int) -> list[list[tuple[float, int]]]:
        """Top-k (score, row) pairs for each of several query vectors, one call."""
        k = min(k, len(self))
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        scores, rows = self._search(np.ascontiguousarray(queries, dtype=np.float32), k)
        out: list[list[tuple[float, int]]] = []
        for srow, rrow in zip(scores, rows, strict=True):
            keep = rrow >= 0
            live = self._live(rrow[keep])
            out.append(
                [(float(s), int(r)) for s, r in zip(srow[keep], live, strict=True)]
            )
        return out

    def reconstruct(self, rows: list[int]) -> np.ndarray:
        """The stored vectors of some rows."""
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        stored = self._stored(np.asarray(rows, dtype=np.int64))
        return np.stack([self._index.reconstruct(int(r)) for r in stored])

    # -- persistence ---------------------------------------------------------
    def write(self, path: Path) -> None:
        """Write the index (a GPU index is written as its CPU copy).

        Dead rows are written as zero vectors; :attr:`dead_rows` says which
        they are, and :meth:`read` takes them back.
        """
        faiss = _faiss()
        if not self._erased:
            self._own()  # a mapped index still holds the dead rows' vectors
        index = faiss.index_gpu_to_cpu(self._index) if self.on_gpu else self._index
        faiss.write_index(index, str(path))

    @classmethod
    def read(
        cls,
        path: Path,
        *,
        mmap: bool = True,
        dead: np.ndarray | None = None,
        **options: Any,
    ) -> VectorIndex:
        """An index written by :meth:`write`, with this process's options.

        With ``mmap`` the vectors are mapped from the file rather than read:
        opening costs no time in the index's size, and pages are read as
        searches touch them. The first :meth:`add` makes an owned copy.
        ``dead`` is the :attr:`dead_rows` it was written with.

        Raises:
            ValueError: for dead rows that are not ascending ids of the index.
        """
        faiss = _faiss()
        flag = getattr(faiss, "IO_FLAG_MMAP_IFC", 0) if mmap else 0
        stored = faiss.read_index(str(path), flag)
        out = cls(int(stored.d), **options)
        dead = np.zeros(0, np.int64) if dead is None else np.asarray(dead, np.int64)
        if dead.ndim != 1 or (
            len(dead)
            and (dead[0] < 0 or dead[-1] >= stored.ntotal or np.any(np.diff(dead) <= 0))
        ):
            raise ValueError(f"the dead rows of {path.name} do not match it")
        if isinstance(stored, faiss.IndexFlat) or out.on_gpu:
            limit = out.approximate_above
            if out.on_gpu or (limit is not None and stored.ntotal - len(dead) > limit):
                vectors = _live_vectors(stored, dead)
                if len(vectors):  # to the GPU, or past the threshold: to HNSW
                    out.add(vectors)
                return out
        else:  # an HNSW graph: kept as it is
            stored.hnsw.efSearch = out.ef_search
        out._index = stored
        out.mapped = bool(flag)
        out._dead = dead  # written as zeros: already erased
        return out
