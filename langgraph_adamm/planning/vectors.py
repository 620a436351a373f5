"""Text vectors for planning, from what is kept before the text model.

A rule-planned question embeds short texts: its own words and the memory's
column names. :class:`KeptVectors` answers each from, in order, the vectors
the memory stored for its column names, the word lexicon beside the model's
ONNX export, and only then the text model, loaded on its first miss. The
vectors are the model's own either way, so plans do not change; an analytic
question whose words are all in the lexicon loads no model at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import numpy as np

from langgraph_adamm.planning.text import words

Encode = Callable[[list[str]], np.ndarray]


class KeptVectors:
    """An encoder that looks texts up before calling the model.

    Args:
        stored: Vectors the memory stored, by text.
        word: A lexicon lookup (None when there is none), text -> vector or None.
        encode: The model's encoder, called for the texts neither holds.
    """

    def __init__(
        self,
        stored: Mapping[str, np.ndarray],
        word: Callable[[str], np.ndarray | None] | None,
        encode: Encode,
    ) -> None:
        self.stored = stored
        self.word = word
        self.encode = encode
        self.misses = 0
        """Texts the model was asked for (for tests and benchmarks)."""

    def __call__(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of ``texts``, one row each."""
        found: dict[str, np.ndarray] = {}
        missing: list[str] = []
        for text in dict.fromkeys(texts):
            vec = self.stored.get(text)
            if vec is None and self.word is not None:
                vec = self.word(text)
            if vec is None:
                missing.append(text)
            else:
                found[text] = vec
        if missing:
            self.misses += len(missing)
            for text, vec in zip(missing, self.encode(missing), strict=True):
                found[text] = np.asarray(vec, dtype=np.float32)
        return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)


def encoder_key(encoder: object) -> str | None:
    """How stored vectors name the encoder that made them (None: not stored).

    The library's sentence-transformers encoder: its model and precision
    (torch and fp32 ONNX give the same vectors; int8 others). Another
    encoder object has no name that would tell a later process it is the same.
    """
    from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder

    if not isinstance(encoder, SentenceTransformerEncoder):
        return None
    precision = "int8" if encoder.backend == "onnx-int8" else "fp32"
    return f"{encoder.name}|{precision}"


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _Table(Protocol):
    @property
    def columns(self) -> Sequence[_Named]: ...


def column_phrases(tables: Sequence[_Table]) -> list[str]:
    """The texts a rule planner embeds for a memory's tables.

    Each column's name as words ("total sleep"), as synonyms are looked for,
    and each table's column names together (what a counted noun is compared
    with: :func:`~langgraph_adamm.planning.matching.columns_text`). Tables
    are the analytic memory's or their cards: both list the same columns.
    """
    out: dict[str, None] = {}
    for table in tables:
        names = [" ".join(words(col.name)) for col in table.columns]
        out.update(dict.fromkeys(n for n in names if n))
        joined = " ".join(names)  # as columns_text joins them
        if joined:
            out[joined] = None
    return list(out)
