"""A lexical index beside the vectors: BM25 over event texts.

Names, dates, numbers and rare words are what a sentence embedding blurs and
what word matching catches, so event search combines the two
(:mod:`~langgraph_adamm.retrieval.search`). The ranker is BM25 with Lucene's
idf, ``ln(1 + (N - df + 0.5) / (df + 0.5))``: unlike Robertson's original idf
it never goes negative, so a word found in most rounds ("today", a speaker's
name in a two-person chat) adds a little instead of pushing matching rounds
below rounds that lack it. ``k1 = 1.2`` and ``b = 0.75``, the usual defaults.

Postings are held in segments sorted by term (see :class:`LexicalIndex`).
Removing documents drops their postings and the words no remaining document
holds, so a forgotten string leaves no trace in the index or in its file.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_WORD = re.compile(r"[^\W_]+(?:[.,:/-][^\W_]+)*")
"""A run of letters and digits, with joiners kept between two of them: "7.5",
"2023-05-08", "1,500", "10:30", "B12" stay one token (their parts are added)."""
_JOINERS = re.compile(r"[.,:/-]")
_POSSESSIVE = re.compile(r"'s\b")
_CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+"
)
"""Scripts written without spaces between words (kana, Han, Hangul): their
runs are indexed as character pairs rather than as one long "word"."""

ENGLISH_STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because
    been before being below between both but by can could did do does doing down
    during each few for from further had has have having he her here hers herself
    him himself his how i if in into is it its itself just me more most my myself
    no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then
    there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours
    yourself yourselves""".split()
)
"""Function words only. Words that carry a question's meaning ("first",
"last", "before", numbers) are kept; "before" and "after" are listed because
they name an order, which matching on words cannot use."""


_LABELS = re.compile(
    r"^(?:User: |Assistant: |\[(?:Text in image|Image) [^\]\n]*\] )", re.M
)


def lexical_text(text: str) -> str:
    """A round's text (as ``round_text`` writes it) as its words are indexed.

    Without the role labels and image markers that every round shares.
    """
    return _LABELS.sub("", text)


def fold(text: str) -> str:
    """Lower case without accents: "Café Zoë" and "cafe zoe" are the same words."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    return _NON_ASCII.sub(_drop_combining, decomposed).casefold()


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _drop_combining(match: re.Match[str]) -> str:
    """A character kept unless it is a combining mark (an accent taken off)."""
    c = match.group()
    return "" if unicodedata.combining(c) else c


def tokenize(
    text: str, *, stop_words: frozenset[str] | None = ENGLISH_STOP_WORDS
) -> list[str]:
    """The index terms of a text.

    Case and accents are folded; a possessive "'s" is dropped and other
    apostrophes joined ("don't" is "dont"); a joined token ("2023-05-08",
    "7.5", "$1,500" as "1,500") is kept whole and its parts added, so "May 8"
    and "8 May" share terms and "7.5" does not match "75"; kana, Han and Hangul
    runs become overlapping character pairs. Stop words are dropped when a
    list is given.
    """
    folded = _POSSESSIVE.sub("", fold(text)).replace("'", "")
    out: list[str] = []
    for word in _WORD.findall(folded):
        if word.isascii() and not _JOINERS.search(word):
            pieces: Iterable[str] = (word,)  # the common case, kept cheap
        else:
            pieces = _pieces(word)
        for piece in pieces:
            if stop_words is None or piece not in stop_words:
                out.append(piece)
    return out


def _pieces(word: str) -> Iterable[str]:
    if _CJK.search(word):
        for part in _CJK.split(word):  # letters around a run (rare: "Q3季度")
            if part:
                yield from _pieces(part)
        for run in _CJK.findall(word):
            if len(run) == 1:
                yield run
            yield from (run[i : i + 2] for i in range(len(run) - 1))
        return
    yield word
    if _JOINERS.search(word):
        yield from (p for p in _JOINERS.split(word) if p)


@dataclass(frozen=True)
class BM25Params:
    """BM25's saturation (``k1``) and length normalisation (``b``)."""

    k1: float = 1.2
    b: float = 0.75


@dataclass
class _Segment:
    """Postings of some documents, by term.

    ``docs[indptr[t]:indptr[t + 1]]`` hold term ``t`` (terms past the end of
    ``indptr`` have none here).
    """

    indptr: np.ndarray
    docs: np.ndarray
    tf: np.ndarray

    @property
    def size(self) -> int:
        return len(self.docs)

    def postings(self, tid: int) -> tuple[np.ndarray, np.ndarray]:
        if tid + 1 >= len(self.indptr):
            return self.docs[:0], self.tf[:0]
        lo, hi = self.indptr[tid], self.indptr[tid + 1]
        return self.docs[lo:hi], self.tf[lo:hi]

    def coo(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        counts = np.diff(self.indptr)
        terms = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
        return terms, self.docs, self.tf

    @classmethod
    def of(
        cls, terms: np.ndarray, docs: np.ndarray, tfs: np.ndarray, vocabulary: int
    ) -> _Segment:
        order = np.lexsort((docs, terms))
        counts = np.bincount(terms, minlength=vocabulary)
        return cls(
            np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
            docs[order].astype(np.int32),
            tfs[order].astype(np.int32),
        )


class LexicalIndex:
    """BM25 over documents at positions 0..n-1, grown and shrunk in place.

    Postings are kept in segments, each sorted by term: a batch of added
    documents is a new segment, and two neighbouring segments merge once the
    newer is at least half the size of the older, so there are about
    ``log2(n / batch)`` of them and each posting is re-sorted ``O(log n)``
    times as the index grows (no full rebuild per batch).

    Args:
        params: BM25's ``k1`` and ``b``.
        stop_words: Words left out of documents and queries (None: none).
    """

    FILE_FORMAT = 1

    def __init__(
        self,
        params: BM25Params | None = None,
        *,
        stop_words: frozenset[str] | None = ENGLISH_STOP_WORDS,
    ) -> None:
        self.params = params or BM25Params()
        self.stop_words = stop_words
        self._vocab: dict[str, int] = {}
        self._terms: list[str] = []
        self._doc_len = np.zeros(0, dtype=np.int32)
        self._df = np.zeros(0, dtype=np.int64)
        self._segments: list[_Segment] = []

    def __len__(self) -> int:
        return len(self._doc_len)

    @property
    def vocabulary_size(self) -> int:
        """Distinct terms held."""
        return len(self._terms)

    @property
    def postings(self) -> int:
        """(term, document) pairs held."""
        return sum(s.size for s in self._segments)

    def terms(self) -> list[str]:
        """Every term held (for checks that a forgotten word is gone)."""
        return list(self._terms)

    def tokens(self, text: str) -> list[str]:
        """The terms of a text, as this index reads documents and queries."""
        return tokenize(text, stop_words=self.stop_words)

    # -- growing and shrinking ----------------------------------------------
    def add(self, texts: Sequence[str]) -> None:
        """Append documents (positions ``len(self)`` onwards)."""
        start = len(self)
        docs: list[int] = []
        terms: list[int] = []
        tfs: list[int] = []
        lengths = np.zeros(len(texts), dtype=np.int32)
        vocab = self._vocab
        for j, text in enumerate(texts):
            tokens = self.tokens(text or "")
            lengths[j] = len(tokens)
            for term, tf in Counter(tokens).items():
                tid = vocab.get(term)
                if tid is None:
                    tid = vocab[term] = len(self._terms)
                    self._terms.append(term)
                docs.append(start + j)
                terms.append(tid)
                tfs.append(tf)
        self._doc_len = np.concatenate([self._doc_len, lengths])
        if len(self._terms) > len(self._df):
            grown = np.zeros(len(self._terms), dtype=np.int64)
            grown[: len(self._df)] = self._df
            self._df = grown
        if not docs:
            return
        t = np.asarray(terms, dtype=np.int32)
        np.add.at(self._df, t, 1)
        self._segments.append(
            _Segment.of(t, np.asarray(docs), np.asarray(tfs), len(self._terms))
        )
        while (
            len(self._segments) > 1
            and self._segments[-1].size * 2 >= self._segments[-2].size
        ):
            newer = self._segments.pop()
            self._segments[-1] = self._merged([self._segments[-1], newer])

    def _merged(self, segments: Sequence[_Segment]) -> _Segment:
        empty = np.zeros(0, dtype=np.int32)
        parts = [s.coo() for s in segments]
        return _Segment.of(
            np.concatenate([empty] + [p[0] for p in parts]),
            np.concatenate([empty] + [p[1] for p in parts]),
            np.concatenate([empty] + [p[2] for p in parts]),
            len(self._terms),
        )

    def remove(self, positions: Sequence[int] | np.ndarray) -> None:
        """Drop documents; later ones move down, as the events do.

        Their postings go, and so does every word no other document holds.
        """
        gone = np.unique(np.asarray(positions, dtype=np.int64))
        if not gone.size:
            return
        if gone[0] < 0 or gone[-1] >= len(self):
            raise IndexError("a removed position is outside the lexical index")
        terms, docs, tfs = self._merged(self._segments).coo()
        keep = ~np.isin(docs, gone)
        terms, docs, tfs = terms[keep], docs[keep], tfs[keep]
        docs = docs - np.searchsorted(gone, docs)  # shift past the removed
        self._doc_len = np.delete(self._doc_len, gone)
        used = np.zeros(len(self._terms), dtype=bool)
        used[terms] = True
        new_id = (np.cumsum(used) - 1).astype(np.int32)
        self._terms = [t for t, u in zip(self._terms, used, strict=True) if u]
        self._vocab = {t: i for i, t in enumerate(self._terms)}
        one = _Segment.of(new_id[terms], docs, tfs, len(self._terms))
        self._segments = [one] if one.size else []
        self._df = np.diff(one.indptr).astype(np.int64)

    # -- search ---------------------------------------------------------------
    def scores(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        """Documents holding any query term, and their BM25 scores.

        A term repeated in the query counts once per repetition, as in BM25's
        query-term frequency.
        """
        n = len(self)
        counts = Counter(t for t in self.tokens(query) if t in self._vocab)
        if not n or not counts:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        k1, b = self.params.k1, self.params.b
        lengths = self._doc_len
        avg = float(lengths.mean()) or 1.0
        acc = np.zeros(n)
        for term, qtf in counts.items():
            tid = self._vocab[term]
            df = float(self._df[tid])
            idf = np.log1p((n - df + 0.5) / (df + 0.5))
            for segment in self._segments:
                docs, tf_int = segment.postings(tid)
                if not docs.size:
                    continue
                tf = tf_int.astype(np.float64)
                norm = k1 * (1 - b + b * lengths[docs] / avg)
                acc[docs] += qtf * idf * tf * (k1 + 1) / (tf + norm)
        found = np.flatnonzero(acc > 0)
        return found, acc[found]

    def ceiling(self, query: str) -> float:
        """BM25's bound for a query: each term's ``idf * (k1 + 1)``, summed.

        The score of a document holding every query term without limit:
        dividing by it puts scores on a 0-1 scale that does not depend on the
        other hits.
        """
        n = len(self)
        total = 0.0
        for term, qtf in Counter(self.tokens(query)).items():
            tid = self._vocab.get(term)
            if tid is not None and n:
                df = float(self._df[tid])
                total += qtf * np.log1p((n - df + 0.5) / (df + 0.5))
        return total * (self.params.k1 + 1)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """The ``k`` best documents (position, score), best first; ties by position."""
        docs, scores = self.scores(query)
        if not docs.size:
            return []
        if docs.size > k:
            part = np.argpartition(-scores, k - 1)[:k]
            docs, scores = docs[part], scores[part]
        order = np.lexsort((docs, -scores))
        return [(int(docs[i]), float(scores[i])) for i in order]

    # -- files ------------------------------------------------------------------
    def write(self, path: Path) -> None:
        """Save the index to one ``.npz`` file (compressed first)."""
        seg = self._merged(self._segments)
        self._segments = [seg] if seg.size else []
        vocab = "\n".join(self._terms).encode("utf-8")
        with open(path, "wb") as f:
            np.savez(
                f,
                format=np.asarray([self.FILE_FORMAT]),
                params=np.asarray([self.params.k1, self.params.b]),
                stop_words=np.frombuffer(
                    "\n".join(sorted(self.stop_words or ())).encode("utf-8"),
                    dtype=np.uint8,
                ),
                vocab=np.frombuffer(vocab, dtype=np.uint8),
                doc_len=self._doc_len,
                indptr=seg.indptr,
                docs=seg.docs,
                tf=seg.tf,
            )

    @classmethod
    def read(
        cls,
        path: Path,
        params: BM25Params | None = None,
        *,
        stop_words: frozenset[str] | None = ENGLISH_STOP_WORDS,
    ) -> LexicalIndex:
        """An index written by :meth:`write`.

        Raises ValueError when it was made with other settings or does not
        hold together.
        """
        index = cls(params, stop_words=stop_words)
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"][0]) != cls.FILE_FORMAT:
                raise ValueError(f"{path.name}: another lexical index format")
            if tuple(data["params"]) != (index.params.k1, index.params.b):
                raise ValueError(f"{path.name}: other BM25 parameters")
            stored_stops = bytes(data["stop_words"]).decode("utf-8")
            if stored_stops != "\n".join(sorted(stop_words or ())):
                raise ValueError(f"{path.name}: another stop-word list")
            raw = bytes(data["vocab"]).decode("utf-8")
            index._terms = raw.split("\n") if raw else []
            index._doc_len = data["doc_len"].astype(np.int32)
            seg = _Segment(
                data["indptr"].astype(np.int64),
                data["docs"].astype(np.int32),
                data["tf"].astype(np.int32),
            )
        index._vocab = {t: i for i, t in enumerate(index._terms)}
        index._df = np.diff(seg.indptr)
        if (
            len(seg.indptr) != len(index._terms) + 1
            or len(index._vocab) != len(index._terms)
            or seg.indptr[0] != 0
            or np.any(index._df < 0)
            or seg.indptr[-1] != seg.size
            or len(seg.tf) != seg.size
            or (seg.size and (seg.docs.min() < 0 or seg.docs.max() >= len(index)))
        ):
            raise ValueError(f"{path.name} does not hold together")
        index._segments = [seg] if seg.size else []
        return index


__all__ = [
    "ENGLISH_STOP_WORDS",
    "BM25Params",
    "LexicalIndex",
    "fold",
    "lexical_text",
    "tokenize",
]
